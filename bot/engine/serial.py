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
from functools import cache, partial
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
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is Card or kind is Tile:
        return value.code
    if kind is list or kind is tuple:
        return [to_data(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card | Tile):
        return value.code
    if isinstance(value, Face):
        return [value.rank, value.suit]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_data(getattr(value, name)) for name in _init_fields(type(value))}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    raise TypeError(f"cannot serialise {type(value).__name__}")


_PLAIN = frozenset({type(None), bool, int, float, str})
"""Types written as they are (exactly these: an ``IntEnum`` is written by value)."""


@cache
def _init_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(tp: Any, data: JSON) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_data` output."""
    return _decoder(tp)(data)


Decoder = typing.Callable[[JSON], Any]


@cache
def _decoder(tp: Any) -> Decoder:
    """The function that rebuilds values of type ``tp``, worked out once per type.

    Snapshots are read on every restart and by every replay, and most of a
    snapshot is a few types repeated (cards, lists of cards, hand results), so
    the type hints are read once here rather than once per value.
    """
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return _same
    if origin in (Union, types.UnionType):
        return _union_decoder(args)
    if origin is Literal:
        return partial(_literal, args)
    if origin is list:
        return partial(_list, _decoder(args[0]))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return partial(_tuple, _decoder(args[0]))
        return partial(_fixed_tuple, tuple(_decoder(a) for a in args))
    if origin is dict:
        return partial(_dict, _decoder(args[1]))
    if tp in (Card, Tile):
        return partial(_piece, tp)
    if tp is Face:
        return _face
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return partial(_dataclass, tp)
    if tp in (int, str, bool, float):
        return partial(_scalar, tp)
    if tp is type(None):
        return _none
    return partial(_unknown, tp)


def _same(data: JSON) -> Any:
    return data


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    optional = type(None) in args
    if set(args) - {type(None)} == {Card, Tile}:
        return lambda data: None if data is None and optional else piece_from_code(data)
    options = [_decoder(a) for a in args if a is not type(None)]

    def decode(data: JSON) -> Any:
        if data is None and optional:
            return None
        errors = []
        for option in options:
            try:
                return option(data)
            except (TypeError, ValueError, KeyError) as error:
                errors.append(error)
        raise ValueError(f"{data!r} matches none of {args}: {errors}")

    return decode


def _literal(allowed: tuple[Any, ...], data: JSON) -> Any:
    if data not in allowed:
        raise ValueError(f"{data!r} is not one of {allowed}")
    return data


def _list(item: Decoder, data: JSON) -> list[Any]:
    return [item(v) for v in data]


def _tuple(item: Decoder, data: JSON) -> tuple[Any, ...]:
    return tuple(item(v) for v in data)


def _fixed_tuple(items: tuple[Decoder, ...], data: JSON) -> tuple[Any, ...]:
    return tuple(d(v) for d, v in zip(items, data, strict=True))


def _dict(value: Decoder, data: JSON) -> dict[str, Any]:
    return {k: value(v) for k, v in data.items()}


def _piece(tp: type, data: JSON) -> Card | Tile:
    piece = piece_from_code(data)
    if not isinstance(piece, tp):
        raise ValueError(f"{data!r} is not a {tp.__name__}")
    return piece


def _face(data: JSON) -> Face:
    return Face(int(data[0]), int(data[1]))


@cache
def _field_decoders(tp: type) -> tuple[tuple[str, Decoder], ...]:
    hints = _hints(tp)
    return tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(tp) if f.init)


def _dataclass(tp: type, data: JSON) -> Any:
    return tp(**{name: decode(data[name]) for name, decode in _field_decoders(tp)
                 if name in data})


def _scalar(tp: type, data: JSON) -> Any:
    if tp is float and isinstance(data, int):
        return float(data)
    if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
        raise TypeError(f"{data!r} is not {tp.__name__}")
    return data


def _none(data: JSON) -> None:
    if data is not None:
        raise TypeError(f"{data!r} is not None")
    return None


def _unknown(tp: Any, data: JSON) -> Any:
    raise TypeError(f"cannot deserialise into {tp!r}")
