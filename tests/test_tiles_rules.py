"""Tile Rummy rules TIL-1 … TIL-31, each test named after the rule it checks."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.engine.cards import TILE_JOKER, Colour, Face, tile_set
from bot.engine.errors import IllegalMove, InvalidOptions
from bot.engine.game import Timeout
from bot.engine.melds import read_meld
from bot.engine.moves import Done, Draw, Resume
from bot.engine.variants.tiles import (
    RULES,
    Arrange,
    MoveTile,
    Play,
    Release,
    Reset,
    Split,
    Take,
    TilesGame,
    TilesOptions,
)
from bot.engine.views import SeatState
from bot.texts import meld_text
from cardart import sprites
from cardart.melds import stand_ins
from tests.engine_helpers import refused
from tests.tiles_helpers import all_tiles, one, placed_tiles, staged_codes, tiles_game, tl

# -- players and tiles -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_TIL_1_two_to_four_players_106_tiles(players: int) -> None:
    game = TilesGame.new(players, seed=players)
    assert all_tiles(game) == Counter(tile_set())
    assert sum(all_tiles(game).values()) == 106
    assert all_tiles(game)[TILE_JOKER] == 2


def test_TIL_1_five_players_refused() -> None:
    with pytest.raises(InvalidOptions):
        TilesGame.new(5)


def test_TIL_2_TIL_6_turns_pass_to_the_next_seat_and_wrap() -> None:
    game = tiles_game(3, racks=["R1", "R2", "R3"], turn=1)
    game, _ = game.apply(Draw(1, "pool"))
    assert game.turn == 2
    game, _ = game.apply(Draw(2, "pool"))
    assert game.turn == 0


def test_TIL_3_TIL_23_joker_30_on_a_rack_number_otherwise() -> None:
    game = tiles_game(racks=["J R5 K13", "B1"])
    assert game.rack_total(0) == 48


def test_TIL_4_highest_first_draw_plays_first() -> None:
    for seed in range(30):
        game = TilesGame.new(3, seed=seed)
        draws = [e.text for e in game.opening() if e.text.startswith("First-player draw")]
        last = re.findall(r"\{p(\d)\} [RBKO](\d+)", draws[-1])
        top = max(int(n) for _, n in last)
        winners = [int(s) for s, n in last if int(n) == top]
        assert winners == [game.turn]
        assert all("J" not in d.split(": ")[1] for d in draws)


def test_TIL_4_jokers_drawn_again() -> None:
    seen_joker = False
    for seed in range(200):
        game = TilesGame.new(2, seed=seed)
        if any("drew a joker" in e.text for e in game.opening()):
            seen_joker = True
            break
    assert seen_joker


def test_TIL_4_the_opening_tells_the_draw_and_who_plays_first() -> None:
    """Game.opening holds the set-up events ``_start`` made (the turn itself excepted), the
    same however often it is asked, and only for the first game."""
    game = TilesGame.new(2, seed=3)
    opening = game.opening()
    kinds = [e.kind for e in opening]
    assert kinds[0] == "first_draw" and kinds[-1] == "game_started" and "turn" not in kinds
    assert f"{{p{game.turn}}} plays first" in opening[-1].text
    assert game.opening() == opening
    moved, _ = game.apply(Draw(game.turn, "pool"))
    assert moved.opening() == opening


@pytest.mark.parametrize(("players", "pool"), [(2, 78), (3, 64), (4, 50)])
def test_TIL_5_fourteen_each_and_the_pool(players: int, pool: int) -> None:
    game = TilesGame.new(players, seed=7)
    assert [len(r) for r in game.racks] == [14] * players
    assert len(game.pool) == pool


# -- melds -----------------------------------------------------------------------


def _stage(rack: str, *melds: str, **options) -> TilesGame:
    game = tiles_game(racks=[rack, "B1"], **options)
    for meld in melds:
        game, _ = game.apply(Play(0, placed_tiles(meld)))
    return game


def test_TIL_7_runs_never_wrap() -> None:
    assert _stage("O1 O2 O3 K1", "O1 O2 O3").check_done() is None
    assert _stage("O11 O12 O13 K1", "O11 O12 O13").check_done() is None
    assert "not a run" in _stage("O12 O13 O1 K1", "O12 O13 O1").check_done()
    assert "not a run" in _stage("O13 O1 O2 K1", "O13 O1 O2").check_done()


def test_TIL_8_sets_of_different_colours() -> None:
    assert _stage("R4 B4 K4 O4 K1", "R4 B4 K4 O4").check_done() is None
    assert "red appears twice" in _stage("R4 R4 B4 K1", "R4 R4 B4").check_done()


def test_TIL_9_jokers_stand_for_definite_tiles() -> None:
    game = _stage("R9 J R11 K1", "R9 J R11")
    assert game.meld_views()[0].faces[1] == Face(10, 0)
    named = _stage("R6 J J K1", "R6 J=R7 J=R8")
    assert named.meld_views()[0].kind == "run"
    two = _stage("R6 J J K1", "R6 J J")
    assert two.meld_views()[0].kind == "run"  # one numbered tile with two jokers: a run
    as_set = _stage("R6 J J K1", "R6 J=B6 J=K6")
    assert as_set.meld_views()[0].kind == "set"


def test_TIL_9_table_joker_keeps_its_stand_in_while_it_fits() -> None:
    game = tiles_game(racks=["R3 K1", "B1"], table=["R4 R5 J R7"])
    game, _ = game.apply(Play(0, placed_tiles("R3"), 1))
    assert game.meld_views()[0].faces == tuple(Face(n, 0) for n in range(3, 8))


def test_TIL_9_a_set_joker_beside_three_colours_is_the_missing_one() -> None:
    """Issue 19 item 17: R5 B5 O5 J reads J = K5 (black 5), not "5"; in a set of three
    either missing colour is possible, so it stays "5"."""
    four = read_meld(tl("R5 B5 O5 J"), RULES)
    assert four.faces[3] == Face(5, Colour.K) and four.faces[3].label(True) == "K5"
    three = read_meld(tl("R5 B5 J"), RULES)
    assert three.faces[2].suit_open
    two_jokers = read_meld(placed_tiles("R5 B5 J=5 J=5"), RULES)
    assert [f.label(True) for f in two_jokers.faces[2:]] == ["K5", "O5"]


def test_TIL_9_a_table_set_joker_becomes_the_missing_colour_once_a_third_joins() -> None:
    game = tiles_game(racks=["O5 K1", "B1"], table=["R5 B5 J"])
    assert game.meld_views()[0].faces[2].suit_open
    game, _ = game.apply(Play(0, placed_tiles("O5"), 1))
    (view,) = game.meld_views()
    assert meld_text(view, True) == "R5 B5 O5 J(=K5)"
    assert game.check_done() is None  # check 3: a set joker keeps its number
    game, _ = game.apply(Done(0))
    assert game.table[0].faces[3] == Face(5, Colour.K)
    assert meld_text(game.table_view().melds[0], True) == "R5 B5 O5 J(=K5)"


def test_TIL_9_the_picture_shows_the_missing_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    labels: list[str] = []
    real = sprites.badge
    monkeypatch.setattr(sprites, "badge", lambda label, *a, **k: labels.append(label)
                        or real(label, *a, **k))
    game = tiles_game(racks=["K1", "B1"], table=["R5 B5 O5 J", "R7 B7 J"])
    views = game.table_view().melds
    assert [list(stand_ins(v, True)) for v in views] == [[3], [2]]
    assert labels == ["=K5", "=7"]


def test_TIL_10_numbers_kept_during_a_turn_renumbered_at_commit() -> None:
    game = tiles_game(racks=["K5 K6 K7 R9", "B1"], table=["R1 R2 R3", "B4 B5 B6 B7",
                                                          "O1 O2 O3"])
    game, _ = game.apply(MoveTile(0, one("B4"), 2))
    assert [m.number for m in game.staged] == [1, 2, 3, 4]
    game, _ = game.apply(MoveTile(0, one("R1"), 1, 4))
    game, _ = game.apply(MoveTile(0, one("R2"), 1, 4))
    game, _ = game.apply(MoveTile(0, one("R3"), 1, 4))
    assert [m.number for m in game.staged] == [2, 3, 4]  # meld 1 emptied, others keep numbers
    game, _ = game.apply(MoveTile(0, one("B4"), 4, 2))
    game, _ = game.apply(Play(0, placed_tiles("K5 K6 K7")))
    assert [m.number for m in game.staged] == [2, 3, 4, 5]
    game, _ = game.apply(Done(0))
    assert [m.number for m in game.table] == [1, 2, 3, 4]
    assert [" ".join(t.code for t in m.tiles) for m in game.table] == [
        "B4 B5 B6 B7", "O1 O2 O3", "R1 R2 R3", "K5 K6 K7"]


# -- a turn ------------------------------------------------------------------------


def test_TIL_11_the_table_changes_only_at_a_commit() -> None:
    game = tiles_game(racks=["R4 K9", "B1"], table=["R1 R2 R3"])
    before = game.table
    game, _ = game.apply(Play(0, placed_tiles("R4"), 1))
    assert game.table == before and staged_codes(game) == ["R1 R2 R3 R4"]
    assert game.hand_view(0).pieces == tuple(tl("K9"))
    reset, _ = game.apply(Reset(0))
    assert staged_codes(reset) == ["R1 R2 R3"] and reset.hand_view(0).pieces == tuple(
        tl("R4 K9"))
    taken, _ = game.apply(Take(0, one("R4")))
    assert staged_codes(taken) == ["R1 R2 R3"]


def test_TIL_11_moving_a_tile_out_of_the_middle_of_a_run_splits_it_there() -> None:
    """TIL-11 (clarified, TIL-E4): B5 out of B2 … B8 leaves B2 B3 B4 and B6 B7 B8; the lower
    part keeps the meld's number, the upper part is the next new meld."""
    game = tiles_game(racks=["R5 K5 O1", "B1"], table=["B2 B3 B4 B5 B6 B7 B8", "R5 K5 O5"])
    moved, _ = game.apply(MoveTile(0, one("B5"), 1, 2))
    assert [(m.number, " ".join(t.code for t in m.tiles)) for m in moved.staged] == [
        (1, "B2 B3 B4"), (2, "R5 B5 K5 O5"), (3, "B6 B7 B8")]
    assert moved.check_done() is None
    lonely, _ = game.apply(MoveTile(0, one("B3"), 1))  # a part may be short: fix it or undo
    assert staged_codes(lonely) == ["B2", "R5 K5 O5", "B4 B5 B6 B7 B8", "B3"]


