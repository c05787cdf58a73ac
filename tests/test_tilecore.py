"""The C core of the Tile Rummy table search (``bot/engine/_tilecore.c``) against the Python
core it mirrors (``tilesolver._programme_python``): the same score AND the same decisions
on every supply (games replay Arrange through the solver, so ties must break alike)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import tilesolver
from bot.engine.cards import NO_SUIT, Face, tile_set
from bot.engine.tilesolver import (
    SCALE,
    Problem,
    SearchStopped,
    SolveRules,
    StagedMeld,
    Supply,
    TableJoker,
    arrange,
    best_play,
    run_programme,
    solve,
)
from tests.tiles_helpers import random_position


def _core():
    try:
        from bot.engine import _tilecore
    except ImportError:
        return None
    return _tilecore


def test_the_c_core_is_built_and_in_use() -> None:
    core = _core()
    assert core is not None and tilesolver.CORE == "C", (
        "bot/engine/_tilecore.c is not compiled: the C compiler step of `pip install -e .` "
        "failed or was skipped (it is optional), so the Tile Rummy solver runs the slow "
        "pure-Python core. Install a C compiler and the Python headers (e.g. gcc and "
        "python3-dev) and run `pip install -e .` again.")
    assert tilesolver._programme is tilesolver._programme_c


def test_the_run_state_tables_are_the_python_ones() -> None:
    core = _core()
    assert core is not None
    step, open_short, dominates = core.tables()
    assert step == tilesolver._STEP
    assert open_short == tilesolver._OPEN_SHORT
    assert dominates == tilesolver._DOMINATES


# -- supplies ----------------------------------------------------------------------------


def _counts(supply: Supply) -> tuple:
    """run_programme's count extraction: the arguments both cores take (but the floor and
    deadline)."""
    return ([[len(supply.forced[c][v]) for v in range(14)] for c in range(4)],
            [[len(supply.optional[c][v]) for v in range(14)] for c in range(4)],
            len(supply.free_forced), len(supply.free_optional),
            [len(p) for p in supply.pinned], supply.min_face)


def position_supply(seed: int) -> Supply:
    """A supply from a random position: table tiles forced; each table joker free, or kept
    (a run joker forced as its stand-in, a set joker pinned to its number); rack tiles
    optional with 0–2 jokers; sometimes an initial meld (no table, a face target); sometimes
    every rack tile forced (the feasibility runs of ``_place_everything``)."""
    rng = random.Random(seed)
    table, rack = random_position(seed, rng.randint(10, 60), rng.randint(4, 14),
                                  table_jokers=rng.randint(0, 2))
    supply = Supply()
    if rng.random() < 0.2:
        table = []
        supply.min_face = rng.choice([10, 30, 30, 50])
    for meld in table:
        is_set = len({f.rank for _, f in meld}) == 1
        for tile, face in meld:
            if not tile.is_joker:
                supply.force(tile)
            elif rng.random() < 0.5:
                supply.free_forced.append(tile)
            elif is_set:
                supply.pinned[face.rank].append(tile)
            else:
                supply.force(tile, face)
    forced_only = rng.random() < 0.15
    for tile in rack:
        if tile.is_joker:
            (supply.free_forced if forced_only else supply.free_optional).append(tile)
        elif forced_only:
            supply.force(tile)
        else:
            supply.optional[tile.suit][tile.rank].append(tile)
    return supply


def _agree(counts: tuple, floor: int, deadline: float | None = None) -> tuple | None:
    """Run both cores; assert the same result (score and decisions, or None)."""
    c = tilesolver._programme_c(*counts, floor, deadline)
    python = tilesolver._programme_python(*counts, floor, deadline)
    assert c == python, f"floor {floor}: C {c}, Python {python}"
    return c


def _floors(rng: random.Random, best: int | None) -> list[int]:
    """Floors near the optimum (where the pruning decides) and elsewhere."""
    if best is None:
        return [rng.randint(0, 3) * SCALE]
    return [best, best + 1, max(0, best - SCALE), rng.randint(0, best + SCALE)]


@pytest.mark.parametrize("batch", range(4))
def test_c_and_python_cores_agree_on_random_supplies(batch: int) -> None:
    """Several hundred supplies: score, decisions and (for some) the melds run_programme
    lays with each core."""
    for seed in range(batch * 60, batch * 60 + 60):
        rng = random.Random(seed)
        supply = position_supply(seed)
        counts = _counts(supply)
        found = _agree(counts, 0)
        floors = _floors(rng, found[0] if found else None)
        rng.shuffle(floors)
        for floor in floors[:2]:
            _agree(counts, floor)
        if seed % 3 == 0:
            fast = run_programme(supply)
            with tilesolver.pure_python_core():
                slow = run_programme(supply)
            assert fast == slow, f"seed {seed}"


def _recording() -> tuple[list[tuple], object]:
    calls: list[tuple] = []
    inner = tilesolver._programme

    def record(*args):
        calls.append(args)
        return inner(*args)

    return calls, record


@pytest.mark.parametrize("retrieve", ["replace_from_rack", "free", "replace"])
def test_c_and_python_cores_agree_on_the_searches_supplies(
        retrieve: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every supply best play and arrange hand the programme (scenarios of table jokers,
    locks, released jokers in rack-only melds, initial melds, floors), both cores."""
    calls, record = _recording()
    monkeypatch.setattr(tilesolver, "_programme", record)
    for seed in range(12):
        rng = random.Random(1000 + seed)
        rules = SolveRules(joker_retrieve=retrieve, locks=rng.random() < 0.3,
                           new_meld_only=rng.random() < 0.3)
        table, rack = random_position(1000 + seed, rng.randint(10, 40), rng.randint(6, 12),
                                      table_jokers=rng.randint(0, 2))
        best_play(table, rack, True, rules)
        best_play(table, rack[:8], False, rules)
        staged = [StagedMeld(tuple(m), ("table",) * len(m), True) for m in table]
        arrange(staged, rng.sample(rack, 1), tilesolver.table_jokers(table), True, rules)
    monkeypatch.undo()
    assert len(calls) > 40
    for args in calls:
        assert tilesolver._programme_c(*args) == tilesolver._programme_python(*args), args


