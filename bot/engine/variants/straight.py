"""Straight Rummy (rules STR-1 … STR-44, ``shared/rules/10-straight.md``).

Draw, meld and lay off, discard; the first player to get rid of all their
cards wins the hand and collects the value of everybody else's cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import ClassVar

from ..cards import Card, Piece, card_deck
from ..errors import IllegalMove
from ..game import Event, Game, HandResult, Move, Options, Timeout, option
from ..melds import STRAIGHT_ACES, Meld, MeldRules, extend_meld, is_meld, read_meld
from ..moves import Discard, Draw, LayOff, MeldDown, Placed
from ..notation import check_held, remove_pieces
from ..scoring import best_seats, places
from ..table import TableMeld, deal_one_at_a_time, find_meld, next_seat, replace_meld
from ..views import HandView, Placing, PlayerPanel, ResultView, SeatState, TableView

CARDS_DEALT = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""STR-5."""

REMOVAL_TIMEOUTS = 3
"""STR-42: consecutive timeouts that remove a player from the hand."""

MAX_RESHUFFLES = 2
"""STR-44: reshuffles allowed in one hand; the next empty stock ends the hand (stalemate)."""


@dataclass(frozen=True)
class StraightOptions(Options):
    """The options table of the Straight Rummy spec (STR-38)."""

    one_meld_per_turn: bool = option(
        False, help="at most one new meld per turn (lay-offs are not limited)")
    meld_before_layoff: bool = option(
        False, help="you may lay off only once you have laid a meld of your own this hand")
    no_discard_of_taken_card: bool = option(
        False, help="a card taken from the discard pile cannot be discarded in the same turn")
    stock_out: str = option("reshuffle", choices=("reshuffle", "end"),
                            help="when the stock runs out: shuffle the discard pile into a new "
                                 "stock (at most twice a hand; then the hand ends with no "
                                 "winner), or end the hand at once")
    rummy_bonus: str = option("double", choices=("double", "ten"),
                              help="going rummy doubles each payment, or adds 10 to it")
    aces: str = option("low", choices=("low", "high", "both", "around"),
                       help="where an ace goes in a run: low A-2-3, high Q-K-A, both (either "
                            "end) or around (K-A-2 too); an ace is worth 15 unless low")
    discard_to_go_out: bool = option(False, help="you must discard your last card to go out")
    penalty_scoring: bool = option(False, help="losers add what they would have paid to "
                                               "their own score, and the lowest score wins")
    target: int = option(100, bounds=(1, 10000),
                         help="the match ends once someone's score reaches this")
    hands: int | None = option(None, bounds=(1, 100),
                               help="play exactly this many hands instead of playing to target")
    turn_seconds: int = option(90, bounds=(10, 600), also=(0,),
                               help="seconds per turn; 0 turns the timer off")

    @property
    def meld_rules(self) -> MeldRules:
        return MeldRules(runs=STRAIGHT_ACES[self.aces], set_max=4,
                         no_jokers_reason="there are no jokers in Straight Rummy")


def card_value(card: Piece, aces: str) -> int:
    """STR-4: pips; J Q K 10; ace 1 when aces are low, otherwise 15."""
    if card.rank == 1:
        return 1 if aces == "low" else 15
    return min(card.rank, 10)


def _timeout_order(card: Card, aces: str) -> tuple[int, int, int]:
    """STR-40 discard order: highest value, then higher rank, then suit S, H, D, C."""
    return (card_value(card, aces), card.rank, -card.suit)