def test_TIL_11_an_end_tile_or_a_set_tile_leaves_no_gap() -> None:
    game = tiles_game(racks=["R9 O1", "B1"], table=["B2 B3 B4 B5", "R9 B9 K9 O9"])
    end, _ = game.apply(MoveTile(0, one("B5"), 1))
    assert staged_codes(end) == ["B2 B3 B4", "R9 B9 K9 O9", "B5"]
    out_of_set, _ = game.apply(MoveTile(0, one("B9"), 2))
    assert staged_codes(out_of_set) == ["B2 B3 B4 B5", "R9 K9 O9", "B9"]


def test_TIL_11_a_gap_at_a_joker_splits_the_run_and_the_joker_keeps_its_place() -> None:
    game = tiles_game(racks=["K4 O4", "B1"], table=["R2 R3 R4 J=R5 R6 R7"],
                      joker_retrieve="free")
    moved, _ = game.apply(MoveTile(0, one("R4"), 1))
    assert staged_codes(moved) == ["R2 R3", "J R6 R7", "R4"]
    assert moved.meld_views()[1].faces[0] == Face(5, 0)


def test_TIL_11_TIL_12d_a_gap_cannot_split_a_locked_meld() -> None:
    """The part beyond the gap would take start tiles out of a locked meld (TIL-18)."""
    game = tiles_game(racks=["R5 K1", "B1"], table=["O4 O5 O6 O7 J"], joker_locks_meld=True)
    refused(game, MoveTile(0, one("O5"), 1), "meld 1 holds a joker: release it first")


