"""Tile Rummy (rules TIL-1 … TIL-31, ``shared/rules/60-tiles.md``).

106 tiles; a turn edits a *staged table* (TIL-11) with staging actions that
are refused at once when TIL-12 forbids them; ``done`` checks the staged table
(TIL-13) and commits it, or refuses (``reject``) or costs 3 tiles
(``penalty``); ``draw`` drops it and draws one. Table jokers follow the
``joker_retrieve``, ``joker_locks_meld`` and ``retrieved_joker_new_meld_only``
options (TIL-17 … TIL-19); ``arrange`` asks the exact search in
:mod:`bot.engine.tilesolver` for the table (TIL-20).

Every staged tile carries an *origin* so the rules can tell where it came
from: ``t<n>`` a numbered tile that was in table meld n at the start of the
turn; ``r`` placed from the rack this turn; ``x`` placed from the rack to
release a joker (it can never go back, TIL-12a); ``j<k>`` table joker k not
released; ``f<k>`` table joker k released; ``rj`` a rack joker placed this turn.
"""

from __future__ import annotations

import copy
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import ClassVar

from ..cards import NO_SUIT, TILE_JOKER, Colour, Face, Piece, Tile, tile_set
from ..errors import IllegalMove
from ..game import Event, Game, HandResult, Move, Options, Timeout, option
from ..melds import RUN, TILE_NUMBERS, Meld, MeldRules, read_meld
from ..moves import Done, Draw, Placed, Resume
from ..notation import check_held, remove_pieces
from ..rng import Rng
from ..scoring import best_seats, places
from ..tilesolver import (
    SearchStopped,
    Slot,
    SolveRules,
    StagedMeld,
    TableJoker,
    arrange,
    tile_value,
)
from ..views import HandView, MeldView, Placing, PlayerPanel, ResultView, SeatState, TableView

RACK = 14
"""TIL-5."""
PENALTY_TILES = 3
"""TIL-14, TIL-29."""
AUTO_TIMEOUTS = 3
"""TIL-30."""
ARRANGE_SECONDS = 10.0
"""TIL-20: the search limit."""
RULES = MeldRules(runs=TILE_NUMBERS, set_max=4, jokers=True, tiles=True)
"""TIL-7 … TIL-9."""
NOT_BEFORE_INITIAL = "until your initial meld is made you may only lay new melds from your rack"


@dataclass(frozen=True)
class TilesOptions(Options):
    """The options table of the Tile Rummy spec."""

    initial_meld: int = option(30, bounds=(0, 100), help="minimum total of your first melds")
    joker_retrieve: str = option("replace_from_rack", choices=("free", "replace",
                                                              "replace_from_rack"),
                                 help="how a table joker may be taken")
    joker_locks_meld: bool = option(False, help="a meld with a joker cannot lose tiles")
    retrieved_joker_new_meld_only: bool = option(
        False, help="a released joker only goes into a meld of rack tiles")
    invalid_done: str = option("reject", choices=("reject", "penalty"),
                               help="what an invalid done does")
    turn_seconds: int = option(120, bounds=(20, 600), also=(0,),
                               help="turn timer in seconds; 0 = no timer")
    games: int = option(1, bounds=(1, 20), help="number of games in the match")
    target: int = option(0, bounds=(50, 5000), also=(0,),
                         help="play until a cumulative score reaches it (0 = off)")

    @property
    def solve_rules(self) -> SolveRules:
        return SolveRules(self.initial_meld, self.joker_retrieve, self.joker_locks_meld,
                          self.retrieved_joker_new_meld_only)


# -- moves -------------------------------------------------------------------


@dataclass(frozen=True)
class Play(Move):
    """Put rack tiles into a new staged meld (``meld`` None) or into staged meld ``meld``."""

    kind: ClassVar[str] = "play"
    tiles: tuple[Placed, ...]
    meld: int | None = None


@dataclass(frozen=True)
class MoveTile(Move):
    """Move a staged tile from one meld to another, or to a new meld (``to_meld`` None)."""

    kind: ClassVar[str] = "move"
    tile: Tile
    from_meld: int
    to_meld: int | None = None


@dataclass(frozen=True)
class Split(Move):
    """Split staged meld ``meld``: its first ``at`` tiles stay, the rest form a new meld."""

    kind: ClassVar[str] = "split"
    meld: int
    at: int


@dataclass(frozen=True)
class Release(Move):
    """Release the joker of meld ``meld`` that ``tile`` stands for (TIL-17); the tile comes
    from the rack (``source`` None) or from staged meld ``source``."""

    kind: ClassVar[str] = "release"
    tile: Tile
    meld: int
    source: int | None = None


@dataclass(frozen=True)
class Take(Move):
    """Take a tile placed from the rack this turn back to the rack."""

    kind: ClassVar[str] = "take"
    tile: Tile
    meld: int | None = None


@dataclass(frozen=True)
class Reset(Move):
    """Undo: the staged table becomes the table at the start of the turn again."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Arrange(Move):
    """TIL-20: let the engine place these rack tiles, changing the fewest melds."""

    kind: ClassVar[str] = "arrange"
    tiles: tuple[Tile, ...]


# -- state pieces ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A committed meld: its number (NOT-11) and its tiles with their stand-ins."""

    number: int
    tiles: tuple[Tile, ...]
    faces: tuple[Face, ...]

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(zip(self.tiles, self.faces, strict=True))


@dataclass(frozen=True, slots=True)
class Staged:
    """A staged meld. ``faces[i]`` is a joker's pinned stand-in (named by the player, or kept
    from the table) or None (the engine chooses, NOT-8); numbered tiles have None."""

    number: int
    tiles: tuple[Tile, ...]
    faces: tuple[Face | None, ...]
    origins: tuple[str, ...]

    def items(self) -> list[tuple[Tile, Face | None]]:
        return list(zip(self.tiles, self.faces, strict=True))

    @property
    def codes(self) -> str:
        return " ".join(t.code for t in self.tiles)

    def takes(self, tile: Tile) -> bool:
        """Is the meld with the rack tile ``tile`` added still a valid meld?"""
        grown = Staged(self.number, (*self.tiles, tile), (*self.faces, None),
                       (*self.origins, "r"))
        try:
            read_staged(grown)
        except IllegalMove:
            return False
        return True


