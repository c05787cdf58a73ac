"""The table search against an independent exact reference: an integer program (HiGHS via
``scipy.optimize.milp``), on a few hundred random positions; and its joker rules."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from bot.engine import tilesolver
from bot.engine.cards import TILE_JOKER, Face, Tile
from bot.engine.melds import read_meld
from bot.engine.tilesolver import (
    SCALE,
    Problem,
    SolveRules,
    StagedMeld,
    arrange,
    best_play,
    meld_items,
    solve,
    tile_value,
)
from bot.engine.variants.tiles import RULES
from tests.tiles_helpers import random_position, tl

# -- the reference: an integer program over meld templates ---------------------------


@cache
def templates() -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """(natural cells c*13+v-1, jokers, face total) for runs of 3–5 and sets of 3–4, with
    up to two of their tiles replaced by jokers (at least one numbered tile left).

    Every valid table splits into such melds: a longer run splits into runs of 3–5.
    """
    out = []
    shapes = []
    for c in range(4):
        for length in range(3, 6):
            for start in range(1, 15 - length):
                shapes.append([(c, v) for v in range(start, start + length)])
    for v in range(1, 14):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                shapes.append([(c, v) for c in colours])
    for shape in shapes:
        faces = sum(v for _, v in shape)
        for k in range(3):
            for holes in combinations(range(len(shape)), k):
                if len(holes) == len(shape):
                    continue
                cells = tuple(c * 13 + v - 1 for i, (c, v) in enumerate(shape) if i not in holes)
                out.append((cells, k, faces))
    return tuple(out)


@cache
def _matrix() -> np.ndarray:
    """Rows: the 52 numbered tiles, jokers, face total, templates used (for the initial
    meld). Columns: templates (0..2 each), rack tiles used per cell, rack jokers used, and
    z (something placed)."""
    temps = templates()
    t_count = len(temps)
    n = t_count + 52 + 1 + 1
    rows = np.zeros((55, n))
    for i, (cells, k, faces) in enumerate(temps):
        for cell in cells:
            rows[cell, i] += 1
        rows[52, i] = k
        rows[53, i] = faces
        rows[54, i] = 1
    for cell in range(52):
        rows[cell, t_count + cell] = -1
    rows[52, t_count + 52] = -1
    rows[54, -1] = -100
    return rows


def reference(table: list[Tile], rack: list[Tile], min_face: int = 0) -> int:
    """The best score (SCALE per rack tile placed + its value) by integer programming."""
    t_count = len(templates())
    rows = _matrix().copy()
    n = rows.shape[1]
    table_c = Counter(table)
    rack_c = Counter(rack)
    tiles = [Tile(cell % 13 + 1, cell // 13) for cell in range(52)]
    lo = [table_c[t] for t in tiles] + [table_c[TILE_JOKER]]
    hi = list(lo)
    rows[53, -1] = -min_face
    lo += [0, -np.inf]
    hi += [np.inf, 0 if min_face else np.inf]
    upper = np.zeros(n)
    upper[:t_count] = 2
    upper[t_count:t_count + 52] = [rack_c[t] for t in tiles]
    upper[t_count + 52] = rack_c[TILE_JOKER]
    upper[-1] = 1
    gain = np.zeros(n)
    gain[t_count:t_count + 52] = [SCALE + t.rank for t in tiles]
    gain[t_count + 52] = SCALE + 30
    result = milp(-gain, constraints=LinearConstraint(rows, lo, hi),
                  integrality=np.ones(n), bounds=Bounds(np.zeros(n), upper))
    assert result.status == 0, result.message
    return round(-result.fun)


def check_solution(table_tiles: list[Tile], rack: list[Tile], melds, score: int) -> None:
    """Every meld valid; the tiles are the table's plus rack tiles worth ``score``."""
    for meld in melds:
        read_meld(meld_items(meld), RULES)
    used = Counter(t for m in melds for t, _ in m)
    extra = used - Counter(table_tiles)
    assert not Counter(table_tiles) - used, "a table tile went missing"
    assert not extra - Counter(rack), "a tile came from nowhere"
    assert sum(SCALE + tile_value(t) for t in extra.elements()) == score


def _free_rules() -> SolveRules:
    return SolveRules(initial_meld=30, joker_retrieve="free")


@pytest.mark.parametrize("batch", range(4))
def test_best_play_matches_the_integer_program(batch: int) -> None:
    """Tables of 6–40 tiles (jokers included) and racks of 6–14 with up to two jokers."""
    for seed in range(batch * 50, batch * 50 + 50):
        rng = random.Random(seed)
        table, rack = random_position(seed, rng.randint(6, 40), rng.randint(6, 14),
                                      table_jokers=rng.randint(0, 1))
        table_tiles = [t for m in table for t, _ in m]
        found = best_play(table, rack, True, _free_rules())
        assert found.score == reference(table_tiles, rack), f"seed {seed}"
        check_solution(table_tiles, rack, found.melds, found.score)


