"""The game protocol every variant follows.

A game is a value. ``apply(move)`` never changes the game it is called on: it
returns a new game and the events that happened (for messages). A refused
move raises :class:`IllegalMove` and changes nothing. Randomness comes from
the :class:`Rng` inside the state, so a seed plus the moves replays exactly,
and ``from_json(to_json(g)) == g`` at every step.

Variants subclass :class:`Game` (see ``variants/``), declare their options as
an :class:`Options` dataclass and their moves as :class:`Move` dataclasses.
``Game`` is generic over its piece type: ``class StraightGame(Game[Card])``,
a tile game ``Game[Tile]``; moves shared between variants carry ``Card | Tile``
and a variant narrows them with :meth:`Game.own` / :meth:`Game.own_all`.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from abc import ABC, abstractmethod
from collections import Counter
from collections import abc as abc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, Self, TypeGuard, TypeVar, get_args, get_origin

from .cards import Card, Piece, Tile
from .errors import IllegalMove, InvalidOptions, NotYourTurn
from .i18n import joined, or_list, tr
from .notation import CARDS, TILES, Notation, PieceRef, take_from_hand
from .rng import Rng
from .serial import from_data, to_data
from .views import HandView, ResultView, TableView

# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


def option(default: Any, *, help: str, choices: tuple[str, ...] | None = None,
           bounds: tuple[int, int] | None = None, also: tuple[int, ...] = (),
           text: Callable[[str], Any] | None = None) -> Any:
    """Declare one game option: its default, allowed values and a one-line help.

    ``bounds`` is an inclusive integer range; ``also`` lists extra allowed
    integers outside it (``turn_seconds``: 0 or 10–600). ``text`` makes a free
    text option (kind ``"text"``, e.g. Rummi ``tiers``): the function parses the
    text and raises :class:`InvalidOptions` with a one-line reason when it is malformed.
    """
    return field(default=default, metadata={"help": help, "choices": choices,
                                             "bounds": bounds, "also": also, "text": text})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What the bot needs to offer one option as a typed slash-command parameter."""

    name: str
    kind: str  # "bool", "choice", "int", "text"
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    bounds: tuple[int, int] | None = None
    also: tuple[int, ...] = ()
    optional: bool = False
    """``None`` is allowed (``hands``: none or 1–100)."""
    parse: Callable[[str], Any] | None = None
    """For a ``"text"`` option: its parser, raising :class:`InvalidOptions` when malformed."""


@dataclass(frozen=True)
class Options:
    """Base for a variant's options; fixed when the game is created (STR-38)."""

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        hints = _field_types(cls)
        specs = []
        for f in dataclasses.fields(cls):
            tp = hints[f.name]
            optional = get_origin(tp) is not None and type(None) in get_args(tp)
            base = next((a for a in get_args(tp) if a is not type(None)), tp)
            parse = f.metadata.get("text")
            kind = "bool" if base is bool else "choice" if f.metadata["choices"] else \
                "text" if parse is not None else "int"
            specs.append(OptionSpec(f.name, kind, f.default, f.metadata["help"],
                                    f.metadata["choices"], f.metadata["bounds"],
                                    f.metadata["also"], optional, parse))
        return tuple(specs)

    @classmethod
    def build(cls, **values: Any) -> Self:
        """Options from keyword values, checked; unknown keys and bad values are refused."""
        known = {s.name: s for s in cls.specs()}
        for key, value in values.items():
            spec = known.get(key)
            if spec is None:
                raise InvalidOptions(tr("{key} is not an option of this game", key=key))
            _check_option(spec, value)
        options = cls(**values)
        options.validate()
        return options

    def validate(self) -> None:
        """Every value in range, then the checks between options (:meth:`check_together`)."""
        for spec in self.specs():
            _check_option(spec, getattr(self, spec.name))
        self.check_together()

    def check_together(self) -> None:
        """Refuse combinations of options that are each fine alone (a hook)."""

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {s.name: getattr(self, s.name) for s in self.specs()
                if getattr(self, s.name) != s.default}

    def describe(self) -> str:
        """``aces: high · target: 200`` (defaults left out), or ``standard rules``."""
        changed = self.changed()
        if not changed:
            return tr("standard rules")
        return joined(*(joined(f"{k}:", _show(v), sep=" ") for k, v in changed.items()),
                      sep=" · ")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return tr("on") if value else tr("off")
    return tr("none") if value is None else str(value)


def _field_types(cls: type) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(cls)


