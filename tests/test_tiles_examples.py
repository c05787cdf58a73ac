"""The worked examples TIL-E1 … TIL-E16 of the Tile Rummy spec, one test each."""

from __future__ import annotations

from bot.engine.cards import Face
from bot.engine.game import Timeout
from bot.engine.moves import Done, Draw
from bot.engine.variants.tiles import Arrange, MoveTile, Play, Release
from tests.engine_helpers import refused
from tests.tiles_helpers import one, placed_tiles, staged_codes, tiles_game, tl

FILLER = ["K1 K2 K3", "O9 O10 O11", "B11 B12 B13", "R11 R12 R13", "K11 K12 K13"]
"""Melds that put the example's melds at the numbers it names."""


def test_TIL_E1_joker_extends_upward_for_the_initial_meld() -> None:
    game = tiles_game(racks=["R9 R10 J K1", "B1"], initial=[False, False])
    after, _ = game.apply(Play(0, placed_tiles("R9 R10 J")))
    assert after.meld_views()[0].faces[2] == Face(11, 0)  # J = R11
    done, _ = after.apply(Done(0))
    assert done.initial[0] and done.racks[0] == tl("K1") and done.turn == 1
    low, _ = game.apply(Play(0, placed_tiles("R9 R10 J=R8")))
    refused(low, Done(0), "your new melds total 27; the initial meld needs 30")


def test_TIL_E2_initial_meld_of_29_refused_or_penalised() -> None:
    racks = ["B2 B3 B4 B5 R5 K5 O5 K9", "B1"]
    game = tiles_game(racks=racks, initial=[False, False])
    game, _ = game.apply(Play(0, placed_tiles("B2 B3 B4 B5")))
    game, _ = game.apply(Play(0, placed_tiles("R5 K5 O5")))
    refused(game, Done(0), "your new melds total 29; the initial meld needs 30")
    penalty = tiles_game(racks=racks, initial=[False, False], invalid_done="penalty",
                         pool="R1 R2 R3 R4")
    penalty, _ = penalty.apply(Play(0, placed_tiles("B2 B3 B4 B5")))
    penalty, _ = penalty.apply(Play(0, placed_tiles("R5 K5 O5")))
    after, _ = penalty.apply(Done(0))
    assert sorted(after.racks[0]) == sorted(tl("B2 B3 B4 B5 R5 K5 O5 K9 R1 R2 R3"))
    assert after.table == [] and after.turn == 1 and not after.initial[0]


def test_TIL_E3_no_touching_the_table_before_the_initial_meld() -> None:
    game = tiles_game(racks=["R7 K10 K11 K12 B1", "O1"], table=["R4 R5 R6"],
                      initial=[False, True])
    refused(game, Play(0, placed_tiles("R7"), 1),
            "until your initial meld is made you may only lay new melds from your rack")
    game, _ = game.apply(Play(0, placed_tiles("K10 K11 K12")))
    game, _ = game.apply(Done(0))
    assert game.initial[0]
    game, _ = game.apply(Draw(1, "pool"))
    game, _ = game.apply(Play(0, placed_tiles("R7"), 1))
    assert staged_codes(game)[0] == "R4 R5 R6 R7"


def test_TIL_E4_a_run_gives_a_tile_to_a_new_set() -> None:
    game = tiles_game(racks=["R5 K5 O1", "B1"], table=[*FILLER[:2], "B2 B3 B4 B5 B6 B7 B8"])
    game, _ = game.apply(MoveTile(0, one("B5"), 3))  # out of the middle: the run splits
    assert staged_codes(game)[2:] == ["B2 B3 B4", "B6 B7 B8", "B5"]
    game, _ = game.apply(Play(0, placed_tiles("R5 K5"), 5))
    assert staged_codes(game)[2:] == ["B2 B3 B4", "B6 B7 B8", "R5 B5 K5"]
    game, _ = game.apply(Done(0))
    assert game.racks[0] == tl("O1") and len(game.table) == 5


def test_TIL_E5_release_a_joker_from_the_rack_or_from_the_table() -> None:
    table = ["R1 R2 R3", "O4 J O6", *FILLER[2:4], "R5 B5 K5 O5"]
    game = tiles_game(racks=["O5 R9 B9 K1", "B1"], table=table)
    released, _ = game.apply(Release(0, one("O5"), 2))
    assert staged_codes(released)[1] == "O4 O5 O6"
    joker_meld = released.staged[-1].number
    released, _ = released.apply(Play(0, placed_tiles("R9 B9"), joker_meld))
    committed, _ = released.apply(Done(0))
    assert committed.racks[0] == tl("K1")
    refused(game, Release(0, one("O5"), 2, 5), "the replacing tile must come from your rack")
    game = tiles_game(racks=["O5 R9 B9 K1", "B1"], table=table, joker_retrieve="replace")
    game, _ = game.apply(Release(0, one("O5"), 2, 5))
    assert staged_codes(game)[1] == "O4 O5 O6" and staged_codes(game)[4] == "R5 B5 K5"
    game, _ = game.apply(Play(0, placed_tiles("R9 B9"), game.staged[-1].number))
    game, _ = game.apply(Done(0))
    assert sorted(game.racks[0]) == sorted(tl("O5 K1"))