def test_initial_meld_matches_the_integer_program() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        _, rack = random_position(seed, 0, rng.randint(8, 16))
        rules = SolveRules(initial_meld=rng.choice([30, 50]), joker_retrieve="free")
        found = best_play([], rack, False, rules)
        assert found.score == reference([], rack, rules.initial_meld), f"seed {seed}"
        check_solution([], rack, found.melds, found.score)
        if found.score:
            faces = sum(f.rank for m in found.melds for _, f in m)
            assert faces >= rules.initial_meld


def _slots(text: str) -> tuple:
    from bot.engine.notation import TILES, parse_list
    items = [(r.piece, r.stands_for) for r in parse_list(text, TILES)]
    meld = read_meld(items, RULES)
    return tuple(zip(meld.pieces, meld.faces, strict=True))


def test_TIL_17_kept_joker_is_pinned_in_replace_modes() -> None:
    table = [_slots("R4 R5 R6 J")]
    rack = tl("K8 O8")
    free = best_play(table, rack, True, SolveRules(joker_retrieve="free"))
    assert free.placed == 2  # J joins K8 O8, R4 R5 R6 stays
    kept = best_play(table, rack, True, SolveRules())
    assert kept.placed == 0
    with_r7 = best_play(table, tl("K8 O8 R7"), True, SolveRules())
    assert with_r7.placed == 3  # release J with R7, then K8 O8 J
    # Still standing for R7, the kept joker may sit in a set of 7s (check 3 holds).
    assert best_play(table, tl("K7 O7"), True, SolveRules()).placed == 2


def test_TIL_17_release_from_the_table_only_with_replace() -> None:
    table = [_slots("O4 J O6"), _slots("R5 B5 K5 O5")]
    rack = tl("R9 B9")
    assert best_play(table, rack, True, SolveRules()).placed == 0
    assert best_play(table, rack, True, SolveRules(joker_retrieve="replace")).placed == 2


def test_TIL_18_locked_meld_only_grows() -> None:
    table = [_slots("B3 B4 B5 B6 J")]
    rules = SolveRules(locks=True)
    assert best_play(table, tl("R3 K3"), True, SolveRules()).placed == 2
    assert best_play(table, tl("R3 K3"), True, rules).placed == 0
    assert best_play(table, tl("B2 B8"), True, rules).placed == 2
    assert best_play(table, tl("R3 K3 B7"), True, rules).placed == 3


def test_TIL_12c_kept_jokers_of_different_melds_end_in_different_runs() -> None:
    table = [_slots("R2 J=R3 R4"), _slots("R7 J=R8 R9")]
    for rack, placed in (("R5 R6", 2), ("R5 R6 R10", 3), ("R1 R5 R6", 3)):
        found = best_play(table, tl(rack), True, SolveRules())
        assert found.placed == placed
        assert all(sum(t.is_joker for t, _ in meld) == 1 for meld in found.melds)


def test_TIL_18_locked_meld_grows_by_rack_jokers_too() -> None:
    rules = SolveRules(locks=True)
    run = [_slots("R4 J R6")]
    found = best_play(run, tl("J O1"), True, rules)
    assert found.placed == 1 and found.score == SCALE + 30  # the joker, worth 30
    (meld,) = found.melds
    assert [t.code for t, _ in meld].count("J") == 2 and len(meld) == 4
    # A joker fills the gap to a rack tile: R4 J R6 J(R7) R8.
    gap = best_play(run, tl("J R8"), True, rules)
    assert gap.placed == 2 and [f.rank for _, f in gap.melds[0]] == [4, 5, 6, 7, 8]
    both = best_play(run, tl("J J"), True, rules)
    assert both.placed == 2
    # A locked set of three takes a joker as its fourth tile.
    kill = best_play([_slots("K9 O9 J")], tl("J B2"), True, rules)
    assert kill.placed == 1 and len(kill.melds[0]) == 4


def test_TIL_19_released_joker_only_with_rack_tiles() -> None:
    table = [_slots("R4 R5 R6 J"), _slots("K1 K2 K3")]
    rules = SolveRules(new_meld_only=True)
    assert best_play(table, tl("R7 K9 O9"), True, SolveRules()).placed == 3
    assert best_play(table, tl("R7 K9 O9"), True, rules).placed == 3
    # With K4 only: J cannot join K1 K2 K3 K4 (table tiles) but could without the rule.
    assert best_play(table, tl("R7 K5"), True, SolveRules()).placed == 2
    assert best_play(table, tl("R7 K5"), True, rules).placed == 0


def test_TIL_20_arrange_fewest_changed_melds() -> None:
    staged = [StagedMeld(_slots("R3 R4 R5"), ("table",) * 3, True),
              StagedMeld(_slots("K7 B7 O7"), ("table",) * 3, True)]
    melds, changed = arrange(staged, tl("R6 R7"), [], True, SolveRules())
    assert changed == 1 and _slots("B7 K7 O7") in melds


