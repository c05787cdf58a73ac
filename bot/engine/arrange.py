"""Best arrangement: split a multiset of pieces into melds leaving the least value unmelded.

Exact, not greedy. Serves Indian and Remi scoring, "can this player still
move" checks, Tien Hu detection, hints and computer players.

How the search works
--------------------
Pieces are counts over 52 natural indices (suit × 13 + rank − 1) plus a joker
pool. The search always decides the *anchor*, the lowest-index natural piece
left: it is either deadwood, or the lowest piece of one meld taken now. Every
other natural piece of that meld has a higher index, so lower suits of the
same rank and lower ranks of the same suit are never looked at again. A
sub-problem is fully described by the remaining counts, the jokers left and
what is still required, so results are memoised on that key.

Only *core* melds of 3 to 5 pieces are tried: any longer valid meld is two
cores, or a core plus extra jokers at its ends (a run with a joker at an end
stays valid without it; one with naturals at both ends and six or more pieces
splits into two runs that each start or end with a natural). Extra jokers are
absorbed at the end into the spare room of the melds taken (the *capacity*,
tracked in the key only when an unmelded joker costs something).

Indian wild-rank cards are a separate pool: each may fill a joker slot or its
own natural slot in a run (which keeps the run pure, IND-12). A joker slot
takes a printed joker first: that never loses anything, since a printed joker
can do nothing a wild card cannot.

Shortcuts (``best_arrangement`` and ``deadwood_value``; ``full_search`` is the
search alone, for checking them)
--------------------------------------------------------------------------
* A hand without printed jokers or wild-rank cards is searched over one
  integer (:class:`_PlainSearch`) with every core meld precomputed per rules,
  tried in the full search's order, so both choose the same arrangement; the
  pieces no meld can take are found by bit patterns and leave at once.
* Minimums that no choice of pieces can meet are refused before searching
  (:func:`_minimums_possible`).
* Everything precomputed for a set of rules lives in one :class:`_Tables`,
  found by the rules' identity (hashing rules costs microseconds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations_with_replacement, product
from typing import NamedTuple

from .cards import JOKER, TILE_JOKER, Card, Face, Piece, Tile
from .errors import IllegalMove
from .melds import RUN, SET, Meld, MeldRules, RunShape, extend_meld

INFINITY = 10**9
_MAX_CORE = 5
_PRESENT = bytes([0] + [1] * 255)
"""bytes.translate table: any count above zero becomes 1 (a run takes one copy per rank)."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds found, the pieces left over, and the value of those leftovers."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Piece, ...]
    value: int

    @property
    def runs(self) -> int:
        return sum(1 for m in self.melds if m.kind == RUN)

    @property
    def pure_runs(self) -> int:
        return sum(1 for m in self.melds if m.kind == RUN and m.pure)


@dataclass(frozen=True, slots=True)
class _Window:
    """A core run window around one rank: all its ranks, the others, and its line's spare room."""

    ranks: tuple[int, ...]
    others: tuple[int, ...]
    room: int


@cache
def _windows_by_rank(shape: RunShape, run_min: int) -> dict[int, tuple[_Window, ...]]:
    """Core windows (3–5 ranks, no rank twice) containing each rank."""
    by_rank: dict[int, list[_Window]] = {r: [] for r in range(1, 14)}
    seen: set[tuple[int, ...]] = set()
    for length in range(run_min, _MAX_CORE + 1):
        for window in shape.windows(length):
            if len(set(window)) != len(window) or window in seen:
                continue
            seen.add(window)
            line_length = max(len(line) for line in shape.lines if _contains(line, window,
                                                                              shape.cyclic))
            for rank in window:
                others = tuple(r for r in window if r != rank)
                by_rank[rank].append(_Window(window, others, line_length - length))
    return {r: tuple(ws) for r, ws in by_rank.items()}


class _RunEntry(NamedTuple):
    """A way to make a core run from an anchor: the naturals it takes above the anchor."""

    cells: tuple[tuple[int, ...], ...]
    """Per suit, the pool cells of those naturals."""
    mask: int
    """One byte per rank of a suit, 1 where a natural is taken (against a suit's presence)."""
    wild: bool
    """The suit's own wild-rank card sits in its own place."""
    jokers: int
    room: int


