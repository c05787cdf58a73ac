"""Property tests for Indian Rummy: random games with random legal and illegal moves.

Every step checks that a refused move changes nothing, that every card is in
exactly one place (hands in and out of play + closed deck + open deck + cut
joker = the deck), that the state survives a JSON round trip, and at the end
that the same seed and moves replay to the same game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import card_deck
from bot.engine.errors import IllegalMove
from bot.engine.game import Move, Timeout
from bot.engine.moves import Discard, Draw
from bot.engine.variants.indian import Declare, Drop, IndianGame, IndianOptions

MAX_STEPS = 150
DECK = card_deck(1, 1)


@st.composite
def games(draw: st.DrawFn) -> IndianGame:
    players = draw(st.integers(2, 6))
    fmt = draw(st.sampled_from(["points", "pool101", "pool201", "deals"]))
    options = IndianOptions.build(
        format=fmt,
        deals=draw(st.sampled_from([2, 3, 6])) if fmt == "deals" else 2,
        decks=draw(st.sampled_from([None, "2"] + (["1"] if players <= 3 else []))),
        wild_joker=draw(st.booleans()),
        turn_seconds=draw(st.sampled_from([0, 90])),
        misses_to_drop=draw(st.integers(1, 3)),
        first_open_joker_pickup=draw(st.booleans()))
    return IndianGame.new(players, options, seed=draw(st.integers(0, 2**64)))


def random_move(data: st.DataObject, game: IndianGame) -> Move:
    """A move that may or may not be legal."""
    seat = game.to_move if game.to_move is not None else 0
    if data.draw(st.integers(0, 9), label="wrong seat") == 0:
        seat = data.draw(st.integers(0, game.players - 1), label="seat")
    kind = data.draw(st.sampled_from(["draw", "discard", "declare", "drop", "leave",
                                      "timeout"]), label="kind")
    hand = list(game.hands[seat])
    if kind == "draw":
        return Draw(seat, data.draw(st.sampled_from(["closed", "open", "stock"]), label="src"))
    if kind == "discard":
        pool = hand if hand and data.draw(st.booleans(), label="held") else DECK
        return Discard(seat, data.draw(st.sampled_from(pool), label="card"))
    if kind == "declare":
        finish = data.draw(st.sampled_from(hand or DECK), label="finish")
        if data.draw(st.booleans(), label="grouped"):
            rest = list(hand)
            if finish in rest:
                rest.remove(finish)
            order = data.draw(st.permutations(rest), label="order") if rest else []
            cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(order) - 1)),
                                            max_size=4), label="cuts"))
            parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(order)], strict=True)]
            groups = tuple(tuple((c, None) for c in part) for part in parts if part)
            return Declare(seat, finish, groups)
        return Declare(seat, finish)
    if kind == "drop":
        return Drop(seat)
    if kind == "leave":
        return Drop(seat, leave=True)
    return Timeout(seat)


def check_invariants(game: IndianGame) -> None:
    assert game.all_cards() == game.deck(), "a card is lost or duplicated"
    assert IndianGame.from_json(game.to_json()) == game
    active = [s for s in range(game.players) if game.active[s]]
    if not game.is_over:
        assert game.to_move in active and len(active) >= 2
        expected = 14 if game.phase == "discard" else 13
        assert len(game.hands[game.to_move]) == expected
        assert game.closed or game.phase == "discard"
    assert all(not game.active[s] for s in range(game.players) if game.eliminated[s])
    if game.options.format == "deals":
        assert sum(game.totals) == 0


@settings(max_examples=35, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_random_games_never_break(game: IndianGame, data: st.DataObject) -> None:
    """IND-17, IND-20, NOT-13: random legal and illegal moves run without a crash; refusals
    change nothing; cards are conserved; JSON round trips; the replay is identical."""
    start = game
    applied: list[Move] = []
    patient = data.draw(st.booleans(), label="patient")
    """Patient players only draw and discard, so the closed deck runs out (IND-16)."""
    check_invariants(game)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        if data.draw(st.integers(0, 9), label="legal?") > (0 if patient else 2):
            legal = game.legal_moves(game.to_move)
            assert legal, "the player to move always has a legal move"
            if patient:
                legal = [m for m in legal if isinstance(m, Discard) or m == Draw(
                    game.to_move, "closed")] or legal
            move = data.draw(st.sampled_from(legal), label="legal move")
        else:
            move = random_move(data, game)
        assert IndianGame.move_from_json(move.to_json()) == move
        before = game.to_json()
        try:
            after, events = game.apply(move)
        except IllegalMove as error:
            assert "\n" not in str(error)
            assert game.to_json() == before, "a refused move changed the state"
            if move in game.legal_moves(move.seat):
                raise AssertionError(f"legal move {move} was refused: {error}") from None
            continue
        assert game.to_json() == before, "apply changed the original state"
        assert all(e.private is None or e.seat is not None for e in events)
        applied.append(move)
        game = after
        check_invariants(game)
    replay = start
    for move in applied:
        replay, _ = replay.apply(move)
    assert replay == game
    again = IndianGame.new(start.players, start.options, seed=start.seed)
    assert again == start


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_same_seed_same_deal(seed: int, players: int) -> None:
    """IND-5 – IND-8: the deal is a function of the seed."""
    one = IndianGame.new(players, IndianOptions(), seed=seed)
    two = IndianGame.new(players, IndianOptions(), seed=seed)
    assert one == two and one.to_json() == two.to_json()
    assert all(len(h) == 13 for h in one.hands)
    assert one.all_cards() == one.deck()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_legal_moves_are_all_accepted(seed: int, players: int) -> None:
    """IND-17 – IND-22: every listed move is accepted (declarations may be wrong shows)."""
    game = IndianGame.new(players, IndianOptions(), seed=seed)
    for step in range(16):
        if game.is_over:
            break
        legal = game.legal_moves(game.to_move)
        for move in legal:
            game.apply(move)
        assert all(game.legal_moves(s) == [] for s in range(players) if s != game.to_move)
        plain = [m for m in legal if not isinstance(m, Declare | Drop)]
        game, _ = game.apply(plain[step % len(plain)])