def test_TIL_11_TIL_12b_before_the_initial_meld_an_own_run_splits_too() -> None:
    game = tiles_game(racks=["K9 K10 K11 K12 K13 B1", "O1"], initial=[False, True])
    game, _ = game.apply(Play(0, placed_tiles("K9 K10 K11 K12 K13")))
    moved, _ = game.apply(MoveTile(0, one("K11"), 1))
    assert staged_codes(moved) == ["K9 K10", "K12 K13", "K11"]


def test_TIL_12_a_table_tile_never_goes_to_a_rack() -> None:
    game = tiles_game(racks=["R4 K9", "B1"], table=["R1 R2 R3"])
    refused(game, Take(0, one("R1")),
            "R1 was on the table at the start of your turn: it cannot go to your rack")


def test_TIL_12_a_release_tile_never_goes_back() -> None:
    game = tiles_game(racks=["R7 K9", "B1"], table=["R4 R5 R6 J"])
    game, _ = game.apply(Release(0, one("R7"), 1))
    refused(game, Take(0, one("R7")),
            "R7 released a joker: it stays on the table (undo resets the turn)")
    reset, _ = game.apply(Reset(0))
    assert reset.hand_view(0).pieces == tuple(tl("R7 K9"))


def test_TIL_12_before_the_initial_meld_no_moves_no_releases() -> None:
    game = tiles_game(racks=["R7 K9 K10 K11", "B1"], table=["R4 R5 R6 J"],
                      initial=[False, True])
    text = "until your initial meld is made you may only lay new melds from your rack"
    refused(game, MoveTile(0, one("R4"), 1), text)
    refused(game, Release(0, one("R7"), 1), text)
    refused(game, Split(0, 1, 2), text)
    game, _ = game.apply(Play(0, placed_tiles("K9 K10")))
    game, _ = game.apply(Play(0, placed_tiles("K11"), 2))  # own new meld: fine
    assert staged_codes(game)[1] == "K9 K10 K11"