@cache
def _run_table(shape: RunShape, run_min: int, wild_rank: int | None, min_naturals: int
               ) -> dict[int, tuple[_RunEntry, ...]]:
    """Per anchor rank, every choice of naturals and jokers that fills one of its windows.

    In window order, naturals before jokers slot by slot (the order the search
    tries them in), each choice once with the most room of the windows it fits.
    A rank below the anchor is never a natural: its cell comes before the anchor's.
    """
    table: dict[int, tuple[_RunEntry, ...]] = {}
    for rank, windows in _windows_by_rank(shape, run_min).items():
        kept: dict[tuple[tuple[int, ...], bool, int], _RunEntry] = {}
        for window in windows:
            options = [(r, None) if r > rank or r == wild_rank else (None,)
                       for r in window.others]
            for picks in product(*options):
                ranks = [r for r in picks if r is not None]
                offsets = tuple(r - 1 for r in ranks if r != wild_rank)
                if len(offsets) + 1 < min_naturals:
                    continue
                entry = _RunEntry(tuple(tuple(s * 13 + o for o in offsets) for s in range(4)),
                                  sum(1 << (8 * o) for o in offsets), wild_rank in ranks,
                                  picks.count(None), window.room)
                key = (tuple(sorted(offsets)), entry.wild, entry.jokers)
                if key not in kept or entry.room > kept[key].room:
                    kept[key] = entry if key not in kept else kept[key]._replace(
                        room=entry.room)
        table[rank] = tuple(kept.values())
    return table


@cache
def _reach(shape: RunShape, run_min: int) -> tuple[int, ...]:
    """Per anchor cell, the end of the cells above it (same suit) that its core runs use."""
    windows = _windows_by_rank(shape, run_min)
    reach = []
    for anchor in range(_PRINTED):
        suit, rank = divmod(anchor, 13)
        top = max((r for w in windows[rank + 1] for r in w.others if r > rank + 1), default=0)
        reach.append(suit * 13 + top if top else anchor + 1)
    return tuple(reach)


def _contains(line: tuple[int, ...], window: tuple[int, ...], cyclic: bool) -> bool:
    n = len(line)
    return any(all(line[(start + i) % n] == r for i, r in enumerate(window))
               for start in range(n if cyclic else n - len(window) + 1))


# Layout of the search pool (a bytearray, so a state is hashed as one bytes object).
_PRINTED = 52
_WILD = 53  # 53..56: wild-rank cards by suit
_NEED_RUNS = 57
_NEED_PURE = 58
_ROOM = 59
_POOL_SIZE = 60
_JOKER_ONLY: tuple[int | None, ...] = (None,)


class _Candidate(NamedTuple):
    """A core meld the search may take: the pool cells it uses and what it gives."""

    cells: tuple[int, ...]
    is_run: bool
    pure: bool
    room: int
    natural_cells: tuple[int, ...]
    wild_natural: tuple[int, ...]
    joker_cells: tuple[int, ...]


_CACHE_LIMIT = 20_000


