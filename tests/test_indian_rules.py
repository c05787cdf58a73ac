"""Indian Rummy, rule by rule (IND-1 … IND-37 of 20-indian.md)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions, NotYourTurn
from bot.engine.game import Timeout
from bot.engine.moves import Discard, Draw
from bot.engine.rng import Rng
from bot.engine.variants.indian import (
    Declare,
    Drop,
    IndianGame,
    IndianOptions,
    card_value,
    indian_rules,
    judge_grouping,
    loser_count,
    search_show,
)
from bot.engine.views import SeatState
from tests.test_indian_helpers import card, cards, groups, indian, refused

P1, P2, P3, P4 = 0, 1, 2, 3
SHOW = "AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC"
LOOSE = "2C 4C 6C 8C JC KC 2H 4H 6H 8H JH KH 3S"
LOOSE2 = "3H 5H 7H 9H QH AH 3D 5D 7D 9D JD KD 2S"


def flat(text: str) -> str:
    return text.replace("|", " ")


def new(players: int = 2, seed: int = 1, **options) -> IndianGame:
    return IndianGame.new(players, IndianOptions.build(**options), seed=seed)


def valid(text: str, wild: int | None = 10) -> bool:
    return judge_grouping(groups(text), indian_rules(wild)).valid


def kinds(text: str, wild: int | None = 10) -> tuple[int, int]:
    verdict = judge_grouping(groups(text), indian_rules(wild))
    return verdict.sequences, verdict.pure_sequences


# -- players and cards -------------------------------------------------------


def test_IND_1_jokers_and_active_players() -> None:
    """IND-1: a joker is a printed joker or a wild-rank card; dropping ends being active."""
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], cut="7C")
    assert game.is_joker(JOKER) and game.is_joker(card("7H")) and not game.is_joker(card("8H"))
    game, _ = game.apply(Drop(P1))
    assert not game.active[P1] and game.legal_moves(P1) == []
    assert game.to_move == P2


@pytest.mark.parametrize("players", [1, 7])
def test_IND_2_player_count_refused(players: int) -> None:
    """IND-2: fewer than 2 or more than 6 players are refused."""
    with pytest.raises(InvalidOptions):
        new(players)


@pytest.mark.parametrize("players", [2, 6])
def test_IND_2_two_to_six_players(players: int) -> None:
    """IND-2."""
    assert len(new(players).hands) == players


@pytest.mark.parametrize("players, decks, size, jokers", [
    (2, None, 53, 1), (3, None, 106, 2), (6, None, 106, 2), (2, "2", 106, 2), (3, "1", 53, 1)])
def test_IND_3_deck_by_player_count(players: int, decks: str | None, size: int,
                                    jokers: int) -> None:
    """IND-3: 53 cards (1 printed joker) for 2 players, 106 (2) for 3–6; decks forces it."""
    game = new(players, decks=decks)
    assert sum(game.deck().values()) == size and game.deck()[JOKER] == jokers
    assert game.all_cards() == game.deck()
    if size == 106:
        assert set(game.deck().values()) == {2}  # two copies of every card (NOT-5)


def test_IND_3_one_deck_refused_for_four_players() -> None:
    """IND-3: decks = 1 with 4 or more players is refused when the game starts."""
    with pytest.raises(InvalidOptions, match="53"):
        new(4, decks="1")


def test_IND_4_card_values() -> None:
    """IND-4: A K Q J 10 each, pips face value, every joker 0."""
    rules = indian_rules(7)
    values = {c: card_value(card(c), rules) for c in ("AS", "KH", "QD", "JC", "10S", "9H", "2C",
                                                      "7D", "7S", "JK")}
    assert values == {"AS": 10, "KH": 10, "QD": 10, "JC": 10, "10S": 10, "9H": 9, "2C": 2,
                      "7D": 0, "7S": 0, "JK": 0}
    assert card_value(card("7D"), indian_rules(None)) == 7


# -- deal and turn order ----------------------------------------------------------


def test_IND_5_first_dealer_random_then_clockwise() -> None:
    """IND-5: the first dealer is uniform (every seat occurs); the next is the next one in."""
    dealers = {new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = indian(3, held=[LOOSE, "", flat(SHOW)], turn=P3, format="pool101")
    game = dataclasses.replace(game, dealer=P1, eliminated=[False, True, False])
    game, _ = game.apply(Drop(P3))  # P1 wins the deal; next dealer skips eliminated P2
    assert game.deal_number == 2 and game.dealer == P3


def test_IND_6_deal_one_at_a_time_from_dealers_left() -> None:
    """IND-6: shuffle, 13 each, one at a time from the top, starting left of the dealer."""
    seed, n = 11, 3
    game = new(n, seed=seed)
    rng = Rng.from_seed(seed)
    dealer = rng.below(n)
    deck = card_deck(2, 2)
    rng.shuffle(deck)
    assert game.dealer == dealer
    for offset in range(n):
        seat = (dealer + 1 + offset) % n
        assert Counter(game.hands[seat]) == Counter(deck[offset:13 * n:n])


def test_IND_7_cut_joker_and_wild_rank() -> None:
    """IND-7: the cut joker comes from the undealt cards and belongs nowhere; its rank is wild."""
    for seed in range(30):
        game = new(2, seed=seed)
        cut = game.cut_joker
        assert cut is not None and cut not in game.closed[-1:] + game.open
        assert game.wild_rank == (1 if cut.is_joker else cut.rank)
        assert game.table_view().wild == cut
        assert game.hand_view(0).wild_rank == game.wild_rank


def test_IND_7_printed_joker_cut_and_no_wild() -> None:
    """IND-7: a printed-joker cut makes aces wild; wild_joker = false cuts nothing."""
    game = indian(2, held=[LOOSE, LOOSE2], cut="JK")
    assert game.wild_rank == 1 and game.is_joker(card("AS"))
    plain = new(2, wild_joker=False)
    assert plain.cut_joker is None and plain.wild_rank is None
    assert plain.is_joker(JOKER) and not any(plain.is_joker(c) for c in cards("AS 7H KD"))
    assert len(plain.closed) + len(plain.open) == 53 - 26


def test_IND_8_open_deck_then_closed_deck() -> None:
    """IND-8: the top undealt card starts the open deck; the rest is the closed deck."""
    game = new(2, seed=5)
    assert len(game.open) == 1
    assert len(game.closed) == 53 - 26 - 1 - 1
    assert game.all_cards() == game.deck()


def test_IND_9_first_turn_and_clockwise_among_active() -> None:
    """IND-9: the player left of the dealer starts; turns skip players who dropped."""
    for seed in range(10):
        game = new(4, seed=seed)
        assert game.to_move == (game.dealer + 1) % 4
    game = indian(4, held=[LOOSE, LOOSE2, flat(SHOW), LOOSE], turn=P1)
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, game.drawn))
    game, _ = game.apply(Drop(P2))
    game, _ = game.apply(Draw(P3, "closed"))
    game, _ = game.apply(Discard(P3, game.drawn))
    game, _ = game.apply(Draw(P4, "closed"))
    game, _ = game.apply(Discard(P4, game.drawn))
    assert game.to_move == P1
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, game.drawn))
    assert game.to_move == P3


def test_IND_10_public_information() -> None:
    """IND-10: cut joker, open-deck top only, closed-deck count, who is active, totals."""
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], cut="7C", open="10C 10D 10S",
                  format="pool101", totals=[10, 20, 0])
    game, _ = game.apply(Drop(P1))
    view = game.table_view()
    assert view.wild == card("7C") and view.discard == (card("10S"),)
    assert view.stock == len(game.closed) and view.stock_label == "closed deck"
    assert view.discard_label == "open deck" and view.hand_label == "deal"
    assert [p.state for p in view.players] == [SeatState.DROPPED, SeatState.PLAYING,
                                               SeatState.PLAYING]
    assert [p.score for p in view.players] == ["10", "20", "0"]
    assert view.players[P1].pieces_left == 0 and view.players[P2].pieces_left == 13
    assert not hasattr(view, "hands")


# -- melds -----------------------------------------------------------------------


@pytest.mark.parametrize("group, ok", [
    ("AS 2S 3S", True), ("QS KS AS", True), ("KS AS 2S", False), ("KS JK 2S", False),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True), ("5H JK 7H", True),
    ("5H 6H 8H", False), ("5H 6D 7H", False)])
def test_IND_11_sequences(group: str, ok: bool) -> None:
    """IND-11: 3–13 cards of one suit in order, ace low or high, never K-A-2."""
    from bot.engine.melds import is_meld

    assert is_meld(cards(group), indian_rules(10)) is ok


def test_IND_11_joker_stands_for_itself() -> None:
    """IND-11: a wild-rank card may stand in its own place."""
    assert kinds("5H 6H 7H | 8D 9D 10D | KS KH KD | 2C 2H 2D 2S", wild=7) == (2, 2)


def test_IND_12_pure_and_impure() -> None:
    """IND-12: wild card in its own place keeps a sequence pure; a printed joker never does."""
    assert kinds("5H 6H 7H | 8D 9D JK | KS KH KD | 2C 2H 2D 2S", wild=7) == (2, 1)
    assert kinds("5H 6H 7S | 8D 9D JK | KS KH KD | 2C 2H 2D 2S", wild=7) == (2, 0)
    assert not valid("5H 6H 7S | 8D 9D JK | KS KH KD | 2C 2H 2D 2S", wild=7)


def test_IND_13_sets() -> None:
    """IND-13: one rank, different suits, any number of jokers; two 7S never share a set."""
    rules = indian_rules(10)
    from bot.engine.melds import is_meld

    assert is_meld(cards("5H 5S 5D 5C JK"), rules)
    assert is_meld(cards("5H JK 10D 10S JK"), rules)
    assert not is_meld(cards("7S 7S 7H"), rules)
    assert is_meld(cards("10S 10S JK"), rules)  # jokers only: a set
    assert not is_meld(cards("5H 5S 5D 5C 5H"), rules)


def test_IND_14_jokers_only_never_a_sequence() -> None:
    """IND-14: 7S 7H 7D (7s wild) is a set, not a sequence; a sequence-or-set is a sequence."""
    assert kinds("7S 7H 7D | 2C 3C 4C | 9H 10H JH | KD KC KS JK", wild=7) == (2, 2)
    assert kinds("7S 7H 7D | 2C 3C 4C | KD KC KS | 9H 10H JH JK", wild=7) == (2, 1)
    # 5H JK JK is both a sequence and a set: it counts as the second sequence.
    assert valid("5H JK JK | 2C 3C 4C | KD KC KS | 9H 9S 9D 9C", wild=None)


def test_IND_15_joker_annotations() -> None:
    """IND-15: JK=8H or 7D=8H may pin a joker; an impossible pin makes the group invalid."""
    assert valid("6H 7H JK=8H | 2C 3C 4C | KD KC KS | 9H 9S 9D 9C", wild=10)
    assert valid("6H 10D=7H 8H | 2C 3C 4C | KD KC KS | 9H 9S 9D 9C", wild=10)
    assert not valid("6H 7H JK=9H | 2C 3C 4C | KD KC KS | 9H 9S 9D 9C", wild=10)
    verdict = judge_grouping(groups("6H 7H JK=8H"), indian_rules(10))
    assert "JK(=8H)" in verdict.shown


def test_IND_15_set_joker_may_name_a_suit_an_ordinary_card_has() -> None:
    """IND-13, IND-15: jokers are exempt from the suit rule, so JK=5H joins 5H 5S 5D 5C."""
    from bot.engine.melds import SET, read_meld

    for text in ("5H 5S 5D 5C JK=5H", "7H 7D JK=7H"):
        (group,) = groups(text)
        meld = read_meld(list(group), indian_rules(10))
        assert meld.kind == SET and "JK(=" + text[-2:] + ")" in judge_grouping(
            groups(text), indian_rules(10)).shown
    assert valid("AD 2D 3D 4D | 6S 7S 8S 9S | 5H 5S 5D 5C JK=5H", wild=10)
    assert not valid("7S 7S 7H | 2C 3C 4C | 9H 10H JH | KD KC KH JK")  # ordinary cards still


def test_IND_15_show_with_a_joker_naming_a_held_suit_is_valid() -> None:
    """IND-15, IND-23: such a show ends the deal as a valid show, not an 80-point wrong show."""
    grouping = "AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | 7H 7D JK=7H"
    game = indian(2, held=[flat(grouping).replace("=7H", "") + " KS", LOOSE], phase="discard")
    game, events = game.apply(Declare(P1, card("KS"), groups(grouping)))
    assert [e.kind for e in events][:2] == ["declare", "hand_over"]
    assert game.results[-1].winners == (P1,) and game.results[-1].points[P1] == 0


def test_IND_15_annotation_on_an_ordinary_card_is_refused() -> None:
    """IND-15, IND-22: only jokers take annotations; the declaration is refused, not judged."""
    game = indian(2, held=[flat(SHOW) + " KS", LOOSE], phase="discard")
    refused(game, Declare(P1, card("KS"), groups(SHOW.replace("QC", "QC=QH"))),
            "QC is not a joker, so it cannot stand for QH")


# -- a turn --------------------------------------------------------------------------


def test_IND_16_closed_deck_reshuffle() -> None:
    """IND-16: an empty closed deck at a turn start takes the open deck but its top card."""
    game = indian(2, held=[LOOSE, LOOSE2], closed="QD", open="9S 9C 10C 10D")
    game, _ = game.apply(Draw(P1, "closed"))
    assert game.closed == []
    game, events = game.apply(Discard(P1, card("QD")))
    assert game.open == [card("QD")]
    assert sorted(game.closed, key=lambda c: c.index) == cards("9S 10D 9C 10C")
    assert any(e.kind == "reshuffle" for e in events)


def test_IND_17_only_the_player_to_move() -> None:
    """IND-17: anyone else is refused; discard or declare before drawing: draw first."""
    game = indian(2, held=[flat(SHOW), LOOSE])
    with pytest.raises(NotYourTurn, match="it is not your turn"):
        game.apply(Draw(P2, "closed"))
    refused(game, Discard(P1, card("AD")), "draw first")
    refused(game, Declare(P1, card("AD")), "draw first")
    refused(game, Timeout(P2), "it is not your turn")


def test_IND_18_draw_sources() -> None:
    """IND-18: exactly one card from either deck; open-deck jokers refused after a discard."""
    game = indian(2, held=[LOOSE, LOOSE2], cut="7C", open="9S 7S", closed="KS")
    game = dataclasses.replace(game, discarded=True)
    refused(game, Draw(P1, "open"), "jokers cannot be taken from the open deck")
    refused(game, Draw(P1, "pile"), "draw from the closed deck or the open deck")
    after, _ = game.apply(Draw(P1, "closed"))
    assert after.drawn == card("KS") and len(after.hands[P1]) == 14
    plain = dataclasses.replace(game, pile=cards("7S 9S"))
    after, _ = plain.apply(Draw(P1, "open"))
    assert after.drawn == card("9S") and after.open == [card("7S")]
    assert Draw(P1, "open") not in game.legal_moves(P1)


def test_IND_18_first_open_card_only_until_the_first_discard() -> None:
    """IND-18: the first open card is free only while nobody has discarded in the deal."""
    game = indian(2, held=[LOOSE, LOOSE2], cut="7C", open="JK", closed="2D 3D")
    assert Draw(P1, "open") in game.legal_moves(P1)
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, game.drawn))  # first discard: the JK is buried
    game = dataclasses.replace(game, pile=[JOKER])  # were it to resurface
    refused(game, Draw(P2, "open"), "jokers cannot be taken from the open deck")


def test_IND_19_after_drawing() -> None:
    """IND-19: any card may be discarded (jokers, the card drawn); no second draw or drop."""
    game = indian(2, held=[LOOSE + " JK", LOOSE2], phase="discard")
    refused(game, Draw(P1, "closed"), "you have already drawn this turn")
    refused(game, Drop(P1), "you can drop only before drawing")
    after, _ = game.apply(Discard(P1, JOKER))
    assert after.open[-1] == JOKER and after.to_move == P2
    game = indian(2, held=[LOOSE, LOOSE2], closed="9D")
    game, _ = game.apply(Draw(P1, "closed"))
    after, _ = game.apply(Discard(P1, card("9D")))
    assert card("9D") not in after.hands[P1] and after.open[-1] == card("9D")


def test_IND_20_no_undo() -> None:
    """IND-20: draws and discards are final: there is no undo move, the turn has passed."""
    game = indian(2, held=[LOOSE, LOOSE2], closed="9D")
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, card("9D")))
    assert {m.kind for m in IndianGame.move_types} == {"draw", "discard", "declare", "drop",
                                                       "timeout"}
    refused(game, Draw(P1, "open"), "it is not your turn")


@pytest.mark.parametrize("fmt, first, middle", [("points", 20, 40), ("pool101", 20, 40),
                                                ("deals", 20, 40), ("pool201", 25, 50)])
def test_IND_21_drop_costs(fmt: str, first: int, middle: int) -> None:
    """IND-21: first drop before one's first draw, otherwise middle drop; cards out of play."""
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], closed="2D 3D 4D", format=fmt)
    game, _ = game.apply(Drop(P1))
    assert game.deal_points[P1] == first and game.deal_notes[P1] == "first drop"
    assert game.to_move == P2 and len(game.hands[P1]) == 13
    game, _ = game.apply(Draw(P2, "closed"))
    game, _ = game.apply(Discard(P2, game.drawn))
    game, _ = game.apply(Draw(P3, "closed"))
    game, _ = game.apply(Discard(P3, game.drawn))
    game, _ = game.apply(Drop(P2))
    result = game.results[-1]
    sign = -1 if fmt == "deals" else 1
    assert result.points[:2] == (sign * first, sign * middle)
    assert result.notes[:2] == ("first drop", "middle drop")
    assert result.held[P1] == tuple(cards(LOOSE))