def test_TIL_12_release_with_a_wrong_tile_refused() -> None:
    game = tiles_game(racks=["R8 K7 K9", "B1"], table=["R4 R5 R6 J", "R9 B9 J"])
    refused(game, Release(0, one("R8"), 1),
            "R8 does not match the joker of meld 1 (it stands for R7)")
    refused(game, Release(0, one("K7"), 1),
            "K7 does not match the joker of meld 1 (it stands for R7)")
    game, _ = game.apply(Release(0, one("K9"), 2))  # a set: the number, a missing colour
    assert sorted(staged_codes(game)[1].split()) == ["B9", "K9", "R9"]


def test_TIL_13_checks_in_order_meld_validity_first() -> None:
    game = tiles_game(racks=["R1 R2 K5 K6", "B1"], initial=[False, True])
    game, _ = game.apply(Play(0, placed_tiles("R1 R2")))
    refused(game, Done(0), "meld 1 (R1 R2) is not a valid meld: 3 tiles needed")


def test_TIL_13_check_3_table_joker_keeps_its_tile() -> None:
    game = tiles_game(racks=["K7 O7 K8 O8 B1", "B2"], table=["R4 R5 R6 J", "R1 R2 R3"])
    for tile in ("R4", "R5", "R6"):
        game, _ = game.apply(MoveTile(0, one(tile), 1, 2))
    same, _ = game.apply(Play(0, placed_tiles("K7 O7"), 1))
    assert same.check_done() is None  # J still stands for R7, now in a set
    game, _ = game.apply(Play(0, placed_tiles("K8 O8"), 1))
    refused(game, Done(0), "meld 1: the joker must still stand for R7 (release it first)")


def test_TIL_14_done_with_nothing_placed_is_a_draw() -> None:
    game = tiles_game(racks=["K9", "B1"], table=["R1 R2 R3"], pool="O5")
    after, _ = game.apply(Done(0))
    assert sorted(after.racks[0]) == sorted(tl("K9 O5")) and after.turn == 1


def test_TIL_14_penalty_ends_the_turn() -> None:
    game = tiles_game(racks=["K9 K1", "B1"], pool="O5 O6 O7 O8", invalid_done="penalty")
    game, _ = game.apply(Play(0, placed_tiles("K9")))
    after, events = game.apply(Done(0))
    assert len(after.racks[0]) == 5 and after.turn == 1
    assert any(e.kind == "penalty" for e in events)


def test_TIL_15_draw_drops_the_staged_table_without_penalty() -> None:
    game = tiles_game(racks=["K9 K1", "B1"], table=["R1 R2 R3"], pool="O5 O6",
                      invalid_done="penalty")
    game, _ = game.apply(Play(0, placed_tiles("K9"), 1))
    after, _ = game.apply(Draw(0, "pool"))
    assert sorted(after.racks[0]) == sorted(tl("K9 K1 O5"))
    assert after.table[0].tiles == tuple(tl("R1 R2 R3"))
    assert after.hand_view(0).newest == one("O5")  # the drawn tile is badged
    empty = tiles_game(racks=["K9", "B1"], pool="")
    after, events = empty.apply(Draw(0, "pool"))
    assert after.racks[0] == tl("K9") and after.passes == 1
    assert any(e.kind == "pass" for e in events)