class _Tables:
    """Everything the searches precompute for one set of rules, built on first use."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.windows = _windows_by_rank(rules.runs, rules.run_min)
        self.reach = _reach(rules.runs, rules.run_min)
        self.run_table = _run_table(rules.runs, rules.run_min, rules.wild_rank,
                                    rules.run_min_naturals)
        self.candidate_cache: dict = {}
        self.fill_cache: dict = {}

    def shared_caches(self) -> tuple[dict, dict]:
        """Candidate and joker-fill caches shared by every search under these rules.

        Their keys hold everything the cached lists depend on, so sharing is safe;
        they are emptied when they grow past a bound so a long-running bot stays small.
        """
        if len(self.candidate_cache) > _CACHE_LIMIT:
            self.candidate_cache, self.fill_cache = {}, {}
        return self.candidate_cache, self.fill_cache

    @cached_property
    def plain(self) -> tuple[tuple[_PlainMeld, ...], ...]:
        return _plain_table(self.rules, self.windows)

    @cached_property
    def pieces(self) -> tuple[Piece, ...]:
        """The natural piece of each cell."""
        make: type[Card] | type[Tile] = Tile if self.rules.tiles else Card
        return tuple(make(c % 13 + 1, c // 13) for c in range(_PRINTED))

    @cached_property
    def not_plain(self) -> int:
        """Bits of the cells that hold jokers: the joker's, and the wild rank's."""
        wild = self.rules.wild_rank
        return 1 << _PRINTED | sum(1 << (s * 13 + wild - 1) for s in range(4) if wild)

    @cached_property
    def patterns(self) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
        """Every plain meld as (offsets of its other cells from its anchor, anchors' bits).

        Two lists: without and with the melds that take a cell twice, which are
        matched by presence alone (so they may match where there is one copy:
        that only sends a piece to the search that need not go).
        """
        found: tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]] = ({}, {})
        for anchor, row in enumerate(self.plain):
            for meld in row:
                offsets = tuple(c - anchor for c in _bits(meld.cells) if c != anchor)
                for kept in found[meld.repeats:]:
                    kept[offsets] = kept.get(offsets, 0) | 1 << anchor
        return tuple(tuple(kept.items()) for kept in found)

    @cached_property
    def shortest_plain_runs(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        return _shortest_runs(self.plain)

    @cached_property
    def run_windows(self) -> tuple[tuple[_RunWindow, ...], tuple[_RunWindow, ...]]:
        return _run_windows(self.rules)


_by_value: dict[MeldRules, _Tables] = {}
_by_identity: dict[int, tuple[MeldRules, _Tables]] = {}


def _tables(rules: MeldRules) -> _Tables:
    """The tables of ``rules``: found by identity first, as hashing rules costs microseconds."""
    hit = _by_identity.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    tables = _by_value.get(rules)
    if tables is None:
        if len(_by_value) > 64:
            _by_value.clear()
        tables = _by_value[rules] = _Tables(rules)
    if len(_by_identity) > 256:
        _by_identity.clear()
    _by_identity[id(rules)] = (rules, tables)  # holding rules keeps its id from being reused
    return tables


def _clear_caches() -> None:
    """Forget every table and cached candidate (benches measure a cold start with it)."""
    _by_value.clear()
    _by_identity.clear()


class _Search:
    """One best-arrangement search: a memoised branch and bound over the pool."""

    def __init__(self, pieces: Sequence[Piece], rules: MeldRules,
                 value: Callable[[Piece], int]) -> None:
        self.rules = rules
        self.make: type[Card] | type[Tile] = Tile if rules.tiles else Card
        self.joker_piece: Piece = TILE_JOKER if rules.tiles else JOKER
        pool = self.pool = bytearray(_POOL_SIZE)
        wild_rank = rules.wild_rank
        # Values only of the cells held: nothing else is ever counted.
        self.values = [0] * (_WILD + 4)
        for piece in pieces:
            if piece.is_joker:
                cell = _PRINTED
            elif piece.rank == wild_rank:
                cell = _WILD + piece.suit
            else:
                cell = piece.index
            if not pool[cell]:
                self.values[cell] = value(piece)
            pool[cell] += 1
        tables = _tables(rules)
        self.windows = tables.windows
        self.reach = tables.reach
        self.run_table = tables.run_table
        self.total_jokers = pool[_PRINTED] + sum(pool[_WILD:_WILD + 4])
        self.track_room = any(self.values[c] for c in range(_PRINTED, _WILD + 4) if pool[c])
        self.set_room = INFINITY if rules.set_max is None else rules.set_max
        self.memo: dict[bytes, tuple[int, bool, _Candidate | int | None]] = {}
        self.candidate_cache, self.fill_cache = tables.shared_caches()

    def piece(self, cell: int) -> Piece:
        """The piece a pool cell holds."""
        if cell == _PRINTED:
            return self.joker_piece
        if cell >= _WILD:
            wild_rank = self.rules.wild_rank
            assert wild_rank is not None, "wild cells are filled only under a wild rank"
            return self.make(wild_rank, cell - _WILD)
        return self.make(cell % 13 + 1, cell // 13)

    # -- the search -------------------------------------------------------

    def solve(self, start: int, bound: int) -> int:
        """Least leftover value of the pool's state if it is below ``bound``.

        Otherwise returns a lower bound that is at least ``bound``. Memo entries
        remember which of the two they are.
        """
        pool = self.pool
        key = bytes(pool)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] >= bound):
            return hit[0]
        anchor = start
        while anchor < _PRINTED and not pool[anchor]:
            anchor += 1
        if anchor == _PRINTED:
            best = INFINITY if pool[_NEED_RUNS] or pool[_NEED_PURE] else self.leftover_cost()
            self.memo[key] = (best, True, None)
            return best
        best = INFINITY
        choice: _Candidate | int | None = None
        need_runs, need_pure, room = pool[_NEED_RUNS], pool[_NEED_PURE], pool[_ROOM]
        for candidate in self.distinct_candidates(anchor, bool(need_runs or need_pure)):
            for cell in candidate.cells:
                pool[cell] -= 1
            if candidate.is_run:
                pool[_NEED_RUNS] = need_runs - 1 if need_runs else 0
                if candidate.pure and need_pure:
                    pool[_NEED_PURE] = need_pure - 1
            if self.track_room and not (candidate.pure and need_pure):
                pool[_ROOM] = min(self.total_jokers, room + candidate.room)
            result = self.solve(anchor, min(best, bound))
            pool[_NEED_RUNS], pool[_NEED_PURE], pool[_ROOM] = need_runs, need_pure, room
            for cell in candidate.cells:
                pool[cell] += 1
            if result < best:
                best, choice = result, candidate
                if best == 0:
                    break
        if best > 0:
            # The anchor as deadwood.
            cost = self.values[anchor]
            limit = min(best, bound)
            if cost < limit:
                pool[anchor] -= 1
                result = cost + self.solve(anchor, limit - cost)
                pool[anchor] += 1
            else:
                result = cost
            if result < best:
                best, choice = result, anchor
        self.memo[key] = (best, best < bound, choice)
        return best

    def leftover_cost(self) -> int:
        """Value of the jokers nobody melded, after the spare room absorbed the dearest."""
        pool = self.pool
        values = [self.values[c] for c in range(_PRINTED, _WILD + 4) for _ in range(pool[c])]
        if not self.track_room:
            return sum(values)
        values.sort(reverse=True)
        return sum(values[pool[_ROOM]:])

    # -- candidates -------------------------------------------------------

    def distinct_candidates(self, anchor: int, kind_matters: bool) -> list[_Candidate]:
        """Candidates that use different pieces (keeping the most room), melds with most first.

        Many windows take the same pieces (5 with two jokers is 3-4-5, 4-5-6 or
        5-6-7); only one of each is worth a branch. The kind matters only while
        runs are still required. Results depend only on the pieces near the
        anchor, so they are cached on those.
        """
        pool = self.pool
        suit, rank = divmod(anchor, 13)
        # Cells below the anchor are empty, and a run reaches only so far above it, so the
        # key holds just the cells a candidate can use: the more hands share it, the better.
        cache = self.candidate_cache
        above = bytes(pool[anchor + 1:self.reach[anchor]]).translate(_PRESENT)
        column = bytes(pool[anchor:_PRINTED:13])
        jokers = (min(pool[_PRINTED], _MAX_CORE - 1), bytes(pool[_WILD:_WILD + 4]))
        key = (anchor, above, column, jokers, kind_matters)
        cached = cache.get(key)
        if cached is not None:
            return cached
        # Runs depend on the suit's cells above the anchor, sets on the anchor's rank in
        # other suits: each list is kept on its own too, as either may match another hand.
        run_key = ("runs", anchor, above, jokers)
        runs = cache.get(run_key)
        if runs is None:
            runs = cache[run_key] = list(self.run_candidates(anchor, suit, rank + 1))
        sets: list[_Candidate] = []
        if rank + 1 != self.rules.wild_rank:
            set_key = ("sets", anchor, column, jokers)
            sets = cache.get(set_key)  # type: ignore[assignment]
            if sets is None:
                sets = cache[set_key] = list(self.set_candidates(anchor, suit, rank + 1))
        unique: dict[tuple, _Candidate] = {}
        for candidate in runs + sets:
            signature = (tuple(sorted(candidate.cells)),
                         (candidate.is_run, candidate.pure) if kind_matters else None)
            kept = unique.get(signature)
            if kept is None or candidate.room > kept.room:
                unique[signature] = candidate
        result = sorted(unique.values(),
                        key=lambda c: (-len(c.natural_cells) - len(c.wild_natural), -c.is_run))
        self.candidate_cache[key] = result
        return result

    def joker_fills(self, k: int, wild_taken: tuple[int, ...] = ()) -> tuple[tuple[int, ...], ...]:
        """Ways to take k jokers as pool cells: printed jokers first, then wild cards."""
        pool = self.pool
        key = (k, wild_taken, pool[_PRINTED], bytes(pool[_WILD:_WILD + 4]))
        fills = self.fill_cache.get(key)
        if fills is not None:
            return fills
        printed = min(k, pool[_PRINTED])
        rest = k - printed
        base = (_PRINTED,) * printed
        if rest == 0:
            fills = (base,)
        else:
            left = [pool[_WILD + s] - wild_taken.count(s) for s in range(4)]
            fills = tuple(base + tuple(_WILD + s for s in combo)
                          for combo in combinations_with_replacement(
                              [s for s in range(4) if left[s] > 0], rest)
                          if all(combo.count(s) <= left[s] for s in set(combo)))
        self.fill_cache[key] = fills
        return fills

    def run_candidates(self, anchor: int, suit: int, rank: int) -> Iterator[_Candidate]:
        pool = self.pool
        base = suit * 13
        wild = (suit,) if pool[_WILD + suit] else None
        jokers_held = pool[_PRINTED] + pool[_WILD] + pool[_WILD + 1] + pool[_WILD + 2] + \
            pool[_WILD + 3]
        held = int.from_bytes(bytes(pool[base:base + 13]).translate(_PRESENT), "little")
        for entry in self.run_table[rank]:
            if entry.jokers > jokers_held - entry.wild or held & entry.mask != entry.mask:
                continue
            if entry.wild:
                if wild is None:
                    continue
                wild_natural: tuple[int, ...] = wild
                naturals = entry.cells[suit]
                cells = (anchor, *naturals, _WILD + suit)
            else:
                wild_natural = ()
                naturals = entry.cells[suit]
                cells = (anchor, *naturals)
            for fill in self.joker_fills(entry.jokers, wild_natural):
                yield _Candidate(cells + fill, True, entry.jokers == 0, entry.room, naturals,
                                 wild_natural, fill)

    def set_candidates(self, anchor: int, suit: int, rank: int) -> Iterator[_Candidate]:
        rules = self.rules
        pool = self.pool
        # Copies beside the anchor, per suit (its own suit only where suits may repeat).
        choices = []
        for other in range(suit, 4):
            cell = other * 13 + rank - 1
            copies = pool[cell] - (other == suit)
            if rules.distinct_suits:
                copies = min(copies, 0 if other == suit else 1)
            choices.append([(cell,) * n for n in range(copies + 1)])
        max_size = min(_MAX_CORE, self.set_room)
        jokers_left = pool[_PRINTED] + sum(pool[_WILD:_WILD + 4])
        for parts in product(*choices):
            naturals = tuple(c for part in parts for c in part)
            size = 1 + len(naturals)
            if size > max_size:
                continue
            for jokers in range(max(0, rules.set_min - size), min(max_size - size,
                                                                    jokers_left) + 1):
                room = self.set_room - size - jokers
                for fill in self.joker_fills(jokers):
                    yield _Candidate((anchor, *naturals, *fill), False, jokers == 0, room,
                                     naturals, (), fill)

    # -- reconstruction ---------------------------------------------------

    def rebuild(self) -> Arrangement:
        """Follow the memo's choices from the current (root) pool to the arrangement."""
        pool = self.pool
        melds: list[Meld] = []
        dead: list[Piece] = []
        while True:
            _, exact, choice = self.memo[bytes(pool)]
            assert exact, "the best path is made of exact results"
            if choice is None:
                break
            if isinstance(choice, int):
                dead.append(self.piece(choice))
                pool[choice] -= 1
                continue
            melds.append(self.build_meld(choice))
            need_runs, need_pure, room = pool[_NEED_RUNS], pool[_NEED_PURE], pool[_ROOM]
            for cell in choice.cells:
                pool[cell] -= 1
            if choice.is_run:
                pool[_NEED_RUNS] = max(0, need_runs - 1)
                if choice.pure and need_pure:
                    pool[_NEED_PURE] = need_pure - 1
            if self.track_room and not (choice.pure and need_pure):
                pool[_ROOM] = min(self.total_jokers, room + choice.room)
        leftovers = [self.piece(c) for c in range(_PRINTED, _WILD + 4) for _ in range(pool[c])]
        return self.absorb(melds, dead, leftovers, pool[_ROOM])

    def build_meld(self, choice: _Candidate) -> Meld:
        anchor = choice.cells[0]
        suit, rank = divmod(anchor, 13)
        rank += 1
        jokers = [self.piece(c) for c in choice.joker_cells]
        if not choice.is_run:
            pieces = [self.piece(anchor), *map(self.piece, choice.natural_cells)]
            faces = [Face.of(p) for p in pieces] + [Face(rank, -1)] * len(jokers)
            return Meld(SET, tuple(pieces + jokers), tuple(faces), pure=choice.pure)
        placed = {p.rank: p for p in map(self.piece, (anchor, *choice.natural_cells))}
        wild_rank = self.rules.wild_rank
        for s in choice.wild_natural:
            assert wild_rank is not None, "wild naturals exist only under a wild rank"
            placed[wild_rank] = self.make(wild_rank, s)
        window = self._window_for(rank, placed, len(placed) + len(jokers))
        spare = iter(jokers)
        pieces = [placed[r] if r in placed else next(spare) for r in window]
        faces = [Face(r, suit) for r in window]
        return Meld(RUN, tuple(pieces), tuple(faces), pure=choice.pure)

    def _window_for(self, rank: int, placed: dict[int, Piece], length: int) -> tuple[int, ...]:
        """A window holding every placed rank (the highest, as NOT-8 extends upward)."""
        fits = [w.ranks for w in self.windows[rank]
                if len(w.ranks) == length and set(placed) <= set(w.ranks)]
        return max(fits, key=lambda w: (w[-1] == 1, w[-1]))

    def absorb(self, melds: list[Meld], dead: list[Piece], leftovers: list[Piece],
               room: int) -> Arrangement:
        """Put leftover jokers into melds with spare room (only when they cost something)."""
        leftovers.sort(key=self._value, reverse=True)
        absorbed = leftovers[:room] if self.track_room else []
        for joker in absorbed:
            for i, meld in enumerate(melds):
                try:
                    melds[i] = extend_meld(meld, [joker], self.rules, i + 1)
                    break
                except IllegalMove:
                    continue
            else:
                dead.append(joker)
        dead.extend(leftovers[len(absorbed):])
        return Arrangement(tuple(melds), tuple(dead), sum(self._value(p) for p in dead))

    def _value(self, piece: Piece) -> int:
        if piece.is_joker:
            return self.values[_PRINTED]
        if piece.rank == self.rules.wild_rank:
            return self.values[_WILD + piece.suit]
        return self.values[piece.index]


# -- hands without jokers ----------------------------------------------------
#
# A hand with no printed joker and no wild-rank card needs none of the joker
# machinery: every meld is pure, fills and spare room do not exist, and the
# pool fits in one integer of 3-bit fields, one per natural cell, each holding
# the count plus a guard bit (4). Subtracting a meld's mask borrows from a
# field exactly when that cell has too few copies, and the borrow stops at the
# field's own guard, so one subtraction and one AND test and take a meld.

_FIELD_BITS = 3
_GUARDS = sum(4 << (_FIELD_BITS * cell) for cell in range(_PRINTED))
_UNITS = tuple(1 << (_FIELD_BITS * cell) for cell in range(_PRINTED))
_MAX_COPIES = 3


class _PlainMeld(NamedTuple):
    """A core meld of natural cells: its field mask, its kind, and the meld it shows as."""

    mask: int
    is_run: bool
    meld: Meld
    cells: int
    """One bit per cell it uses (a first test: the hand holds each)."""
    repeats: bool
    """It takes two copies of one cell, which ``cells`` cannot tell."""


def _plain_table(rules: MeldRules, windows: dict[int, tuple[_Window, ...]]
                 ) -> tuple[tuple[_PlainMeld, ...], ...]:
    """Per anchor cell, every core meld of natural pieces whose lowest cell is the anchor.

    In the order the full search tries them (most pieces first, runs before
    sets, then generation order), so both searches choose alike among equals.
    """
    make: type[Card] | type[Tile] = Tile if rules.tiles else Card
    max_set = _MAX_CORE if rules.set_max is None else min(_MAX_CORE, rules.set_max)
    table = []
    for anchor in range(_PRINTED):
        suit, rank = divmod(anchor, 13)
        rank += 1
        found: list[tuple[tuple[int, ...], bool, Meld]] = []
        if rank != rules.wild_rank:
            for window in windows[rank]:
                cells = tuple(suit * 13 + r - 1 for r in window.ranks)
                if min(cells) != anchor or rules.wild_rank in window.ranks:
                    continue
                pieces = tuple(make(r, suit) for r in window.ranks)
                found.append((cells, True, Meld(RUN, pieces, tuple(map(Face.of, pieces)))))
            choices = []
            for other in range(suit, 4):
                most = 0 if rules.distinct_suits and other == suit else \
                    1 if rules.distinct_suits else _MAX_COPIES - (other == suit)
                choices.append([(other * 13 + rank - 1,) * n for n in range(most + 1)])
            for parts in product(*choices):
                cells = (anchor, *(c for part in parts for c in part))
                if rules.set_min <= len(cells) <= max_set:
                    pieces = tuple(make(c % 13 + 1, c // 13) for c in cells)
                    found.append((cells, False, Meld(SET, pieces, tuple(map(Face.of, pieces)))))
        found.sort(key=lambda entry: (-len(entry[0]), -entry[1]))
        table.append(tuple(_PlainMeld(sum(_UNITS[c] for c in cells), is_run, meld,
                                      sum(1 << c for c in set(cells)),
                                      len(set(cells)) < len(cells))
                           for cells, is_run, meld in found))
    return tuple(table)


class _PlainSearch:
    """The best arrangement of a hand without jokers: a memoised search over one integer.

    Melds are looked up once for the whole hand: a piece in none of them is
    deadwood whatever else happens, so the search proper only sees the pieces
    that some meld could take (often none, in a small hand).
    """

    __slots__ = ("best", "dead", "melds", "memo", "need", "pieces", "state", "values")
    values: dict[int, int]
    dead: list[Piece]
    melds: tuple[tuple[_PlainMeld, ...], ...]
    best: int
    need: int
    pieces: tuple[Piece, ...]
    memo: dict[int, tuple[int, _PlainMeld | int | None]]
    state: int

    @classmethod
    def of(cls, pieces: Sequence[Piece], rules: MeldRules, value: Callable[[Piece], int],
           need_runs: int) -> _PlainSearch | None:
        """The solved search, or ``None`` when the hand holds a joker (the full search's job)."""
        present = 0
        for piece in pieces:
            present |= 1 << piece.index
        tables = _tables(rules)
        if present & tables.not_plain:
            return None
        counts = None if present.bit_count() == len(pieces) else Counter(p.index for p in pieces)
        if counts is not None and max(counts.values()) > _MAX_COPIES:
            return None
        by_cell = tables.pieces
        search = cls.__new__(cls)
        search.need, search.pieces, search.memo = need_runs, by_cell, {}
        # Pieces no meld could take leave the search at once, as deadwood; the rest are
        # found a pattern of cells at a time (every run of three in a row, say) over the hand.
        covered = 0
        for offsets, anchors in tables.patterns[counts is not None]:
            hits = present & anchors
            for offset in offsets:
                if not hits:
                    break
                hits &= present >> offset
            if hits:
                covered |= hits
                for offset in offsets:
                    covered |= hits << offset
        values: dict[int, int] = {}
        dead: list[Piece] = []
        state, dead_cost = _GUARDS, 0
        cells = present
        while cells:
            low = cells & -cells
            cells ^= low
            cell = low.bit_length() - 1
            piece = by_cell[cell]
            if counts is None:
                if covered & low:
                    values[cell] = value(piece)
                    state += _UNITS[cell]
                else:
                    dead.append(piece)
                    dead_cost += value(piece)
                continue
            copies = counts[cell]
            worth = values[cell] = value(piece)
            if covered & low:
                state += _UNITS[cell] * copies
            else:
                dead.extend((piece,) * copies)
                dead_cost += worth * copies
        melds = tables.plain
        search.values, search.melds, search.dead, search.state = values, melds, dead, state
        if not covered:
            search.best = INFINITY if need_runs else dead_cost
        elif need_runs and not _plain_runs_possible(tables.shortest_plain_runs, state,
                                                    need_runs):
            search.best = INFINITY
        else:
            search.best = dead_cost + search.solve(state, need_runs)
        return search

    def solve(self, state: int, need: int) -> int:
        """Least leftover value of ``state`` with ``need`` runs still required."""
        key = state << 3 | need
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        counts = state ^ _GUARDS
        if not counts:
            best = INFINITY if need else 0
            self.memo[key] = (best, None)
            return best
        anchor = ((counts & -counts).bit_length() - 1) // _FIELD_BITS
        best = INFINITY
        choice: _PlainMeld | int | None = None
        for candidate in self.melds[anchor]:
            rest = state - candidate.mask
            if rest & _GUARDS != _GUARDS:
                continue
            result = self.solve(rest, need - 1 if candidate.is_run and need else need)
            if result < best:
                best, choice = result, candidate
                if not best:
                    break
        if best:
            cost = self.values[anchor]
            if cost < best:
                result = cost + self.solve(state - _UNITS[anchor], need)
                if result < best:
                    best, choice = result, anchor
        self.memo[key] = (best, choice)
        return best

    def arrangement(self) -> Arrangement | None:
        """The melds and deadwood of the best path, or ``None`` if the minimums are impossible."""
        if self.best >= INFINITY:
            return None
        if self.state == _GUARDS:
            return Arrangement((), tuple(self.dead), self.best)
        melds: list[Meld] = []
        dead = list(self.dead)
        state, need = self.state, self.need
        while state != _GUARDS:
            choice = self.memo[state << 3 | need][1]
            if isinstance(choice, int):
                dead.append(self.pieces[choice])
                state -= _UNITS[choice]
                continue
            assert choice is not None, "the best path ends with the pool empty"
            melds.append(choice.meld)
            state -= choice.mask
            if choice.is_run and need:
                need -= 1
        if len(dead) > len(self.dead):
            dead.sort(key=_index)  # in cell order, as the full search lists them
        return Arrangement(tuple(melds), tuple(dead), self.best)


def _index(piece: Piece) -> int:
    return piece.index


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _shortest_runs(table: tuple[tuple[_PlainMeld, ...], ...]
                   ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per anchor cell holding one, the masks of the shortest plain runs starting there.

    Any run holds one of them, and taking fewer pieces never leaves less for
    the runs still needed, so they are all the fast exit has to try.
    """
    runs = [c for row in table for c in row if c.is_run]
    shortest = min((len(c.meld) for c in runs), default=0)
    found = []
    for anchor, row in enumerate(table):
        masks = tuple(c.mask for c in row if c.is_run and len(c.meld) == shortest)
        if masks:
            found.append((anchor, masks))
    return tuple(found)


def _plain_runs_possible(runs: tuple[tuple[int, tuple[int, ...]], ...], state: int, need: int,
                         start: int = 0) -> bool:
    """Whether ``need`` disjoint runs can be taken from ``state`` (the fast exit, no jokers)."""
    if not need:
        return True
    for index in range(start, len(runs)):
        anchor, masks = runs[index]
        if not (state >> (_FIELD_BITS * anchor)) & 3:
            continue
        for mask in masks:
            rest = state - mask
            if rest & _GUARDS == _GUARDS and _plain_runs_possible(runs, rest, need - 1, index):
                return True
    return False


# -- the fast exit -------------------------------------------------------------


class _RunWindow(NamedTuple):
    """A run window in one suit: pool cells of its ordinary ranks, its wild cell, its length."""

    ordinary: tuple[int, ...]
    wild: tuple[int, ...]
    length: int


def _run_windows(rules: MeldRules) -> tuple[tuple[_RunWindow, ...], tuple[_RunWindow, ...]]:
    """Shortest pure run windows, and every core run window, in every suit."""
    shortest: list[_RunWindow] = []
    core: list[_RunWindow] = []
    seen: set[tuple[int, ...]] = set()
    for length in range(rules.run_min, _MAX_CORE + 1):
        for ranks in rules.runs.windows(length):
            if len(set(ranks)) != length or ranks in seen:
                continue
            seen.add(ranks)
            for suit in range(4):
                window = _RunWindow(
                    tuple(suit * 13 + r - 1 for r in ranks if r != rules.wild_rank),
                    (_WILD + suit,) if rules.wild_rank in ranks else (), length)
                core.append(window)
                if length == rules.run_min and len(window.ordinary) >= rules.run_min_naturals:
                    shortest.append(window)
    return tuple(shortest), tuple(core)


def _minimums_possible(pool: bytearray, rules: MeldRules, min_runs: int, min_pure: int) -> bool:
    """False only if no choice of pieces makes ``min_runs`` runs, ``min_pure`` of them pure.

    A quick necessary test, so a hopeless hand is refused without a search:
    ``min_pure`` disjoint pure runs of the shortest length (any pure run holds
    one, and fewer pieces taken leave more for the rest), then, if one more run
    is needed, any core window whose ordinary naturals plus every joker left
    fill it. Two or more further runs are left to the search. With at most one
    further run (Indian's two sequences, one pure; Remi's one sequence) the test
    is exact: a "yes" means the search will find an arrangement.
    """
    if rules.run_min_naturals >= rules.run_min:
        return True  # a pure run might need all its pieces ordinary: not worth a shortcut
    shortest, core = _tables(rules).run_windows
    return _pure_then_any(pool, shortest, core, rules.run_min_naturals, min_pure,
                          max(min_runs - min_pure, 0), 0)


def _pure_then_any(pool: bytearray, shortest: tuple[_RunWindow, ...],
                   core: tuple[_RunWindow, ...], min_naturals: int, pure: int, others: int,
                   start: int) -> bool:
    if pure:
        for index in range(start, len(shortest)):
            window = shortest[index]
            cells = window.ordinary + window.wild
            if all(pool[c] for c in cells):
                for c in cells:
                    pool[c] -= 1
                found = _pure_then_any(pool, shortest, core, min_naturals, pure - 1, others,
                                       index)
                for c in cells:
                    pool[c] += 1
                if found:
                    return True
        return False
    if others != 1:
        return True
    jokers = pool[_PRINTED] + sum(pool[_WILD:_WILD + 4])
    for window in core:
        held = sum(1 for c in window.ordinary if pool[c])
        if held >= min_naturals and held + jokers >= window.length:
            return True
    return False


def best_arrangement(pieces: Sequence[Piece], rules: MeldRules, value: Callable[[Piece], int],
                     *, min_runs: int = 0, min_pure_runs: int = 0) -> Arrangement | None:
    """The arrangement with the least unmelded value, or ``None`` if the minimums are impossible.

    ``min_runs``/``min_pure_runs`` require that many runs (sequences) and pure
    runs among the melds (Indian IND-23/IND-27: two sequences, one pure; Remi
    backing: one sequence).
    """
    plain = _PlainSearch.of(pieces, rules, value, max(min_runs, min_pure_runs))
    if plain is not None:
        return plain.arrangement()
    search = _Search(pieces, rules, value)
    if (min_runs or min_pure_runs) and not _minimums_possible(search.pool, rules, min_runs,
                                                              min_pure_runs):
        return None
    search.pool[_NEED_RUNS] = min_runs
    search.pool[_NEED_PURE] = min_pure_runs
    if search.solve(0, INFINITY) >= INFINITY:
        return None
    return search.rebuild()


def full_search(pieces: Sequence[Piece], rules: MeldRules, value: Callable[[Piece], int],
                *, min_runs: int = 0, min_pure_runs: int = 0) -> Arrangement | None:
    """:func:`best_arrangement` without the no-joker path and the fast exit.

    The general search alone, for tests and benches to check the shortcuts against.
    """
    search = _Search(pieces, rules, value)
    search.pool[_NEED_RUNS] = min_runs
    search.pool[_NEED_PURE] = min_pure_runs
    if search.solve(0, INFINITY) >= INFINITY:
        return None
    return search.rebuild()


def deadwood_value(pieces: Sequence[Piece], rules: MeldRules,
                   value: Callable[[Piece], int]) -> int:
    """The least value left unmelded (no minimums)."""
    plain = _PlainSearch.of(pieces, rules, value, 0)
    if plain is not None:
        return plain.best
    return _Search(pieces, rules, value).solve(0, INFINITY)


def covers_all(pieces: Sequence[Piece], rules: MeldRules) -> Arrangement | None:
    """A division of every piece into melds (Rummi Tien Hu, RMI-8), or ``None``."""
    result = best_arrangement(pieces, rules, lambda _: 1)
    return result if result is not None and result.value == 0 else None