def test_IND_21_dropped_player_not_scored_again() -> None:
    """IND-21: a dropped player keeps the drop cost when another player shows."""
    game = indian(3, held=[LOOSE, flat(SHOW), LOOSE2], closed="2D")
    game, _ = game.apply(Drop(P1))
    game, _ = game.apply(Draw(P2, "closed"))
    game, _ = game.apply(Declare(P2, card("2D")))
    assert game.results[-1].points[P1] == 20


# -- going out ---------------------------------------------------------------------------


def test_IND_22_malformed_declarations_refused() -> None:
    """IND-22: no finish card, a grouping with a wrong count or copies: refused, nothing changes."""
    game = indian(2, held=[flat(SHOW) + " KS", LOOSE], phase="discard", packs=2)
    refused(game, Declare(P1, None), "name the finish card that goes on the open deck")
    refused(game, Declare(P1, card("KH")), "you do not hold KH")
    refused(game, Declare(P1, card("KS"), groups("AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C")),
            "your groups name 10 cards: name the 13 cards other than the finish card "
            "(QS QD QC missing)")
    refused(game, Declare(P1, card("KS"), groups(SHOW.replace("QC", "QC QC"))),
            "you hold one QC, not two")
    refused(game, Declare(P1, card("KS"), groups(SHOW.replace("QC", "KS"))),
            "KS is your finish card: group the other 13 cards")
    refused(game, Declare(P1, card("KS"), ((),)), "group 1 is empty")