def _check_option(spec: OptionSpec, value: Any) -> None:
    name = spec.name
    if value is None:
        if spec.optional:
            return
        raise InvalidOptions(tr("{name} needs a value", name=name))
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOptions(tr("{name} must be true or false", name=name))
    elif spec.kind == "choice":
        if value not in (spec.choices or ()):
            raise InvalidOptions(tr("{name} must be one of {list}",
                                    name=name, list=', '.join(spec.choices or ())))
    elif spec.kind == "text":
        if not isinstance(value, str):
            raise InvalidOptions(tr("{name} must be text", name=name))
        if spec.parse is not None:
            spec.parse(value)  # raises InvalidOptions with a one-line reason
    else:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidOptions(tr("{name} must be a whole number", name=name))
        in_bounds = spec.bounds is not None and spec.bounds[0] <= value <= spec.bounds[1]
        if not (in_bounds or value in spec.also):
            allowed = [str(a) for a in spec.also]
            if spec.bounds is not None:
                allowed.append(f"{spec.bounds[0]}–{spec.bounds[1]}")
            text = or_list(allowed)
            raise InvalidOptions(tr("{name} must be {text}, not {value}",
                                    name=name, text=text, value=value))


# ---------------------------------------------------------------------------
# Moves and events
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Something a seat does. ``kind`` names the move in JSON and in the move log."""

    kind: ClassVar[str] = ""
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **to_data(self)}


@dataclass(frozen=True)
class Timeout(Move):
    """The turn timer expired: the bot plays for the seat by the variant's timeout rule."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for messages.

    ``text`` is public and may name seats as ``{p0}``, ``{p1}`` … (the bot puts
    names in). ``private`` is for ``seat`` alone (e.g. the card drawn from the
    stock) and must never be posted in a channel.
    """

    kind: str
    text: str
    seat: int | None = None
    private: str | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand (deal, game) of a match ended."""

    number: int
    winners: tuple[int, ...]
    points: tuple[int, ...]
    """Score change this hand, per seat, in the variant's units."""
    totals: tuple[int, ...]
    """Cumulative scores after this hand."""
    held: tuple[tuple[Piece, ...], ...]
    notes: tuple[str, ...]
    summary: str


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

P = TypeVar("P", Card, Tile)
"""The kind of piece a game is played with: cards or tiles, never both."""