def test_TIL_16_initial_meld_zero_and_fifty() -> None:
    free = tiles_game(racks=["R4 K9", "B1"], table=["R1 R2 R3"], initial=[False, True],
                      initial_meld=0)
    free, _ = free.apply(Play(0, placed_tiles("R4"), 1))
    free, _ = free.apply(Done(0))
    assert free.table[0].tiles == tuple(tl("R1 R2 R3 R4"))
    fifty = tiles_game(racks=["K10 K11 K12 R1", "B1"], initial=[False, True],
                       initial_meld=50)
    fifty, _ = fifty.apply(Play(0, placed_tiles("K10 K11 K12")))
    refused(fifty, Done(0), "your new melds total 33; the initial meld needs 50")


def test_TIL_17_free_joker_moves_and_changes_what_it_stands_for() -> None:
    game = tiles_game(racks=["K7 O7 B1", "B2"], table=["R4 R5 R6 J"], joker_retrieve="free")
    game, _ = game.apply(MoveTile(0, one("J"), 1))
    game, _ = game.apply(Play(0, placed_tiles("K7 O7"), 2))
    assert game.check_done() is None
    assert game.meld_views()[1].kind == "set"


def test_TIL_17_released_joker_must_end_in_a_valid_meld() -> None:
    game = tiles_game(racks=["R7 B1", "B2"], table=["R4 R5 R6 J"])
    game, _ = game.apply(Release(0, one("R7"), 1))
    refused(game, Done(0), "meld 2 (J) is not a valid meld: 3 tiles needed")


def test_TIL_18_lock_holds_in_free_mode_and_split_refused() -> None:
    game = tiles_game(racks=["K9 R3", "B1"], table=["R4 R5 R6 J R8"], joker_retrieve="free",
                      joker_locks_meld=True)
    refused(game, MoveTile(0, one("J"), 1), "meld 1 holds a joker: release it first")
    refused(game, Split(0, 1, 3), "meld 1 holds a joker: release it first")
    game, _ = game.apply(Play(0, placed_tiles("R3"), 1))  # adding is allowed
    refused(game, MoveTile(0, one("R4"), 1), "meld 1 holds a joker: release it first")
    taken, _ = game.apply(MoveTile(0, one("R3"), 1))  # not a start-of-turn tile: may leave
    assert staged_codes(taken)[1] == "R3"


def test_TIL_19_released_joker_with_rack_tiles_passes() -> None:
    game = tiles_game(racks=["R7 K9 O9 B1", "B2"], table=["R4 R5 R6 J"],
                      retrieved_joker_new_meld_only=True)
    game, _ = game.apply(Release(0, one("R7"), 1))
    game, _ = game.apply(Play(0, placed_tiles("K9 O9"), 2))
    assert game.check_done() is None


def test_TIL_20_arrange_stages_without_committing() -> None:
    game = tiles_game(racks=["B5 J K1", "B2"], table=["B2 B3 B4", "R6 B6 K6"])
    after, _ = game.apply(Arrange(0, tuple(tl("B5 J"))))
    assert after.table == game.table
    assert after.check_done() is None
    assert sorted(after.hand_view(0).pieces) == tl("K1")
    refused(game, Arrange(0, tuple(tl("K1"))), "no valid arrangement with these tiles")


def test_TIL_20_arrange_splits_a_run_when_needed() -> None:
    game = tiles_game(racks=["R5 K5 O1", "B2"], table=["B2 B3 B4 B5 B6 B7 B8"])
    after, _ = game.apply(Arrange(0, tuple(tl("R5 K5"))))
    assert after.check_done() is None
    assert sorted(staged_codes(after)) == ["B2 B3 B4", "B6 B7 B8", "R5 B5 K5"]