def test_IND_22_copies_in_a_two_pack_hand() -> None:
    """IND-22, NOT-5: a code names one copy; two copies held may both be named, not three."""
    grouping = "2S 3S 4S 5S | 5D 6D 7D | QC QH QD | QC QS 10H"
    game = indian(3, held=[flat(grouping) + " 8H", LOOSE, LOOSE2], phase="discard")
    refused(game, Declare(P1, card("8H"), groups(grouping.replace("QS", "QC"))),
            "you hold two QC, not three")
    after, _ = game.apply(Declare(P1, card("8H"), groups(grouping)))
    assert after.results[-1].winners == (P1,)


def test_IND_23_finish_card_and_valid_show() -> None:
    """IND-23: the finish card goes on the open deck; two sequences, one pure, all grouped."""
    game = indian(2, held=[flat(SHOW) + " KS", LOOSE], phase="discard")
    after, _ = game.apply(Declare(P1, card("KS"), groups(SHOW)))
    assert after.open[-1] == card("KS") and after.results[-1].winners == (P1,)
    assert not valid("AD 2D 3D 4D | 5S 6S 8S | 9D 9S 9C | QS QD QC")


def test_IND_23_explicit_grouping_judged_as_given() -> None:
    """IND-23: a valid hand grouped badly is a wrong show; no rescue search."""
    bad = "AD 2D 3D | 4D 5S 6S 7S | 9D 9S 9C | QS QD QC"
    game = indian(3, held=[flat(SHOW) + " KS", LOOSE, LOOSE2], phase="discard")
    after, _ = game.apply(Declare(P1, card("KS"), groups(bad)))
    assert after.deal_points[P1] == 80
    searched, events = game.apply(Declare(P1, card("KS")))
    assert searched.results[-1].winners == (P1,)
    assert "AD 2D 3D 4D" in events[0].text


