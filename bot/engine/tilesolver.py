"""Tile Rummy table search: the best play and ``arrange`` (TIL-16 … TIL-20), exact.

The core is a dynamic programme over the numbers 1 … 13 (after van Rijn, Takes
and Vis, "The complexity of Rummikub problems"). Walking up the numbers, the
state holds, per colour, how many runs are open with length 1, 2 and 3+
(``(n1, n2, n3)``), how many free jokers have been used, and, before an
initial meld, the face total so far. At each number every tile of that number
is either left out (rack tiles only), continues an open run, starts a run, or
joins a set of that number; jokers do the same as any tile of that number.

Two facts keep it small and exact:

* a run of length 3+ that could continue always does in the state: an open
  run of length 3+ can do all that a fresh run of length 1 can (continue) and
  may also stop, so the state with more long runs dominates;
* the tiles of one number that go to sets are feasible as sets exactly when,
  for some set count m, no colour appears more than m times and the total
  (jokers included) lies between 3m and 4m (round-robin assignment).

The programme scores a placed rack tile ``SCALE + value`` (the most tiles,
then the most value, TIL-23 values: a joker 30); table tiles must all be placed.
Table jokers and the joker options are handled one level up by *scenarios*:
each table joker is either kept (pinned to its stand-in: in a run an extra copy
of that tile; in a set any tile of that number) or released with a matching
tile (TIL-17); ``joker_locks_meld`` keeps a locked meld's start tiles together
(its possible growths are enumerated); ``retrieved_joker_new_meld_only`` puts a
released joker into a meld of rack tiles (enumerated).

Speed: states that another state dominates are dropped after each number (more
long runs, no more jokers used, a score as high); a search first places the rack
without its jokers and adds them where they fit, which gives a floor; then it
asks for the most tiles first (all rack tiles forced, then one fewer …), where
the floor prunes hardest. The programme itself runs in C (``_tilecore.c``) when that
was built; ``_programme_python`` is its reference and fallback, with identical results
(the same score and the same decisions, so the same melds).

``arrange`` (the fewest staged melds changed) runs a second programme in C,
``_tilecore.fewest_breaks``: the same walk up the numbers with every tile forced, in
which each staged meld that may change is a *group* the walk decides to break (its
tiles join, at a cost of 1) or to leave; the bound on breaks is raised one at a time,
so the first answer is the fewest, and the walk goes up or down the numbers, whichever
stores fewer states. Joker scenarios are enumerated around it. Where its
model does not reach (no C core, before the initial meld, locks, released jokers into
rack-only melds, ``replace`` with table jokers), the older search over sets of melds,
widened one meld at a time, answers; both give the same counts (tests/test_tilesolver.py).

Where the model is wider or narrower than the staging actions (rare; the
engine guards the first): two kept table jokers from different melds may end in
one meld here, though neither may move (TIL-12c), so ``arrange`` results doing
that are cut between the jokers when both parts stay runs (``_apart``) and are
refused by the engine otherwise; a locked meld grows by numbered tiles and by the
rack's jokers (a joker placed earlier in the turn does not join it), and a
locked meld with one joker released and another kept is not searched.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from .cards import NO_SUIT, TILE_JOKER, Face, Tile
from .melds import missing_colours

SCALE = 10_000
"""Score of one placed rack tile before its value: more tiles always beat more value."""
JOKER_VALUE = 30
"""TIL-3: a joker on a rack is worth 30."""
COLOURS = range(4)
NUMBERS = range(1, 14)

Slot = tuple[Tile, Face]
"""A tile in a meld with what it stands for (its own face for a numbered tile)."""


class SearchStopped(Exception):
    """The search went past its time limit (TIL-20: ``search stopped``)."""


def tile_value(tile: Tile) -> int:
    """TIL-23: the number, or 30 for a joker."""
    return JOKER_VALUE if tile.is_joker else tile.rank


# ---------------------------------------------------------------------------
# The dynamic programme
# ---------------------------------------------------------------------------


@dataclass
class Supply:
    """What one run of the programme may use.

    ``forced[c][v]`` are tiles that must be placed as (colour c, number v):
    table tiles, kept run jokers (pinned to their stand-in) and release tiles.
    ``optional[c][v]`` are rack tiles that may be placed. ``free_forced`` and
    ``free_optional`` are jokers usable anywhere (table jokers that are free or
    released; rack jokers). ``pinned[v]`` are kept set jokers: each must stand
    for some tile of number v. ``min_face``: the placed tiles' faces must total
    at least this (initial meld, TIL-16).
    """

    forced: list[list[list[Tile]]] = field(
        default_factory=lambda: [[[] for _ in range(14)] for _ in COLOURS])
    forced_faces: list[list[list[Face]]] = field(
        default_factory=lambda: [[[] for _ in range(14)] for _ in COLOURS])
    optional: list[list[list[Tile]]] = field(
        default_factory=lambda: [[[] for _ in range(14)] for _ in COLOURS])
    free_forced: list[Tile] = field(default_factory=list)
    free_optional: list[Tile] = field(default_factory=list)
    pinned: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(14)])
    min_face: int = 0

    def force(self, tile: Tile, face: Face | None = None) -> None:
        face = face if face is not None else Face(tile.rank, tile.suit)
        self.forced[face.suit][face.rank].append(tile)
        self.forced_faces[face.suit][face.rank].append(face)

    def copy(self) -> Supply:
        return Supply([[list(x) for x in c] for c in self.forced],
                      [[list(x) for x in c] for c in self.forced_faces],
                      [[list(x) for x in c] for c in self.optional],
                      list(self.free_forced), list(self.free_optional),
                      [list(x) for x in self.pinned], self.min_face)

    def rack_tiles(self) -> list[Tile]:
        return [t for c in COLOURS for v in NUMBERS for t in self.optional[c][v]] + \
            list(self.free_optional)


@dataclass(frozen=True, slots=True)
class Solution:
    """A valid table: its melds (slots in order) and the score of the rack tiles it places."""

    score: int
    melds: tuple[tuple[Slot, ...], ...]

    @property
    def placed(self) -> int:
        return self.score // SCALE


_RUN_STATES = [(a, b, c) for a in range(5) for b in range(5) for c in range(5) if a + b + c <= 4]
_RUN_INDEX = {state: i for i, state in enumerate(_RUN_STATES)}


def _step(runs: tuple[int, int, int], x: int) -> tuple[int, int, int] | None:
    """Per-colour run state after ``x`` tiles of the next number go to runs (see module doc)."""
    n1, n2, n3 = runs
    if x < n1 + n2:
        return None
    k3 = min(n3, x - n1 - n2)
    new = x - n1 - n2 - k3
    if new + n1 + n2 + k3 > 4:
        return None
    return (new, n1, n2 + k3)


_STEP: list[list[int]] = [
    [-1 if (t := _step(state, x)) is None else _RUN_INDEX[t] for x in range(10)]
    for state in _RUN_STATES]
"""``_STEP[state][x]``: the next run-state index, or -1 (an open short run would stop)."""
_OPEN_SHORT = [bool(a or b) for a, b, _ in _RUN_STATES]


@cache
def _sets_ok(naturals: int, top: int, jokers: int) -> bool:
    """Can ``naturals`` tiles (at most ``top`` of one colour) plus ``jokers`` form sets?"""
    total = naturals + jokers
    if total == 0:
        return True
    for m in range(max(top, 1), total // 3 + 1):
        if 3 * m <= total <= 4 * m and naturals >= m:
            return True
    return False


# Packed keys: four 6-bit run states, then u (2 bits), face (7), jokers at v (3),
# set naturals at v (4), most set naturals of one colour (2).
_U, _FACE, _JV, _SN, _TOP = 24, 26, 33, 36, 40
_M6, _M2, _M7, _M3, _M4 = 63, 3, 127, 7, 15


def _run_dominates(a: int, b: int) -> bool:
    """Run state ``a`` can do whatever ``b`` can: its short runs are matched by runs of ``b``
    at most as long, and it has at least as many runs (extra ones long, free to stop)."""
    a1, a2, a3 = _RUN_STATES[a]
    b1, b2, b3 = _RUN_STATES[b]
    return a1 <= b1 and a1 + a2 <= b1 + b2 and a1 + a2 + a3 >= b1 + b2 + b3


_DOMINATES = [[_run_dominates(a, b) for b in range(len(_RUN_STATES))]
              for a in range(len(_RUN_STATES))]


_DOMINATORS = 400
"""States each state is compared with (the best so far): dropping dominated states is only
a speed-up, so a cap keeps the filter cheap without losing exactness."""
_SAME_AT_V = (_M3 << _JV) | (_M4 << _SN) | (_M2 << _TOP)


def _undominated(layer: dict[int, int], forced_jokers: int) -> dict[int, int]:
    """Drop states another state dominates: every colour's runs at least as good, no more
    free jokers used (and enough left for the table's), a face total as high, the same
    jokers and set tiles at the current number, and a score as high once jokers already
    used are counted as placed."""
    if len(layer) < 8:
        return layer
    gain = SCALE + JOKER_VALUE
    ranked = sorted(layer.items(), key=lambda item: -(item[1] + ((item[0] >> _U) & _M2) * gain))
    groups: dict[int, list] = {}
    out: dict[int, int] = {}
    dom = _DOMINATES
    for key, score in ranked:
        kept = groups.setdefault(key & _SAME_AT_V, [])
        u = (key >> _U) & _M2
        face = (key >> _FACE) & _M7
        value = score + u * gain
        runs = (key & _M6, (key >> 6) & _M6, (key >> 12) & _M6, (key >> 18) & _M6)
        beaten = False
        for k_value, k_u, k_face, k_u_ok, k_runs in kept[:_DOMINATORS]:
            if (k_value >= value and k_u <= u and (k_u == u or k_u_ok) and k_face >= face
                    and dom[k_runs[0]][runs[0]] and dom[k_runs[1]][runs[1]]
                    and dom[k_runs[2]][runs[2]] and dom[k_runs[3]][runs[3]]):
                beaten = True
                break
        if not beaten:
            kept.append((value, u, face, u >= forced_jokers, runs))
            out[key] = score
    return out




Decisions = list[tuple[list[tuple[int, int, int]], int]]
"""What the programme chose per number 1 … 13: ``(nat, s, jr)`` per colour (tiles placed,
of them to sets, jokers to runs) and the jokers to sets: all :func:`_rebuild` needs."""


def run_programme(supply: Supply, deadline: float | None = None,
                  floor: int = 0) -> Solution | None:
    """The best valid table for ``supply`` (None when the forced tiles fit no table).

    ``floor``: only tables scoring at least this are sought (states that cannot
    reach it are dropped), so ``None`` also means "none that good".
    """
    forced = [[len(supply.forced[c][v]) for v in range(14)] for c in COLOURS]
    optional = [[len(supply.optional[c][v]) for v in range(14)] for c in COLOURS]
    jf, jo = len(supply.free_forced), len(supply.free_optional)
    pinned = [len(p) for p in supply.pinned]
    found = _programme(forced, optional, jf, jo, pinned, supply.min_face, floor, deadline)
    if found is None:
        return None
    score, decisions = found
    return Solution(score, _rebuild(supply, decisions))


def _programme_python(forced: Sequence[Sequence[int]], optional: Sequence[Sequence[int]],
                      jf: int, jo: int, pinned: Sequence[int], target: int, floor: int,
                      deadline: float | None) -> tuple[int, Decisions] | None:
    """The programme on counts: ``forced[c][v]``, ``optional[c][v]``, free forced and
    optional jokers, ``pinned[v]``, the face target (``Supply.min_face``); the best score
    and its decisions, or None. The reference for the C core (``_tilecore.c``), which
    returns the same score and the same decisions in every case.
    """
    jokers = jf + jo
    rest_gain = [0] * 15
    for v in range(13, 0, -1):
        rest_gain[v] = rest_gain[v + 1] + sum(optional[c][v] for c in COLOURS) * (SCALE + v)
    joker_gain = jo * (SCALE + JOKER_VALUE)
    layer: dict[int, int] = {0: 0}
    trail: list[dict[int, tuple]] = []
    step = _STEP
    for v in NUMBERS:
        if deadline is not None and time.monotonic() > deadline:
            raise SearchStopped()
        pv = pinned[v]
        partial = layer
        for c in COLOURS:
            f, o = forced[c][v], optional[c][v]
            gain_per = SCALE + v
            hope = rest_gain[v + 1] + joker_gain + gain_per * sum(
                optional[d][v] for d in range(c + 1, 4))
            cut = floor - hope
            shift = 6 * c
            clear = ~(_M6 << shift)
            # (run tiles offered besides jokers, set tiles, gain, face) per choice
            choices = [(nat - s, s, nat, (nat - f) * gain_per, v * nat)
                       for nat in range(f, f + o + 1) for s in range(min(nat, 3) + 1)]
            nxt: dict[int, int] = {}
            back: dict[int, tuple] = {}
            get = nxt.get
            for key, score in partial.items():
                table = step[(key >> shift) & _M6]
                u = (key >> _U) & _M2
                jv = (key >> _JV) & _M3
                sn = (key >> _SN) & _M4
                top = (key >> _TOP) & _M2
                face = (key >> _FACE) & _M7
                spare = jokers - u + pv - jv
                base = key & clear & ~((_M3 << _JV) | (_M4 << _SN) | (_M2 << _TOP)
                                       | (_M7 << _FACE))
                for runs_x, s, nat, gain, face_add in choices:
                    total = score + gain
                    if total < cut:
                        continue
                    for jr in range(spare + 1):
                        stepped = table[runs_x + jr]
                        if stepped < 0:
                            continue
                        nface = min(face + face_add + v * jr, target) if target else 0
                        nkey = (base | (stepped << shift) | (nface << _FACE)
                                | ((jv + jr) << _JV) | ((sn + s) << _SN)
                                | ((top if top > s else s) << _TOP))
                        if total > get(nkey, -1):
                            nxt[nkey] = total
                            back[nkey] = (key, (nat, s, jr))
            partial = nxt
            trail.append(back)
        layer = {}
        lback: dict[int, tuple] = {}
        for key, score in partial.items():
            u = (key >> _U) & _M2
            jv = (key >> _JV) & _M3
            sn = (key >> _SN) & _M4
            top = (key >> _TOP) & _M2
            face = (key >> _FACE) & _M7
            runs = key & 0xFFFFFF
            spare = jokers - u + pv - jv
            for js in range(spare + 1):
                used_free = jv + js - pv
                if used_free < 0 or not _sets_ok(sn, top, js):
                    continue
                nface = min(face + v * js, target) if target else 0
                state = runs | ((u + used_free) << _U) | (nface << _FACE)
                if score > layer.get(state, -1):
                    layer[state] = score
                    lback[state] = (key, js)
        trail.append(lback)
        if not layer:
            return None
        layer = _undominated(layer, jf)
    best: tuple[int, int] | None = None
    for state, score in layer.items():
        u = (state >> _U) & _M2
        face = (state >> _FACE) & _M7
        if any(_OPEN_SHORT[(state >> (6 * c)) & _M6] for c in COLOURS) or u < jf or (
                target and face < target):
            continue
        total = score + (u - jf) * (SCALE + JOKER_VALUE)
        if best is None or total > best[0]:
            best = (total, state)
    if best is None:
        return None
    return best[0], _walk(trail, best[1])


def _walk(trail: list[dict[int, tuple]], final: int) -> Decisions:
    """Follow the back-pointers from the final state: the decisions, number by number."""
    decisions: Decisions = []
    state = final
    index = len(trail) - 1
    for _v in NUMBERS:
        key, js = trail[index][state]
        index -= 1
        choices = []
        for _c in COLOURS:
            key, choice = trail[index][key]
            index -= 1
            choices.append(choice)
        choices.reverse()
        decisions.append((choices, js))
        state = key
    decisions.reverse()
    return decisions


def _programme_c(forced: Sequence[Sequence[int]], optional: Sequence[Sequence[int]],
                 jf: int, jo: int, pinned: Sequence[int], target: int, floor: int,
                 deadline: float | None) -> tuple[int, Decisions] | None:
    """:func:`_programme_python` in C (``_tilecore.c``): the same result, much faster."""
    try:
        return _tilecore.programme(forced, optional, jf, jo, pinned, target, floor, deadline)
    except _tilecore.Stopped:
        raise SearchStopped() from None


try:
    from . import _tilecore
except ImportError:  # built without a C compiler: the same programme, in Python
    _tilecore = None  # type: ignore[assignment]

_programme = _programme_python if _tilecore is None else _programme_c
CORE = "Python" if _tilecore is None else "C"
"""Which core runs the programme: ``C`` (the extension was built) or ``Python``."""


@contextmanager
def pure_python_core() -> Iterator[None]:
    """Inside the block the programme runs in Python (to compare the cores)."""
    global _programme
    saved = _programme
    _programme = _programme_python
    try:
        yield
    finally:
        _programme = saved


def _rebuild(supply: Supply, decisions: Decisions) -> tuple[tuple[Slot, ...], ...]:
    """Lay real tiles into melds as the programme's decisions say."""
    free = list(supply.free_forced) + list(supply.free_optional)
    melds: list[list[Slot]] = []
    open_runs: list[list[list[Slot]]] = [[] for _ in COLOURS]
    for v, (choices, js) in zip(NUMBERS, decisions, strict=True):
        jokers_here = list(supply.pinned[v])
        set_tiles: list[Slot] = []
        for c, (nat, s, jr) in zip(COLOURS, choices, strict=True):
            tiles = list(zip(supply.forced[c][v], supply.forced_faces[c][v], strict=True))
            tiles += [(t, Face(t.rank, t.suit)) for t in supply.optional[c][v]]
            tiles = tiles[:nat]
            set_tiles += tiles[:s]
            run_tiles = tiles[s:]
            for _ in range(jr):
                joker = jokers_here.pop() if jokers_here else free.pop(0)
                run_tiles.append((joker, Face(v, c)))
            runs = sorted(open_runs[c], key=len)
            short = [r for r in runs if len(r) < 3]
            long = [r for r in runs if len(r) >= 3]
            k3 = min(len(long), len(run_tiles) - len(short))
            still_open = []
            for run in short + long[:k3]:
                run.append(run_tiles.pop(0))
                still_open.append(run)
            melds.extend(long[k3:])
            still_open.extend([tile] for tile in run_tiles)
            open_runs[c] = still_open
        set_jokers = [jokers_here.pop() if jokers_here else free.pop(0) for _ in range(js)]
        if set_tiles or set_jokers:
            melds.extend(_deal_sets(v, set_tiles, set_jokers))
    for runs in open_runs:
        melds.extend(runs)
    return tuple(tuple(m) for m in melds)


def _deal_sets(v: int, naturals: list[Slot], jokers: list[Tile]) -> list[list[Slot]]:
    total = len(naturals) + len(jokers)
    by_colour: dict[int, int] = {}
    for _, face in naturals:
        by_colour[face.suit] = by_colour.get(face.suit, 0) + 1
    top = max(by_colour.values(), default=0)
    m = next(m for m in range(max(top, 1), total // 3 + 1)
             if 3 * m <= total <= 4 * m and len(naturals) >= m)
    sets: list[list[Slot]] = [[] for _ in range(m)]
    for i, slot in enumerate(sorted(naturals, key=lambda s: s[1].suit)):
        sets[i % m].append(slot)
    for joker in jokers:
        smallest = min(sets, key=len)
        smallest.append((joker, Face(v, NO_SUIT)))
    return [_with_colours(meld) for meld in sets]


def _with_colours(meld: list[Slot]) -> list[Slot]:
    """A set's jokers as the engine reads them (TIL-9: in a set of four, the missing
    colours)."""
    faces = missing_colours([f for _, f in meld])
    return [(t, f) for (t, _), f in zip(meld, faces, strict=True)]


def meld_items(slots: Sequence[Slot]) -> list[tuple[Tile, Face | None]]:
    """Slots as :func:`read_meld` input: jokers pinned to their face, numbered tiles bare."""
    return [(t, f if t.is_joker else None) for t, f in slots]


# ---------------------------------------------------------------------------
# Scenarios: table jokers, locks, released jokers in rack-only melds
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SolveRules:
    """The options that shape a search (TIL-16 … TIL-19)."""

    initial_meld: int = 30
    joker_retrieve: str = "replace_from_rack"
    locks: bool = False
    new_meld_only: bool = False


@dataclass(frozen=True, slots=True)
class TableJoker:
    """A joker that was on the table at the start of the turn (TIL-17)."""

    face: Face
    """What it stood for then (a set joker: the number, colour open)."""
    in_set: bool
    block: tuple[Slot, ...] = ()
    """Its start meld's tiles (for ``joker_locks_meld``)."""
    released: bool = False
    """Already released this turn (``arrange`` on a staged table)."""
    block_id: int = 0


@dataclass
class Problem:
    """A search: tiles that must be placed, rack tiles that may be, and the table jokers."""

    table: list[Tile]
    """Numbered tiles that must end on the table, placed before this turn."""
    placed: list[Tile] = field(default_factory=list)
    """Numbered tiles that must end on the table, placed from the rack this turn."""
    rack: list[Tile] = field(default_factory=list)
    """Rack tiles (jokers included) that may be placed."""
    jokers: list[TableJoker] = field(default_factory=list)
    placed_jokers: int = 0
    """Rack jokers already placed this turn (free, must stay on the table)."""
    rules: SolveRules = field(default_factory=SolveRules)
    min_face: int = 0


def _matches(joker: TableJoker, tile: Tile) -> bool:
    """Could ``tile`` release ``joker`` (TIL-17: run, the exact tile; set, that number)?"""
    if tile.is_joker or tile.rank != joker.face.rank:
        return False
    if not joker.in_set:
        return tile.suit == joker.face.suit
    return True


def _release_options(joker: TableJoker, problem: Problem,
                     locked_colours: set[int]) -> list[tuple[str, Tile | None]]:
    """Ways to release ``joker``: ("rack", tile) takes a rack tile; ("table", None) uses a tile
    already on the table (``replace`` and ``free`` only)."""
    options: list[tuple[str, Tile | None]] = []
    if problem.rules.joker_retrieve != "replace_from_rack" and any(
            _matches(joker, t) and t.suit not in locked_colours
            for t in (*problem.table, *problem.placed)):
        options.append(("table", None))
    for tile in sorted({t for t in problem.rack if _matches(joker, t)}, key=lambda t: t.index):
        if tile.suit not in locked_colours:
            options.append(("rack", tile))
    return options


def solve(problem: Problem, deadline: float | None = None, floor: int = 0) -> Solution | None:
    """The best table for ``problem`` under every joker rule, or None if there is none.

    With jokers on the rack, a first search without them gives a table to which the
    jokers are then added where they fit; its score is a floor that prunes the full
    search hard (most states cannot beat it), and it is the answer when nothing beats it.
    """
    rack_jokers = [t for t in problem.rack if t.is_joker]
    if rack_jokers and not problem.min_face:
        plain = Problem(problem.table, problem.placed, [t for t in problem.rack
                                                        if not t.is_joker],
                        problem.jokers, problem.placed_jokers, problem.rules)
        start = solve(plain, deadline, floor)
        if start is not None:
            start = _add_jokers(start, len(rack_jokers))
            if start.score == sum(SCALE + tile_value(t) for t in problem.rack):
                return start  # every rack tile placed: nothing can beat it
            # More tiles than the start places: try the most first (tight floors prune most).
            everything = _place_everything(problem, deadline)
            if everything is not None and everything.score >= floor:
                return everything
            for count in range(len(problem.rack) - 1, start.placed, -1):
                better = _solve_all(problem, deadline, max(floor, count * SCALE))
                if better is not None:
                    return better
            better = _solve_all(problem, deadline, max(floor, start.score + 1))
            return better if better is not None else start
    return _solve_all(problem, deadline, floor)


def _place_everything(problem: Problem, deadline: float | None) -> Solution | None:
    """A table holding every rack tile (searched with all of them forced: much smaller)."""
    numbered = [t for t in problem.rack if not t.is_joker]
    forced = Problem(problem.table, [*problem.placed, *numbered], [], problem.jokers,
                     problem.placed_jokers + len(problem.rack) - len(numbered), problem.rules)
    found = _solve_all(forced, deadline, 0)
    if found is None:
        return None
    return Solution(found.score + sum(SCALE + tile_value(t) for t in problem.rack), found.melds)


def _add_jokers(solution: Solution, count: int) -> Solution:
    """``solution`` with up to ``count`` rack jokers added to sets of three or run ends."""
    melds = [list(m) for m in solution.melds]
    score = solution.score
    for _ in range(count):
        for meld in melds:
            faces = [f for _, f in meld]
            if len({f.rank for f in faces}) == 1:
                if len(meld) < 4:
                    meld.append((TILE_JOKER, Face(faces[0].rank, NO_SUIT)))
                    meld[:] = _with_colours(meld)
                    break
                continue
            colour = next(f.suit for f in faces if f.suit != NO_SUIT)
            high = max(f.rank for f in faces)
            low = min(f.rank for f in faces)
            if high < 13:
                meld.append((TILE_JOKER, Face(high + 1, colour)))
                break
            if low > 1:
                meld.insert(0, (TILE_JOKER, Face(low - 1, colour)))
                break
        else:
            break
        score += SCALE + JOKER_VALUE
    return Solution(score, tuple(tuple(m) for m in melds))


def _solve_all(problem: Problem, deadline: float | None, floor: int) -> Solution | None:
    """Every joker scenario of ``problem``; the best table scoring at least ``floor``."""
    rules = problem.rules
    choices: list[list[tuple[str, Tile | None]]] = []
    for joker in problem.jokers:
        if joker.released:
            choices.append([("free", None)])
            continue
        keep: list[tuple[str, Tile | None]] = [("keep", None)]
        if rules.joker_retrieve == "free" and not rules.locks:
            choices.append(keep)
            continue
        colours = ({f.suit for t, f in joker.block if not t.is_joker}
                   if rules.locks and joker.in_set else set())
        choices.append(keep + _release_options(joker, problem, colours))
    best: Solution | None = None
    for combo in product(*choices):
        found = _solve_scenario(problem, combo, deadline, max(floor, best.score + 1 if best
                                                             else floor))
        if found is not None and (best is None or found.score > best.score):
            best = found
    return best


def _take(pool: list[Tile], tile: Tile) -> bool:
    if tile in pool:
        pool.remove(tile)
        return True
    return False


def _solve_scenario(problem: Problem, combo: Sequence[tuple[str, Tile | None]],
                    deadline: float | None, floor: int) -> Solution | None:
    rules = problem.rules
    table = list(problem.table)
    placed = list(problem.placed)
    rack = list(problem.rack)
    offset = 0
    free_forced: list[Tile] = [TILE_JOKER] * problem.placed_jokers
    pinned_runs: list[Face] = []
    homes: dict[Face, int] = {}
    """Kept run jokers' stand-ins and the start melds they may not leave (TIL-12c)."""
    pinned_sets: list[int] = []
    released: list[Tile] = []
    locked_blocks: dict[int, tuple[Slot, ...]] = {}
    opened: set[int] = set()
    for joker, (how, tile) in zip(problem.jokers, combo, strict=True):
        if how == "keep":
            if rules.locks:
                locked_blocks[joker.block_id] = joker.block
            elif rules.joker_retrieve == "free":
                free_forced.append(TILE_JOKER)
            elif joker.in_set:
                pinned_sets.append(joker.face.rank)
            else:
                pinned_runs.append(joker.face)
                homes[joker.face] = joker.block_id
            continue
        opened.add(joker.block_id)
        if how == "rack":
            assert tile is not None
            if not _take(rack, tile):
                return None
            placed.append(tile)
            offset += SCALE + tile.rank
        released.append(TILE_JOKER)
    if rules.locks and opened & set(locked_blocks):
        return None  # one joker of a locked meld released, another kept: not searched
    if locked_blocks and any(how == "table" for how, _ in combo):
        # A tile that frees a joker from the table must be free to move: not in a locked meld.
        held = Counter(t for block in locked_blocks.values() for t, _ in block if not t.is_joker)
        movable = Counter((*problem.table, *problem.placed)) - held
        if any(how == "table" and not any(_matches(joker, t) for t in movable)
               for joker, (how, _) in zip(problem.jokers, combo, strict=True)):
            return None
    free_forced += released
    # A locked meld keeps its start tiles together; its jokers stay in it.
    for block in locked_blocks.values():
        for t, _ in block:
            if t.is_joker:
                continue
            if not (_take(table, t) or _take(placed, t)):
                return None
    growth_lists = [_growths(block, table, placed, rack) for block in locked_blocks.values()]
    best: Solution | None = None
    for growths in product(*growth_lists):
        t2, p2, r2 = list(table), list(placed), list(rack)
        gain = offset
        ok = True
        melds = []
        for block, (meld, used) in zip(locked_blocks.values(), growths, strict=True):
            for t in used:
                if _take(t2, t) or _take(p2, t):
                    continue
                if _take(r2, t):
                    gain += SCALE + tile_value(t)
                    continue
                ok = False
            melds.append(meld)
            del block
        if not ok:
            continue
        found = _solve_with_jokers(t2, p2, r2, free_forced, pinned_runs, pinned_sets,
                                   len(released) if rules.new_meld_only else 0, problem,
                                   deadline,
                                   max(floor - gain, (best.score - gain + 1) if best else 0))
        if found is not None:
            total = Solution(found.score + gain, (*melds, *_apart(found.melds, homes)))
            if best is None or total.score > best.score:
                best = total
    return best


def _apart(melds: Sequence[tuple[Slot, ...]],
           homes: dict[Face, int]) -> tuple[tuple[Slot, ...], ...]:
    """Runs cut in two where the programme joined kept jokers of different start melds.

    Neither joker may move (TIL-12c), so no staging joins them in one meld; a cut between
    them that leaves two runs of three or more holds the same tiles and is reachable.
    Where there is none the run stays (``arrange`` then refuses it in the engine).
    """
    if len(homes) < 2:
        return tuple(melds)
    out: list[tuple[Slot, ...]] = []
    for meld in melds:
        ordered = sorted(meld, key=lambda slot: slot[1].rank)  # a run, lowest first
        kept = [i for i, (tile, face) in enumerate(ordered) if tile.is_joker and face in homes]
        if len({f.rank for _, f in meld}) == 1 or len({homes[ordered[i][1]] for i in kept}) < 2:
            out.append(meld)
            continue
        first, last = kept[0], kept[-1]  # the game has two jokers: these are they
        cut = next((c for c in range(first + 1, last + 1)
                    if c >= 3 and len(ordered) - c >= 3), None)
        if cut is None:
            out.append(meld)
        else:
            out += [tuple(ordered[:cut]), tuple(ordered[cut:])]
    return tuple(out)


def _growths(block: tuple[Slot, ...], table: list[Tile], placed: list[Tile],
             rack: list[Tile]) -> list[tuple[tuple[Slot, ...], tuple[Tile, ...]]]:
    """Every meld a locked block can grow into (TIL-18: only additions): numbered tiles from
    anywhere, and the rack's jokers (up to two, each standing for the place it fills)."""
    pool = set(table) | set(placed) | set(rack)
    jokers = min(2, sum(1 for t in rack if t.is_joker))
    faces = [f for _, f in block]
    numbers = {f.rank for f in faces}
    out: list[tuple[tuple[Slot, ...], tuple[Tile, ...]]] = [(block, ())]
    if len(numbers) == 1:  # a set
        if len(block) >= 4:
            return out
        v = faces[0].rank
        present = {f.suit for t, f in block if not t.is_joker or f.suit != NO_SUIT}
        for c in COLOURS:
            tile = Tile(v, c)
            if c not in present and tile in pool:
                out.append((tuple(_with_colours([*block, (tile, Face(v, c))])), (tile,)))
        if jokers:
            grown = _with_colours([*block, (TILE_JOKER, Face(v, NO_SUIT))])
            out.append((tuple(grown), (TILE_JOKER,)))
        return out
    colour = next(f.suit for f in faces if f.suit != NO_SUIT)
    low, high = min(numbers), max(numbers)
    downs = _extensions(range(low - 1, 0, -1), colour, pool, jokers)
    ups = _extensions(range(high + 1, 14), colour, pool, jokers)
    for down, down_jokers in downs:
        for up, up_jokers in ups:
            if (not down and not up) or down_jokers + up_jokers > jokers:
                continue
            slots = tuple(reversed(down)) + block + up
            out.append((slots, tuple(t for t, _ in down + up)))
    return out


def _extensions(numbers: Iterable[int], colour: int, pool: set[Tile],
                jokers: int) -> list[tuple[tuple[Slot, ...], int]]:
    """Every way to extend a run outwards through ``numbers`` (nearest first), each place
    filled by its tile from ``pool`` or by one of ``jokers``: (slots, jokers used)."""
    out: list[tuple[tuple[Slot, ...], int]] = [((), 0)]
    frontier = out
    for n in numbers:
        grown: list[tuple[tuple[Slot, ...], int]] = []
        for slots, used in frontier:
            face = Face(n, colour)
            if Tile(n, colour) in pool:
                grown.append(((*slots, (Tile(n, colour), face)), used))
            if used < jokers:
                grown.append(((*slots, (TILE_JOKER, face)), used + 1))
        if not grown:
            break
        out = out + grown
        frontier = grown
    return out


def _solve_with_jokers(table: list[Tile], placed: list[Tile], rack: list[Tile],
                       free_forced: list[Tile], pinned_runs: list[Face], pinned_sets: list[int],
                       released: int, problem: Problem,
                       deadline: float | None, floor: int) -> Solution | None:
    """Released jokers into rack-only melds (TIL-19) when asked, then the programme.

    The released jokers are the last ``released`` of ``free_forced``.
    """
    free_forced = list(free_forced)
    if released:
        return _rack_only_jokers(table, placed, rack, free_forced, pinned_runs, pinned_sets,
                                 released, problem, deadline, floor)
    supply = Supply(min_face=problem.min_face)
    for t in (*table, *placed):
        supply.force(t)
    for face in pinned_runs:
        supply.force(TILE_JOKER, face)
    for v in pinned_sets:
        supply.pinned[v].append(TILE_JOKER)
    for t in rack:
        if t.is_joker:
            supply.free_optional.append(t)
        else:
            supply.optional[t.suit][t.rank].append(t)
    supply.free_forced = free_forced
    return run_programme(supply, deadline, floor)


def _rack_only_jokers(table: list[Tile], placed: list[Tile], rack: list[Tile],
                      free_forced: list[Tile], pinned_runs: list[Face], pinned_sets: list[int],
                      released: int, problem: Problem, deadline: float | None,
                      floor: int) -> Solution | None:
    """TIL-19: each released joker ends in a meld whose numbered tiles came from the rack."""
    others = free_forced[:len(free_forced) - released]
    own = [t for t in placed] + [t for t in rack if not t.is_joker]
    rack_jokers = [t for t in rack if t.is_joker]
    best: Solution | None = None
    for meld, jokers_used in _joker_melds(own, released + len(rack_jokers)):
        p2, r2 = list(placed), list(rack)
        gain = 0
        ok = True
        for t, _ in meld:
            if t.is_joker:
                continue
            if _take(p2, t):
                continue
            if _take(r2, t):
                gain += SCALE + t.rank
            else:
                ok = False
        for _ in range(jokers_used - released):
            ok = ok and _take(r2, TILE_JOKER)
            gain += SCALE + JOKER_VALUE
        if not ok:
            continue
        left = released - min(released, jokers_used)
        found = _solve_with_jokers(table, p2, r2, others + [TILE_JOKER] * left, pinned_runs,
                                   pinned_sets, left, problem, deadline,
                                   max(floor - gain, (best.score - gain + 1) if best else 0))
        if found is not None:
            total = Solution(found.score + gain, (meld, *found.melds))
            if best is None or total.score > best.score:
                best = total
    return best


def _joker_melds(own: list[Tile], jokers: int) -> Iterator[tuple[tuple[Slot, ...], int]]:
    """Melds of 3–5 tiles holding 1..``jokers`` jokers and otherwise only tiles of ``own``
    (a longer one splits into such a meld and a meld of ``own`` tiles)."""
    pool = set(own)
    counts = {t: own.count(t) for t in pool}
    most = min(jokers, 2)
    for c in COLOURS:
        for length in range(3, 6):
            for start in range(1, 15 - length):
                window = range(start, start + length)
                for k in range(1, most + 1):
                    for holes in combinations(range(length), k):
                        slots = []
                        for i, n in enumerate(window):
                            tile = Tile(n, c)
                            if i in holes:
                                slots.append((TILE_JOKER, Face(n, c)))
                            elif tile in pool:
                                slots.append((tile, Face(n, c)))
                            else:
                                break
                        else:
                            if len(holes) < length:
                                yield tuple(slots), k
    for v in NUMBERS:
        here = [Tile(v, c) for c in COLOURS if counts.get(Tile(v, c))]
        for size in range(3, 5):
            for k in range(1, most + 1):
                for naturals in combinations(here, size - k):
                    if naturals:
                        yield tuple(_with_colours(
                            [(t, Face(v, t.suit)) for t in naturals]
                            + [(TILE_JOKER, Face(v, NO_SUIT))] * k)), k


# ---------------------------------------------------------------------------
# What the engine and the computer players ask
# ---------------------------------------------------------------------------


def table_jokers(melds: Sequence[Sequence[Slot]]) -> list[TableJoker]:
    """The jokers of start-of-turn melds, with their stand-ins and blocks."""
    found = []
    for i, meld in enumerate(melds):
        is_set = len({f.rank for _, f in meld}) == 1
        for tile, face in meld:
            if tile.is_joker:
                found.append(TableJoker(face if not is_set else Face(face.rank, NO_SUIT),
                                        is_set, tuple(meld), block_id=i))
    return found


def best_play(table: Sequence[Sequence[Slot]], rack: Sequence[Tile], initial_made: bool,
              rules: SolveRules, deadline: float | None = None) -> Solution:
    """The play that places the most rack tiles, then the most value (TIL-23 values).

    Returns the whole table after the play; ``score`` 0 means no play exists
    (the table is returned unchanged).
    """
    if rules.initial_meld and not initial_made:
        problem = Problem(table=[], rack=list(rack), rules=rules, min_face=rules.initial_meld)
        found = solve(problem, deadline, floor=1)
        if found is None or found.score == 0:
            return Solution(0, tuple(tuple(m) for m in table))
        return Solution(found.score, (*(tuple(m) for m in table), *found.melds))
    numbered = [t for m in table for t, _ in m if not t.is_joker]
    problem = Problem(table=numbered, rack=list(rack), jokers=table_jokers(table), rules=rules)
    found = solve(problem, deadline)
    if found is None or found.score == 0:
        return Solution(0, tuple(tuple(m) for m in table))
    return found


@dataclass(frozen=True, slots=True)
class StagedMeld:
    """One staged meld as ``arrange`` sees it."""

    slots: tuple[Slot, ...]
    origins: tuple[str, ...]
    """Per slot: ``table`` (there at the start of the turn) or ``rack`` (placed this turn)."""
    keepable: bool
    """Valid and passing checks 3 and 4 on its own, so it may stay as it is."""
    frozen: bool = False
    """Must stay as it is (before the initial meld: a meld of start-of-turn tiles)."""


def arrange(staged: Sequence[StagedMeld], named: Sequence[Tile], jokers: Sequence[TableJoker],
            initial_made: bool, rules: SolveRules,
            deadline: float | None = None) -> tuple[tuple[tuple[Slot, ...], ...], int] | None:
    """TIL-20: a staged table with every staged tile plus ``named``, passing checks 1–4,
    that changes the fewest staged melds; (melds, melds changed), or None.

    ``jokers`` describes each start-of-turn joker on the staged table, in the
    order they appear in ``staged`` (meld by meld). Exact: a minimal set of
    changed melds is connected to the tiles that must move (the named tiles and
    the melds that cannot stay) through tiles that could share a meld, so the
    search widens connected sets of melds one meld at a time.
    """
    joker_iter = iter(jokers)
    meld_jokers: list[list[TableJoker]] = []
    for meld in staged:
        meld_jokers.append([next(joker_iter) for (t, _), o in zip(meld.slots, meld.origins,
                                                                  strict=True)
                            if t.is_joker and o == "table"])
    must = [i for i, m in enumerate(staged) if not m.keepable and not m.frozen]
    if any(not m.keepable for m in staged if m.frozen):
        return None
    movable = [i for i, m in enumerate(staged) if m.keepable and not m.frozen]
    spread = 1 + sum(1 for m in staged for t, _ in m.slots if t.is_joker) + \
        sum(1 for t in named if t.is_joker)
    core = [t for i in must for t, _ in staged[i].slots] + list(named)
    assert spread <= 8, "the game has two jokers"

    def signature(tiles: Sequence[Tile]) -> tuple[bool, int, int, int]:
        """(a joker, numbers, numbers per colour, those widened by ``spread``) as bits:
        two groups of tiles could share a meld (``touches``) when either holds a joker,
        they share a number, or one's colour bits meet the other's widened ones."""
        numbers = cells = 0
        joker = False
        for t in tiles:
            if t.is_joker:
                joker = True
            else:
                numbers |= 1 << t.rank
                cells |= 1 << (t.suit * 32 + t.rank + 8)  # 8 spare bits each side
        wide = 0
        for shift in range(-spread, spread + 1):
            wide |= cells << shift if shift >= 0 else cells >> -shift
        return joker, numbers, cells, wide

    def touches(a: tuple[bool, int, int, int], b: tuple[bool, int, int, int]) -> bool:
        return a[0] or b[0] or bool(a[1] & b[1]) or bool(a[3] & b[2])

    sign = {i: signature([t for t, _ in staged[i].slots]) for i in movable}
    core_sign = signature(core)
    core_links = {i for i in movable if core and touches(sign[i], core_sign)}
    links = {i: {j for j in movable if j != i and touches(sign[i], sign[j])} for i in movable}
    fast = _fewest_changes(staged, meld_jokers, must, movable, named, initial_made, rules,
                           deadline, (core_links, links))
    if fast is not _SEARCH:
        return fast  # type: ignore[return-value]
    # Any arrangement at all? Changing every meld that may change is the widest search;
    # the melds its answer leaves as they were bound the depth of the narrow search.
    widest = _arrange_try(staged, meld_jokers, must, frozenset(movable), named, initial_made,
                          rules, deadline)
    if widest is None:
        return None
    kept = Counter(tuple(m) for m in widest)
    unchanged = 0
    for i in movable:
        if kept[staged[i].slots]:
            kept[staged[i].slots] -= 1
            unchanged += 1
    bound = len(movable) - unchanged
    fallback = (widest, len(must) + bound)
    # A set of melds is a bit mask where meld i is bit top - 1 - i: for sets of one size,
    # descending masks are the sets in the order of their sorted indices.
    top = len(staged)
    core_mask = sum(1 << (top - 1 - i) for i in core_links)
    link_mask = {1 << (top - 1 - i): sum(1 << (top - 1 - j) for j in links[i])
                 for i in movable}
    quick = _QuickCheck(staged, meld_jokers, must, named, initial_made, rules)
    # The sets of one size, each with the melds it reaches and its tiles packed (_QuickCheck).
    level: dict[int, tuple[int, int]] = {0: (core_mask, quick.base)}
    depth = 0
    while level and depth < bound:
        depth += 1
        for chosen in sorted(level, reverse=True):
            if deadline is not None and time.monotonic() > deadline:
                raise SearchStopped()
            if quick.fails(chosen, level[chosen][1], deadline):
                continue
            members = _members(chosen, top)
            found = _arrange_try(staged, meld_jokers, must, frozenset(members), named,
                                 initial_made, rules, deadline)
            if found is not None:
                return found, len(must) + len(members)
        if depth == bound:
            break  # the next level would not be searched: the widest answer stands
        nxt: dict[int, tuple[int, int]] = {}
        packed_of = quick.packed
        for chosen, (reach, packed) in level.items():
            free = reach & ~chosen
            while free:
                low = free & -free
                free ^= low
                grown = chosen | low
                if grown not in nxt:
                    nxt[grown] = (reach | link_mask[low], packed + packed_of[low])
        level = nxt
    return fallback


_SEARCH = object()
"""``_fewest_changes`` leaves the question to the search over sets of melds."""

Arranged = tuple[tuple[tuple[Slot, ...], ...], int]


def _fewest_changes(staged: Sequence[StagedMeld], meld_jokers: list[list[TableJoker]],
                    must: list[int], movable: list[int], named: Sequence[Tile],
                    initial_made: bool, rules: SolveRules, deadline: float | None,
                    graph: tuple[set[int], dict[int, set[int]]]
                    ) -> Arranged | object | None:
    """``arrange`` by one programme per joker scenario (``_tilecore.fewest_breaks``): the
    programme decides, meld by meld, which staged melds change, so it finds the fewest at
    once instead of trying sets of melds one by one. Then ``_arrange_try`` lays that set's
    tiles out, as the search would.

    Each table joker is kept (a run joker is one more tile at its stand-in; a set joker must
    stand for a tile of its number) or, where ``joker_retrieve`` asks for a release, freed by
    a named rack tile that matches it, its meld then changing (TIL-17). Free jokers (placed
    from the rack, released, or any joker with ``free``) are owed by a changing meld.

    Returns ``_SEARCH`` where this model is not the engine's: no C core (or one built
    before it had ``fewest_breaks``), before the initial meld (face totals),
    ``joker_locks_meld`` and ``retrieved_joker_new_meld_only`` (melds held together),
    ``replace`` with table jokers in play (a table tile frees them), a kept set joker
    outside a set, or groups the programme has no room for.

    ``graph``: the melds that could share a meld with a named tile or a meld that must
    change, and which melds could share one with which (``arrange``'s ``touches``). A meld
    k links away from those is worth breaking only along with k - 1 others (a changed meld
    no chain of changed melds links to them could stay as it was), so a bound of b breaks
    needs only the melds at most b links away.
    """
    if (_tilecore is None or not hasattr(_tilecore, "fewest_breaks")  # an older build
            or not initial_made or rules.locks or rules.new_meld_only):
        return _SEARCH
    free_mode = rules.joker_retrieve == "free"
    kept_jokers = [(i, k) for i in (*must, *movable) for k, joker in enumerate(meld_jokers[i])
                   if not joker.released and not free_mode]
    if kept_jokers and rules.joker_retrieve == "replace":
        return _SEARCH
    numbered_named = [t for t in named if not t.is_joker]
    options: list[list[Tile | None]] = []
    for i, k in kept_jokers:
        joker = meld_jokers[i][k]
        matches = sorted({t for t in numbered_named if _matches(joker, t)}, key=lambda t: t.index)
        options.append([None, *matches])
    best: tuple[int, list[int]] | None = None
    bound = len(movable)
    for combo in product(*options):
        taken = Counter(t for t in combo if t is not None)
        if taken - Counter(numbered_named):
            continue  # one rack tile frees one joker
        freed = {(i, k) for (i, k), tile in zip(kept_jokers, combo, strict=True)
                 if tile is not None}
        changing = set(must) | {i for i, _ in freed}
        setup = _break_setup(staged, meld_jokers, changing, [i for i in movable
                                                              if i not in changing],
                             named, freed, free_mode)
        if setup is None:
            return _SEARCH
        forced, pinned, jf, groups, members = setup
        extra = len(changing) - len(must)
        if extra > bound:
            continue
        core_links, links = graph
        depth = _links_away(core_links | {j for i in changing if i in links for j in links[i]},
                            links)
        try:
            found = _fewest_breaks(forced, pinned, jf, groups,
                                   [depth.get(i, len(links) + 1) for i in members],
                                   bound - extra, deadline)
        except ValueError:
            return _SEARCH
        if found is None:
            continue
        breaks, which = found
        if best is None or breaks + extra < best[0]:
            best = (breaks + extra, sorted({i for i, _ in freed} | {members[g] for g in which}))
            bound = best[0] - 1
            if bound < 0:
                break
    if best is None:
        return None
    chosen = frozenset(i for i in best[1] if i not in must)
    melds = _arrange_try(staged, meld_jokers, must, chosen, named, initial_made, rules, deadline)
    if melds is None:
        return _SEARCH  # the models disagree: let the search decide
    return melds, len(must) + len(chosen)


def _links_away(start: set[int], links: dict[int, set[int]]) -> dict[int, int]:
    """How many links each meld is from the melds ``start`` (1 for those)."""
    depth = dict.fromkeys(start, 1)
    frontier = list(start)
    while frontier:
        grown = []
        for i in frontier:
            for j in links.get(i, ()):
                if j not in depth:
                    depth[j] = depth[i] + 1
                    grown.append(j)
        frontier = grown
    return depth


def _fewest_breaks(forced: list[list[int]], pinned: list[int], jf: int, groups: list,
                   depth: list[int], bound: int,
                   deadline: float | None) -> tuple[int, list[int]] | None:
    """``_tilecore.fewest_breaks`` with the bound raised one break at a time up to ``bound``:
    a tight bound drops most states (each break more costs about twice as much), and the
    answer at each bound is already the fewest. At bound b only the groups at most b links
    away (``depth``) take part (see ``_fewest_changes``).
    Whether any number of breaks will do is asked first, of the plain programme with every
    group broken (one run, much cheaper than the widest bound)."""
    every = [list(row) for row in forced]
    pins = list(pinned)
    owed = jf
    for _colour, owes, set_pins, cells in groups:
        owed += owes
        for c, v in cells:
            every[c][v] += 1
        if set_pins:
            pins[cells[0][1]] += set_pins
    if owed > 3 or _programme(every, _NO_OPTIONAL, owed, 0, pins, 0, 0, deadline) is None:
        return None
    # The walk up the numbers costs very differently from either end; both ends give the
    # same fewest breaks. Both are walked while that is cheap, then the one that stored
    # fewer states (the same count on every machine, so the answer is too).
    ends = [(forced, pinned, groups), _reversed(forced, pinned, groups)]
    only: int | None = None
    step = 1
    while True:
        near = [g for g in range(len(groups)) if depth[g] <= step]
        runs = []
        for end in ((0, 1) if only is None else (only,)):
            rows, pins, all_groups = ends[end]
            try:
                runs.append((_tilecore.fewest_breaks(rows, pins, jf,
                                                     [all_groups[g] for g in near],
                                                     min(step, bound), deadline), end))
            except _tilecore.Stopped:
                raise SearchStopped() from None
        (found, _), _ = runs[0]
        if only is None and max(work for (_, work), _ in runs) > _BOTH_ENDS:
            only = min(runs, key=lambda run: run[0][1])[1]
        if found is not None:
            return found[0], [near[g] for g in found[1]]
        if step >= bound:
            return None
        step += 1


_BOTH_ENDS = 4_000
"""States a walk may store before ``_fewest_breaks`` keeps to the cheaper end."""


def _reversed(forced: list[list[int]], pinned: list[int],
              groups: list) -> tuple[list[list[int]], list[int], list]:
    """The same question with the numbers the other way round (13 … 1): runs and sets
    stay runs and sets, so the fewest breaks and the groups that give them are the same."""
    return ([[row[14 - v] if v else 0 for v in range(14)] for row in forced],
            [pinned[14 - v] if v else 0 for v in range(14)],
            [(colour, owed, pins, tuple((c, 14 - v) for c, v in cells))
             for colour, owed, pins, cells in groups])


_NO_OPTIONAL = [[0] * 14 for _ in COLOURS]


def _break_setup(staged: Sequence[StagedMeld], meld_jokers: list[list[TableJoker]],
                 changing: set[int], groups_of: list[int], named: Sequence[Tile],
                 freed: set[tuple[int, int]], free_mode: bool) -> tuple | None:
    """``fewest_breaks``' input: forced counts, set pins and free jokers of the named tiles
    and the changing melds, and a group per meld that may change; None when a meld does not
    fit the programme's model."""
    forced = [[0] * 14 for _ in COLOURS]
    pinned = [0] * 14
    jf = sum(1 for t in named if t.is_joker)
    for t in named:
        if not t.is_joker:
            forced[t.suit][t.rank] += 1
    groups = []
    for i in sorted(changing) + groups_of:
        meld = staged[i]
        is_set = len({f.rank for _, f in meld.slots}) == 1 and meld.keepable
        cells: list[tuple[int, int]] = []
        owed = pins = 0
        held = 0  # the meld's table jokers so far: meld_jokers[i][held] is the next
        for (tile, _), origin in zip(meld.slots, meld.origins, strict=True):
            if not tile.is_joker:
                cells.append((tile.suit, tile.rank))
                continue
            if origin != "table":
                owed += 1
                continue
            joker = meld_jokers[i][held]
            held += 1
            if joker.released or free_mode or (i, held - 1) in freed:
                owed += 1
            elif joker.in_set:
                if i in changing:
                    pinned[joker.face.rank] += 1
                elif not is_set:
                    return None
                else:
                    pins += 1
            else:
                cells.append((joker.face.suit, joker.face.rank))
        if i in changing:
            for c, v in cells:
                forced[c][v] += 1
            jf += owed
            continue
        colours = {c for c, _ in cells}
        if not is_set and len(colours) != 1:
            return None
        groups.append((-1 if is_set else colours.pop(), owed, pins, tuple(cells)))
    if jf > 3:
        return None
    return forced, pinned, jf, groups, groups_of


def _members(mask: int, top: int) -> list[int]:
    """The melds of an ``arrange`` set: bit ``top - 1 - i`` set for meld i."""
    out = []
    while mask:
        low = mask & -mask
        out.append(top - low.bit_length())
        mask ^= low
    return out


_NO_PINS = [0] * 14


class _QuickCheck:
    """Most sets of melds ``arrange`` tries to change fail. When no changing meld holds a
    table joker (one scenario), the search :func:`_arrange_try` makes comes down to one
    run of the programme, and this runs that same programme on counts gathered per meld,
    without building the problem, scenarios and supply: ``fails`` is True exactly when
    ``_arrange_try`` would return None. Otherwise ``_arrange_try`` decides (and gives the
    melds).

    Named jokers are rack jokers to :func:`solve`: with a face target it runs the
    programme once with them; without, it first searches without them, which cannot
    reach the floor (every named tile placed) and finds nothing, and then runs the
    programme once with them. Either way: the run made here.
    """

    def __init__(self, staged: Sequence[StagedMeld], meld_jokers: list[list[TableJoker]],
                 must: list[int], named: Sequence[Tile], initial_made: bool,
                 rules: SolveRules) -> None:
        top = len(staged)
        self.packed: dict[int, int] = {}
        """Per meld (by its bit, as ``arrange`` numbers them) what it brings when it
        changes, packed in one int so that a set's total is a sum: bytes 0–55 count its
        numbered tiles (colour * 14 + number), byte 56 its rack jokers, bytes 57–58 its
        face total (0 when frozen)."""
        self.joker_melds = 0
        """The melds holding table jokers (several scenarios: ``_arrange_try`` decides)."""
        kept_faces = 0
        for i, (meld, table_jokers) in enumerate(zip(staged, meld_jokers, strict=True)):
            packed = 0
            for (t, _), origin in zip(meld.slots, meld.origins, strict=True):
                if not t.is_joker:
                    packed += 1 << (8 * (t.suit * 14 + t.rank))
                elif origin == "rack":
                    packed += 1 << (8 * 56)
            faces = 0 if meld.frozen else sum(f.rank for _, f in meld.slots)
            kept_faces += faces
            self.packed[1 << (top - 1 - i)] = packed + (faces << (8 * 57))
            if table_jokers:
                self.joker_melds |= 1 << (top - 1 - i)
        self.base = sum(self.packed[1 << (top - 1 - i)] for i in must)
        """The melds that must change."""
        self.kept_faces = kept_faces
        self.optional = [[0] * 14 for _ in COLOURS]
        numbered = [t for t in named if not t.is_joker]
        for t in numbered:
            self.optional[t.suit][t.rank] += 1
        self.rack_jokers = len(named) - len(numbered)
        self.floor = len(named) * SCALE
        # The search without the named jokers places at most every numbered named tile.
        self.usable = not any(self.joker_melds & (1 << (top - 1 - i)) for i in must) and (
            not self.rack_jokers or len(numbered) * (SCALE + 13) < self.floor)
        self.target = rules.initial_meld if rules.initial_meld and not initial_made else 0

    def fails(self, chosen: int, packed: int, deadline: float | None) -> bool:
        """``chosen``: the set of melds (a mask); ``packed``: its and the must melds' tiles."""
        if not self.usable or chosen & self.joker_melds:
            return False
        counts = packed.to_bytes(59, "little")
        # _arrange_try: problem.min_face = max(0, rules.initial_meld - kept_faces)
        faces = self.kept_faces - (counts[57] | counts[58] << 8)
        target = max(0, self.target - faces) if self.target else 0
        found = _programme([counts[0:14], counts[14:28], counts[28:42], counts[42:56]],
                           self.optional, counts[56], self.rack_jokers, _NO_PINS, target,
                           self.floor, deadline)
        # _arrange_try: None, or fewer than every named tile placed (score below the floor:
        # the programme may return one when a rack joker it hoped to place found no room)
        return found is None or found[0] < self.floor


def _arrange_try(staged: Sequence[StagedMeld], meld_jokers: list[list[TableJoker]],
                 must: list[int], chosen: frozenset[int], named: Sequence[Tile],
                 initial_made: bool, rules: SolveRules,
                 deadline: float | None) -> tuple[tuple[Slot, ...], ...] | None:
    changing = [*must, *sorted(chosen)]
    kept = [staged[i].slots for i in range(len(staged)) if i not in changing]
    problem = Problem(table=[], rack=list(named), rules=rules)
    for i in changing:
        for (tile, _), origin in zip(staged[i].slots, staged[i].origins, strict=True):
            if tile.is_joker:
                if origin == "rack":
                    problem.placed_jokers += 1
            elif origin == "table":
                problem.table.append(tile)
            else:
                problem.placed.append(tile)
        problem.jokers.extend(meld_jokers[i])
    if rules.initial_meld and not initial_made:
        kept_faces = sum(f.rank for i in range(len(staged)) if i not in changing
                         and not staged[i].frozen for _, f in staged[i].slots)
        problem.min_face = max(0, rules.initial_meld - kept_faces)
        if problem.min_face == 0:
            problem.min_face = 0
    found = solve(problem, deadline, floor=len(named) * SCALE)
    if found is None or found.placed < len(named):
        return None
    # Keep untouched melds in their places; new ones follow.
    return (*kept, *found.melds)