def test_TIL_E6_moving_a_table_joker() -> None:
    table = ["R1 R2 R3", "R4 R5 R6 J"]
    free = tiles_game(racks=["K7 O7 B1", "B2"], table=table, joker_retrieve="free")
    free, _ = free.apply(MoveTile(0, one("J"), 2))
    free, _ = free.apply(Play(0, placed_tiles("K7 O7"), 3))
    free, _ = free.apply(Done(0))
    assert free.racks[0] == tl("B1")
    for mode in ("replace", "replace_from_rack"):
        game = tiles_game(racks=["K7 O7 R7 B1", "B2"], table=table, joker_retrieve=mode)
        refused(game, MoveTile(0, one("J"), 2), "release the joker first (it stands for R7)")
        game, _ = game.apply(Release(0, one("R7"), 2))
        assert staged_codes(game)[1] == "R4 R5 R6 R7"
        game, _ = game.apply(Play(0, placed_tiles("K7 O7"), 3))
        game, _ = game.apply(Done(0))
        assert game.racks[0] == tl("B1")


def test_TIL_E7_locked_meld_and_new_meld_only() -> None:
    table = [*FILLER[:3], "B3 B4 B5 B6 J"]
    game = tiles_game(racks=["R3 K3 O1", "B1"], table=table)
    game, _ = game.apply(MoveTile(0, one("B3"), 4))
    game, _ = game.apply(Play(0, placed_tiles("R3 K3"), 5))
    assert staged_codes(game)[3] == "B4 B5 B6 J"
    game, _ = game.apply(Done(0))
    assert game.table[3].faces[3] == Face(7, 1)  # J still B7
    locked = tiles_game(racks=["R3 K3 B7 O1", "B1"], table=table, joker_locks_meld=True)
    refused(locked, MoveTile(0, one("B3"), 4), "meld 4 holds a joker: release it first")
    locked, _ = locked.apply(Release(0, one("B7"), 4))
    locked, _ = locked.apply(MoveTile(0, one("B3"), 4))
    locked, _ = locked.apply(Play(0, placed_tiles("R3 K3"), 6))
    locked, _ = locked.apply(MoveTile(0, one("J"), 5, 6))
    assert staged_codes(locked)[-1] == "R3 B3 K3 J"
    committed, _ = locked.apply(Done(0))
    assert committed.racks[0] == tl("O1")
    strict = tiles_game(racks=["R3 K3 B7 O1", "B1"], table=table, joker_locks_meld=True,
                        retrieved_joker_new_meld_only=True)
    for move in (Release(0, one("B7"), 4), MoveTile(0, one("B3"), 4),
                 Play(0, placed_tiles("R3 K3"), 6), MoveTile(0, one("J"), 5, 6)):
        strict, _ = strict.apply(move)
    refused(strict, Done(0), "meld 6: a released joker may only join tiles from your rack")


def test_TIL_E8_no_wrapping_runs() -> None:
    game = tiles_game(racks=["O12 O13 O1 K1", "B1"], table=FILLER[:4],
                      pool="R1")
    game, _ = game.apply(Play(0, placed_tiles("O12 O13 O1")))
    refused(game, Done(0), "meld 5 (O1 O12 O13) is not a run: 1 can only come before 2")
    ok = tiles_game(racks=["O1 O2 O3 O11 O12 O13 K1", "B1"])
    ok, _ = ok.apply(Play(0, placed_tiles("O1 O2 O3")))
    ok, _ = ok.apply(Play(0, placed_tiles("O11 O12 O13")))
    assert ok.check_done() is None


def test_TIL_E9_no_colour_twice_in_a_set() -> None:
    game = tiles_game(racks=["R4 R4 B4 K4 O4 K1", "B1"], table=FILLER)
    bad, _ = game.apply(Play(0, placed_tiles("R4 R4 B4")))
    refused(bad, Done(0), "meld 6 (R4 R4 B4) is not a set: red appears twice")
    good, _ = game.apply(Play(0, placed_tiles("R4 B4 K4 O4")))
    assert good.check_done() is None