def test_TIL_20_arrange_matches_brute_force_on_small_tables() -> None:
    """Fewest changed melds: compare with trying every subset of melds to change."""
    for seed in range(25):
        rng = random.Random(seed)
        table, rack = random_position(seed, rng.randint(9, 18), 6)
        staged = [StagedMeld(tuple(m), ("table",) * len(m), True) for m in table]
        named = rng.sample(rack, rng.randint(1, 2))
        found = arrange(staged, named, [], True, _free_rules())
        best = None
        for size in range(len(table) + 1):
            for chosen in combinations(range(len(table)), size):
                tiles = [t for i in chosen for t, _ in table[i]]
                problem = Problem(table=tiles, rack=list(named), rules=_free_rules())
                got = solve(problem, floor=len(named) * SCALE)
                if got is not None and got.placed == len(named):
                    best = size
                    break
            if best is not None:
                break
        if best is None:
            assert found is None
        else:
            assert found is not None and found[1] == best, f"seed {seed}"
            check_solution([t for m in table for t, _ in m], named, found[0],
                           sum(SCALE + tile_value(t) for t in named))


def test_named_joker_faces_are_kept() -> None:
    melds = best_play([], tl("R9 R10 J"), False, SolveRules()).melds
    assert sum(f.rank for m in melds for _, f in m) >= 30
    assert any(f == Face(11, 0) for m in melds for _, f in m)


def _search_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``arrange`` as before issue 19 item 3: the search over sets of melds alone."""
    monkeypatch.setattr(tilesolver, "_fewest_changes", lambda *args: tilesolver._SEARCH)


def _staged_position(seed: int) -> tuple[list[StagedMeld], list, list[Tile]]:
    """Random staged tables: table melds with up to two jokers, some melds placed from the
    rack this turn (their jokers free), sometimes a run cut short (a meld that must change)."""
    rng = random.Random(seed)
    table, rack = random_position(seed, rng.randint(9, 40), rng.randint(4, 10),
                                  table_jokers=rng.randint(0, 2))
    staged, jokers = [], []
    for meld in table:
        joker_slots = [(t, f) for t, f in meld if t.is_joker]
        if rng.random() < 0.2:  # laid from the rack this turn
            staged.append(StagedMeld(tuple(meld), ("rack",) * len(meld), True))
            continue
        if rng.random() < 0.1 and len(meld) >= 4 and not joker_slots:  # a meld gone wrong
            cut = tuple(meld[:2])
            staged.append(StagedMeld(cut, ("table",) * 2, False))
            staged.append(StagedMeld(tuple(meld[2:]), ("table",) * (len(meld) - 2),
                                     len(meld) - 2 >= 3))
            continue
        staged.append(StagedMeld(tuple(meld), ("table",) * len(meld), True))
        jokers += tilesolver.table_jokers([meld])
    return staged, jokers, rack


@pytest.mark.parametrize("retrieve", ["replace_from_rack", "free", "replace"])
def test_TIL_20_the_fewest_changes_programme_matches_the_search(
        retrieve: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 item 3: the programme that decides which melds change finds the same
    number of changed melds as the search over sets of melds (exact as before), and a
    table of valid melds holding exactly the staged tiles and the named ones."""
    rules = SolveRules(joker_retrieve=retrieve)
    compared = 0
    for seed in range(70):
        staged, jokers, rack = _staged_position(seed)
        rng = random.Random(seed + 1000)
        for _ in range(2):
            named = rng.sample(rack, rng.randint(1, min(4, len(rack))))
            fast = arrange(staged, named, jokers, True, rules)
            with monkeypatch.context() as patch:
                _search_only(patch)
                slow = arrange(staged, named, jokers, True, rules)
            assert (fast and fast[1]) == (slow and slow[1]), (seed, named)
            if fast is not None:
                for meld in fast[0]:
                    read_meld(meld_items(meld), RULES)
                used = Counter(t for m in fast[0] for t, _ in m)
                assert used == Counter(t for m in staged for t, _ in m.slots) + Counter(named)
            compared += 1
    assert compared == 140


def test_TIL_20_naming_a_whole_best_play_changes_as_few_melds_as_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The case issue 19 item 3 timed: every rack tile of the best play named at once."""
    rules = SolveRules()
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        table, rack = random_position(seed, rng.randint(15, 30), 14)
        found = best_play(table, rack, True, rules)
        named = list((Counter(t for m in found.melds for t, _ in m)
                      - Counter(t for m in table for t, _ in m)).elements())
        if not named:
            continue
        staged = [StagedMeld(tuple(m), ("table",) * len(m), True) for m in table]
        fast = arrange(staged, named, [], True, rules)
        with monkeypatch.context() as patch:
            _search_only(patch)
            slow = arrange(staged, named, [], True, rules)
        assert fast is not None and slow is not None and fast[1] == slow[1], seed
        compared += 1
    assert compared >= 30