@dataclass(kw_only=True)
class Game(ABC, Generic[P]):
    """Base class of every variant's state. Subclasses are dataclasses too.

    Parameterise it with the piece type (``Game[Card]``, ``Game[Tile]``) so
    ``hand``, ``inventory`` and ``resolve`` are typed for the variant; an
    unparameterised subclass is ``Game[Any]`` and still works, its piece type
    then read from ``tiles``.
    """

    variant: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    tiles: ClassVar[bool] = False
    piece_type: ClassVar[type[Card] | type[Tile]] = Card
    """The runtime class of ``P``, set for each subclass from ``Game[...]`` or ``tiles``."""
    options_type: ClassVar[type[Options]]
    move_types: ClassVar[tuple[type[Move], ...]]
    lower_is_better: ClassVar[bool] = False
    points_unit: ClassVar[str] = "point"
    """What a result's number counts, as players say it (singular): ``point``, ``chip``."""
    points_scale: ClassVar[int] = 1
    """Stored result units per unit players read (Rummi keeps exact half-chips: 2)."""
    snapshot_version: ClassVar[int] = 1
    """The shape of :meth:`to_json`. A variant whose saved fields change raises it and reads
    the older shapes in :meth:`upgrade_snapshot`, so games saved before still load."""

    options: Options
    players: int
    seed: int
    rng: Rng
    turn_serial: int = 0
    """Counts turn starts; a timer armed for an older turn is stale."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Fix ``piece_type`` from the class's ``Game[...]`` argument, else from ``tiles``.

        A ``Game[Card]`` declaring ``tiles = True`` (or the reverse) is a mistake
        caught here, so :meth:`own` can trust ``piece_type`` to be ``P``.
        """
        super().__init_subclass__(**kwargs)
        declared = _piece_argument(cls)
        piece_type = declared or (Tile if cls.tiles else Card)
        if (piece_type is Tile) != cls.tiles:
            raise TypeError(f"{cls.__name__} is a Game[{piece_type.__name__}], so it must set "
                            f"tiles = {piece_type is Tile}")
        cls.piece_type = piece_type

    # -- creation ---------------------------------------------------------

    @classmethod
    def new(cls, players: int, options: Options | None = None, seed: int = 0) -> Self:
        """A fresh game, first hand dealt. Refuses a bad player count or options."""
        options = options if options is not None else cls.options_type()
        if not isinstance(options, cls.options_type):
            raise InvalidOptions(tr("these options are not for {title}", title=cls.title))
        options.validate()
        if not cls.min_players <= players <= cls.max_players:
            raise InvalidOptions(tr("{title} needs {min_players} to {max_players} players, "
                                    "not {players}",
                                    title=cls.title, min_players=cls.min_players,
                                    max_players=cls.max_players, players=players))
        game = cls(options=options, players=players, seed=seed, rng=Rng.from_seed(seed))
        game._check_setup()
        game._start()
        return game

    def _check_setup(self) -> None:  # a hook; most variants need no check
        """Refuse option combinations that depend on the player count (IND-3)."""

    @abstractmethod
    def _start(self) -> None:
        """Deal the first hand (mutates a brand-new game)."""

    # -- the protocol -----------------------------------------------------

    def apply(self, move: Move) -> tuple[Self, list[Event]]:
        """The game after ``move`` and what happened; raises :class:`IllegalMove`."""
        if not isinstance(move, self.move_types):
            raise IllegalMove(tr("{value} is not a move in {title}",
                                 value=move.kind or type(move).__name__, title=self.title))
        if not 0 <= move.seat < self.players:
            raise IllegalMove(tr("you are not seated in this game"))
        if self.is_over:
            raise IllegalMove(tr("the game is over"))
        new = self.clone()
        events = new._apply(move)
        return new, events

    @abstractmethod
    def _apply(self, move: Move) -> list[Event]:
        """Validate and perform ``move`` on this (already cloned) state."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """The moves ``seat`` may make now (every distinct one the bot could be asked for)."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` when nobody is to move."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """The match has ended."""

    @property
    def turn_seconds(self) -> int:
        return int(getattr(self.options, "turn_seconds", 0))

    def require_turn(self, seat: int) -> None:
        if seat != self.to_move:
            raise NotYourTurn()

    # -- what players see -------------------------------------------------

    @abstractmethod
    def table_view(self) -> TableView:
        """Public information only."""

    @abstractmethod
    def hand_view(self, seat: int) -> HandView:
        """``seat``'s own hand (never shown to anybody else)."""

    @abstractmethod
    def hand(self, seat: int) -> Sequence[P]:
        """The pieces ``seat`` holds."""

    @abstractmethod
    def inventory(self) -> Counter[P]:
        """Every piece of the game wherever it is: hands, piles, table, set aside.

        The same multiset before and after every move (no piece is lost or made):
        the variant contract test checks it for every registered variant.
        """

    @abstractmethod
    def history(self) -> Sequence[HandResult]:
        """Results of the hands played so far."""

    @abstractmethod
    def result_view(self) -> ResultView:
        """The latest hand's result (or the match's, once it is over)."""

    def opening(self) -> Sequence[Event]:
        """What setting up the first hand showed everyone before any move (Tile Rummy's
        first-player draw, TIL-4): told with the first turn. Later hands' set-up comes
        in the events of the move that starts them. Default: nothing."""
        return ()

    def forfeit_move(self, seat: int) -> Move | None:
        """The variant's own way out for a leaving player (Indian drop, Penang Dead…).

        ``None`` when the variant has none: the bot seats a computer instead.
        """
        return None

    def redeal_unseen(self, seat: int, rng: Rng) -> Self:
        """A game ``seat`` cannot tell apart from this one: one sample of what it cannot see.

        Every piece ``seat`` has not seen is dealt afresh, with ``rng``, among the
        places ``seat`` cannot see (other players' hands, the stock, anything set
        aside face down), each place keeping its size; pieces ``seat`` knows to be
        in a hidden place (taken from an open pile and not played since) stay
        there. The copy's own generator is reseeded from ``rng`` too, so future
        shuffles are unknown as well.

        The result depends only on what ``seat`` may see and on ``rng``: the unseen
        pieces are gathered in a canonical order (sorted), never in the order they
        lie in, so two games that differ only in hidden pieces give the same
        sample. Computer players that search (the strong level) start from here,
        which is what keeps them from reading hidden cards.
        """
        raise NotImplementedError(f"{self.title} cannot sample hidden pieces yet")

    @property
    def notation(self) -> Notation:
        return TILES if self.tiles else CARDS

    def check_piece(self, piece: Piece) -> None:  # a hook, fine by default
        """Refuse pieces the variant does not use (STR-3: no jokers). Default: all fine."""

    def resolve(self, seat: int, refs: Sequence[PieceRef],
                shown: Sequence[Piece] | None = None) -> list[P]:
        """Pieces ``seat`` holds for parsed tokens (NOT-5, NOT-7), after variant checks."""
        for ref in refs:
            if ref.piece is not None:
                self.check_piece(ref.piece)
        return self.own_all(take_from_hand(refs, self.hand(seat), shown))

    # -- pieces of this game ------------------------------------------------

    @classmethod
    def is_own(cls, piece: Piece) -> TypeGuard[P]:
        """``piece`` is of the kind this game is played with (a card, or a tile)."""
        return isinstance(piece, cls.piece_type)

    @classmethod
    def own(cls, piece: Piece) -> P:
        """``piece`` as this game's piece type; refuses a tile in a card game and the reverse.

        Moves shared between variants carry ``Card | Tile``, and melds and
        arrangements hold ``Card | Tile``: a variant narrows them here, where
        they enter its rules (a class method, so pure helpers can use it too).
        """
        if not cls.is_own(piece):
            kind = type(piece).__name__.lower()
            noun = cls.piece_type.__name__.lower()
            raise IllegalMove(tr("{card} is a {kind}, and {title} is played with {noun}s: "
                                 "name a {noun}",
                                 card=piece.code, kind=kind, title=cls.title, noun=noun))
        return piece

    @classmethod
    def own_all(cls, pieces: Iterable[Piece]) -> list[P]:
        """Every piece as this game's piece type (:meth:`own`), in order."""
        return [cls.own(p) for p in pieces]

    # -- values -----------------------------------------------------------

    def clone(self) -> Self:
        """A copy that shares only immutable parts (pieces, melds, options, results).

        Every move clones the game, so how to copy each field is worked out once
        per class from its type hints (:func:`_copiers`): ``list[Card]`` is one
        shallow copy, ``list[list[Card]]`` copies the inner lists too, an
        immutable field is shared.
        """
        new = copy.copy(self)
        for name, copier in _copiers(type(self)):
            setattr(new, name, copier(getattr(self, name)))
        return new

    def to_json(self) -> dict[str, Any]:
        data = {"variant": self.variant, **to_data(self)}
        if self.snapshot_version > 1:
            data["version"] = self.snapshot_version
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The game a :meth:`to_json` snapshot holds, of this or an older shape."""
        if data.get("variant", cls.variant) != cls.variant:
            raise ValueError(f"not a {cls.variant} game")
        version = data.get("version", 1)
        if not isinstance(version, int) or not 1 <= version <= cls.snapshot_version:
            raise ValueError(f"a {cls.title} snapshot of version {version!r} cannot be read "
                             f"(this engine reads versions 1 to {cls.snapshot_version})")
        body = {k: v for k, v in data.items() if k not in ("variant", "version")}
        if version < cls.snapshot_version:
            body = cls.upgrade_snapshot(body, version)
        return from_data(cls, body)

    @classmethod
    def upgrade_snapshot(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """The fields of a snapshot saved at an older ``version``, in today's shape (a hook).

        Only a variant that raised :attr:`snapshot_version` has older shapes to read.
        """
        raise ValueError(f"no reader for {cls.title} snapshots of version {version}")

    @classmethod
    def move_from_json(cls, data: dict[str, Any]) -> Move:
        kinds = {m.kind: m for m in cls.move_types}
        body = {k: v for k, v in data.items() if k != "kind"}
        return from_data(kinds[data["kind"]], body)


def _piece_argument(cls: type) -> type[Card] | type[Tile] | None:
    """``Card`` or ``Tile`` from the nearest ``Game[...]`` up the class tree of ``cls``.

    A subclass of a ``Game[Card]`` is a ``Game[Card]`` too.
    """
    for klass in cls.__mro__:
        for base in klass.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is Game:
                (argument,) = get_args(base)
                if argument is Card or argument is Tile:
                    return argument
    return None


Copier = Callable[[Any], Any]


@cache
def _copiers(cls: type) -> tuple[tuple[str, Copier], ...]:
    """(field, how to copy it) for every field of ``cls`` that may hold something mutable."""
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        copier = _copier(hints.get(f.name, Any))
        if copier is not None:
            found.append((f.name, copier))
    return tuple(found)


def _copier(tp: Any) -> Copier | None:
    """How to copy a value of type ``tp`` so that no mutable part is shared; ``None``
    when it is immutable (pieces, tuples, frozen dataclasses, numbers, text).

    Anything the hints do not pin down (``Any``, a type variable, a union holding
    a list) falls back to the run-time copy :func:`_copy_mutable`.
    """
    if tp is Any or isinstance(tp, TypeVar):
        return _copy_mutable
    origin = get_origin(tp) or tp
    args = get_args(tp)
    if origin is list:
        item = _copier(args[0]) if args else _copy_mutable
        if item is None:
            return list.copy
        copy_item: Copier = item
        return lambda value: [copy_item(v) for v in value]
    if origin is dict:
        item = _copier(args[1]) if len(args) == 2 else _copy_mutable
        if item is None:
            return dict.copy
        copy_value: Copier = item
        return lambda value: {k: copy_value(v) for k, v in value.items()}
    if origin is Rng:
        return lambda value: Rng(value.state)
    if origin in (typing.Union, types.UnionType):
        return _copy_mutable if any(_copier(a) is not None for a in args) else None
    if origin is tuple or (isinstance(origin, type) and not issubclass(
            origin, abc.MutableSequence | abc.MutableMapping | abc.MutableSet)):
        return None
    return _copy_mutable


def _copy_mutable(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_mutable(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_mutable(v) for k, v in value.items()}
    if isinstance(value, Rng):
        return Rng(value.state)
    return value