def test_IND_23_search_absorbs_leftover_jokers() -> None:
    """IND-23: every card must be in a group; leftover jokers join a set or a sequence."""
    rules = indian_rules(7)
    one_joker = search_show(cards("AD 2D 3D 5S 6S 7S 9D 9S 9C QS QD QC JK"), rules)
    assert one_joker.valid and sum(len(g) for g in one_joker.groups) == 13
    two_pure = search_show(cards("AD 2D 3D 4D 5D 6D 5S 6S 7S 8S 9S 10S JK"), indian_rules(None))
    assert two_pure.valid and two_pure.pure_sequences >= 1
    assert sum(len(g) for g in two_pure.groups) == 13
    jokers = search_show(cards("AD 2D 3D 5S 6S 7S 9H 10H JH QH 7H 7D 7C"), rules)
    assert jokers.valid and sum(len(g) for g in jokers.groups) == 13


def test_IND_24_valid_show_ends_the_deal() -> None:
    """IND-24: the declarer wins with 0; every other active player is counted (IND-27)."""
    game = indian(3, held=[flat(SHOW) + " KS", LOOSE, "4S 5S 6S 9H 10H JK KD KC KS 2D 3C 8C 5H"],
                  phase="discard", cut="7C")
    game, events = game.apply(Declare(P1, card("KS")))
    result = game.results[-1]
    assert result.points[P1] == 0 and result.points[P3] == 18
    assert result.points[P2] == loser_count(cards(LOOSE), game.rules)
    assert game.is_over and any(e.kind == "hand_over" for e in events)


