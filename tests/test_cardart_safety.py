"""cardart is safe in worker threads and stays out of Discord and the store."""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cardart.demo import DEMOS

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("discord", "aiosqlite", "bot.store", "cogs")


def test_rendering_from_many_threads_gives_the_same_bytes() -> None:
    expected = {name: draw() for name, draw in DEMOS.items()}
    jobs = list(DEMOS.items()) * 4
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda job: (job[0], job[1]()), jobs))
    assert all(png == expected[name] for name, png in results)


def test_threads_racing_to_draw_cold_caches() -> None:
    """In a fresh process every sprite and glyph is drawn while threads contend for it."""
    script = """
import threading
from concurrent.futures import ThreadPoolExecutor
from cardart.demo import DEMOS
start = threading.Barrier(8)
def job(name):
    start.wait()
    return name, DEMOS[name]()
names = sorted(DEMOS)[:8]
with ThreadPoolExecutor(max_workers=8) as pool:
    raced = dict(pool.map(job, names))
print(all(raced[name] == DEMOS[name]() for name in names))
"""
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "True"


def test_importing_cardart_loads_no_discord_or_store() -> None:
    script = ("import sys, cardart, cardart.demo, cardart.__main__\n"
              f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN[:2]!r}"
              f" or m.startswith({FORBIDDEN[2:]!r})))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_cardart_source_imports_only_pillow_and_the_engine() -> None:
    for path in (ROOT / "cardart").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert not module.startswith(FORBIDDEN), f"{path.name} imports {module}"
                assert not module.startswith("bot.") or module.startswith("bot.engine"), \
                    f"{path.name} imports {module}"