def test_c_and_python_cores_agree_on_rack_only_problems() -> None:
    """solve() with only a rack (and placed jokers): many small supplies."""
    for seed in range(40):
        rng = random.Random(seed)
        _, rack = random_position(seed, 0, rng.randint(5, 12))
        problem = Problem(table=[], rack=rack, placed_jokers=rng.randint(0, 1),
                          min_face=rng.choice([0, 0, 30]))
        fast = solve(problem)
        with tilesolver.pure_python_core():
            slow = solve(problem)
        assert fast == slow, f"seed {seed}"


_count = st.integers(0, 2)


@st.composite
def supplies(draw) -> tuple:
    """Sparse random counts: most cells empty, a few tiles forced or optional, jokers."""
    def grid(p: float) -> list[list[int]]:
        return [[draw(_count) if v and draw(st.floats(0, 1)) < p else 0 for v in range(14)]
                for _ in range(4)]
    forced = grid(draw(st.sampled_from([0.0, 0.1, 0.2])))
    optional = grid(draw(st.sampled_from([0.1, 0.2, 0.3])))
    pinned = [0] * 14
    for _ in range(draw(st.integers(0, 1))):
        pinned[draw(st.integers(1, 13))] += 1
    jf = draw(st.integers(0, 1))
    jo = draw(st.integers(0, 2 - jf))
    target = draw(st.sampled_from([0, 0, 30, draw(st.integers(1, 60))]))
    floor = draw(st.sampled_from([0, 0, draw(st.integers(0, 12 * SCALE))]))
    return forced, optional, jf, jo, pinned, target, floor


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(supplies())
def test_c_and_python_cores_agree_on_generated_supplies(args: tuple) -> None:
    _agree(args[:6], args[6])


def test_past_deadline_stops_both_cores() -> None:
    supply = position_supply(3)
    past = time.monotonic() - 1
    with pytest.raises(SearchStopped):
        run_programme(supply, past)
    with tilesolver.pure_python_core(), pytest.raises(SearchStopped):
        run_programme(supply, past)
    # A deadline in the future changes nothing.
    assert run_programme(supply, time.monotonic() + 60) == run_programme(supply)


def test_the_c_core_refuses_inputs_outside_its_domain() -> None:
    core = _core()
    assert core is not None
    counts = list(_counts(Supply()))
    bad_forced = [[0] * 14 for _ in range(4)]
    bad_forced[1][5] = -1
    with pytest.raises(ValueError):
        core.programme(bad_forced, *counts[1:], 0, None)
    with pytest.raises(ValueError):
        core.programme(*counts[:5], -1, 0, None)
    with pytest.raises(ValueError):
        core.programme(counts[0][:3], *counts[1:], 0, None)
    with pytest.raises(TypeError):
        core.programme(*counts, 0, "soon")
    assert core.programme(*counts, 0, None) == tilesolver._programme_python(*counts, 0, None)


