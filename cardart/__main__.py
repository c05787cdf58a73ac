"""``python -m cardart demo DIR``: write a sample of every picture into DIR."""

from __future__ import annotations

import argparse
from pathlib import Path

from .demo import write_demos


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardart", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="write one sample of every composition")
    demo.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    for path in write_demos(args.directory):
        print(path)


if __name__ == "__main__":
    main()
