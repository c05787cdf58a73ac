"""The hand panel's pick menus: big hands split over menus of 25, selections kept across them,
and positions packed so every custom_id stays within Discord's 100 characters."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.customids import decode_positions, encode_positions
from bot.engine.cards import card_deck
from bot.panels import pick_menus
from bot.ui import CUSTOM_ID_LIMIT, SELECT_LIMIT, make_view

DECK = card_deck(2, 4)


@given(st.sets(st.integers(1, 60)))
def test_positions_round_trip_compactly(positions: set[int]) -> None:
    arg = encode_positions(sorted(positions))
    assert decode_positions(arg) == sorted(positions)
    assert len(arg) <= 13


def test_only_a_selection_is_read_as_positions() -> None:
    """A bare number (a pile position, a meld) or the old dotted form is never positions."""
    assert decode_positions("3") == decode_positions("3.7.8") == decode_positions("m") == []


def test_a_hand_of_25_or_fewer_has_one_menu() -> None:
    (menu,) = pick_menus(DECK[:25], [2, 5])
    assert len(menu.options) == 25 and menu.placeholder == "Pick cards…"
    assert menu.chosen == {"2", "5"} and menu.arg == "1"


def test_a_30_tile_rack_splits_in_equal_menus() -> None:
    menus = pick_menus(DECK[:30], [1, 16, 30], tiles=True)
    assert [len(m.options) for m in menus] == [15, 15]
    assert [m.placeholder for m in menus] == ["Pick tiles 1–15…", "Pick tiles 16–30…"]
    first, second = menus
    assert first.chosen == {"1"} and first.arg[0] == "1"
    assert decode_positions(first.arg[1:]) == [16, 30]
    assert second.chosen == {"16", "30"} and second.arg[0] == "2"
    assert decode_positions(second.arg[1:]) == [1]
    assert all(len(m.options) <= SELECT_LIMIT for m in pick_menus(DECK[:70], []))


async def test_every_custom_id_fits_with_everything_selected() -> None:
    order = DECK[:46]
    everything = list(range(1, 47))
    view = make_view(2**63 - 1, selects=pick_menus(order, everything))
    assert view is not None
    for item in view.children:
        assert len(item.custom_id) <= CUSTOM_ID_LIMIT  # type: ignore[attr-defined]


def test_menus_have_their_own_custom_ids_with_nothing_selected() -> None:
    """Discord refuses a message in which two components share a custom_id (issue 19, 4)."""
    view = make_view(7, selects=pick_menus(DECK[:26], []))
    assert view is not None
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert len(ids) == 2 and len(set(ids)) == 2