@dataclass(kw_only=True)
class StraightGame(Game[Card]):
    """A Straight Rummy match: cumulative scores over hands, and the hand in play."""

    variant: ClassVar[str] = "straight"
    title: ClassVar[str] = "Straight Rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options_type: ClassVar[type[Options]] = StraightOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, MeldDown, LayOff, Discard, Timeout)

    options: StraightOptions = field(default_factory=StraightOptions)
    # The match.
    scores: list[int] = field(default_factory=list)
    hand_number: int = 0
    dealer: int = 0
    timeouts: list[int] = field(default_factory=list)
    results: list[HandResult] = field(default_factory=list)
    stalemates: list[int] = field(default_factory=list)
    """Numbers of the hands that ended in a stalemate (STR-44)."""
    # The hand in play.
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    """Face down; the top card is the last element."""
    discard: list[Card] = field(default_factory=list)
    """Bottom to top."""
    table: list[TableMeld] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    has_melded: list[bool] = field(default_factory=list)
    """Placed a meld of their own this hand (STR-26)."""
    played_before: list[bool] = field(default_factory=list)
    """Melded or laid off in an earlier turn of this hand (STR-29)."""
    turn: int = 0
    phase: str = "draw"
    """``draw``, ``play`` (after drawing) or ``over`` (the match has ended)."""
    taken: Card | None = None
    """The card taken from the discard pile this turn."""
    drawn: Card | None = None
    melds_this_turn: int = 0
    played_this_turn: bool = False
    reshuffles: int = 0
    """Reshuffles of the discard pile in this hand (STR-44)."""

    # -- set-up -----------------------------------------------------------

    @property
    def lower_is_better(self) -> bool:  # type: ignore[override]
        return self.options.penalty_scoring

    @property
    def rules(self) -> MeldRules:
        return self.options.meld_rules

    def value(self, card: Piece) -> int:
        return card_value(card, self.options.aces)

    def hand_value(self, seat: int) -> int:
        return sum(self.value(c) for c in self.hands[seat])

    def _start(self) -> None:
        n = self.players
        self.scores = [0] * n
        self.timeouts = [0] * n
        self.dealer = self.rng.below(n)  # STR-6
        self._deal([])

    def _deal(self, events: list[Event]) -> None:
        """STR-7: shuffle, deal one at a time from the dealer's left, turn up one card."""
        n = self.players
        self.hand_number += 1
        deck = card_deck(1)
        self.rng.shuffle(deck)
        first = next_seat(self.dealer, n)
        self.hands = deal_one_at_a_time(deck, n, first, CARDS_DEALT[n])
        self.discard = [deck.pop(0)]
        self.stock = deck[::-1]
        self.table = []
        self.active = [True] * n
        self.has_melded = [False] * n
        self.played_before = [False] * n
        self.turn = first  # STR-8
        self.reshuffles = 0
        events.append(Event("hand_started", f"Hand {self.hand_number}: {{p{self.dealer}}} deals "
                            f"{CARDS_DEALT[n]} cards each; {self.discard[-1].code} is face up."))
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        """STR-17 then a fresh turn (STR-16) for ``self.turn``."""
        self.phase = "draw"
        self.taken = None
        self.drawn = None
        self.melds_this_turn = 0
        self.played_this_turn = False
        if not self.stock and self._stock_out(events):
            return
        self.turn_serial += 1
        events.append(Event("turn", f"{{p{self.turn}}} to play.", self.turn))

    def _stock_out(self, events: list[Event]) -> bool:
        """STR-17, STR-44: the stock is empty as a turn begins; True when the hand ended."""
        if self.options.stock_out == "end":
            self._end_hand(None, False, "The stock ran out: the hand ends with no winner.",
                           events, charge_all=True)
            return True
        if self.reshuffles >= MAX_RESHUFFLES:  # STR-44: scored as stock_out = end
            self.stalemates.append(self.hand_number)
            self._end_hand(None, False, f"Stalemate: the stock ran out after {MAX_RESHUFFLES} "
                           "reshuffles, so the hand ends with no winner.", events,
                           charge_all=True)
            return True
        if len(self.discard) < 2:
            self._end_hand(None, False, "The stock ran out and the discard pile holds one card: "
                           "the hand ends with no winner.", events)
            return True
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.stock = pile
        self.discard = [top]
        self.reshuffles += 1
        left = MAX_RESHUFFLES - self.reshuffles
        warning = (f" {left} more reshuffle{'s' if left != 1 else ''} allowed this hand."
                   if left else " This was the last reshuffle: when the stock runs out again, "
                   "the hand ends with no winner.")
        events.append(Event("reshuffle", f"The stock ran out: the discard pile was shuffled "
                            f"into a new stock of {len(pile)}; {top.code} stays face up."
                            + warning))
        return False

    # -- the protocol -----------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.phase == "over" else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def check_piece(self, piece: Piece) -> None:
        if piece.is_joker:
            raise IllegalMove("there are no jokers in Straight Rummy")  # STR-3

    def hand(self, seat: int) -> Sequence[Card]:
        return self.hands[seat]

    def inventory(self) -> Counter[Card]:
        found = Counter(c for hand in self.hands for c in hand)
        found.update(self.stock)
        found.update(self.discard)
        found.update(self.own_all(c for m in self.table for c in m.meld.pieces))
        return found

    def history(self) -> Sequence[HandResult]:
        return self.results

    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        if isinstance(move, Timeout):
            self._check_turn(move.seat)
            if not self.options.turn_seconds:
                raise IllegalMove("there is no turn timer in this game")  # STR-39
            self._timeout(events)
        elif isinstance(move, Draw):
            self._check_draw(move.seat, move.source)
            self._draw(move.source, events)
        elif isinstance(move, MeldDown):
            melds = self._check_meld(move.seat, move.melds)
            self._meld(melds, events)
        elif isinstance(move, LayOff):
            grown = self._check_layoff(move.seat, move.cards, move.meld)
            self._lay_off(move.meld, self.own_all(p for p, _ in move.cards), grown, events)
        elif isinstance(move, Discard):
            card = self.own(move.card)
            self._check_discard(move.seat, card)
            self._discard(card, events)
            self.timeouts[move.seat] = 0  # STR-41
        return events

    # -- checks (raise, never mutate) ----------------------------------------

    def _check_turn(self, seat: int) -> None:
        if not self.active[seat]:
            raise IllegalMove("you were removed from this hand for inactivity")  # STR-42
        self.require_turn(seat)  # STR-16

    def _check_draw(self, seat: int, source: str) -> None:
        self._check_turn(seat)
        if self.phase != "draw":
            raise IllegalMove("you have already drawn this turn")  # STR-18
        if source not in ("stock", "discard"):
            raise IllegalMove("draw from the stock or the discard pile")
        if source == "discard" and not self.discard:
            raise IllegalMove("the discard pile is empty")

    def _check_play(self, seat: int) -> None:
        self._check_turn(seat)
        if self.phase != "play":
            raise IllegalMove("draw first")  # STR-18

    def _check_held(self, seat: int, cards: Sequence[Card]) -> list[Card]:
        """The hand left after ``cards`` leave it; refuses cards not held (NOT-5)."""
        for card in cards:
            self.check_piece(card)
        check_held(cards, self.hands[seat])
        return remove_pieces(self.hands[seat], cards)

    def _check_remainder(self, left: Sequence[Card]) -> None:
        if not left and self.options.discard_to_go_out:
            raise IllegalMove("keep a card to discard")  # STR-23
        taken = self.taken
        if (taken is not None and self.options.no_discard_of_taken_card
                and list(left) == [taken]):
            raise IllegalMove(f"{taken.code} would be your only card and cannot be discarded "
                              "this turn")  # STR-24

    def _check_meld(self, seat: int, melds: Sequence[Sequence[Placed]]) -> list[Meld]:
        self._check_play(seat)
        if not melds:
            raise IllegalMove("name the cards of at least one meld")
        if self.options.one_meld_per_turn and (len(melds) > 1 or self.melds_this_turn):
            raise IllegalMove("only one meld per turn")  # STR-25
        cards = self.own_all(p for meld in melds for p, _ in meld)
        left = self._check_held(seat, cards)
        read = [read_meld(meld, self.rules) for meld in melds]  # STR-10 … STR-12, STR-19
        self._check_remainder(left)
        return read

    def _check_layoff(self, seat: int, cards: Sequence[Placed], number: int) -> Meld:
        self._check_play(seat)
        if not cards:
            raise IllegalMove("name the cards to lay off")
        if self.options.meld_before_layoff and not self.has_melded[seat]:
            raise IllegalMove("lay down a meld of your own first")  # STR-26
        left = self._check_held(seat, self.own_all(p for p, _ in cards))
        target = find_meld(self.table, number)
        grown = extend_meld(target.meld, cards, self.rules, number)  # STR-20
        self._check_remainder(left)
        return grown

    def _check_discard(self, seat: int, card: Card) -> None:
        self._check_play(seat)
        self._check_held(seat, [card])
        if self.options.no_discard_of_taken_card and card == self.taken:
            raise IllegalMove(f"you took {card.code} from the discard pile this turn")  # STR-24

    # -- effects ----------------------------------------------------------

    def _draw(self, source: str, events: list[Event]) -> None:
        seat = self.turn
        if source == "stock":
            card = self.stock.pop()
            events.append(Event("draw", f"{{p{seat}}} drew from the stock.", seat,
                                private=f"You drew {card.code}."))
        else:
            card = self.discard.pop()
            self.taken = card
            events.append(Event("draw", f"{{p{seat}}} took {card.code} from the discard pile.",
                                seat))
        self.hands[seat].append(card)
        self.drawn = card
        self.phase = "play"

    def _meld(self, melds: list[Meld], events: list[Event]) -> None:
        seat = self.turn
        for meld in melds:
            self.hands[seat] = remove_pieces(self.hands[seat], self.own_all(meld.pieces))
            number = len(self.table) + 1
            self.table.append(TableMeld(number, seat, meld))
            events.append(Event("meld", f"{{p{seat}}} laid meld {number}: {meld.codes}.", seat))
        self.melds_this_turn += len(melds)
        self.has_melded[seat] = True
        self.played_this_turn = True
        self._after_play(events)

    def _lay_off(self, number: int, cards: list[Card], grown: Meld,
                 events: list[Event]) -> None:
        seat = self.turn
        self.hands[seat] = remove_pieces(self.hands[seat], cards)
        replace_meld(self.table, number, grown)
        self.played_this_turn = True
        events.append(Event("layoff", f"{{p{seat}}} laid off {' '.join(c.code for c in cards)} "
                            f"on meld {number}: {grown.codes}.", seat))
        self._after_play(events)

    def _after_play(self, events: list[Event]) -> None:
        if not self.hands[self.turn]:
            self.timeouts[self.turn] = 0  # STR-41: out by their own meld or lay-off
            self._go_out(events)  # STR-28

    def _discard(self, card: Card, events: list[Event]) -> None:
        seat = self.turn
        self.hands[seat] = remove_pieces(self.hands[seat], [card])
        self.discard.append(card)
        events.append(Event("discard", f"{{p{seat}}} discarded {card.code}.", seat))
        if not self.hands[seat]:
            self._go_out(events)
        else:
            self._pass_turn(events)

    def _pass_turn(self, events: list[Event]) -> None:
        self.played_before[self.turn] |= self.played_this_turn
        self.turn = next_seat(self.turn, self.players, self.active)
        self._begin_turn(events)

    def _go_out(self, events: list[Event]) -> None:
        seat = self.turn
        rummy = not self.played_before[seat]  # STR-29
        how = "went rummy" if rummy else "went out"
        self._end_hand(seat, rummy, f"{{p{seat}}} {how}.", events)

    def _timeout(self, events: list[Event]) -> None:
        """STR-40 … STR-43: draw from the stock if needed, discard by the fixed rule."""
        seat = self.turn
        if self.phase == "draw":
            self._draw("stock", events)
        card = self.timeout_discard(seat)
        events.append(Event("timeout", f"{{p{seat}}} ran out of time; the bot played for them.",
                            seat))
        self.timeouts[seat] += 1  # STR-41
        self.hands[seat] = remove_pieces(self.hands[seat], [card])
        self.discard.append(card)
        events.append(Event("discard", f"{{p{seat}}} discarded {card.code}.", seat))
        if not self.hands[seat]:
            self._go_out(events)
            return
        if self.timeouts[seat] >= REMOVAL_TIMEOUTS:  # STR-42
            self.active[seat] = False
            events.append(Event("removed", f"{{p{seat}}} was removed from this hand for "
                                "inactivity.", seat))
            still = [s for s in range(self.players) if self.active[s]]
            if len(still) == 1:  # STR-43
                self._end_hand(still[0], False, f"{{p{still[0]}}} is the last active player "
                               "and wins the hand.", events)
                return
        self._pass_turn(events)

    def timeout_discard(self, seat: int) -> Card:
        """STR-40: the card the bot discards for ``seat``."""
        hand = self.hands[seat]
        candidates = list(hand)
        if self.options.no_discard_of_taken_card and self.taken in candidates:
            candidates.remove(self.taken)
        in_melds = cards_in_some_meld(hand, self.rules)
        loose = [c for c in candidates if c not in in_melds]
        pool = loose or candidates
        return max(pool, key=lambda c: _timeout_order(c, self.options.aces))

    # -- the end of a hand and of the match ----------------------------------

    def _end_hand(self, winner: int | None, rummy: bool, summary: str, events: list[Event],
                  charge_all: bool = False) -> None:
        """STR-31 … STR-37. ``charge_all``: an empty stock with ``stock_out`` = end."""
        n = self.players
        opts = self.options
        values = [self.hand_value(s) for s in range(n)]
        points = [0] * n
        payments = [0] * n
        if winner is not None:
            payments = [0 if s == winner else self._payment(values[s], rummy) for s in range(n)]
            if opts.penalty_scoring:
                points = payments  # STR-34
            else:
                points[winner] = sum(payments)  # STR-31
        elif charge_all and opts.penalty_scoring:
            points = values  # STR-33
        for s in range(n):
            self.scores[s] += points[s]
        notes = tuple(self._note(s, winner, rummy, payments[s]) for s in range(n))
        self.results.append(HandResult(
            number=self.hand_number, winners=(winner,) if winner is not None else (),
            points=tuple(points), totals=tuple(self.scores),
            held=tuple(tuple(h) for h in self.hands), notes=notes, summary=summary))
        events.append(Event("hand_over", f"{summary} Scores: " + ", ".join(
            f"{{p{s}}} {self.scores[s]}" for s in range(n)) + ".", winner))
        if self._match_over():
            self.phase = "over"
            winners = best_seats(self.scores, opts.penalty_scoring)  # STR-37
            names = " and ".join(f"{{p{s}}}" for s in winners)
            events.append(Event("match_over", f"The match is over: {names} "
                                f"{'win' if len(winners) > 1 else 'wins'}."))
            return
        self.dealer = next_seat(self.dealer, n)  # STR-6
        self._deal(events)

    def _note(self, seat: int, winner: int | None, rummy: bool, payment: int) -> str:
        """What a seat's hand came to: ``went out``, ``paid 18`` (STR-31), ``removed``."""
        if seat == winner:
            return "went rummy" if rummy else "went out"
        parts = [] if self.active[seat] else ["removed"]
        if winner is not None and not self.options.penalty_scoring:
            parts.append(f"paid {payment}")
        return ", ".join(parts)

    def _payment(self, value: int, rummy: bool) -> int:
        if not rummy:
            return value
        return value * 2 if self.options.rummy_bonus == "double" else value + 10  # STR-32

    def _match_over(self) -> bool:
        """STR-36."""
        if self.options.hands is not None:
            return self.hand_number >= self.options.hands
        return max(self.scores) >= self.options.target

    @property
    def winners(self) -> tuple[int, ...]:
        return best_seats(self.scores, self.options.penalty_scoring) if self.is_over else ()

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        if self.is_over or seat != self.turn or not self.active[seat]:
            return []
        if self.phase == "draw":
            return [Draw(seat, "stock"), *([Draw(seat, "discard")] if self.discard else [])]
        moves: list[Move] = []
        hand = self.hands[seat]
        for card in sorted(set(hand), key=lambda c: c.index):
            moves.append(Discard(seat, card))
        for meld in possible_melds(hand, self.rules):
            moves.append(MeldDown(seat, (tuple((c, None) for c in meld.pieces),)))
        for table_meld in self.table:
            for cards in possible_layoffs(hand, table_meld.meld, self.rules, table_meld.number):
                moves.append(LayOff(seat, tuple((c, None) for c in cards), table_meld.number))
        legal = []
        for move in moves:
            try:
                self._check(move)
            except IllegalMove:
                continue
            legal.append(move)
        return legal

    def _check(self, move: Move) -> None:
        """Run the checks ``apply`` would run, without changing anything."""
        if isinstance(move, Discard):
            self._check_discard(move.seat, self.own(move.card))
        elif isinstance(move, MeldDown):
            self._check_meld(move.seat, move.melds)
        elif isinstance(move, LayOff):
            self._check_layoff(move.seat, move.cards, move.meld)
        elif isinstance(move, Draw):
            self._check_draw(move.seat, move.source)

    # -- views ------------------------------------------------------------

    def _state(self, seat: int) -> SeatState:
        """The seat's standing; once the match is over, as it ended (won or lost)."""
        if self.results and self.is_over:
            return SeatState.WON if seat in self.winners else SeatState.LOST
        return SeatState.PLAYING if self.active[seat] else SeatState.OUT

    def table_view(self) -> TableView:
        """STR-9: top discard, stock count, hand sizes, melds."""
        n = self.players
        panels = tuple(PlayerPanel(seat=s, pieces_left=len(self.hands[s]),
                                   score=str(self.scores[s]), state=self._state(s),
                                   to_move=s == self.to_move, dealer=s == self.dealer,
                                   note="removed" if not self.active[s] else "")
                       for s in range(n))
        target = (f"hand {self.hand_number} of {self.options.hands}"
                  if self.options.hands else
                  f"hand {self.hand_number} · playing to {self.options.target}")
        phase = {"draw": "to draw", "play": "to meld, lay off or discard",
                 "over": "match over"}[self.phase]
        return TableView(variant=self.variant, tiles=False, players=panels,
                         melds=tuple(m.view() for m in self.table),
                         discard=tuple(self.discard[-1:]), stock=len(self.stock),
                         to_move=self.to_move, hand_number=self.hand_number,
                         status=f"{target.capitalize()} · {phase}")

    def hand_view(self, seat: int) -> HandView:
        newest = self.drawn if seat == self.turn and self.phase == "play" else None
        return HandView(seat=seat, pieces=tuple(self.hands[seat]), newest=newest)

    def result_view(self) -> ResultView:
        last = self.results[-1] if self.results else None
        totals = self.scores
        ranks = places(totals, self.options.penalty_scoring)
        placings = tuple(sorted(
            (Placing(seat=s, place=ranks[s],
                     points=f"{last.points[s]:+d}" if last else "0",
                     total=str(totals[s]),
                     held=last.held[s] if last else (),
                     note=last.notes[s] if last else "")
             for s in range(self.players)), key=lambda p: (p.place, p.seat)))
        hands = f"{self.hand_number} hand" + ("s" if self.hand_number != 1 else "")
        title = (f"Match over after {hands}" if self.is_over
                 else self._hand_title(last) if last else "No hand played yet")
        if self.is_over and last is not None and not last.winners:
            title += " · " + ("the last a stalemate" if last.number in self.stalemates
                              else "the last without a winner")
        return ResultView(variant=self.variant, title=title, placings=placings, seed=self.seed,
                          match_over=self.is_over)

    def _hand_title(self, result: HandResult) -> str:
        """``Hand 3 result``, or what ended a hand without a winner (STR-17, STR-44)."""
        if result.winners:
            return f"Hand {result.number} result"
        if result.number in self.stalemates:
            return f"Hand {result.number}: stalemate, no winner"
        return f"Hand {result.number}: no winner"


