"""Rummi chip settlement: half-chips, tiers, ties, Hu payments and adjustments (RMI-22 … RMI-28)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import card_deck
from bot.engine.errors import InvalidOptions
from bot.engine.rummi_chips import (
    ACES,
    ADJUSTMENTS,
    HU,
    JOKERS,
    JOKERS_ACES,
    NET,
    TIEN_HU,
    TIER,
    TIERS_DEFAULT,
    Payment,
    Settlement,
    card_points,
    format_chips,
    format_tiers,
    hand_points,
    parse_tiers,
    settle,
    tie_payment,
    tier_amounts,
    worth,
)
from bot.engine.rummi_rules import tien_hu
from bot.engine.serial import from_data, to_data
from tests.engine_helpers import cards

DECK = card_deck(2, 8)


def hands(*texts: str) -> list[list]:
    return [cards(t) for t in texts]


def flows(settlement: Settlement, reasons: frozenset[str] | set[str]) -> dict[tuple[int, int], int]:
    """Half-chips paid per (payer, payee) for the given reasons."""
    paid: Counter[tuple[int, int]] = Counter()
    for p in settlement.payments:
        if p.reason in reasons:
            paid[p.payer, p.payee] += p.half_chips
    return dict(paid)


def nets(settlement: Settlement, reasons: frozenset[str] | set[str]) -> list[int]:
    result = [0] * len(settlement.chips)
    for p in settlement.payments:
        if p.reason in reasons:
            result[p.payer] -= p.half_chips
            result[p.payee] += p.half_chips
    return result


# ---------------------------------------------------------------------------
# RMI-22: half-chips and how they are shown
# ---------------------------------------------------------------------------

def test_RMI_22_chips_show_in_half_steps() -> None:
    assert format_chips(5) == "+2.5"
    assert format_chips(-2) == "-1"
    assert format_chips(0) == "0"
    assert format_chips(1) == "+0.5"
    assert format_chips(-1) == "-0.5"
    assert format_chips(-31) == "-15.5"
    assert format_chips(3, signed=False) == "1.5"
    assert format_chips(-3, signed=False) == "-1.5"


def test_RMI_22_results_are_integer_half_chips_summing_to_zero() -> None:
    result = settle(hands("AS 3C", "5D JK", "KH KH"), [0, 1, 2], tiers=parse_tiers("0.5-1"))
    assert all(isinstance(c, int) for c in result.chips)
    assert sum(result.chips) == 0


# ---------------------------------------------------------------------------
# RMI-23: Hu payments
# ---------------------------------------------------------------------------

def test_RMI_23_every_other_player_pays_the_hu_winner() -> None:
    result = settle(hands("", "2C 3D", "KH", "9S 9S"), [2, 3, 0, 1], winner=0, hu_chips=7)
    assert flows(result, {HU}) == {(1, 0): 14, (2, 0): 14, (3, 0): 14}
    assert result.chips == (42, -14, -14, -14)
    assert result.points is None and result.places is None
    # Payments follow turn order.
    assert [p.payer for p in result.payments] == [2, 3, 1]


def test_RMI_23_points_and_tiers_are_not_used_after_a_hu() -> None:
    low = settle(hands("", "2C", "KH KD KS"), [0, 1, 2], winner=0, tiers=parse_tiers("5"))
    assert low.chips == (40, -20, -20)


def test_RMI_E1_tien_hu_payments_and_winner_not_charged() -> None:
    a = cards("AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS QS")
    assert tien_hu(a) is not None
    b, c, d = cards("2H 3H 7D"), cards("KC 8S 6D"), cards("5C 5H 10D")
    result = settle([a, b, c, d], [0, 1, 2, 3], winner=0, tien_hu=True)
    assert result.chips == (60, -20, -20, -20)  # A +30, B, C, D −10 each
    assert result.worth[0].total == 0  # A's Aces and joker are not charged
    assert {p.reason for p in result.payments} == {TIEN_HU}
    assert result.payments[0].label == "Tien Hu"
    # Had B held an Ace, B would also pay the winner 0.5 for it.
    with_ace = settle([a, cards("AH 3H 7D"), c, d], [0, 1, 2, 3], winner=0, tien_hu=True)
    assert flows(with_ace, ADJUSTMENTS) == {(1, 0): 1, (1, 2): 1, (1, 3): 1}


# ---------------------------------------------------------------------------
# RMI-24: points and places
# ---------------------------------------------------------------------------

def test_RMI_24_card_points() -> None:
    assert [card_points(c) for c in cards("2S 9H 10D JC QS KH AS JK")] == \
        [2, 9, 10, 10, 10, 10, 15, 0]
    assert hand_points(cards("AH AH 3S")) == 33


def test_RMI_24_lowest_points_first_and_ties_skip_a_place() -> None:
    result = settle(hands("4C 6D", "AH AH 3S", "JK JK 9S 9D 5C 10C", "AS KC QC JD JK"),
                    [0, 1, 2, 3])
    assert result.points == (10, 33, 33, 45)
    assert result.places == (1, 2, 2, 4)


def test_RMI_24_a_player_who_left_ranks_last_and_collects_no_tier_chips() -> None:
    """The rules leave leaving to the bot, which records a leaver last (UX.md): the tiers
    follow that order, so leaving with the fewest points pays instead of collecting."""
    four = hands("4C 6D", "AH AH 3S", "JK JK 9S 9D 5C 10C", "AS KC QC JD JK")
    result = settle(four, [0, 1, 2, 3], last=[0])
    assert result.points == (10, 33, 33, 45)  # the points are the cards', as ever
    assert result.places == (4, 1, 1, 3)
    tiers = [p for p in result.payments if p.reason == TIER]
    assert all(p.payee != 0 for p in tiers) and any(p.payer == 0 for p in tiers)
    two_left = settle(four, [0, 1, 2, 3], last=[0, 3])
    assert two_left.places == (3, 1, 1, 4)  # leavers behind, in their own points order


def test_RMI_27_a_player_who_left_collects_no_adjustment_but_pays_what_it_owes() -> None:
    """RMI-27 pairs every two players; a leaver with the lower worth would collect from
    the others (leaving with no Ace or joker earned +0.5 a pair). The bot's reading:
    leaving never earns a chip, so those payments lapse; a leaver holding more still pays."""
    two = hands("4C 6D", "AH JK 3S")  # the leaver (seat 0) holds nothing worth anything
    stayed = settle(two, [0, 1])
    assert any(p.payee == 0 and p.reason != TIER for p in stayed.payments)
    left = settle(two, [0, 1], last=[0])
    assert left.places == (2, 1)
    assert all(p.payee != 0 for p in left.payments)
    assert left.chips[0] < 0 and sum(left.chips) == 0
    rich = settle(hands("AH AH JK", "4C 6D"), [0, 1], last=[0])
    assert {p.payer for p in rich.payments if p.reason != TIER} == {0}


# ---------------------------------------------------------------------------
# RMI-25: tiers
# ---------------------------------------------------------------------------

def test_RMI_25_default_tiers_extend_by_player_count() -> None:
    assert TIERS_DEFAULT == (2, 4, 6)
    assert tier_amounts(TIERS_DEFAULT, 2) == (2,)
    assert tier_amounts(TIERS_DEFAULT, 3) == (2, 4)  # 1-2
    assert tier_amounts(TIERS_DEFAULT, 5) == (2, 4, 6, 8)  # 1-2-3-4: place k pays k−1


def test_RMI_25_missing_tiers_continue_the_last_step() -> None:
    assert tier_amounts(parse_tiers("2-4"), 4) == (4, 8, 12)  # 2-4-6
    assert tier_amounts(parse_tiers("1.5"), 5) == (3, 6, 9, 12)  # lone x: x, 2x, 3x, 4x
    assert tier_amounts(parse_tiers("1-1-3"), 5) == (2, 2, 6, 10)
    assert tier_amounts(parse_tiers("2-2"), 5) == (4, 4, 4, 4)
    assert tier_amounts(parse_tiers("0"), 4) == (0, 0, 0)
    assert tier_amounts(parse_tiers("1-2-3-4"), 3) == (2, 4)  # entries beyond n−1 ignored


def test_RMI_25_tiers_option_parses_half_chips() -> None:
    assert parse_tiers("1-2-3") == (2, 4, 6)
    assert parse_tiers(" 0.5-1.5 - 1.5-1000 ") == (1, 3, 3, 2000)
    assert parse_tiers("2.0") == (4,)
    assert format_tiers(parse_tiers("0.5-1-1.5")) == "0.5-1-1.5"


@pytest.mark.parametrize(("text", "reason"), [
    ("", "tiers needs 1 to 4 entries joined by -, like 1-2-3"),
    ("  ", "tiers needs 1 to 4 entries joined by -, like 1-2-3"),
    ("1-2-3-4-5", "tiers takes 1 to 4 entries joined by -, not 5"),
    ("1-x-3", 'tiers: "x" is not a number of chips (write them like 1-2-3 or 0.5-1.5)'),
    ("1--2", 'tiers: "" is not a number of chips (write them like 1-2-3 or 0.5-1.5)'),
    ("-1", 'tiers: "" is not a number of chips (write them like 1-2-3 or 0.5-1.5)'),
    ("1,2", 'tiers: "1,2" is not a number of chips (write them like 1-2-3 or 0.5-1.5)'),
    ("١-٢", 'tiers: "١" is not a number of chips (write them like 1-2-3 or 0.5-1.5)'),
    ("1.25", "tiers: 1.25 is not a multiple of 0.5"),
    ("1001", "tiers: 1001 is more than 1000 chips"),
    ("1000.5", "tiers: 1000.5 is more than 1000 chips"),
    ("3-2", "tiers must not go down: 2 comes after 3"),
    ("1-2.5-2", "tiers must not go down: 2 comes after 2.5"),
])
def test_RMI_25_malformed_tiers_are_refused_in_one_line(text: str, reason: str) -> None:
    with pytest.raises(InvalidOptions) as error:
        parse_tiers(text)
    assert str(error.value) == reason


def test_RMI_25_non_text_tiers_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="tiers must be chips joined by -"):
        parse_tiers(3)  # type: ignore[arg-type]


def test_RMI_E8_tiers_with_three_players() -> None:
    a, b, c = hands("8D 8C", "10S 10H 5D 5C", "2C 9D KS")
    result = settle([a, b, c], [0, 1, 2], tiers=parse_tiers("1-2"))
    assert result.points == (16, 30, 21)
    assert result.places == (1, 3, 2)
    assert flows(result, {TIER}) == {(2, 0): 2, (1, 0): 4}  # C pays A 1, B pays A 2
    assert result.chips == (6, -4, -2)  # A +3, B −2, C −1
    assert not flows(result, ADJUSTMENTS)


# ---------------------------------------------------------------------------
# RMI-26: ties
# ---------------------------------------------------------------------------

def test_RMI_26_tied_players_pay_the_rounded_average() -> None:
    amounts = tier_amounts(parse_tiers("1-2-4"), 4)
    assert tie_payment(amounts, 2, 4) == 5  # (1+2+4)/3 = 2.33 → 2.5
    assert tie_payment(amounts, 3, 4) == 6  # (2+4)/2 = 3
    assert tie_payment(amounts, 2, 2) == 2
    # Exact quarters round up: (1+1.5)/2 = 1.25 → 1.5; (0.5+1)/2 = 0.75 → 1.
    assert tie_payment(tier_amounts(parse_tiers("1-1.5"), 3), 2, 3) == 3
    assert tie_payment(tier_amounts(parse_tiers("0.5-1"), 3), 2, 3) == 2
    # (1+1+1.5)/3 = 1.1667 → 1
    assert tie_payment(tier_amounts(parse_tiers("1-1-1.5"), 4), 2, 4) == 2


def test_RMI_26_three_tied_behind_the_winner() -> None:
    result = settle(hands("2S", "9S", "9H", "9D"), [0, 1, 2, 3], tiers=parse_tiers("1-2-4"))
    assert result.places == (1, 2, 2, 2)
    assert flows(result, {TIER}) == {(1, 0): 5, (2, 0): 5, (3, 0): 5}
    assert result.chips == (15, -5, -5, -5)


def test_RMI_26_everyone_tied_first_pays_nothing() -> None:
    result = settle(hands("5S", "5H", "5D"), [0, 1, 2])
    assert result.places == (1, 1, 1)
    assert result.chips == (0, 0, 0) and result.payments == ()


def test_RMI_E12_shared_first_place() -> None:
    result = settle(hands("10S 2S", "10H 2H", "10D 10C 10S", "10S 10H 10D 10C"), [0, 1, 2, 3])
    assert result.places == (1, 1, 3, 4)
    assert result.chips == (5, 5, -4, -6)  # A +2.5, B +2.5, C −2, D −3
    five = hands("8S", "8H", "8D", "10S 10H", "10D 10C 5S")
    result = settle(five, [0, 1, 2, 3, 4])
    assert result.places == (1, 1, 1, 4, 5)
    assert nets(result, {TIER}) == [5, 5, 4, -6, -8]  # 14 half-chips: 5, 5, 4
    assert [format_chips(c) for c in result.chips] == ["+2.5", "+2.5", "+2", "-3", "-4"]
    # The remainder follows turn order: starting with C, it goes to C and A.
    result = settle(five, [2, 3, 4, 0, 1])
    assert result.chips == (5, 4, 5, -6, -8)


# ---------------------------------------------------------------------------
# RMI-27: adjustments
# ---------------------------------------------------------------------------

def test_RMI_27_worth_counts_jokers_aces_and_identical_pairs() -> None:
    assert worth(cards("JK 4C")).total == 1
    assert worth(cards("AS AS 9D")).total == 4  # identical pair: 1 chip each
    assert worth(cards("AS AH")).total == 2  # different suits: 0.5 each
    assert worth(cards("AH AH AD")).total == 5  # a further Ace of another suit stays 0.5
    assert worth(cards("JK AS 7C")) == worth(cards("AS JK"))
    assert worth(cards("JK JK AS")).jokers == 2 and worth(cards("JK JK AS")).aces == 1
    assert worth(cards("2S KD")).total == 0


def test_RMI_27_equal_worth_pays_nothing_and_no_pair_pays_both_ways() -> None:
    # B's joker and D's Ace are worth the same: nothing changes hands.
    result = settle(hands("2S", "JK 4C", "3S", "AH 6S"), [0, 1, 2, 3], winner=0)
    assert (1, 3) not in flows(result, ADJUSTMENTS) and (3, 1) not in flows(result, ADJUSTMENTS)
    pairs = [frozenset((p.payer, p.payee)) for p in result.payments if p.reason in ADJUSTMENTS]
    for pair in set(pairs):
        payers = {p.payer for p in result.payments
                  if p.reason in ADJUSTMENTS and frozenset((p.payer, p.payee)) == pair}
        assert len(payers) == 1


def test_RMI_27_adjustment_items_name_their_cause() -> None:
    # 0: two jokers and an Ace; 1: nothing; 2: AS AS (identical pair).
    result = settle(hands("JK JK AH 5C", "5S", "AS AS 9D"), [0, 1, 2], winner=None)
    items = {(p.payer, p.payee, p.reason): p.half_chips
             for p in result.payments if p.reason in ADJUSTMENTS}
    assert items == {(0, 1, JOKERS): 2, (0, 1, ACES): 1, (2, 1, ACES): 4,
                     (2, 0, JOKERS_ACES): 1}
    labels = {p.label for p in result.payments if p.reason in ADJUSTMENTS}
    assert labels == {"joker adjustment", "Ace adjustment", "joker/Ace adjustment"}


def test_RMI_E9_hu_with_adjustments() -> None:
    a, b, c, d = hands("", "JK 4C", "AS AS 9D", "AH 6S")
    result = settle([a, b, c, d], [0, 1, 2, 3], winner=0, hu_chips=10)
    assert flows(result, {HU}) == {(1, 0): 20, (2, 0): 20, (3, 0): 20}
    assert [w.total for w in result.worth] == [0, 1, 4, 1]
    # B→A 0.5, C→A 2, D→A 0.5, C→B 1.5, B–D 0, C→D 1.5
    assert flows(result, ADJUSTMENTS) == {(1, 0): 1, (2, 0): 4, (3, 0): 1, (2, 1): 3, (2, 3): 3}
    assert nets(result, ADJUSTMENTS) == [6, 2, -10, 2]  # A +3, B +1, C −5, D +1
    assert result.chips == (66, -18, -30, -18)  # +33, −9, −15, −9
    assert [format_chips(c) for c in result.chips] == ["+33", "-9", "-15", "-9"]


def test_RMI_E10_no_hu_tiers_ties_and_adjustments() -> None:
    a, b, c, d = hands("4C 6D", "AH AH 3S", "JK JK 9S 9D 5C 10C", "AS KC QC JD JK")
    result = settle([a, b, c, d], [0, 1, 2, 3], tiers=parse_tiers("1-2-3"))
    assert result.points == (10, 33, 33, 45)
    assert flows(result, {TIER}) == {(1, 0): 3, (2, 0): 3, (3, 0): 6}  # 1.5, 1.5, 3 → A 6
    assert [w.total for w in result.worth] == [0, 4, 2, 2]
    # B→A 2, C→A 1, D→A 1, B→C 1, B→D 1, C–D 0
    assert flows(result, ADJUSTMENTS) == {(1, 0): 4, (2, 0): 2, (3, 0): 2, (1, 2): 2, (1, 3): 2}
    assert nets(result, ADJUSTMENTS) == [8, -8, 0, 0]
    assert result.chips == (20, -11, -3, -6)  # +10, −5.5, −1.5, −3


def test_RMI_E11_adjustments_around_a_hu() -> None:
    p1, p2, p3, p4 = hands("JK AS 7C", "AH AH AD", "", "JK 9H")
    result = settle([p1, p2, p3, p4], [0, 1, 2, 3], winner=2, hu_chips=5)
    assert [w.total for w in result.worth] == [2, 5, 0, 1]  # T = 4 chips = 8 half-chips
    # P2→P1 1.5, P1→P3 1, P1→P4 0.5, P2→P3 2.5, P2→P4 2, P4→P3 0.5
    assert flows(result, ADJUSTMENTS) == {(1, 0): 3, (0, 2): 2, (0, 3): 1, (1, 2): 5,
                                          (1, 3): 4, (3, 2): 1}
    assert nets(result, ADJUSTMENTS) == [0, -12, 8, 4]  # 0, −6, +4, +2
    assert sum(result.chips) == 0


def test_RMI_28_result_is_main_payments_plus_adjustment_net() -> None:
    a, b, c, d = hands("4C 6D", "AH AH 3S", "JK JK 9S 9D 5C 10C", "AS KC QC JD JK")
    result = settle([a, b, c, d], [0, 1, 2, 3])
    main = nets(result, {TIER})
    adjust = nets(result, ADJUSTMENTS)
    assert list(result.chips) == [m + j for m, j in zip(main, adjust, strict=True)]


def test_RMI_28_transfers_net_each_pair_once() -> None:
    a, b, c, d = hands("", "JK 4C", "AS AS 9D", "AH 6S")
    result = settle([a, b, c, d], [0, 1, 2, 3], winner=0)
    transfers = result.transfers()
    assert transfers == (Payment(1, 0, 21, NET), Payment(2, 0, 24, NET),
                         Payment(2, 1, 3, NET), Payment(2, 3, 3, NET),
                         Payment(3, 0, 21, NET))
    chips = [0] * 4
    for t in transfers:
        chips[t.payer] -= t.half_chips
        chips[t.payee] += t.half_chips
    assert tuple(chips) == result.chips


def test_settle_refuses_inconsistent_calls() -> None:
    with pytest.raises(ValueError):
        settle(hands("2S", "3S"), [0, 0])
    with pytest.raises(ValueError):
        settle(hands("2S", "3S"), [0, 1], winner=2)
    with pytest.raises(ValueError):
        settle(hands("2S", "3S"), [0, 1], tien_hu=True)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

@st.composite
def games(draw: st.DrawFn) -> tuple[list[list], list[int], tuple[int, ...], int | None, int]:
    n = draw(st.integers(2, 5))
    picks = draw(st.lists(st.integers(0, len(DECK) - 1), unique=True, max_size=n * 20))
    cut = sorted(draw(st.lists(st.integers(0, len(picks)), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cut, len(picks)]
    seats = [[DECK[i] for i in picks[bounds[s]:bounds[s + 1]]] for s in range(n)]
    order = draw(st.permutations(range(n)))
    tiers = tuple(sorted(draw(st.lists(st.integers(0, 2000), min_size=1, max_size=4))))
    winner = draw(st.none() | st.integers(0, n - 1))
    hu = draw(st.integers(1, 1000))
    return seats, list(order), tiers, winner, hu


@settings(max_examples=400, deadline=None)
@given(games())
def test_RMI_22_property_chips_sum_to_zero_and_payments_add_up(
        game: tuple[list[list], list[int], tuple[int, ...], int | None, int]) -> None:
    seats, order, tiers, winner, hu = game
    result = settle(seats, order, tiers=tiers, winner=winner, hu_chips=hu)
    assert sum(result.chips) == 0
    all_reasons = {p.reason for p in result.payments}
    assert nets(result, all_reasons) == list(result.chips)
    assert all(p.half_chips > 0 and p.payer != p.payee for p in result.payments)
    transfers = result.transfers()
    assert len({frozenset((t.payer, t.payee)) for t in transfers}) == len(transfers)
    # RMI-27: player i nets T − n·W_i from the adjustments.
    w = [x.total for x in result.worth]
    n = len(seats)
    assert nets(result, ADJUSTMENTS) == [sum(w) - n * wi for wi in w]
    if winner is not None:
        assert w[winner] == 0
        assert flows(result, {HU}) == {(s, winner): 2 * hu for s in range(n) if s != winner}
        return
    # RMI-25/26: places > 1 pay their (averaged) tier to place 1 only.
    amounts = tier_amounts(tiers, n)
    places = result.places
    assert places is not None
    size = Counter(places)
    paid = nets(result, {TIER})
    for seat in range(n):
        if places[seat] > 1:
            assert paid[seat] == -tie_payment(amounts, places[seat],
                                              places[seat] + size[places[seat]] - 1)
    firsts = [s for s in order if places[s] == 1]
    shares = [paid[s] for s in firsts]
    assert shares == sorted(shares, reverse=True) and shares[0] - shares[-1] <= 1
    assert all(p.payee in firsts for p in result.payments if p.reason == TIER)


def _one_line_refusal(text: str) -> tuple[int, ...] | None:
    try:
        return parse_tiers(text)
    except InvalidOptions as error:
        assert "\n" not in str(error) and str(error).startswith("tiers")
        return None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_RMI_25_property_any_text_parses_or_is_refused_in_one_line(text: str) -> None:
    parsed = _one_line_refusal(text)
    if parsed is not None:
        assert 1 <= len(parsed) <= 4 and list(parsed) == sorted(parsed)
        assert all(0 <= t <= 2000 for t in parsed)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2000), min_size=1, max_size=4), st.integers(2, 5))
def test_RMI_25_property_tiers_round_trip_and_extend(entries: Sequence[int], players: int) -> None:
    tiers = tuple(sorted(entries))
    assert parse_tiers(format_tiers(tiers)) == tiers
    amounts = tier_amounts(tiers, players)
    assert len(amounts) == players - 1
    assert list(amounts) == sorted(amounts)
    assert amounts[:len(tiers)] == tiers[:players - 1]


def test_RMI_25_refusal_quotes_control_characters_escaped() -> None:
    with pytest.raises(InvalidOptions) as error:
        parse_tiers("1-0\n0")
    assert str(error.value).startswith('tiers: "0\\n0" is not a number of chips')


def test_RMI_E1_a_second_tien_hu_hand_pays_like_any_loser() -> None:
    a = cards("AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS QS")
    c = cards("2S 2S 3S 5S 6S 8S 9S 2H 3H 5H 6H 8H 9H 2D 3D 5D 6D 8C 9C JK")
    assert tien_hu(c) is not None  # C could have won too, but A comes first
    b, d = cards("2H 3H 7D"), cards("5C 5H 10D")
    result = settle([a, b, c, d], [0, 1, 2, 3], winner=0, tien_hu=True)
    assert flows(result, {TIEN_HU})[2, 0] == 20  # C pays 10
    assert flows(result, ADJUSTMENTS) == {(2, 0): 1, (2, 1): 1, (2, 3): 1}  # C's joker
    assert result.chips == (61, -19, -23, -19)


def test_settlement_round_trips_through_json() -> None:
    for result in (settle(hands("", "JK 4C", "AS AS 9D", "AH 6S"), [0, 1, 2, 3], winner=0),
                   settle(hands("8D 8C", "10S 10H 5D 5C", "2C 9D KS"), [0, 1, 2])):
        assert from_data(Settlement, to_data(result)) == result
