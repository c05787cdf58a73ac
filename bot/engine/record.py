"""Game records: a finished game as a small text file anyone can keep, share and replay.

A record holds what makes a game: the variant, its options, the seed, the players
in seat order and every move in the notation of the rules specs, one line each::

    Rummy game record
    Variant: straight (Straight Rummy)
    Options: {"aces": "low", "hands": 1, ...}
    Seed: 11
    Players: 2
      1. alice
      2. Ada (bot)  · computer
    Moves: 38
    1. alice: draw stock
    2. alice: discard 7H
    ...
    Results:
      1. alice 0 (total 0)
      ...
    Totals: 0, 35

The seed, the options and the moves rebuild the game exactly
(:func:`replay_record`), and the ``Totals`` line (final scores in seat order, in
the unit players read) lets a reader check that they did.

Moves are written by one formatter over the move dataclasses, driven by their
type hints, and read back by one parser (no per-variant code): the kind, then
the first field as the command's main argument, then the other fields as
``name:value`` like a slash command's options (``layoff 9H JK=10H meld:2``,
``take 7H with_cards:8H 9H``). Fields at their default are left out. Pieces are
canonical codes (NOT-3, NOT-9), a joker's stand-in is ``JK=7H`` (NOT-8), melds
in one field are separated by ``|`` (NOT-6), a missing value is ``none`` and a
flag is ``yes`` or ``no``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from .cards import Card, Face, Tile
from .errors import RummyError
from .game import Game, Move, Options
from .i18n import tr
from .notation import CARDS, TILES, Notation, parse_ref
from .serial import to_data

TITLE = "Rummy game record"
MAX_RECORD_CHARS = 2_000_000
"""A record longer than this is refused unread (the longest real games write ~60 kB)."""

NONE_WORD = "none"
FLAG_WORDS = {True: "yes", False: "no"}
NOTE_SEPARATOR = "  · "
"""Between a player's name and what they were (``Ada (bot)  · computer``). Names never
hold two spaces in a row (they are normalised), so the first one starts the note."""

_NAMED = re.compile(r"^([a-z_]+):(.*)$")
_NUMBERED = re.compile(r"^\s*(\d+)\.\s(.*)$")
_KEY = re.compile(r"^([A-Z][a-z]+):\s?(.*)$")


class RecordError(RummyError):
    """A record that cannot be read, or whose moves do not replay: one line saying where."""


# ---------------------------------------------------------------------------
# One move as text
# ---------------------------------------------------------------------------


def format_move(move: Move, notation: Notation) -> str:
    """``discard 7H``, ``meld 7H 8H 9H | 5C 5D 5S``, ``layoff JK=10H meld:2``, ``drop``."""
    words = [move.kind]
    first = next((f.name for f in dataclasses.fields(move) if f.init and f.name != "seat"), None)
    for name, hint, value in _fields(move):
        text = _format_value(hint, value, notation)
        # Only the move's first field goes unnamed: when it is left out (at its default, as
        # Gin's big-gin knock with no card) the next field keeps its name.
        words.append(text if name == first and not _is_flag(hint) else f"{name}:{text}")
    return " ".join(w for w in words if w)


def parse_move(text: str, game: type[Game], seat: int) -> Move:
    """The move ``text`` (as :func:`format_move` writes it) names, made by ``seat``.

    Raises :class:`RecordError` with a one-line reason. Whether the move is legal
    is the game's business, not the parser's.
    """
    kind, _, rest = text.strip().partition(" ")
    kinds = {m.kind: m for m in game.move_types}
    cls = kinds.get(kind)
    if cls is None:
        raise RecordError(tr("{kind} is not a move in {title}",
                             kind=repr(kind), title=game.title))
    hints = _hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init and f.name != "seat"]
    parts: dict[str, list[str]] = {}
    current = names[0] if names and not _is_flag(hints[names[0]]) else None
    for token in rest.split():
        named = _NAMED.match(token)
        if named and named[1] in names:
            current = named[1]
            if current in parts:
                raise RecordError(tr("{kind}: {current} is given twice",
                                     kind=kind, current=current))
            parts[current] = [named[2]] if named[2] else []
        elif current is None:
            raise RecordError(tr("{kind}: {token} belongs to no field",
                                 kind=kind, token=repr(token)))
        else:
            parts.setdefault(current, []).append(token)
    notation = notation_of(game)
    values = {}
    for name, tokens in parts.items():
        try:
            values[name] = _parse_value(hints[name], tokens, notation)
        except (RummyError, ValueError) as error:
            reason = error.message if isinstance(error, RummyError) else str(error)
            raise RecordError(tr("{kind} {name}: {reason}", kind=kind, name=name,
                                 reason=reason)) from None
    try:
        return cls(seat=seat, **values)
    except TypeError:
        missing = [n for n in names if n not in values and _required(cls, n)]
        raise RecordError(tr("{kind} needs {value}",
                             kind=kind, value=', '.join(missing) or 'other values')) from None


def notation_of(game: type[Game]) -> Notation:
    """How a game's pieces are written: cards, or tiles."""
    return TILES if game.tiles else CARDS


