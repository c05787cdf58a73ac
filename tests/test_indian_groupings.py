"""Indian results show each hand grouped (IND-23, IND-27): the show as declared, losers as
scored, deadwood apart, jokers with what they stand for."""

from __future__ import annotations

from bot.engine.variants.indian import Declare, IndianGame, indian_rules, loser_grouping
from bot.engine.views import SeatState
from tests.test_indian_helpers import card, cards, groups, indian

P1, P2, P3 = 0, 1, 2
SHOW = "AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC"
LOSER = "4S 5S 6S 9H 10H JK KD KC KS 2D 3C 8C 5H"  # worked example 5, 7s wild
LOOSE = "2C 4C 6C 8C JC KC 2H 4H 6H 8H JH KH 3S"


def codes(pieces) -> str:
    return " ".join(p.code for p in pieces)


def test_IND_23_valid_show_result_names_the_melds_as_declared() -> None:
    # Declared with the set first and the sequences after: the result keeps that order.
    declared = "QS QD QC | 9D 9S 9C | 5S 6S 7S | AD 2D 3D 4D"
    game = indian(3, held=[SHOW.replace("|", "") + " KS", LOOSE, LOSER], phase="discard",
                  cut="7C")
    over, events = game.apply(Declare(P1, card("KS"), groups(declared)))
    summary = over.results[-1].summary
    assert summary == ("{p0} made a valid show and wins deal 1: Set QS QD QC · Set 9S 9D 9C · "
                       "Pure sequence 5S 6S 7S · Pure sequence AD 2D 3D 4D, finishing with KS.")
    assert summary in next(e.text for e in events if e.kind == "hand_over")
    winner = over.result_view().placings[0]
    assert winner.seat == P1 and winner.grouped and winner.deadwood == ()
    assert [(g.title("sequence"), codes(g.pieces)) for g in winner.groups] == [
        ("Set", "QS QD QC"), ("Set", "9S 9D 9C"), ("Pure sequence", "5S 6S 7S"),
        ("Pure sequence", "AD 2D 3D 4D")]
    assert winner.finish == card("KS") and over.result_view().run_word == "sequence"


def test_IND_23_searched_show_result_shows_the_split_found() -> None:
    game = indian(2, held=[SHOW.replace("|", "") + " KS", LOOSE], phase="discard")
    over, _ = game.apply(Declare(P1, card("KS")))
    winner = over.result_view().placings[0]
    assert sorted(sorted(codes(g.pieces).split()) for g in winner.groups) == sorted(
        sorted(part.split()) for part in SHOW.split("|"))


def test_IND_27_loser_result_shows_the_scored_grouping() -> None:
    # Worked example 5: 4S 5S 6S pure | 9H 10H JK (JK = JH) | KD KC KS; 2D 3C 8C 5H left = 18.
    game = indian(3, held=[SHOW.replace("|", "") + " KS", LOOSE, LOSER], phase="discard",
                  cut="7C")
    over, _ = game.apply(Declare(P1, card("KS")))
    loser = next(p for p in over.result_view().placings if p.seat == P3)
    assert loser.points == "18" and loser.grouped and loser.deadwood_value == 18
    assert codes(loser.deadwood) == "5H 2D 3C 8C"  # suit order S H D C
    shown = [(g.title("sequence"), codes(g.pieces), [f.label() for _, f in g.jokers])
             for g in loser.groups]
    assert shown[0] == ("Pure sequence", "4S 5S 6S", [])
    assert ("Sequence", "9H 10H JK", ["JH"]) in shown
    assert any(title == "Set" and set(text.split()) == {"KD", "KC", "KS"}
               for title, text, _ in shown)
    grouped = [c.code for g in loser.groups for c in g.pieces] + [c.code for c in loser.deadwood]
    assert sorted(grouped) == sorted(c.code for c in loser.held)


def test_IND_27_loser_without_two_sequences_counts_every_card() -> None:
    game = indian(2, held=[SHOW.replace("|", "") + " KS", LOOSE], phase="discard")
    over, _ = game.apply(Declare(P1, card("KS")))
    loser = over.result_view().placings[1]
    assert loser.grouped and loser.groups == () and len(loser.deadwood) == 13
    assert loser.deadwood_value == sum(over.value(c) for c in cards(LOOSE))
    assert loser.points == "80" and "every card counts" in loser.grouping_note


def test_IND_27_leftover_jokers_join_a_group() -> None:
    rules = indian_rules(7)
    grouping = loser_grouping(cards("4S 5S 6S 9H 10H JH KD KC KS 2D 3C 8C JK"), rules)
    assert all(not rules.is_joker(c) for c in grouping.deadwood)
    assert grouping.value == 2 + 3 + 8


def test_IND_28_dropped_players_stay_flat_and_end_states_are_shown() -> None:
    game = indian(3, held=[SHOW.replace("|", "") + " KS", LOOSE, LOSER], phase="discard",
                  cut="7C")
    game.active[P2] = False  # P2 made a first drop earlier in the deal
    game.deal_points[P2] = 20
    game.deal_notes[P2] = "first drop"
    over, _ = game.apply(Declare(P1, card("KS")))
    dropped = next(p for p in over.result_view().placings if p.seat == P2)
    assert not dropped.grouped and dropped.held and dropped.points == "20"
    states = {p.seat: p.state for p in over.table_view().players}
    assert states == {P1: SeatState.WON, P2: SeatState.DROPPED, P3: SeatState.LOST}


def test_groupings_survive_a_json_round_trip() -> None:
    game = indian(3, held=[SHOW.replace("|", "") + " KS", LOOSE, LOSER], phase="discard",
                  cut="7C")
    over, _ = game.apply(Declare(P1, card("KS")))
    again = IndianGame.from_json(over.to_json())
    assert again == over and again.result_view() == over.result_view()
    old = over.to_json()
    del old["groupings"]  # a game saved before groupings were kept shows flat hands
    assert not any(p.grouped for p in IndianGame.from_json(old).result_view().placings)