def test_TIL_E10_short_meld_reject_draw_or_penalty() -> None:
    table = [*FILLER[:4], "K7 R7 B7 O7"]
    game = tiles_game(racks=["K8 K9 O1", "B1"], table=table, pool="R1 R2 R3")
    game, _ = game.apply(MoveTile(0, one("K7"), 5))
    game, _ = game.apply(Play(0, placed_tiles("K8"), 6))
    refused(game, Done(0), "meld 6 (K7 K8) is not a valid meld: 3 tiles needed")
    fixed, _ = game.apply(Play(0, placed_tiles("K9"), 6))
    assert fixed.check_done() is None
    drawn, _ = game.apply(Draw(0, "pool"))
    assert drawn.table == tiles_game(racks=["O1", "B1"], table=table).table
    assert sorted(drawn.racks[0]) == sorted(tl("K8 K9 O1 R1")) and drawn.turn == 1
    penalty = tiles_game(racks=["K8 K9 O1", "B1"], table=table, pool="R1 R2 R3",
                         invalid_done="penalty")
    penalty, _ = penalty.apply(MoveTile(0, one("K7"), 5))
    penalty, _ = penalty.apply(Play(0, placed_tiles("K8"), 6))
    penalty, _ = penalty.apply(Done(0))
    assert [m.tiles for m in penalty.table][4] == tuple(tl("R7 B7 K7 O7"))
    assert sorted(penalty.racks[0]) == sorted(tl("K8 K9 O1 R1 R2 R3")) and penalty.turn == 1


def test_TIL_E11_going_out_scores() -> None:
    game = tiles_game(3, racks=["R1 R2 R3", "J R5 K2", "B13 O1"])
    game, _ = game.apply(Play(0, placed_tiles("R1 R2 R3")))
    game, _ = game.apply(Done(0))
    assert game.results[-1].points == (51, -37, -14)
    assert game.results[-1].winners == (0,)


def test_TIL_E12_blocked_game_lowest_rack_wins() -> None:
    game = tiles_game(3, racks=["R3 B2", "K10", "O7 O8 J"], pool="")
    for seat in range(3):
        game, _ = game.apply(Draw(seat, "pool"))
    assert game.results[-1].points == (45, -5, -40)
    assert game.results[-1].winners == (0,)


def test_TIL_E13_tied_winners_split_rounded_down() -> None:
    game = tiles_game(3, racks=["R3 B3", "K6", "O7 O8 B6"], pool="")
    for seat in range(3):
        game, _ = game.apply(Draw(seat, "pool"))
    assert game.results[-1].points == (7, 7, -15)
    assert game.results[-1].winners == (0, 1)


def test_TIL_E14_expiry_draws_commits_or_penalises() -> None:
    base = dict(racks=["R6 K8 B1", "B2"], table=["R3 R4 R5", "K7 R7 B7 O7"],
                pool="O1 O2 O3 O4")
    game = tiles_game(**base)
    after, _ = game.apply(Timeout(0))
    assert sorted(after.racks[0]) == sorted(tl("R6 K8 B1 O1")) and after.turn == 1
    unmade = tiles_game(**base, initial=[False, True])
    after, _ = unmade.apply(Timeout(0))
    assert len(after.racks[0]) == 4
    game, _ = tiles_game(**base).apply(Play(0, placed_tiles("R6"), 1))
    after, _ = game.apply(Timeout(0))
    assert after.table[0].tiles == tuple(tl("R3 R4 R5 R6")) and after.racks[0] == tl("K8 B1")
    game = tiles_game(**base)
    game, _ = game.apply(MoveTile(0, one("K7"), 2))
    game, _ = game.apply(Play(0, placed_tiles("K8"), 3))
    after, _ = game.apply(Timeout(0))
    assert sorted(after.racks[0]) == sorted(tl("R6 K8 B1 O1 O2 O3"))
    assert after.table == tiles_game(**base).table


def test_TIL_E15_arrange_changes_the_fewest_melds() -> None:
    game = tiles_game(racks=["R6 R7 B1", "B2"], table=["R3 R4 R5", "K7 B7 O7"])
    after, _ = game.apply(Arrange(0, tuple(tl("R6 R7"))))
    assert staged_codes(after) == ["R3 R4 R5 R6 R7", "B7 K7 O7"]
    assert [v.changed for v in after.meld_views()] == [True, False]
    unmade = tiles_game(racks=["R6 R7 B1", "B2"], table=["R3 R4 R5", "K7 B7 O7"],
                        initial=[False, True])
    refused(unmade, Arrange(0, tuple(tl("R6 R7"))), "no valid arrangement with these tiles")


def test_TIL_E16_penalty_takes_the_last_tiles_then_a_pass() -> None:
    game = tiles_game(racks=["K8 O1", "B1"], table=["K7 R7 B7 O7"], pool="R1 R2",
                      invalid_done="penalty")
    game, _ = game.apply(Play(0, placed_tiles("K8")))
    game, _ = game.apply(Done(0))
    assert sorted(game.racks[0]) == sorted(tl("K8 O1 R1 R2")) and not game.pool
    game, _ = game.apply(Draw(1, "pool"))
    assert game.racks[1] == tl("B1") and game.passes == 1
