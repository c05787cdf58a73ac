"""A leaver is recorded last (UX.md): one order for the results message and the records."""

from __future__ import annotations

from bot.engine.views import Placing, ResultView, SeatState
from bot.sessions import leavers_last
from bot.texts import left_text


def view(*places: int) -> ResultView:
    return ResultView("x", "Match over", tuple(Placing(seat, place, "0")
                                               for seat, place in enumerate(places)))


def placed(result: ResultView) -> list[tuple[int, int]]:
    return [(p.seat, p.place) for p in result.placings]


def test_the_stayers_close_up_and_the_leaver_goes_last() -> None:
    assert placed(leavers_last(view(2, 1), {1})) == [(0, 1), (1, 2)]
    assert placed(leavers_last(view(1, 2, 3, 4), {0})) == [(1, 1), (2, 2), (3, 3), (0, 4)]


def test_ties_are_kept_among_stayers_and_among_leavers() -> None:
    assert placed(leavers_last(view(1, 2, 2, 4), {0})) == [(1, 1), (2, 1), (3, 3), (0, 4)]
    assert placed(leavers_last(view(1, 1, 3, 3), {0, 1})) == [(2, 1), (3, 1), (0, 3), (1, 3)]


def test_nobody_left_changes_nothing() -> None:
    original = view(2, 1, 3)
    assert leavers_last(original, set()) is original


def test_the_answer_to_leaving_says_what_the_variant_made_of_the_seat() -> None:
    assert "A computer plays your seat" in left_text(None)
    assert "you are Dead" in left_text(SeatState.DEAD)
    assert "dropped from this deal" in left_text(SeatState.DROPPED)
    assert "you are out" in left_text(SeatState.OUT)
    assert all("computer" not in left_text(s) for s in SeatState)