def _fields(move: Move) -> list[tuple[str, Any, Any]]:
    """(name, type hint, value) of each field worth writing: not the seat, not a default."""
    hints = _hints(type(move))
    written = []
    for f in dataclasses.fields(move):
        if not f.init or f.name == "seat":
            continue
        value = getattr(move, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        written.append((f.name, hints[f.name], value))
    return written


def _required(cls: type, name: str) -> bool:
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a move class (resolved once per class)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _is_flag(hint: Any) -> bool:
    return hint is bool


def _optional(hint: Any) -> Any | None:
    """``X`` for ``X | None`` (when X is not a piece union), else ``None``."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) < len(typing.get_args(hint)):
            return args[0] if len(args) == 1 else Union[tuple(args)]  # noqa: UP007
    return None


def _is_piece(hint: Any) -> bool:
    if hint in (Card, Tile):
        return True
    return typing.get_origin(hint) in (Union, types.UnionType) and \
        set(typing.get_args(hint)) == {Card, Tile}


def _is_placed(hint: Any) -> bool:
    """``tuple[Card | Tile, Face | None]``: a piece and what it stands for (NOT-8)."""
    args = typing.get_args(hint)
    return typing.get_origin(hint) is tuple and len(args) == 2 and _is_piece(args[0]) \
        and _optional(args[1]) is Face


def _item(hint: Any) -> Any | None:
    """``X`` for ``tuple[X, ...]``, else ``None``."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def _format_value(hint: Any, value: Any, notation: Notation) -> str:
    inner = _optional(hint)
    if inner is not None and not _is_piece(hint):
        return NONE_WORD if value is None else _format_value(inner, value, notation)
    if _is_flag(hint):
        return FLAG_WORDS[bool(value)]
    if _is_piece(hint):
        return str(value.code)
    if _is_placed(hint):
        piece, face = value
        return piece.code if face is None else f"{piece.code}={face.label(notation.tiles)}"
    item = _item(hint)
    if item is not None:
        separator = " | " if _item(item) is not None else " "
        return separator.join(_format_value(item, v, notation) for v in value)
    if hint is int:
        return str(value)
    if hint is str:
        if not value or any(c.isspace() or c in ":|" for c in value):
            raise ValueError(f"{value!r} cannot be written as one word")
        return str(value)
    raise TypeError(f"a record cannot write a {hint!r}")


def _parse_value(hint: Any, tokens: list[str], notation: Notation) -> Any:
    inner = _optional(hint)
    if inner is not None and not _is_piece(hint):
        if tokens == [NONE_WORD]:
            return None
        return _parse_value(inner, tokens, notation)
    item = _item(hint)
    if item is not None:
        if _item(item) is not None:  # melds separated by |
            groups: list[list[str]] = [[]]
            for token in tokens:
                for i, part in enumerate(token.split("|")):
                    if i:
                        groups.append([])
                    if part:
                        groups[-1].append(part)
            if any(not group for group in groups):
                raise ValueError("a meld between two | is empty")
            return tuple(_parse_value(item, group, notation) for group in groups)
        return tuple(_parse_value(item, [token], notation) for token in tokens)
    if len(tokens) != 1:
        raise ValueError(f"one value expected, not {len(tokens)}")
    (token,) = tokens
    if _is_flag(hint):
        flags = {word: flag for flag, word in FLAG_WORDS.items()}
        if token not in flags:
            raise ValueError(f"{token!r} is not yes or no")
        return flags[token]
    if _is_piece(hint) or _is_placed(hint):
        ref = parse_ref(token, notation)
        if ref.piece is None:
            raise ValueError(f"{token!r}: a record names pieces by code, not by position")
        if not _is_placed(hint):
            if ref.stands_for is not None:
                raise ValueError(f"{token!r}: only a piece laid in a meld stands for another")
            return ref.piece
        return ref.piece, ref.stands_for
    if hint is int:
        if not re.fullmatch(r"-?\d{1,9}", token):
            raise ValueError(f"{token!r} is not a whole number")
        return int(token)
    if hint is str:
        return token
    raise TypeError(f"a record cannot read a {hint!r}")


# ---------------------------------------------------------------------------
# The whole record
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordPlayer:
    """One seat: its name, and whether a computer played it (and at which level)."""

    name: str
    computer: bool = False
    level: str | None = None
    left: bool = False
    """A person who left during the game; a computer played the seat from then on."""

    def note(self) -> str:
        if self.left:
            return "left; a computer played on"
        if self.computer:
            return "computer" + (f", level {self.level}" if self.level else "")
        return ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything that makes a game: replaying it rebuilds the game exactly."""

    game: type[Game]
    variant: str
    """The key of the variant (``straight``), as the registry and the store name it."""
    options: Options
    seed: int
    players: tuple[RecordPlayer, ...]
    moves: tuple[Move, ...]
    about: tuple[tuple[str, str], ...] = ()
    """Lines of information only (``Game``, ``Finished``): written, read back, never checked."""
    results: tuple[str, ...] = ()
    """How the game ended, in words (written as given, read back unchecked)."""
    totals: tuple[float, ...] | None = None
    """Final scores by seat in the unit players read; checked by :func:`replay_record`."""

    def new_game(self) -> Game:
        """The game as dealt, before any move."""
        try:
            return self.game.new(len(self.players), self.options, self.seed)
        except RummyError as error:
            raise RecordError(tr("the game cannot be dealt: {message}",
                                 message=error.message)) from None

    def move_line(self, number: int) -> str:
        """``37. bob: discard 7H`` for move ``number`` (1-based)."""
        move = self.moves[number - 1]
        return (f"{number}. {self.players[move.seat].name}: "
                f"{format_move(move, notation_of(self.game))}")


def unique_names(names: Iterable[str]) -> list[str]:
    """Names on one line each and told apart: whitespace folded, duplicates numbered."""
    result: list[str] = []
    for name in names:
        base = " ".join(name.split()) or "player"
        candidate, n = base, 1
        while candidate in result:
            n += 1
            candidate = f"{base} ({n})"
        result.append(candidate)
    return result


def final_totals(game: Game) -> tuple[float, ...]:
    """Final scores by seat as players read them (Rummi's half-chips as chips)."""
    history = game.history()
    totals = history[-1].totals if history else (0,) * game.players
    return tuple(t / game.points_scale for t in totals)


def write_record(record: GameRecord) -> str:
    """The record as text (see the module docstring)."""
    lines = [TITLE, *(f"{key}: {value}" for key, value in record.about),
             f"Variant: {record.variant} ({record.game.title})",
             f"Options: {json.dumps(to_data(record.options), ensure_ascii=False)}",
             f"Seed: {record.seed}",
             f"Players: {len(record.players)}"]
    for seat, player in enumerate(record.players, start=1):
        note = player.note()
        lines.append(f"  {seat}. {player.name}" + (NOTE_SEPARATOR + note if note else ""))
    lines.append(f"Moves: {len(record.moves)}")
    lines += [record.move_line(number) for number in range(1, len(record.moves) + 1)]
    if record.results:
        lines.append("Results:")
        lines += [f"  {line}" for line in record.results]
    if record.totals is not None:
        lines.append("Totals: " + ", ".join(f"{t:g}" for t in record.totals))
    return "\n".join(lines) + "\n"


def read_record(text: str, games: Mapping[str, type[Game]]) -> GameRecord:
    """A record from its text; ``games`` maps variant keys to their game classes.

    Raises :class:`RecordError` naming the line at fault. The moves are read,
    not played: :func:`replay_record` plays them.
    """
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(tr("that record is too long (at most {max_record_chars} characters)",
                             max_record_chars=MAX_RECORD_CHARS))
    lines = text.splitlines()
    if not lines or lines[0].strip() != TITLE:
        raise RecordError(tr("line 1: a game record starts with {title}", title=repr(TITLE)))
    reader = _Reader(lines)
    about: list[tuple[str, str]] = []
    fields: dict[str, str] = {}
    while (line := reader.peek()) is not None and not line.startswith(("Players:", "Moves:")):
        name, value = reader.key()
        if name in ("Variant", "Options", "Seed"):
            fields[name] = value
        elif name in ("Results", "Totals"):
            reader.fail(tr("the players and moves come before the results"))
        else:
            about.append((name, value))
    for name in ("Variant", "Options", "Seed"):
        if name not in fields:
            reader.fail(tr("the record has no {name} line", name=name))
    variant = fields["Variant"].split(" ", 1)[0]
    game = games.get(variant)
    if game is None:
        reader.fail(tr("{variant} is not a variant this bot plays", variant=repr(variant)))
    assert game is not None
    options = _read_options(game, fields["Options"], reader)
    if not re.fullmatch(r"\d{1,40}", fields["Seed"].strip()):
        reader.fail(tr("the seed is not a whole number"))
    players = _read_players(reader)
    moves = _read_moves(reader, game, [p.name for p in players])
    results: list[str] = []
    totals = None
    while reader.peek() is not None:
        name, value = reader.key()
        if name == "Results":
            results += reader.block()
        elif name == "Totals":
            totals = _read_totals(value, len(players), reader)
        else:
            reader.fail(tr("{name} does not belong after the moves", name=name))
    return GameRecord(game, variant, options, int(fields["Seed"]), tuple(players),
                      tuple(moves), tuple(about), tuple(results), totals)


def replay_record(record: GameRecord) -> Game:
    """The game the record's moves lead to; refuses moves that do not replay, and totals
    that do not match (a record edited by hand)."""
    game = record.new_game()
    for number, move in enumerate(record.moves, start=1):
        try:
            game, _ = game.apply(move)
        except RummyError as error:
            raise RecordError(tr("move {number} ({move_line}) does not replay: {message}",
                                 number=number, move_line=record.move_line(number),
                                 message=error.message)) from None
    if not game.is_over:
        raise RecordError(tr("after its {count} moves the game is not over",
                             count=len(record.moves)))
    if record.totals is not None and record.totals != final_totals(game):
        shown = ", ".join(f"{t:g}" for t in final_totals(game))
        raise RecordError(tr("the moves give the totals {shown}, not those the record states",
                             shown=shown))
    return game


class _Reader:
    """Lines of a record, read front to back, with their numbers for error messages."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.at = 1  # line 1 is the title

    def fail(self, reason: str) -> typing.NoReturn:
        raise RecordError(tr("line {at}: {reason}",
                             at=min(self.at, len(self.lines)), reason=reason))

    def peek(self) -> str | None:
        while self.at < len(self.lines) and not self.lines[self.at].strip():
            self.at += 1
        return self.lines[self.at] if self.at < len(self.lines) else None

    def key(self) -> tuple[str, str]:
        """The next ``Key: value`` line, consumed."""
        line = self.peek()
        if line is None:
            self.fail(tr("the record ends too soon"))
        match = _KEY.match(line)
        if match is None:
            self.fail(tr("{short} is not a 'Key: value' line", short=repr(_short(line))))
        self.at += 1
        return match[1], match[2].strip()

    def counted(self, name: str) -> int:
        """The number on the ``Name: N`` line that opens a section, consumed."""
        key, value = self.key()
        if key != name:
            self.fail(tr("the {name} line is missing", name=name))
        if not value.isdigit():
            self.fail(tr("{name}: give their number", name=name))
        return int(value)

    def item(self, number: int, count: int, what: str) -> str:
        """The text of the next line, which must be ``number. text``; consumed."""
        line = self.peek()
        match = _NUMBERED.match(line) if line is not None else None
        if match is None or int(match[1]) != number:
            self.fail(tr("{what} {number} of {count} is missing",
                         what=what, number=number, count=count))
        self.at += 1
        return match[2]

    def block(self) -> list[str]:
        """Indented lines (a results block), consumed."""
        found = []
        while (line := self.peek()) is not None and line[:1].isspace():
            found.append(line.strip())
            self.at += 1
        return found


def _short(line: str) -> str:
    return line if len(line) <= 40 else line[:37] + "…"


def _read_options(game: type[Game], text: str, reader: _Reader) -> Options:
    try:
        values = json.loads(text)
    except json.JSONDecodeError:
        reader.fail(tr("the options are not a JSON object"))
    if not isinstance(values, dict):
        reader.fail(tr("the options are not a JSON object"))
    try:
        return game.options_type.build(**values)
    except RummyError as error:
        reader.fail(tr("options: {message}", message=error.message))
    except TypeError:
        reader.fail(tr("options: a value has the wrong type"))


def _read_players(reader: _Reader) -> list[RecordPlayer]:
    count = reader.counted("Players")
    players = []
    for seat in range(1, count + 1):
        name, _, note = reader.item(seat, count, "player").partition(NOTE_SEPARATOR)
        name = name.strip()
        if not name:
            reader.fail(tr("player {player} has no name", player=seat))
        left = note.startswith("left")
        computer = left or note.startswith("computer")
        level = (note.partition(", level ")[2] or None) if note.startswith("computer") else None
        players.append(RecordPlayer(name, computer, level, left))
    if len({p.name for p in players}) != len(players):
        reader.fail(tr("two players have the same name, so the moves cannot say whose they are"))
    return players


def _read_moves(reader: _Reader, game: type[Game], names: list[str]) -> list[Move]:
    count = reader.counted("Moves")
    longest_first = sorted(range(len(names)), key=lambda s: -len(names[s]))
    moves = []
    for number in range(1, count + 1):
        text = reader.item(number, count, "move")
        seat = next((s for s in longest_first if text.startswith(names[s] + ": ")), None)
        if seat is None:
            reader.fail(tr("move {number}: it does not start with a player's name and ':'",
                           number=number))
        assert seat is not None
        try:
            moves.append(parse_move(text[len(names[seat]) + 2:], game, seat))
        except RecordError as error:
            reader.fail(tr("move {number}: {message}", number=number, message=error.message))
    if (line := reader.peek()) is not None and _NUMBERED.match(line):
        reader.fail(tr("there are more moves than the {count} announced", count=count))
    return moves


def _read_totals(text: str, players: int, reader: _Reader) -> tuple[float, ...]:
    parts = [p.strip() for p in text.split(",")]
    try:
        totals = tuple(float(p) for p in parts)
    except ValueError:
        reader.fail(tr("Totals: give one number per player, separated by commas"))
    if len(totals) != players:
        reader.fail(tr("Totals: {count} numbers for {players} players",
                       count=len(totals), players=players))
    return totals
