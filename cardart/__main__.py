"""``python -m cardart demo DIR [NAME ...]``: write a sample of every picture (or the named
ones) into DIR. The README's results picture: ``python -m cardart demo cardart/examples
results_scripts``."""

from __future__ import annotations

import argparse
from pathlib import Path

from .demo import write_demos


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardart", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="write one sample of every composition")
    demo.add_argument("directory", type=Path)
    demo.add_argument("names", nargs="*", help="only these demos (default: all)")
    args = parser.parse_args(argv)
    try:
        written = write_demos(args.directory, args.names)
    except ValueError as error:
        parser.error(str(error))
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