# ---------------------------------------------------------------------------
# Hand analysis (also used by the computer player)
# ---------------------------------------------------------------------------


def possible_melds(hand: Sequence[Card], rules: MeldRules) -> list[Meld]:
    """Every distinct valid meld made only of cards in ``hand`` (one pack, no jokers)."""
    distinct = sorted(set(hand), key=lambda c: c.index)
    found: dict[tuple[Card, ...], Meld] = {}
    by_suit: dict[int, list[Card]] = {}
    by_rank: dict[int, list[Card]] = {}
    for card in distinct:
        by_suit.setdefault(card.suit, []).append(card)
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        for size in range(rules.set_min, min(len(cards), rules.set_max or 4) + 1):
            for combo in combinations(cards, size):
                _add_if_meld(found, combo, rules)
    max_len = rules.runs.max_length
    for cards in by_suit.values():
        ranks = {c.rank: c for c in cards}
        for length in range(rules.run_min, min(len(cards), max_len) + 1):
            for window in rules.runs.windows(length):
                if all(r in ranks for r in window):
                    _add_if_meld(found, tuple(ranks[r] for r in window), rules)
    return list(found.values())


def _add_if_meld(found: dict[tuple[Card, ...], Meld], cards: tuple[Card, ...],
                 rules: MeldRules) -> None:
    key = tuple(sorted(cards, key=lambda c: c.index))
    if key not in found and is_meld(list(cards), rules):
        found[key] = read_meld(list(cards), rules)