def test_IND_25_wrong_show() -> None:
    """IND-25: 80 points, the declarer's cards are out of play, a one-line reason, play goes on."""
    game = indian(3, held=[LOOSE + " AS", LOOSE2, flat(SHOW)], phase="discard")
    game, events = game.apply(Declare(P1, card("AS")))
    assert game.deal_points[P1] == 80 and not game.active[P1] and game.to_move == P2
    assert len(game.hands[P1]) == 13 and game.all_cards() == game.deck()
    text = events[0].text
    assert "Wrong show: 80 points" in text and "\n" not in text
    assert game.legal_moves(P1) == []
    refused(game, Draw(P1, "closed"), "you are out of this deal")


def test_IND_26_last_active_player_wins() -> None:
    """IND-26: drops and wrong shows that leave one player end the deal; that player gets 0."""
    game = indian(3, held=[LOOSE + " AS", LOOSE2, flat(SHOW)], phase="discard")
    game, _ = game.apply(Declare(P1, card("AS")))
    game, _ = game.apply(Drop(P2))
    result = game.results[-1]
    assert result.winners == (P3,) and result.points == (80, 20, 0)
    assert result.notes[P3] == "last player left, wins 100"


# -- scoring ------------------------------------------------------------------------------


def test_IND_27_loser_count() -> None:
    """IND-27: lowest count over arrangements; without two sequences incl. a pure one, all 13."""
    rules = indian_rules(None)
    two = cards("2S 3S 4S 5H 6H 7H QD QC QH KD 9C 8D 3C")
    assert loser_count(two, rules) == 30
    impure_only = cards("2S 3S JK 5H 6H JK QD QC QH KD 9C 8D 3C")
    assert loser_count(impure_only, rules) == 76  # no pure sequence: all 13 cards count
    one_seq = cards("2S 3S 4S 2H 2D 2C 5D 5C 5H 9C 9D 9H 3C")
    assert loser_count(one_seq, rules) == 2 + 3 + 4 + 2 + 2 + 2 + 15 + 27 + 3


