"""``python -m bot.i18n update`` (extract the template, merge it into every catalog) or
``python -m bot.i18n compile`` (write the ``.mo`` files)."""

from __future__ import annotations

import argparse

from .catalogs import ROOT, compile_all, update


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__)
    parser.add_argument("command", choices=("update", "compile"))
    args = parser.parse_args()
    written = update() if args.command == "update" else compile_all()
    for path in written:
        print(path.relative_to(ROOT))


main()