def read_staged(meld: Staged) -> Meld:
    """The meld's reading, or IllegalMove. A kept table joker keeps its stand-in while that
    fits (TIL-9); otherwise the engine chooses it again."""
    try:
        return read_meld(meld.items(), RULES)
    except IllegalMove:
        loose = [(t, None if o.startswith("j") else f)
                 for t, f, o in zip(meld.tiles, meld.faces, meld.origins, strict=True)]
        if loose == meld.items():
            raise
        return read_meld(loose, RULES)


def _start_meld(origin: str) -> int | None:
    return int(origin[1:]) if origin.startswith("t") else None


# -- the game ------------------------------------------------------------------


@dataclass(kw_only=True)
class TilesGame(Game[Tile]):
    """A Tile Rummy match: games until ``games`` or ``target`` (TIL-27)."""

    variant: ClassVar[str] = "tiles"
    title: ClassVar[str] = "Tile Rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    tiles: ClassVar[bool] = True
    options_type: ClassVar[type[Options]] = TilesOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Play, MoveTile, Split, Release, Take, Reset,
                                                    Arrange, Done, Draw, Resume, Timeout)

    options: TilesOptions = field(default_factory=TilesOptions)
    # The match.
    scores: list[int] = field(default_factory=list)
    game_number: int = 0
    results: list[HandResult] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    auto: list[bool] = field(default_factory=list)
    # The game in play.
    racks: list[list[Tile]] = field(default_factory=list)
    pool: list[Tile] = field(default_factory=list)
    """Face down; the next tile drawn is the last element."""
    table: list[TableMeld] = field(default_factory=list)
    initial: list[bool] = field(default_factory=list)
    """Made the initial meld (TIL-16)."""
    turn: int = 0
    over: bool = False
    passes: int = 0
    """Consecutive passes (TIL-22)."""
    # The turn in play.
    staged: list[Staged] = field(default_factory=list)
    next_number: int = 1
    drawn: list[Tile | None] = field(default_factory=list)
    """Per seat, the tile drawn most recently, while it is still on the rack (for badges)."""

    # -- set-up -----------------------------------------------------------

    def _start(self) -> None:
        self._start_with([])

    def _start_with(self, events: list[Event]) -> None:
        n = self.players
        self.scores = [0] * n
        self.timeouts = [0] * n
        self.auto = [False] * n
        self._new_game(events)

    def opening(self) -> Sequence[Event]:
        """TIL-4's first-player draw and who plays first, as setting up the first game
        showed them. The set-up depends only on the seed, so it is made again on a fresh
        game rather than kept in the state (the turn itself is told by the turn message)."""
        fresh = type(self)(options=self.options, players=self.players, seed=self.seed,
                           rng=Rng.from_seed(self.seed))
        events: list[Event] = []
        fresh._start_with(events)
        return tuple(e for e in events if e.kind != "turn")

    def _first_player(self, events: list[Event]) -> int:
        """TIL-4: everyone draws one tile; jokers again; ties among the highest draw again."""
        drawers = list(range(self.players))
        while True:
            tiles = tile_set()
            self.rng.shuffle(tiles)
            drawn: dict[int, Tile] = {}
            for seat in drawers:
                tile = tiles.pop()
                while tile.is_joker:
                    events.append(Event("first_draw", f"{{p{seat}}} drew a joker and draws "
                                        "again.", seat))
                    tile = tiles.pop()
                drawn[seat] = tile
            events.append(Event("first_draw", "First-player draw: " + ", ".join(
                f"{{p{s}}} {t.code}" for s, t in drawn.items()) + "."))
            top = max(t.rank for t in drawn.values())
            drawers = [s for s in drawers if drawn[s].rank == top]
            if len(drawers) == 1:
                return drawers[0]
            events.append(Event("first_draw", " and ".join(f"{{p{s}}}" for s in drawers)
                                + f" tie with {top} and draw again."))

    def _new_game(self, events: list[Event]) -> None:
        n = self.players
        self.game_number += 1
        first = self._first_player(events)
        tiles = tile_set()
        self.rng.shuffle(tiles)  # TIL-4: the drawn tiles go back, all reshuffled
        self.racks = [tiles[i * RACK:(i + 1) * RACK] for i in range(n)]
        self.pool = tiles[n * RACK:]
        self.table = []
        self.initial = [False] * n
        self.drawn = [None] * n
        self.passes = 0
        self.over = False
        self.turn = first
        events.append(Event("game_started", f"Game {self.game_number}: {{p{first}}} plays "
                            f"first; {RACK} tiles each, {len(self.pool)} in the pool."))
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self._reset_stage()
        self.turn_serial += 1
        events.append(Event("turn", f"{{p{self.turn}}} to play.", self.turn))

    def _run_auto(self, events: list[Event]) -> None:
        """TIL-30: a seat on auto-play ends its turn at once as draw. Run after every move,
        as a loop rather than recursion, so a table of absent players plays to the end."""
        while not self.over and self.auto[self.turn]:
            self._draw_and_end(events, auto=True)

    def _reset_stage(self) -> None:
        self.staged = []
        for meld in self.table:
            origins = []
            joker = self._jokers_before(meld.number)
            for tile in meld.tiles:
                if tile.is_joker:
                    origins.append(f"j{joker}")
                    joker += 1
                else:
                    origins.append(f"t{meld.number}")
            faces = tuple(f if t.is_joker else None for t, f in zip(meld.tiles, meld.faces,
                                                                   strict=True))
            self.staged.append(Staged(meld.number, meld.tiles, faces, tuple(origins)))
        self.next_number = len(self.table) + 1

    def _jokers_before(self, number: int) -> int:
        return sum(1 for m in self.table if m.number < number for t in m.tiles if t.is_joker)

    # -- the protocol -----------------------------------------------------

    def clone(self) -> TilesGame:
        """A copy sharing only immutable parts; faster than the generic deep list copy
        (every list here holds immutable values, racks one level deeper)."""
        new = copy.copy(self)
        for name in ("scores", "results", "timeouts", "auto", "pool", "table", "initial",
                     "staged", "drawn"):
            setattr(new, name, list(getattr(self, name)))
        new.racks = [list(r) for r in self.racks]
        new.rng = Rng(self.rng.state)
        return new

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def check_piece(self, piece: Piece) -> None:
        if not isinstance(piece, Tile):
            raise IllegalMove(f"{piece.code} is not a tile")

    def hand(self, seat: int) -> Sequence[Tile]:
        return self.racks[seat]

    def inventory(self) -> Counter[Tile]:
        """Every tile: pool, racks and the committed table (a staged tile is still the
        rack's or the table's until the turn is committed)."""
        found = Counter(self.pool)
        for rack in self.racks:
            found.update(rack)
        found.update(t for m in self.table for t in m.tiles)
        return found

    def history(self) -> Sequence[HandResult]:
        return self.results

    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        if isinstance(move, Resume):
            if not self.auto[move.seat]:
                raise IllegalMove("you are not on auto-play")
            self.auto[move.seat] = False
            self.timeouts[move.seat] = 0
            events.append(Event("resume", f"{{p{move.seat}}} plays again from their next turn.",
                                move.seat))
            return events
        self.require_turn(move.seat)
        if isinstance(move, Timeout):
            if not self.options.turn_seconds:
                raise IllegalMove("there is no turn timer in this game")  # TIL-28
            self._timeout(events)
        elif isinstance(move, Draw):
            if move.source != "pool":
                raise IllegalMove("draw from the pool")
            self.timeouts[self.turn] = 0
            self._draw_and_end(events)
        elif isinstance(move, Done):
            self._done(events)
        elif isinstance(move, Play):
            self._play(move)
        elif isinstance(move, MoveTile):
            self._move_tile(move)
        elif isinstance(move, Split):
            self._split(move)
        elif isinstance(move, Release):
            self._release(move)
        elif isinstance(move, Take):
            self._take(move)
        elif isinstance(move, Reset):
            self._reset_stage()
        elif isinstance(move, Arrange):
            self._arrange(move, events)
        self._run_auto(events)
        return events

    # -- staging helpers ----------------------------------------------------

    @property
    def made_initial(self) -> bool:
        """TIL-16: touching the table is allowed (initial meld made before this turn, or none)."""
        return self.initial[self.turn] or self.options.initial_meld == 0

    def _find(self, number: int) -> int:
        for i, meld in enumerate(self.staged):
            if meld.number == number:
                return i
        raise IllegalMove(f"there is no meld {number} on the table")

    def _start_jokers(self) -> list[tuple[Face, bool, int]]:
        """Each start-of-turn joker k: (stand-in, in a set, start meld number)."""
        found = []
        for meld in self.table:
            is_set = len({f.rank for f in meld.faces}) == 1
            for tile, face in zip(meld.tiles, meld.faces, strict=True):
                if tile.is_joker:
                    found.append((Face(face.rank, NO_SUIT) if is_set else face, is_set,
                                  meld.number))
        return found

    def _locked(self, meld: Staged) -> bool:
        """TIL-18: a start meld still holding one of its unreleased start jokers."""
        if not self.options.joker_locks_meld:
            return False
        jokers = self._start_jokers()
        return any(o.startswith("j") and jokers[int(o[1:])][2] == meld.number
                   for o in meld.origins)

    def _has_start_tiles(self, meld: Staged) -> bool:
        return any(o.startswith(("t", "j", "f")) for o in meld.origins)

    def _put(self, index: int | None, items: list[tuple[Tile, Face | None, str]]) -> int:
        """Add tiles to staged meld at ``index`` (None: a new meld); returns its index."""
        if index is None:
            self.staged.append(Staged(self.next_number, (), (), ()))
            self.next_number += 1
            index = len(self.staged) - 1
        meld = self.staged[index]
        self.staged[index] = self._tidy(Staged(
            meld.number, meld.tiles + tuple(t for t, _, _ in items),
            meld.faces + tuple(f for _, f, _ in items), meld.origins + tuple(o for _, _, o in
                                                                            items)))
        return index

    def _remove(self, index: int, position: int) -> tuple[Tile, Face | None, str]:
        meld = self.staged[index]
        item = (meld.tiles[position], meld.faces[position], meld.origins[position])
        keep = [i for i in range(len(meld.tiles)) if i != position]
        self.staged[index] = self._tidy(Staged(meld.number, tuple(meld.tiles[i] for i in keep),
                                               tuple(meld.faces[i] for i in keep),
                                               tuple(meld.origins[i] for i in keep)))
        return item

    def _drop_empty(self) -> None:
        self.staged = [m for m in self.staged if m.tiles]

    @staticmethod
    def _tidy(meld: Staged) -> Staged:
        """Put a valid meld's tiles in reading order (runs low to high); others by number."""
        order = list(range(len(meld.tiles)))
        try:
            reading = read_staged(meld)
        except IllegalMove:
            order.sort(key=lambda i: (meld.tiles[i].is_joker, meld.tiles[i].rank,
                                      meld.tiles[i].suit))
        else:
            remaining = list(order)
            order = []
            for piece, face in zip(reading.pieces, reading.faces, strict=True):
                same = [i for i in remaining if meld.tiles[i] == piece]
                pick = next((i for i in same if meld.faces[i] == face), same[0])
                remaining.remove(pick)
                order.append(pick)
        return Staged(meld.number, tuple(meld.tiles[i] for i in order),
                      tuple(meld.faces[i] for i in order), tuple(meld.origins[i] for i in order))

    def _position(self, index: int, tile: Tile, prefer: Sequence[str] = ()) -> int:
        meld = self.staged[index]
        spots = [i for i, t in enumerate(meld.tiles) if t == tile]
        if not spots:
            raise IllegalMove(f"meld {meld.number} holds no {tile.code}")
        for wanted in prefer:
            for i in spots:
                if meld.origins[i].startswith(wanted):
                    return i
        return spots[0]

    def _rack_left(self) -> list[Tile]:
        """The rack minus the tiles staged from it."""
        placed = [t for m in self.staged for t, o in zip(m.tiles, m.origins, strict=True)
                  if o in ("r", "x", "rj")]
        return remove_pieces(self.racks[self.turn], placed)

    def _check_joker_move(self, meld: Staged, position: int) -> None:
        """TIL-12c and TIL-12d for taking the tile at ``position`` out of ``meld``."""
        origin = meld.origins[position]
        if origin.startswith("j") and self.options.joker_retrieve != "free":
            face = self._start_jokers()[int(origin[1:])][0]
            raise IllegalMove(f"release the joker first (it stands for {face.label(True)})")
        if self._locked(meld) and (origin.startswith("j") or _start_meld(origin) == meld.number):
            raise IllegalMove(f"meld {meld.number} holds a joker: release it first")

    # -- staging actions (TIL-11, TIL-12) -------------------------------------

    def _play(self, move: Play) -> None:
        tiles = [t for t, _ in move.tiles]
        if not tiles:
            raise IllegalMove("name at least one tile")
        check_held(tiles, self._rack_left())
        for tile, face in move.tiles:
            if face is not None and not tile.is_joker:
                raise IllegalMove(f"{tile.code} is not a joker, so it cannot stand for "
                                  f"{face.label(True)}")
        index = None if move.meld is None else self._find(move.meld)
        if index is not None and not self.made_initial and self._has_start_tiles(
                self.staged[index]):
            raise IllegalMove(NOT_BEFORE_INITIAL)  # TIL-12b
        self._put(index, [(t, f, "rj" if t.is_joker else "r")
                          for t, f in zip(self.own_all(tiles), (f for _, f in move.tiles),
                                          strict=True)])

    def _move_tile(self, move: MoveTile) -> None:
        source = self._find(move.from_meld)
        if move.to_meld == move.from_meld:
            raise IllegalMove("the tile is already in that meld")
        target = None if move.to_meld is None else self._find(move.to_meld)
        meld = self.staged[source]
        position = self._position(source, move.tile, ("r", "x", "f", "t", "j"))
        origin = meld.origins[position]
        if not self.made_initial and (origin not in ("r", "rj") or (
                target is not None and self._has_start_tiles(self.staged[target]))):
            raise IllegalMove(NOT_BEFORE_INITIAL)  # TIL-12b
        self._check_joker_move(meld, position)
        if self._gap(meld, position):  # the run splits at the gap the tile leaves
            tile, origin = meld.tiles[position], meld.origins[position]
            self._split_off(source, meld, range(position), range(position + 1, len(meld.tiles)))
        else:
            tile, _, origin = self._remove(source, position)
        target_number = None if target is None else self.staged[target].number
        self._drop_empty()
        # A moved joker's stand-in is chosen again (TIL-9).
        self._put(None if target_number is None else self._find(target_number),
                  [(tile, None, origin)])

    def _gap(self, meld: Staged, position: int) -> bool:
        """TIL-11, TIL-E4: would taking the tile at ``position`` out of ``meld`` leave a gap
        (a run, read in order, losing a tile that is neither end)? Refused at once when the
        part beyond the gap could not be split off (TIL-12b, TIL-12d)."""
        if not 0 < position < len(meld.tiles) - 1:
            return False
        try:
            reading = read_staged(meld)
        except IllegalMove:
            return False
        if reading.kind != RUN:
            return False
        self._check_split(meld, range(position + 1, len(meld.tiles)))
        return True

    def _split_off(self, index: int, meld: Staged, keep: range, moving: range) -> None:
        """Staged meld ``index`` (``meld`` before the action) keeps the tiles at ``keep``;
        those at ``moving`` form a new meld."""
        self.staged[index] = self._tidy(Staged(
            meld.number, tuple(meld.tiles[i] for i in keep), tuple(meld.faces[i] for i in keep),
            tuple(meld.origins[i] for i in keep)))
        self._put(None, [(meld.tiles[i], meld.faces[i], meld.origins[i]) for i in moving])

    def _check_split(self, meld: Staged, moving: Sequence[int]) -> None:
        """TIL-12b and TIL-12d for the tiles at ``moving`` leaving ``meld`` as a new meld."""
        if not self.made_initial and any(meld.origins[i] not in ("r", "rj") for i in moving):
            raise IllegalMove(NOT_BEFORE_INITIAL)  # TIL-12b
        if self._locked(meld) and any(meld.origins[i].startswith("j")
                                      or _start_meld(meld.origins[i]) == meld.number
                                      for i in moving):
            raise IllegalMove(f"meld {meld.number} holds a joker: release it first")  # TIL-12d

    def _split(self, move: Split) -> None:
        index = self._find(move.meld)
        meld = self.staged[index]
        if not 1 <= move.at < len(meld.tiles):
            raise IllegalMove(f"split meld {meld.number} after tile 1 to {len(meld.tiles) - 1}")
        moving = range(move.at, len(meld.tiles))
        self._check_split(meld, moving)
        self._split_off(index, meld, range(move.at), moving)

    def _release(self, move: Release) -> None:
        if not self.made_initial:
            raise IllegalMove(NOT_BEFORE_INITIAL)  # TIL-12b
        index = self._find(move.meld)
        meld = self.staged[index]
        tile = move.tile
        if tile.is_joker:
            raise IllegalMove("a joker is released with a numbered tile")
        jokers = self._start_jokers()
        spot = None
        for i, origin in enumerate(meld.origins):
            if not origin.startswith("j"):
                continue
            face, in_set, _ = jokers[int(origin[1:])]
            if in_set:
                present = {t.suit for t in meld.tiles if not t.is_joker}
                fits = tile.rank == face.rank and tile.suit not in present
            else:
                fits = (tile.rank, tile.suit) == (face.rank, face.suit)
            if fits:
                spot = i
                break
        if spot is None:
            held = [jokers[int(o[1:])][0].label(True) for o in meld.origins if o.startswith("j")]
            if not held:
                raise IllegalMove(f"meld {meld.number} holds no joker to release")
            raise IllegalMove(f"{tile.code} does not match the joker of meld {meld.number} "
                              f"(it stands for {' or '.join(held)})")  # TIL-12e
        if move.source is None:
            check_held([tile], self._rack_left())
            origin = "x"
            source_index = None
        else:
            if self.options.joker_retrieve == "replace_from_rack":
                raise IllegalMove("the replacing tile must come from your rack")  # TIL-12e
            source_index = self._find(move.source)
            if source_index == index:
                raise IllegalMove("the replacing tile must come from another meld")
            source = self.staged[source_index]
            position = self._position(source_index, tile, ("r", "x", "t"))
            if source.origins[position].startswith(("j", "f", "rj")):
                raise IllegalMove(f"meld {source.number} holds no {tile.code}")
            self._check_joker_move(source, position)
        joker_number = int(meld.origins[spot][1:])
        # The joker leaves; the tile takes its place; the joker is a one-tile staged meld.
        self._remove(index, spot)
        if source_index is not None:
            _, _, origin = self._remove(source_index, self._position(source_index, tile,
                                                                     ("r", "x", "t")))
        self._put(index, [(tile, None, origin)])
        self._put(None, [(TILE_JOKER, None, f"f{joker_number}")])
        self._drop_empty()

    def _take(self, move: Take) -> None:
        indices = range(len(self.staged)) if move.meld is None else [self._find(move.meld)]
        found_other = None
        for index in indices:
            meld = self.staged[index]
            for position, (tile, origin) in enumerate(zip(meld.tiles, meld.origins,
                                                          strict=True)):
                if tile != move.tile:
                    continue
                if origin in ("r", "rj"):
                    self._remove(index, position)
                    self._drop_empty()
                    return
                found_other = origin
        if found_other is None:
            raise IllegalMove(f"{move.tile.code} is not on the staged table")
        if found_other == "x":
            raise IllegalMove(f"{move.tile.code} released a joker: it stays on the table "
                              "(undo resets the turn)")  # TIL-12a
        raise IllegalMove(f"{move.tile.code} was on the table at the start of your turn: "
                          "it cannot go to your rack")  # TIL-12a

    def _arrange(self, move: Arrange, events: list[Event]) -> None:
        tiles = list(move.tiles)
        if not tiles:
            raise IllegalMove("name at least one tile")
        check_held(tiles, self._rack_left())
        jokers_info = self._start_jokers()
        staged_melds = []
        joker_list: list[TableJoker] = []
        for meld in self.staged:
            slots, keepable = self._slots(meld)
            frozen = not self.made_initial and self._has_start_tiles(meld)
            origins = tuple("table" if o.startswith(("t", "j", "f")) else "rack"
                            for o in meld.origins)
            staged_melds.append(StagedMeld(slots, origins, keepable, frozen))
            for origin in meld.origins:
                if origin.startswith(("j", "f")):
                    face, in_set, number = jokers_info[int(origin[1:])]
                    block = next(m.slots for m in self.table if m.number == number)
                    joker_list.append(TableJoker(face, in_set, block, origin.startswith("f"),
                                                 number))
        try:
            found = arrange(staged_melds, tiles, joker_list, self.made_initial,
                            self.options.solve_rules, time.monotonic() + ARRANGE_SECONDS)
        except SearchStopped:
            raise IllegalMove("search stopped: too many possibilities") from None
        if found is None:
            raise IllegalMove("no valid arrangement with these tiles")
        melds, changed = found
        self._install(melds)
        if self.options.joker_retrieve != "free":
            jokers = self._start_jokers()
            for meld in self.staged:
                homes = {jokers[int(o[1:])][2] for o in meld.origins if o.startswith("j")}
                if len(homes) > 1:
                    # Both keep their stand-ins, but neither may move (TIL-12c): the search
                    # cuts such a run between them where both parts stay runs; a meld it
                    # could not cut is refused rather than allowed.
                    raise IllegalMove("no arrangement found that keeps each table joker in "
                                      "its meld")
        events.append(Event("arranged", f"{{p{self.turn}}} arranged the table ({changed} "
                            f"meld{'s' if changed != 1 else ''} changed).", self.turn))

    def _slots(self, meld: Staged) -> tuple[tuple[Slot, ...], bool]:
        """A staged meld as slots (its reading when valid) and whether it may stay as it is."""
        try:
            reading = read_staged(meld)
        except IllegalMove:
            return tuple((t, Face(t.rank, t.suit)) for t in meld.tiles), False
        ok = not self._joker_faults([meld], [reading])
        return tuple(zip(self.own_all(reading.pieces), reading.faces, strict=True)), ok

    def _install(self, melds: Sequence[Sequence[Slot]]) -> None:
        """Replace the staged table with ``melds``: unchanged melds keep their numbers and
        origins; tiles keep their origins (matched by tile and kind)."""
        pool: dict[Tile, list[str]] = {}
        for staged in self.staged:
            for tile, origin in zip(staged.tiles, staged.origins, strict=True):
                pool.setdefault(tile, []).append(origin)
        for tile in self._rack_left():
            pool.setdefault(tile, []).append("rj" if tile.is_joker else "r")
        old = {tuple(self._slots(m)[0]): m for m in self.staged}
        new_staged: list[Staged] = []
        fresh: list[Sequence[Slot]] = []
        for slots in melds:
            same = old.pop(tuple(slots), None)
            if same is not None:
                new_staged.append(same)
                for tile, origin in zip(same.tiles, same.origins, strict=True):
                    pool[tile].remove(origin)
            else:
                fresh.append(slots)
        # A changed meld keeps the number of the old meld it shares most tiles with (TIL-E15:
        # meld 1 grows and stays meld 1); others take the next numbers (TIL-10).
        gone = [m for m in self.staged if m not in new_staged]
        numbers: dict[int, int] = {}
        pairs = sorted(((len(list((Counter(t for t, _ in meld) & Counter(old.tiles))
                                  .elements())), -i, old.number, i)
                        for i, meld in enumerate(fresh) for old in gone), reverse=True)
        for common, _, number, i in pairs:
            if common and i not in numbers and number not in numbers.values():
                numbers[i] = number
        for index in range(len(fresh)):
            if not numbers.get(index):
                numbers[index] = self.next_number
                self.next_number += 1
        kept = new_staged
        for labels in self._labellings(fresh, pool):
            self.staged = sorted(kept + [self._tidy(Staged(
                numbers[i], tuple(t for t, _ in meld),
                tuple(f if t.is_joker else None for t, f in meld), tuple(labels[i])))
                for i, meld in enumerate(fresh)], key=lambda m: m.number)
            if self.check_done() is None:
                return
        # The search's table holds only moves TIL-12 allows, so this is not expected; but
        # arrange must never stage what done refuses (TIL-20).
        raise IllegalMove("no arrangement found that done would accept")

    def _labellings(self, fresh: Sequence[Sequence[Slot]],
                    pool: dict[Tile, list[str]]) -> Iterator[list[list[str]]]:
        """Origins for the tiles of the changed melds ``fresh``, from the origins left in
        ``pool``, most likely first (``_install`` keeps the first that passes done).

        A table joker keeps its origin (``j``, not released) where its place in the result
        lets it (its stand-in, TIL-13 check 3; its locked meld around it, TIL-18), and is
        otherwise released (``f``): with ``replace_from_rack`` a matching rack tile of the
        result released it (``x``, TIL-12a), in the other modes a matching tile anywhere on
        the table did (moved in, and moved on again if need be). A released joker under
        ``retrieved_joker_new_meld_only`` takes the rack's copies of its meld's tiles first.
        """
        joker_slots = [(i, k) for i, meld in enumerate(fresh)
                       for k, (tile, _) in enumerate(meld) if tile.is_joker]
        spares = pool.get(TILE_JOKER, [])
        seen: set[tuple[str, ...]] = set()
        for chosen in permutations(spares, len(joker_slots)):  # the game has two jokers
            if chosen in seen:
                continue
            seen.add(chosen)
            labels = [[""] * len(meld) for meld in fresh]
            released: list[int] = []
            for (i, k), origin in zip(joker_slots, chosen, strict=True):
                if origin.startswith("j") and not self._still_kept(int(origin[1:]), fresh[i],
                                                                    k):
                    origin = "f" + origin[1:]
                    released.append(int(origin[1:]))
                labels[i][k] = origin
            own = {i for i in range(len(fresh)) if self.options.retrieved_joker_new_meld_only
                   and any(o.startswith("f") for o in labels[i])}
            left = {tile: list(origins) for tile, origins in pool.items() if not tile.is_joker}
            for i in sorted(range(len(fresh)), key=lambda i: i not in own):
                prefer = ("x", "r", "t") if i in own else ("t", "x", "r")
                for k, (tile, _) in enumerate(fresh[i]):
                    if not tile.is_joker:
                        origin = next(o for wanted in prefer for o in left[tile]
                                      if o.startswith(wanted))
                        left[tile].remove(origin)
                        labels[i][k] = origin
            if self._release_tiles(released, fresh, labels):
                yield labels

    def _still_kept(self, joker: int, meld: Sequence[Slot], position: int) -> bool:
        """May start-of-turn joker ``joker`` at ``position`` of ``meld`` be unreleased?"""
        stood, in_set, number = self._start_jokers()[joker]
        face = meld[position][1]
        if self.options.joker_retrieve != "free" and (
                face.rank != stood.rank or (not in_set and face.suit != stood.suit)):
            return False  # check 3
        if self.options.joker_locks_meld:  # TIL-18: its locked meld's tiles stay around it
            block = next(m.tiles for m in self.table if m.number == number)
            if Counter(t for t in block if not t.is_joker) - Counter(t for t, _ in meld):
                return False
        return True

    def _release_tiles(self, released: Sequence[int], fresh: Sequence[Sequence[Slot]],
                       labels: list[list[str]]) -> bool:
        """Find the tile that released each of ``released`` (TIL-17); with
        ``replace_from_rack`` it is a rack tile of the result, marked ``x``."""
        jokers = self._start_jokers()
        for joker in released:
            stood, in_set, _ = jokers[joker]
            spots = [(i, k) for i, meld in enumerate(fresh) for k, (tile, _) in enumerate(meld)
                     if not tile.is_joker and tile.rank == stood.rank
                     and (in_set or tile.suit == stood.suit)]
            if self.options.joker_retrieve != "replace_from_rack":
                if spots or any(not tile.is_joker and tile.rank == stood.rank
                                and (in_set or tile.suit == stood.suit)
                                for meld in self.staged for tile in meld.tiles):
                    continue
                return False
            spot = next(((i, k) for i, k in spots if labels[i][k] == "r"), None)
            if spot is None:
                return False
            labels[spot[0]][spot[1]] = "x"
        return True

    # -- done and its checks (TIL-13, TIL-14) ----------------------------------

    def _placed_from_rack(self) -> list[Tile]:
        return [t for m in self.staged for t, o in zip(m.tiles, m.origins, strict=True)
                if o in ("r", "x", "rj")]

    def _joker_faults(self, melds: Sequence[Staged], readings: Sequence[Meld]) -> list[str]:
        """Checks 3 and 4 on ``melds`` (already valid); the failures as messages."""
        faults = []
        jokers = self._start_jokers()
        for meld, reading in zip(melds, readings, strict=True):
            faces = dict(zip(range(len(reading.pieces)), reading.faces, strict=True))
            order = self._reading_origins(meld, reading)
            for i, origin in enumerate(order):
                if origin.startswith("j") and self.options.joker_retrieve != "free":
                    stood, in_set, _ = jokers[int(origin[1:])]
                    now = faces[i]
                    if now.rank != stood.rank or (not in_set and now.suit != stood.suit):
                        faults.append(f"meld {meld.number}: the joker must still stand for "
                                      f"{stood.label(True)} (release it first)")
                if (origin.startswith("f") and self.options.retrieved_joker_new_meld_only
                        and any(o.startswith(("t", "j")) for o in meld.origins)):
                    faults.append(f"meld {meld.number}: a released joker may only join "
                                  "tiles from your rack")
        return faults

    @staticmethod
    def _reading_origins(meld: Staged, reading: Meld) -> list[str]:
        """Origins in the reading's order (a meld's tiles are kept in that order when valid)."""
        if list(meld.tiles) == list(reading.pieces):
            return list(meld.origins)
        remaining = list(range(len(meld.tiles)))
        out = []
        for piece in reading.pieces:
            pick = next(i for i in remaining if meld.tiles[i] == piece)
            remaining.remove(pick)
            out.append(meld.origins[pick])
        return out

    def check_done(self) -> str | None:
        """TIL-13: None when the staged table passes, else the first failing check's reason."""
        readings: list[Meld] = []
        bad = []
        for meld in self.staged:
            try:
                readings.append(read_staged(meld))
            except IllegalMove as error:
                text = str(error)
                codes = meld.codes
                if text.startswith(codes):
                    text = text[len(codes):].lstrip()
                    bad.append(f"meld {meld.number} ({codes}) {text}")
                else:
                    bad.append(f"meld {meld.number} ({codes}): {text}")
        if bad:
            return "; ".join(bad)  # check 1
        if not self.made_initial:  # check 2
            total = sum(f.rank for meld, r in zip(self.staged, readings, strict=True)
                        if not self._has_start_tiles(meld) for f in r.faces)
            if total < self.options.initial_meld:
                return (f"your new melds total {total}; the initial meld needs "
                        f"{self.options.initial_meld}")
        faults = self._joker_faults(self.staged, readings)  # checks 3 and 4
        if faults:
            three = [f for f in faults if "stand for" in f]
            return "; ".join(three or faults)
        return None

    def _done(self, events: list[Event]) -> None:
        seat = self.turn
        if not self._placed_from_rack():  # TIL-14: nothing placed counts as draw
            self.timeouts[seat] = 0
            self._draw_and_end(events)
            return
        reason = self.check_done()
        if reason is None:
            self.timeouts[seat] = 0
            self._commit(events)
            return
        if self.options.invalid_done == "reject":
            raise IllegalMove(reason)
        self.timeouts[seat] = 0
        self._penalty(reason, events)

    def _commit(self, events: list[Event]) -> None:
        seat = self.turn
        placed = self._placed_from_rack()
        first = not self.made_initial
        self.racks[seat] = remove_pieces(self.racks[seat], placed)
        table = []
        for number, meld in enumerate(self.staged, start=1):  # TIL-10: renumber, old order
            reading = read_staged(meld)
            table.append(TableMeld(number, reading.pieces, reading.faces))  # type: ignore[arg-type]
        self.table = table
        if first:
            self.initial[seat] = True
        self.passes = 0
        events.append(Event("commit", f"{{p{seat}}} placed {len(placed)} tile"
                            f"{'s' if len(placed) != 1 else ''}"
                            + (" and made the initial meld" if first and
                               self.options.initial_meld else "") + ".", seat))
        if not self.racks[seat]:
            self._end_game(seat, events)  # TIL-21
            return
        self._next_turn(events)

    def _penalty(self, reason: str, events: list[Event]) -> None:
        seat = self.turn
        self._reset_stage()
        count = min(PENALTY_TILES, len(self.pool))
        drawn = [self.pool.pop() for _ in range(count)]
        self.racks[seat].extend(drawn)
        if drawn:
            self.drawn[seat] = drawn[-1]
        events.append(Event("penalty", f"{{p{seat}}}'s table was invalid ({reason}): the table "
                            f"is restored and they draw {count} penalty tile"
                            f"{'s' if count != 1 else ''}.", seat,
                            private="You drew " + (" ".join(t.code for t in drawn) or
                                                   "nothing") + "."))
        self._turn_ended(drew=count > 0, events=events)

    def _draw_and_end(self, events: list[Event], auto: bool = False) -> None:
        """TIL-15: drop the staged table, draw one (none: a pass), end the turn."""
        seat = self.turn
        self._reset_stage()
        if self.pool:
            tile = self.pool.pop()
            self.racks[seat].append(tile)
            self.drawn[seat] = tile
            events.append(Event("draw", f"{{p{seat}}} drew a tile"
                                + (" (auto-play)" if auto else "") + ".", seat,
                                private=f"You drew {tile.code}."))
            self._turn_ended(drew=True, events=events)
        else:
            events.append(Event("pass", f"{{p{seat}}} passes: the pool is empty.", seat))
            self._turn_ended(drew=False, events=events)

    def _turn_ended(self, drew: bool, events: list[Event]) -> None:
        """A turn ended without a commit: count passes (TIL-22)."""
        self.passes = 0 if drew else self.passes + 1
        if self.passes >= self.players:
            self._end_blocked(events)
            return
        self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> None:
        self.turn = (self.turn + 1) % self.players  # TIL-2, TIL-6
        self._begin_turn(events)

    # -- timeouts (TIL-28 … TIL-30) ---------------------------------------------

    def _timeout(self, events: list[Event]) -> None:
        seat = self.turn
        events.append(Event("timeout", f"{{p{seat}}} ran out of time.", seat))
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= AUTO_TIMEOUTS and not self.auto[seat]:
            self.auto[seat] = True
            events.append(Event("auto", f"{{p{seat}}} timed out {AUTO_TIMEOUTS} times in a row "
                                "and is on auto-play until they send resume.", seat))
        placed = self._placed_from_rack()
        reason = self._expiry_reason(bool(placed))
        if reason is None and placed:
            self._commit(events)  # (b)
        elif reason is None:
            self._draw_and_end(events)  # (a)
        else:
            self._penalty(reason, events)  # (c)

    def _expiry_reason(self, placed: bool) -> str | None:
        """TIL-29: checks 1, 3, 4 (and 2 when a rack tile was placed)."""
        if placed:
            return self.check_done()
        saved = self.initial[self.turn]
        self.initial[self.turn] = True  # check 2 does not apply without rack tiles (TIL-A3)
        try:
            return self.check_done()
        finally:
            self.initial[self.turn] = saved

    # -- the end of a game and of the match --------------------------------------

    def rack_total(self, seat: int) -> int:
        """TIL-23."""
        return sum(tile_value(t) for t in self.racks[seat])

    def _end_game(self, winner: int, events: list[Event]) -> None:
        n = self.players
        totals = [self.rack_total(s) for s in range(n)]
        points = [0 if s == winner else -totals[s] for s in range(n)]
        points[winner] = -sum(points)  # TIL-24
        self._record((winner,), points, f"{{p{winner}}} emptied their rack.", events)

    def _end_blocked(self, events: list[Event]) -> None:
        n = self.players
        totals = [self.rack_total(s) for s in range(n)]
        low = min(totals)
        winners = tuple(s for s in range(n) if totals[s] == low)
        points = [0 if s in winners else -(totals[s] - low) for s in range(n)]
        share = -sum(points) // len(winners)  # TIL-25: split, rounded down
        for s in winners:
            points[s] = share
        self._record(winners, points, "Every player passed: the game is blocked; the lowest "
                     f"rack total ({low}) wins.", events)

    def _record(self, winners: tuple[int, ...], points: list[int], summary: str,
                events: list[Event]) -> None:
        n = self.players
        for s in range(n):
            self.scores[s] += points[s]
        notes = tuple(f"rack {self.rack_total(s)}" for s in range(n))
        self.results.append(HandResult(
            number=self.game_number, winners=winners, points=tuple(points),
            totals=tuple(self.scores), held=tuple(tuple(r) for r in self.racks), notes=notes,
            summary=summary))
        events.append(Event("game_over", summary + " " + ", ".join(
            f"{{p{s}}} {' '.join(t.code for t in self.racks[s]) or '(empty)'} = "
            f"{self.rack_total(s)}, {points[s]:+d}" for s in range(n)) + ". Totals: "
            + ", ".join(f"{{p{s}}} {self.scores[s]}" for s in range(n)) + "."))
        self.staged = []
        if self._match_over():
            self.over = True
            best = best_seats(self.scores, False)  # TIL-27
            names = " and ".join(f"{{p{s}}}" for s in best)
            events.append(Event("match_over", f"The match is over: {names} "
                                f"{'win' if len(best) > 1 else 'wins'}."))
            return
        self._new_game(events)

    def _match_over(self) -> bool:
        """TIL-27."""
        if self.options.target:
            return max(self.scores) >= self.options.target
        return self.game_number >= self.options.games

    @property
    def winners(self) -> tuple[int, ...]:
        return best_seats(self.scores, False) if self.is_over else ()

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        """A representative list (a turn's actions are combinatorial): draw, done, undo,
        every new meld of three rack tiles, every single rack tile laid where the meld stays
        valid, every take-back and every release from the rack. All are accepted by apply."""
        if self.is_over:
            return []
        moves: list[Move] = [] if not self.auto[seat] else [Resume(seat)]
        if seat != self.turn:
            return moves
        moves += [Draw(seat, "pool"), Done(seat)]
        if self._placed_from_rack() or any(self._changed(m) for m in self.staged):
            moves.append(Reset(seat))
        left = self._rack_left()
        rack = sorted(set(left), key=lambda t: t.index)
        for trio in _rack_trios(left):
            moves.append(Play(seat, tuple((t, None) for t in trio)))
        for meld in self.staged:
            joker_here = any(o.startswith("j") for o in meld.origins)
            numbered = [t for t in meld.tiles if not t.is_joker]
            for tile in rack:
                spread = len(meld.tiles) - len(numbered) + 1
                if not tile.is_joker and not (
                        all(t.rank == tile.rank for t in numbered)
                        or (all(t.suit == tile.suit for t in numbered) and numbered and min(
                            t.rank for t in numbered) - spread <= tile.rank <= max(
                            t.rank for t in numbered) + spread)):
                    if joker_here:
                        moves.append(Release(seat, tile, meld.number))
                    continue
                if meld.takes(tile):
                    moves.append(Play(seat, ((tile, None),), meld.number))
                if joker_here and not tile.is_joker:
                    moves.append(Release(seat, tile, meld.number))
            for tile in sorted({t for t, o in zip(meld.tiles, meld.origins, strict=True)
                                if o in ("r", "rj")}, key=lambda t: t.index):
                moves.append(Take(seat, tile, meld.number))
        legal = []
        for move in moves:
            try:
                self.apply(move)
            except IllegalMove:
                continue
            legal.append(move)
        return legal

    # -- views ------------------------------------------------------------

    def _changed(self, meld: Staged) -> bool:
        old = next((m for m in self.table if m.number == meld.number), None)
        if old is None:
            return True
        try:
            reading = read_staged(meld)
        except IllegalMove:
            return True
        return (reading.pieces, reading.faces) != (old.tiles, old.faces)

    def meld_views(self) -> tuple[MeldView, ...]:
        """The staged table during a turn (public, TIL-11), changed melds marked."""
        views = []
        for meld in self.staged:
            try:
                reading = read_staged(meld)
                views.append(MeldView(meld.number, reading.pieces, reading.faces, reading.kind,
                                      changed=self._changed(meld)))
            except IllegalMove:
                faces = tuple(f if f is not None else Face(t.rank, t.suit)
                              for t, f in meld.items())
                views.append(MeldView(meld.number, meld.tiles, faces, "invalid", changed=True))
        return tuple(views)

    def _state(self, seat: int) -> SeatState:
        if self.is_over and seat in self.winners:
            return SeatState.WON
        return SeatState.AUTO if self.auto[seat] else SeatState.PLAYING

    def table_view(self) -> TableView:
        n = self.players
        panels = tuple(PlayerPanel(seat=s, pieces_left=len(self.racks[s]),
                                   score=str(self.scores[s]), state=self._state(s),
                                   to_move=s == self.to_move,
                                   note="" if self.initial[s] or not self.options.initial_meld
                                   else "no initial meld yet")
                       for s in range(n))
        if self.options.target:
            status = f"Game {self.game_number} · playing to {self.options.target}"
        else:
            status = f"Game {self.game_number} of {self.options.games}"
        changed = sum(1 for v in self.meld_views() if v.changed)
        if not self.over and changed:
            status += f" · {changed} meld{'s' if changed != 1 else ''} changed this turn"
        return TableView(variant=self.variant, tiles=True, players=panels,
                         melds=self.meld_views() if not self.over else tuple(
                             MeldView(m.number, m.tiles, m.faces, "run") for m in self.table),
                         stock=len(self.pool), stock_label="pool", to_move=self.to_move,
                         hand_number=self.game_number, hand_label="game", status=status)

    def hand_view(self, seat: int) -> HandView:
        rack = self.racks[seat] if seat != self.turn else self._rack_left()
        return HandView(seat=seat, pieces=tuple(rack), tiles=True,
                        newest=self.drawn[seat] if self.drawn[seat] in rack else None)

    def result_view(self) -> ResultView:
        last = self.results[-1] if self.results else None
        ranks = places(self.scores, False)
        placings = tuple(sorted(
            (Placing(seat=s, place=ranks[s], points=f"{last.points[s]:+d}" if last else "0",
                     total=str(self.scores[s]), held=last.held[s] if last else (),
                     note=last.notes[s] if last else "")
             for s in range(self.players)), key=lambda p: (p.place, p.seat)))
        games = f"{self.game_number} game" + ("s" if self.game_number != 1 else "")
        title = (f"Match over after {games}" if self.is_over
                 else f"Game {last.number} result" if last else "No game played yet")
        return ResultView(variant=self.variant, title=title, placings=placings, tiles=True,
                          seed=self.seed, match_over=self.is_over)


def _rack_trios(rack: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """Runs and sets of exactly three numbered rack tiles (for the legal-move list)."""
    have = Counter(t for t in rack if not t.is_joker)
    found = []
    for tile in sorted(have, key=lambda t: t.index):
        run = [Tile(tile.rank + i, tile.suit) for i in range(3) if tile.rank + i <= 13]
        if len(run) == 3 and all(have[t] for t in run):
            found.append(tuple(run))
        same = [Tile(tile.rank, c) for c in Colour if c > tile.suit and have[Tile(tile.rank, c)]]
        if len(same) >= 2:
            found.append((tile, *same[:2]))
    return found
