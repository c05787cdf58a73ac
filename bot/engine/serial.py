"""JSON round trips for engine values, driven by type hints.

Game states, moves and options are dataclasses; this module turns them into
plain JSON data and back, so ``from_data(T, to_data(x)) == x``. Pieces are
written as their canonical codes (``"10H"``, ``"R7"``), faces as
``[rank, suit]``, enums by value.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, Literal, Union

from .cards import Card, Face, Tile, card_deck, tile_set

JSON = Any

_PIECES: list[Card | Tile] = [*card_deck(1, 1), *tile_set(1, 1)]
_BY_CODE: dict[str, Card | Tile] = {p.code: p for p in _PIECES}


def piece_from_code(code: str) -> Card | Tile:
    """The piece a canonical code names (card codes and tile codes never collide)."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a canonical card or tile code") from None


def to_data(value: Any) -> JSON:
    """Plain JSON data for an engine value."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card | Tile):
        return value.code
    if isinstance(value, Face):
        return [value.rank, value.suit]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.init}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    raise TypeError(f"cannot serialise {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(tp: Any, data: JSON) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_data` output."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        if set(args) - {type(None)} == {Card, Tile}:
            return piece_from_code(data)
        errors = []
        for option in args:
            if option is type(None):
                continue
            try:
                return from_data(option, data)
            except (TypeError, ValueError, KeyError) as error:
                errors.append(error)
        raise ValueError(f"{data!r} matches none of {args}: {errors}")
    if origin is Literal:
        if data not in args:
            raise ValueError(f"{data!r} is not one of {args}")
        return data
    if origin is list:
        return [from_data(args[0], v) for v in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        return {k: from_data(args[1], v) for k, v in data.items()}
    if tp in (Card, Tile):
        piece = piece_from_code(data)
        if not isinstance(piece, tp):
            raise ValueError(f"{data!r} is not a {tp.__name__}")
        return piece
    if tp is Face:
        return Face(int(data[0]), int(data[1]))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {f.name: from_data(hints[f.name], data[f.name])
                  for f in dataclasses.fields(tp) if f.init and f.name in data}
        return tp(**kwargs)
    if tp in (int, str, bool, float):
        if tp is float and isinstance(data, int):
            return float(data)
        if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
            raise TypeError(f"{data!r} is not {tp.__name__}")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError(f"{data!r} is not None")
        return None
    raise TypeError(f"cannot deserialise into {tp!r}")
