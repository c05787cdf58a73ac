"""Ratings: openskill updates from places, ties, the shared computer rating, display."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ratings import COMPUTER_USER_ID, DEFAULT, Entrant, Rating, display, rate

ratings = st.builds(Rating, mu=st.floats(10, 40), sigma=st.floats(1, 8.5))


def test_newcomer_displays_1000():
    assert DEFAULT.display == 1000
    assert display(DEFAULT.mu, DEFAULT.sigma) == 1000


def test_display_grows_with_mu_and_certainty():
    assert display(30, 5) > display(25, 5)
    assert display(25, 3) > display(25, 5)


@given(places=st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_equal_players_order_by_place(places):
    """From equal ratings a better place gets a bigger update, equal places equal ones,
    the best place gains and the worst loses (Plackett-Luce fails this with ties)."""
    after = rate([Entrant(seat, DEFAULT, place) for seat, place in enumerate(places)])
    for a, place_a in enumerate(places):
        for b, place_b in enumerate(places):
            if place_a < place_b:
                assert after[a].mu > after[b].mu
            elif place_a == place_b:
                assert after[a].mu == pytest.approx(after[b].mu)
                assert after[a].sigma == pytest.approx(after[b].sigma)
    if len(set(places)) > 1:
        best, worst = places.index(min(places)), places.index(max(places))
        assert after[best].mu > DEFAULT.mu > after[worst].mu


@given(before=st.lists(ratings, min_size=2, max_size=6), data=st.data())
def test_winner_gains_last_loses(before, data):
    """Whatever the ratings, with distinct places the winner's mu rises and the last's falls.

    (Middle places may go either way, and so may a tie for last: tying with a much
    stronger player is good news.)"""
    places = data.draw(st.permutations(range(1, len(before) + 1)))
    after = rate([Entrant(seat, r, place) for seat, (r, place) in
                  enumerate(zip(before, places, strict=True))])
    winner, last = places.index(1), places.index(len(before))
    assert after[winner].mu > before[winner].mu
    assert after[last].mu < before[last].mu


@given(a=ratings, b=ratings)
def test_tie_is_symmetric(a, b):
    """Swapping two tied players swaps their updates."""
    one = rate([Entrant("a", a, 1), Entrant("b", b, 1)])
    two = rate([Entrant("a", b, 1), Entrant("b", a, 1)])
    assert one["a"].mu == pytest.approx(two["b"].mu)
    assert one["b"].mu == pytest.approx(two["a"].mu)
    assert one["a"].sigma == pytest.approx(two["b"].sigma)


@given(r=ratings)
def test_tie_between_equals_changes_no_mu(r):
    after = rate([Entrant("a", r, 1), Entrant("b", r, 1)])
    assert after["a"].mu == pytest.approx(r.mu)
    assert after["a"].sigma < (r.sigma ** 2 + (25 / 300) ** 2) ** 0.5


def test_computer_seats_share_one_rating_and_get_the_mean():
    computer = Rating(22.0, 4.0)
    entrants = [Entrant(COMPUTER_USER_ID, computer, 1), Entrant(7, DEFAULT, 2),
                Entrant(COMPUTER_USER_ID, computer, 3)]
    after = rate(entrants)
    assert set(after) == {COMPUTER_USER_ID, 7}
    separately = rate([Entrant("c1", computer, 1), Entrant(7, DEFAULT, 2),
                       Entrant("c2", computer, 3)])
    assert after[COMPUTER_USER_ID].mu == pytest.approx(
        (separately["c1"].mu + separately["c2"].mu) / 2)
    assert after[7] == separately[7]


def test_order_of_seats_does_not_matter():
    entrants = [Entrant(1, DEFAULT, 2), Entrant(2, Rating(30, 3), 1), Entrant(3, DEFAULT, 3)]
    forward, backward = rate(entrants), rate(entrants[::-1])
    for key in (1, 2, 3):
        assert forward[key].mu == pytest.approx(backward[key].mu)


@pytest.mark.parametrize("entrants, message", [
    ([Entrant(1, DEFAULT, 1)], "at least two"),
    ([Entrant(1, DEFAULT, 0), Entrant(2, DEFAULT, 1)], "place"),
    ([Entrant(0, DEFAULT, 1), Entrant(0, Rating(20, 5), 2)], "different ratings"),
])
def test_refuses_bad_input(entrants, message):
    with pytest.raises(ValueError, match=message):
        rate(entrants)