def test_TIL_20_TIL_12c_arrange_keeps_two_kept_jokers_in_their_own_melds() -> None:
    """R5 R6 fit between R2 J=R3 R4 and R7 J=R8 R9: the search joins them in one run, which
    no staging reaches (neither joker may move), so the run is cut between the jokers."""
    game = tiles_game(racks=["R5 R6 O1", "B2"], table=["R2 J=R3 R4", "R7 J=R8 R9"])
    after, _ = game.apply(Arrange(0, tuple(tl("R5 R6"))))
    assert after.check_done() is None
    assert sorted(staged_codes(after)) == ["R2 J R4", "R5 R6 R7 J R9"]
    assert sorted(after.hand_view(0).pieces) == tl("O1")


def test_TIL_20_TIL_17_an_arranged_release_is_staged_as_a_release() -> None:
    """Issue 19 item 2: when the arrangement frees a table joker with the tile it stands for,
    the joker is staged released and the rack tile as the one that released it, so done
    accepts it (check 3) and the tile cannot go back to the rack (TIL-12a)."""
    game = tiles_game(racks=["K8 O8 R7 B1", "B2"], table=["R4 R5 R6 J=R7"])
    after, _ = game.apply(Arrange(0, tuple(tl("K8 O8 R7"))))
    assert sorted(staged_codes(after)) == ["K8 O8 J", "R4 R5 R6 R7"]
    assert after.check_done() is None
    refused(after, Take(0, one("R7")),
            "R7 released a joker: it stays on the table (undo resets the turn)")
    done, _ = after.apply(Done(0))
    assert done.racks[0] == tl("B1")


def test_TIL_20_TIL_17_with_replace_a_table_tile_may_free_the_joker() -> None:
    game = tiles_game(racks=["K8 O8 B1", "B2"], table=["R4 R5 R6 J=R7", "R7 R8 R9 R10"],
                      joker_retrieve="replace")
    after, _ = game.apply(Arrange(0, tuple(tl("K8 O8"))))
    assert after.check_done() is None and "K8 O8 J" in staged_codes(after)
    strict = tiles_game(racks=["K8 O8 B1", "B2"], table=["R4 R5 R6 J=R7", "R7 R8 R9 R10"])
    refused(strict, Arrange(0, tuple(tl("K8 O8"))), "no valid arrangement with these tiles")


def test_TIL_20_the_issue_19_run_with_a_joker_takes_its_tile() -> None:
    """Issue 19 item 2: O9 O10 J(=O11) O12 O13 and O11 named: whatever is staged, done
    accepts it."""
    game = tiles_game(racks=["O11 B1", "B2"], table=["O9 O10 J=O11 O12 O13"])
    after, _ = game.apply(Arrange(0, tuple(tl("O11"))))
    assert after.check_done() is None
    done, _ = after.apply(Done(0))
    assert done.racks[0] == tl("B1")


# -- ending a game, scoring, match ----------------------------------------------------


def test_TIL_21_TIL_24_empty_rack_wins() -> None:
    game = tiles_game(racks=["R1 R2 R3", "K5"])
    game, _ = game.apply(Play(0, placed_tiles("R1 R2 R3")))
    game, _ = game.apply(Done(0))
    assert game.is_over and game.results[-1].winners == (0,)
    assert game.results[-1].points == (5, -5)


def test_TIL_22_passes_counted_and_reset_by_a_draw() -> None:
    game = tiles_game(3, racks=["K5", "K6", "K7"], pool="O1")
    game, _ = game.apply(Draw(0, "pool"))
    assert game.passes == 0
    game, _ = game.apply(Draw(1, "pool"))
    game, _ = game.apply(Draw(2, "pool"))
    assert game.passes == 2 and not game.is_over
    game, _ = game.apply(Draw(0, "pool"))
    assert game.is_over


def test_TIL_25_TIL_26_blocked_scores_added_to_totals() -> None:
    game = tiles_game(2, racks=["K5", "K9 J"], pool="", games=2)
    game, _ = game.apply(Draw(0, "pool"))
    game, events = game.apply(Draw(1, "pool"))
    assert game.results[-1].points == (34, -34)
    assert game.scores == [34, -34] and game.game_number == 2
    assert any(e.kind == "game_over" and "K9 J = 39" in e.text for e in events)