def test_IND_28_deal_points() -> None:
    """IND-28: winner 0, losers counted, wrong show 80, drops 20/40."""
    game = indian(4, held=[LOOSE + " AS", LOOSE2, flat(SHOW), LOOSE], phase="discard",
                  closed="2D")
    game, _ = game.apply(Declare(P1, card("AS")))  # wrong show
    game, _ = game.apply(Drop(P2))
    game, _ = game.apply(Draw(P3, "closed"))
    game, _ = game.apply(Declare(P3, card("2D")))
    result = game.results[-1]
    assert result.points == (80, 20, 0, loser_count(cards(LOOSE), game.rules))


def test_IND_29_result_lists_every_player_and_the_gain() -> None:
    """IND-29: every player's deal points; the winner gains their sum."""
    game = indian(3, held=[LOOSE, flat(SHOW), LOOSE2], closed="2D")
    game, _ = game.apply(Drop(P1))
    game, _ = game.apply(Draw(P2, "closed"))
    game, _ = game.apply(Declare(P2, card("2D")))
    result = game.results[-1]
    gain = result.points[P1] + result.points[P3]
    assert result.notes[P2] == f"valid show, wins {gain}"
    view = game.result_view()
    assert view.placings[0].seat == P2
    assert {p.seat: p.points for p in view.placings}[P1] == "20"
    assert all(p.held for p in view.placings)


# -- match ----------------------------------------------------------------------------


def test_IND_30_points_is_one_deal() -> None:
    """IND-30: format points: the game ends with the deal."""
    game = indian(2, held=[LOOSE, LOOSE2])
    game, _ = game.apply(Drop(P1))
    assert game.is_over and game.deal_number == 1 and game.winners == (P2,)
    assert game.result_view().match_over and game.lower_is_better


def test_IND_31_pool_runs_until_one_player_is_left() -> None:
    """IND-31: totals add up; 101+ eliminates; the last player wins the pool."""
    game = indian(2, held=[LOOSE, LOOSE2], totals=[90, 0], format="pool101")
    game, _ = game.apply(Drop(P1))
    assert game.totals == [110, 0] and game.is_over and game.winners == (P2,)
    view = game.result_view()
    assert view.match_over and [p.seat for p in view.placings] == [P2, P1]
    assert game.table_view().players[P1].state == SeatState.ELIMINATED
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], totals=[90, 0, 0], format="pool201")
    game, _ = game.apply(Drop(P1))
    game, _ = game.apply(Drop(P2))
    assert game.totals[P1] == 115 and not game.eliminated[P1]


def test_IND_31_pool_plays_to_the_end() -> None:
    """IND-31: a pool of random drops ends with one survivor below the limit."""
    game = new(3, seed=4, format="pool101")
    while not game.is_over:
        game, _ = game.apply(Drop(game.to_move))
    (winner,) = game.winners
    assert game.totals[winner] < 101 and game.eliminated.count(False) == 1
    assert all(t >= 101 for s, t in enumerate(game.totals) if s != winner)


def test_IND_32_deals_format() -> None:
    """IND-32: exactly `deals` deals; chips move from losers to the winner (sum 0)."""
    game = new(3, seed=2, format="deals", deals=3)
    while not game.is_over:
        game, _ = game.apply(Drop(game.to_move))
    assert game.deal_number == 3 and len(game.results) == 3
    assert sum(game.totals) == 0 and not game.lower_is_better
    assert all(sum(r.points) == 0 for r in game.results)


# -- options ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"format": "pool301"}, {"deals": 4, "format": "deals"}, {"deals": 3},
    {"decks": "3"}, {"wild_joker": "yes"}, {"turn_seconds": 5}, {"turn_seconds": 601},
    {"misses_to_drop": 0}, {"misses_to_drop": 11}, {"first_open_joker_pickup": 1},
    {"colour": "red"}])
