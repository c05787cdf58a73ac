"""The C core of the Tile Rummy table search (``_tilecore.c``); see tilesolver."""

from collections.abc import Sequence

class Stopped(Exception): ...

def programme(
    forced: Sequence[Sequence[int]],
    optional: Sequence[Sequence[int]],
    jf: int,
    jo: int,
    pinned: Sequence[int],
    target: int,
    floor: int,
    deadline: float | None,
) -> tuple[int, list[tuple[list[tuple[int, int, int]], int]]] | None: ...
def fewest_breaks(
    forced: Sequence[Sequence[int]],
    pinned: Sequence[int],
    jf: int,
    groups: Sequence[tuple[int, int, int, Sequence[tuple[int, int]]]],
    bound: int,
    deadline: float | None,
) -> tuple[tuple[int, list[int]] | None, int]: ...
def tables() -> tuple[list[list[int]], list[bool], list[list[bool]]]: ...