def test_TIL_27_games_and_target() -> None:
    game = tiles_game(2, racks=["R1 R2 R3", "K5"], games=2)
    game, _ = game.apply(Play(0, placed_tiles("R1 R2 R3")))
    game, _ = game.apply(Done(0))
    assert not game.is_over and game.game_number == 2
    target = tiles_game(2, racks=["R1 R2 R3", "K13 K12 K11 K10 K9"], target=50, games=5)
    target, _ = target.apply(Play(0, placed_tiles("R1 R2 R3")))
    target, _ = target.apply(Done(0))
    assert target.is_over and target.winners == (0,)
    short = tiles_game(2, racks=["R1 R2 R3", "K5"], target=50, games=1)
    short, _ = short.apply(Play(0, placed_tiles("R1 R2 R3")))
    short, _ = short.apply(Done(0))
    assert not short.is_over  # target overrides games


def test_TIL_27_option_bounds() -> None:
    with pytest.raises(InvalidOptions):
        TilesOptions.build(target=20)
    with pytest.raises(InvalidOptions):
        TilesOptions.build(turn_seconds=10)


# -- timeouts -------------------------------------------------------------------------


def test_TIL_28_no_timer_no_timeout() -> None:
    game = tiles_game(racks=["K5", "B1"], turn_seconds=0)
    refused(game, Timeout(0), "there is no turn timer in this game")


def test_TIL_29_valid_rearrangement_without_rack_tiles_is_dropped() -> None:
    game = tiles_game(racks=["K5", "B1"], table=["R1 R2 R3 R4 R5 R6"], pool="O1")
    game, _ = game.apply(Split(0, 1, 3))
    after, _ = game.apply(Timeout(0))
    assert [m.tiles for m in after.table] == [tuple(tl("R1 R2 R3 R4 R5 R6"))]
    assert sorted(after.racks[0]) == sorted(tl("K5 O1"))


def test_TIL_30_auto_play_after_three_timeouts_until_resume() -> None:
    game = tiles_game(racks=["K5", "B1"], pool="O1 O2 O3 O4 O5 O6 O7 O8")
    for _ in range(2):
        game, _ = game.apply(Timeout(0))
        game, _ = game.apply(Draw(1, "pool"))
    game, events = game.apply(Timeout(0))
    assert game.auto[0] and any(e.kind == "auto" for e in events)
    assert game.table_view().players[0].state == SeatState.AUTO
    game, events = game.apply(Draw(1, "pool"))  # seat 0's turn is played at once
    assert game.turn == 1 and any("auto-play" in e.text for e in events)
    game, _ = game.apply(Resume(0))
    refused(game, Resume(0), "you are not on auto-play")
    game, _ = game.apply(Draw(1, "pool"))
    assert game.turn == 0 and not game.auto[0]


def test_TIL_30_own_turn_resets_the_count() -> None:
    game = tiles_game(racks=["K5", "B1"], pool="O1 O2 O3 O4 O5 O6 O7 O8")
    game, _ = game.apply(Timeout(0))
    game, _ = game.apply(Draw(1, "pool"))
    game, _ = game.apply(Draw(0, "pool"))
    assert game.timeouts[0] == 0


def test_TIL_31_absent_player_is_scored() -> None:
    game = tiles_game(racks=["R1 R2 R3", "K5 K6"])
    game = type(game).from_json(game.to_json())
    game.auto[1] = True
    game, _ = game.apply(Play(0, placed_tiles("R1 R2 R3")))
    game, _ = game.apply(Done(0))
    assert game.results[-1].points == (11, -11)


def test_not_your_turn_and_unknown_meld() -> None:
    game = tiles_game(racks=["K5", "B1"])
    with pytest.raises(IllegalMove):
        game.apply(Play(1, placed_tiles("B1")))
    refused(game, Play(0, placed_tiles("K5"), 9), "there is no meld 9 on the table")


def test_TIL_30_a_table_of_absent_players_plays_to_the_end_of_the_match() -> None:
    game = tiles_game(3, racks=["K5", "B1", "R9"], pool="O1 O2 O3", games=20)
    game = type(game).from_json(game.to_json())
    game.auto = [False, True, True]
    game.timeouts = [2, 0, 0]
    game, _ = game.apply(Timeout(0))  # the third timeout: everyone is on auto-play now
    assert game.is_over and game.game_number == 20


def test_TIL_9_two_jokers_named_for_one_tile_refused_at_done() -> None:
    game = _stage("R5 R6 J J K1", "R5 R6 J=R7 J=R7")
    refused(game, Done(0), "meld 1 (R5 R6 J J) is not a run: two jokers stand for 7 in a run")