def test_IND_33_options_refused(options: dict) -> None:
    """IND-33: out-of-range or unknown options are refused when the game is created."""
    with pytest.raises(InvalidOptions):
        IndianOptions.build(**options)


def test_IND_33_options_defaults_and_specs() -> None:
    """IND-33: the options table (keys, defaults)."""
    specs = {s.name: s for s in IndianOptions.specs()}
    assert {k: s.default for k, s in specs.items()} == {
        "format": "points", "deals": 2, "decks": None, "wild_joker": True, "turn_seconds": 90,
        "misses_to_drop": 3, "first_open_joker_pickup": True}
    assert specs["deals"].also == (2, 3, 6) and specs["decks"].optional
    assert IndianOptions.build(format="deals", deals=6).deals == 6
    assert IndianOptions.build(turn_seconds=0).turn_seconds == 0
    with pytest.raises(InvalidOptions):
        IndianGame.new(2, IndianOptions(deals=5))


# -- timeouts -----------------------------------------------------------------------------


def test_IND_34_no_timer() -> None:
    """IND-34: turn_seconds 0 means no timer: a timeout is refused."""
    game = indian(2, held=[LOOSE, LOOSE2], turn_seconds=0)
    refused(game, Timeout(P1), "there is no turn timer in this game")
    assert indian(2, held=[LOOSE, LOOSE2]).turn_seconds == 90


def test_IND_34_each_turn_is_numbered() -> None:
    """IND-34: every turn start bumps turn_serial so stale timers can be told apart."""
    game = indian(2, held=[LOOSE, LOOSE2])
    serial = game.turn_serial
    game, _ = game.apply(Draw(P1, "closed"))
    assert game.turn_serial == serial
    game, _ = game.apply(Discard(P1, game.drawn))
    assert game.turn_serial == serial + 1


def test_IND_35_timeout_after_drawing_from_the_open_deck() -> None:
    """IND-35: the card drawn this turn (here from the open deck) is discarded; a miss."""
    game = indian(2, held=[LOOSE, LOOSE2], open="9S QS", closed="2D")
    game, _ = game.apply(Draw(P1, "open"))
    game, events = game.apply(Timeout(P1))
    assert game.open[-1] == card("QS") and Counter(game.hands[P1]) == Counter(cards(LOOSE))
    assert game.misses[P1] == 1 and game.to_move == P2
    assert [e.kind for e in events][:2] == ["timeout", "discard"]


def test_IND_36_miss_count_resets_and_carries_over() -> None:
    """IND-36: +1 per timed-out turn, 0 after the player's own discard, kept between deals."""
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], closed="2D 3D 4D 5D 6D 7D 8D 9D",
                  format="pool101", misses_to_drop=10)
    game, _ = game.apply(Timeout(P1))
    assert game.misses[P1] == 1
    game, _ = game.apply(Draw(P2, "closed"))
    game, _ = game.apply(Discard(P2, game.drawn))
    game, _ = game.apply(Timeout(P3))
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, game.drawn))
    assert game.misses[P1] == 0 and game.misses[P3] == 1
    game, _ = game.apply(Drop(P2))
    game, _ = game.apply(Drop(P3))  # P3's own drop resets the count too
    assert game.misses[P3] == 0
    game = dataclasses.replace(game, timeouts=[2, 0, 0])
    deal, timeouts = game.deal_number, 0
    while game.deal_number == deal:
        seat = game.to_move
        timeouts += seat == P1
        game, _ = game.apply(Timeout(P1) if seat == P1 else Drop(seat))
    assert game.misses[P1] == 2 + timeouts


def test_IND_37_dropped_after_misses() -> None:
    """IND-37: reaching misses_to_drop drops at the middle-drop cost; IND-26 may follow."""
    game = indian(2, held=[LOOSE, LOOSE2], misses_to_drop=1)
    game, events = game.apply(Timeout(P1))
    assert game.is_over and game.results[-1].points == (40, 0)
    assert game.results[-1].notes[P1] == "missed turns, middle drop"
    assert any(e.kind == "drop" for e in events)


# -- leaving, check, views --------------------------------------------------------------


def test_IND_21_forfeit_out_of_turn_is_an_immediate_drop() -> None:
    """IND-21 (leaving): /rummy leave drops the leaver at once, first or middle by IND-21."""
    game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)])
    move = game.forfeit_move(P3)
    assert move == Drop(P3, leave=True)
    after, _ = game.apply(move)
    assert not after.active[P3] and after.deal_points[P3] == 20 and after.left[P3]
    assert after.to_move == P1 and after.forfeit_move(P3) is None
    game, _ = game.apply(Draw(P1, "closed"))
    drawn = game.drawn
    after, _ = game.apply(game.forfeit_move(P1))  # after drawing: middle drop
    assert after.deal_points[P1] == 40 and after.to_move == P2
    assert after.open[-1] == drawn and len(after.hands[P1]) == 13
    assert after.all_cards() == after.deck()