def possible_layoffs(hand: Sequence[Card], meld: Meld, rules: MeldRules,
                     number: int) -> list[tuple[Card, ...]]:
    """Every group of cards from ``hand`` that fits ``meld`` (lay-offs of one or more cards).

    A run grows one card at a time at its ends, so every valid group is found
    by adding fitting cards one by one.
    """
    distinct = sorted(set(hand), key=lambda c: c.index)
    found: list[tuple[Card, ...]] = []
    frontier: list[tuple[tuple[Card, ...], Meld]] = [((), meld)]
    seen: set[tuple[Card, ...]] = set()
    while frontier:
        cards, current = frontier.pop()
        for card in distinct:
            if card in cards:
                continue
            group = tuple(sorted((*cards, card), key=lambda c: c.index))
            if group in seen:
                continue
            try:
                grown = extend_meld(current, [card], rules, number)
            except IllegalMove:
                continue
            seen.add(group)
            found.append(group)
            frontier.append((group, grown))
    return found


def cards_in_some_meld(hand: Sequence[Card], rules: MeldRules) -> set[Card]:
    """Cards that belong to at least one valid meld made only of ``hand`` (STR-40)."""
    return set(StraightGame.own_all(c for meld in possible_melds(hand, rules)
                                    for c in meld.pieces))