def test_c_and_python_cores_agree_on_wide_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big racks (20–32 tiles), some with a face target or a table: layers where more than
    _DOMINATORS states survive (the cap on the states each is compared with applies)."""
    widest = []
    undominated = tilesolver._undominated

    def measure(layer: dict[int, int], forced_jokers: int) -> dict[int, int]:
        out = undominated(layer, forced_jokers)
        widest.append(len(out))
        return out

    monkeypatch.setattr(tilesolver, "_undominated", measure)
    for seed in range(16):
        rng = random.Random(seed)
        pool = [t for t in tile_set() if not t.is_joker]
        rng.shuffle(pool)
        size = rng.choice([20, 26, 32])
        optional = [[0] * 14 for _ in range(4)]
        forced = [[0] * 14 for _ in range(4)]
        for tile in pool[:size]:
            optional[tile.suit][tile.rank] += 1
        if seed % 2:
            for tile in pool[size:size + 30]:
                forced[tile.suit][tile.rank] += 1
        counts = (forced, optional, 0, rng.randint(0, 2), [0] * 14,
                  rng.choice([0, 30, 50, 80]))
        _agree(counts, 0)
    assert max(widest) > tilesolver._DOMINATORS


# -- arrange's quick check ---------------------------------------------------------------


def _staged_position(seed: int) -> tuple:
    """A staged table (some tiles and jokers placed from the rack, some melds that must
    change, frozen melds before the initial meld), its table jokers, named tiles, rules."""
    rng = random.Random(seed)
    table, rack = random_position(seed, rng.randint(9, 50), 14, table_jokers=rng.randint(0, 2))
    rules = SolveRules(initial_meld=rng.choice([0, 30]),
                       joker_retrieve=rng.choice(["replace_from_rack", "free", "replace"]),
                       locks=rng.random() < 0.2, new_meld_only=rng.random() < 0.2)
    initial_made = rng.random() < 0.7
    staged = []
    for meld in table:
        origins = tuple("rack" if rng.random() < 0.15 and not t.is_joker else "table"
                        for t, _ in meld)
        if rng.random() < 0.3:
            origins = tuple("rack" if t.is_joker else o
                            for (t, _), o in zip(meld, origins, strict=True))
        frozen = not initial_made and "rack" not in origins and rng.random() < 0.7
        staged.append(StagedMeld(tuple(meld), origins, rng.random() < 0.9 or frozen, frozen))
    jokers = []
    for i, meld in enumerate(staged):
        is_set = len({f.rank for _, f in meld.slots}) == 1
        for (tile, face), origin in zip(meld.slots, meld.origins, strict=True):
            if tile.is_joker and origin == "table":
                jokers.append(TableJoker(Face(face.rank, NO_SUIT) if is_set else face, is_set,
                                         meld.slots, block_id=i))
    return staged, jokers, rng.sample(rack, rng.randint(1, 3)), initial_made, rules


def test_arrange_quick_check_fails_exactly_when_the_full_search_does() -> None:
    """``_QuickCheck.fails`` (one programme run on packed counts) is True exactly when
    ``_arrange_try`` (problem, scenarios, supply) finds nothing, wherever it answers."""
    answered = found = 0
    for seed in range(150):
        rng = random.Random(seed)
        staged, jokers, named, initial_made, rules = _staged_position(seed)
        joker_iter = iter(jokers)
        meld_jokers = [[next(joker_iter) for (t, _), o in zip(m.slots, m.origins, strict=True)
                        if t.is_joker and o == "table"] for m in staged]
        must = [i for i, m in enumerate(staged) if not m.keepable and not m.frozen]
        movable = [i for i, m in enumerate(staged) if m.keepable and not m.frozen]
        quick = tilesolver._QuickCheck(staged, meld_jokers, must, named, initial_made, rules)
        top = len(staged)
        for _ in range(8):
            chosen = rng.sample(movable, rng.randint(0, min(len(movable), 6)))
            mask = sum(1 << (top - 1 - i) for i in chosen)
            packed = quick.base + sum(quick.packed[1 << (top - 1 - i)] for i in chosen)
            fails = quick.fails(mask, packed, None)
            full = tilesolver._arrange_try(staged, meld_jokers, must, frozenset(chosen),
                                           named, initial_made, rules, None)
            if not quick.usable or mask & quick.joker_melds:
                assert not fails  # no answer: the full search decides
                continue
            answered += 1
            found += full is not None
            assert fails == (full is None), f"seed {seed}, melds {sorted(chosen)}"
    assert answered > 600 and found > 50