def test_IND_31_leaver_is_dropped_in_every_later_deal() -> None:
    """IND-31, IND-21: a pool leaver is dealt in and dropped at once until eliminated."""
    game = new(3, seed=9, format="pool101")
    leaver = (game.to_move + 1) % 3
    game, _ = game.apply(game.forfeit_move(leaver))
    while not game.eliminated[leaver]:
        seat = game.to_move
        game, _ = game.apply(Drop(seat))
    assert game.totals[leaver] >= 101
    assert all("left" in r.notes[leaver] for r in game.results)


def test_IND_23_check_show_is_pure() -> None:
    """IND-23: /indian check judges without changing anything, with 14 or 13 cards."""
    game = indian(2, held=[flat(SHOW) + " KS", LOOSE], phase="discard")
    before = game.to_json()
    verdict = game.check_show(P1)
    assert verdict.valid and verdict.finish == card("KS") and "KS" in verdict.reason
    explicit = game.check_show(P1, groups(SHOW))
    assert explicit.valid and explicit.finish == card("KS")
    wrong = game.check_show(P1, groups(SHOW.replace("| 9D", "9D |")))
    assert not wrong.valid
    with pytest.raises(IllegalMove):
        game.check_show(P1, groups("AD 2D 3D"))
    assert not game.check_show(P2).valid
    assert game.to_json() == before


def test_IND_10_hand_view_newest_card() -> None:
    """IND-10: hands are private views; the card drawn this turn is marked newest."""
    game = indian(2, held=[LOOSE, LOOSE2], closed="9D", cut="7C")
    game, _ = game.apply(Draw(P1, "closed"))
    view = game.hand_view(P1)
    assert view.newest == card("9D") and view.wild_rank == 7 and len(view.pieces) == 14
    assert game.hand_view(P2).newest is None


def test_IND_3_pool_shrinks_to_one_pack() -> None:
    """IND-3: a pool that shrinks to two players is dealt 53 cards unless decks is set."""
    for decks, size in ((None, 53), ("2", 106)):
        game = indian(3, held=[LOOSE, LOOSE2, flat(SHOW)], totals=[100, 0, 0],
                      format="pool101", decks=decks)
        game, _ = game.apply(Drop(P1))
        game, _ = game.apply(Drop(P2))
        assert game.eliminated[P1] and sum(game.deck().values()) == size
        assert game.all_cards() == game.deck()


def test_IND_26_everyone_leaving_ends_the_game() -> None:
    """IND-26: the last player in wins every deal left without moving."""
    game = new(3, seed=3, format="deals", deals=3)
    for seat in (0, 1):
        game, _ = game.apply(game.forfeit_move(seat))
    assert game.is_over and game.winners == (2,) and game.deal_number == 3


def test_IND_22_card_not_held_in_grouping() -> None:
    """IND-22: a grouping naming a card the player does not hold is refused."""
    game = indian(2, held=[flat(SHOW) + " KS", LOOSE], phase="discard")
    refused(game, Declare(P1, card("KS"), groups(SHOW.replace("QC", "KC"))),
            "you do not hold KC")


def test_IND_7_cut_joker_never_drawn() -> None:
    """IND-7: the cut joker is in no hand and no deck for the whole deal."""
    game = new(2, seed=21)
    cut = game.cut_joker
    counts = game.deck()
    held = Counter(c for h in game.hands for c in h) + Counter(game.closed) + Counter(game.open)
    assert held[cut] == counts[cut] - 1



def test_IND_23_leftover_jokers_keep_a_pure_sequence() -> None:
    """IND-23: a leftover joker joins a set, else an impure sequence, and never takes the last
    pure sequence; three or more form a set of their own (IND-13)."""
    from bot.engine.melds import read_meld
    from bot.engine.variants.indian import absorb_jokers

    rules = indian_rules(None)
    pure_a, pure_b = read_meld(cards("2D 3D 4D"), rules), read_meld(cards("5S 6S 7S"), rules)
    impure = read_meld(cards("9H 10H JK"), rules)
    a_set = read_meld(cards("QS QD QC"), rules)
    joker = cards("JK")
    melds = absorb_jokers([pure_a, pure_b], joker, rules)
    assert melds is not None and sum(m.pure for m in melds) == 1
    melds = absorb_jokers([pure_a, impure], joker, rules)
    assert melds is not None and melds[0] == pure_a and len(melds[1]) == 4
    melds = absorb_jokers([pure_a, impure, a_set], joker, rules)
    assert melds is not None and len(melds[2]) == 4 and melds[1] == impure
    wild = indian_rules(7)
    three = absorb_jokers([pure_a, pure_b], cards("7H 7D 7C"), wild)
    assert three is not None and len(three) == 3 and three[2].kind == "set"
