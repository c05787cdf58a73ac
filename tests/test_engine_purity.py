"""The engine is pure: bot/engine imports no Discord, SQLite, Pillow or application code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "bot" / "engine"
FORBIDDEN = ("discord", "aiosqlite", "PIL", "cardart", "cogs")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module)
            elif node.level > 0:
                # Relative imports must stay inside bot/engine.
                depth = len(path.relative_to(ENGINE).parts) - 1
                assert node.level <= depth + 1, f"{path} reaches outside bot/engine"
    return names


def test_engine_modules_import_nothing_from_the_app_or_io_libraries() -> None:
    for path in ENGINE.rglob("*.py"):
        for name in imported_modules(path):
            root = name.split(".")[0]
            assert root not in FORBIDDEN, f"{path.name} imports {name}"
            assert not (root == "bot" and not name.startswith("bot.engine")), \
                f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_io_library() -> None:
    code = ("import sys, bot.engine.variants.straight, bot.engine.variants.indian, "
            "bot.engine.variants.remi, "
            "bot.engine.arrange; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{FORBIDDEN!r} or (m.startswith('bot.') and not m.startswith('bot.engine'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ENGINE.parent.parent)
    assert out.stdout.strip() == "[]"
