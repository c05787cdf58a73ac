"""Straight Rummy (rules STR-1 … STR-44, ``shared/rules/10-straight.md``).

Draw, meld and lay off, discard; the first player to get rid of all their
cards wins the hand and collects the value of everybody else's cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..cards import Card, Piece, card_deck
from ..drawdiscard import (
    MAX_RESHUFFLES,
    TIMEOUTS_TO_ACT,
    DrawDiscardGame,
    cards_in_some_meld,
    possible_melds,
)
from ..errors import IllegalMove
from ..game import Event, HandResult, Move, Options, Timeout, option
from ..melds import STRAIGHT_ACES, Meld, MeldRules
from ..moves import Discard, Draw, LayOff, MeldDown
from ..scoring import places
from ..views import Placing, PlayerPanel, ResultView, SeatState, TableView

CARDS_DEALT = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""STR-5."""


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
class StraightGame(DrawDiscardGame):
    """A Straight Rummy match: cumulative scores over hands, and the hand in play.

    The match, the deal, the stock and discard pile, draws, melds, lay-offs and
    discards are the shared :class:`~bot.engine.drawdiscard.DrawDiscardGame`;
    this class adds Straight's options, scoring and going rummy, the empty-stock
    rule (STR-17, STR-44) and the timeout rule (STR-40 … STR-43).
    """

    variant: ClassVar[str] = "straight"
    title: ClassVar[str] = "Straight Rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options_type: ClassVar[type[Options]] = StraightOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, MeldDown, LayOff, Discard, Timeout)
    legacy_names: ClassVar[dict[str, str]] = {"scores": "totals", "discard": "pile"}
    out_of_hand: ClassVar[str] = "you were removed from this hand for inactivity"  # STR-42

    options: StraightOptions = field(default_factory=StraightOptions)
    stalemates: list[int] = field(default_factory=list)
    """Numbers of the hands that ended in a stalemate (STR-44)."""
    has_melded: list[bool] = field(default_factory=list)
    """Placed a meld of their own this hand (STR-26)."""
    played_before: list[bool] = field(default_factory=list)
    """Melded or laid off in an earlier turn of this hand (STR-29)."""
    melds_this_turn: int = 0
    played_this_turn: bool = False

    # -- set-up -----------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        """The cumulative scores (STR-35): the match totals."""
        return self.totals

    @property
    def discard(self) -> list[Card]:
        """The discard pile, bottom to top (STR-9 shows only its top card)."""
        return self.pile

    @property
    def lower_is_better(self) -> bool:  # type: ignore[override]
        return self.options.penalty_scoring

    @property
    def rules(self) -> MeldRules:
        return self.options.meld_rules

    @property
    def keep_a_card(self) -> bool:
        return self.options.discard_to_go_out  # STR-23

    @property
    def taken_locked(self) -> bool:
        return self.options.no_discard_of_taken_card  # STR-24

    def value(self, card: Piece) -> int:
        return card_value(card, self.options.aces)

    def hand_value(self, seat: int) -> int:
        return sum(self.value(c) for c in self.hands[seat])

    def _deck(self, order: Sequence[int]) -> list[Card]:
        return card_deck(1)  # STR-3

    def hand_size(self, dealt: int) -> int:
        return CARDS_DEALT[dealt]  # STR-5

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        """STR-7, STR-8: the hand is dealt; the player on the dealer's left starts."""
        n = self.players
        self.has_melded = [False] * n
        self.played_before = [False] * n
        events.append(Event("hand_started", f"Hand {self.hand_number}: {{p{self.dealer}}} deals "
                            f"{CARDS_DEALT[n]} cards each; {self.pile[-1].code} is face up."))

    def _reset_turn(self) -> None:
        self.melds_this_turn = 0
        self.played_this_turn = False

    def _stock_empty(self, events: list[Event]) -> bool:
        """STR-17, STR-44: the stock is empty as a turn begins; False when the hand ended."""
        if self.options.stock_out == "end":
            self._end_hand(None, False, "The stock ran out: the hand ends with no winner.",
                           events, charge_all=True)
            return False
        if self.reshuffles >= MAX_RESHUFFLES:  # STR-44: scored as stock_out = end
            self.stalemates.append(self.hand_number)
            self._end_hand(None, False, f"Stalemate: the stock ran out after {MAX_RESHUFFLES} "
                           "reshuffles, so the hand ends with no winner.", events,
                           charge_all=True)
            return False
        if len(self.pile) < 2:
            self._end_hand(None, False, "The stock ran out and the discard pile holds one card: "
                           "the hand ends with no winner.", events)
            return False
        self._reshuffle(events)
        return True

    def _reshuffle_note(self) -> str:
        left = MAX_RESHUFFLES - self.reshuffles
        return (f" {left} more reshuffle{'s' if left != 1 else ''} allowed this hand."
                if left else " This was the last reshuffle: when the stock runs out again, "
                "the hand ends with no winner.")

    def check_piece(self, piece: Piece) -> None:
        if piece.is_joker:
            raise IllegalMove("there are no jokers in Straight Rummy")  # STR-3

    # -- checks (raise, never mutate) ----------------------------------------

    def _check_meld_count(self, seat: int, count: int) -> None:
        if self.options.one_meld_per_turn and (count > 1 or self.melds_this_turn):
            raise IllegalMove("only one meld per turn")  # STR-25

    def _check_may_lay_off(self, seat: int) -> None:
        if self.options.meld_before_layoff and not self.has_melded[seat]:
            raise IllegalMove("lay down a meld of your own first")  # STR-26

    # -- effects ----------------------------------------------------------

    def _meld(self, melds: Sequence[Meld], events: list[Event]) -> None:
        self.melds_this_turn += len(melds)
        self.has_melded[self.turn] = True
        self.played_this_turn = True
        super()._meld(melds, events)

    def _lay_off(self, number: int, cards: Sequence[Card], grown: Meld,
                 events: list[Event]) -> None:
        self.played_this_turn = True
        super()._lay_off(number, cards, grown, events)

    def _pass_turn(self, events: list[Event]) -> None:
        self.played_before[self.turn] |= self.played_this_turn
        super()._pass_turn(events)

    def _went_out(self, seat: int, events: list[Event]) -> None:
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
        self._put_on_pile(seat, card, events)
        if not self.hands[seat]:
            self._went_out(seat, events)
            return
        if self.timeouts[seat] >= TIMEOUTS_TO_ACT:  # STR-42
            still = self._remove_inactive(seat, events)
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
        notes = [self._note(s, winner, rummy, payments[s]) for s in range(n)]
        self._finish_hand(winners=(winner,) if winner is not None else (), points=points,
                          notes=notes, summary=summary, events=events)  # STR-35 … STR-37

    def _hand_over_text(self, result: HandResult) -> str:
        return f"{result.summary} Scores: " + ", ".join(
            f"{{p{s}}} {result.totals[s]}" for s in range(self.players)) + "."

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

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        if self.is_over or seat != self.turn or not self.active[seat]:
            return []
        if self.phase == "draw":
            return [Draw(seat, "stock"), *([Draw(seat, "discard")] if self.pile else [])]
        return self._play_moves(seat, possible_melds(self.hands[seat], self.rules))

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
                                   score=str(self.totals[s]), state=self._state(s),
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
                         discard=tuple(self.pile[-1:]), stock=len(self.stock),
                         to_move=self.to_move, hand_number=self.hand_number,
                         status=f"{target.capitalize()} · {phase}")

    def result_view(self) -> ResultView:
        last = self.results[-1] if self.results else None
        totals = self.totals
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
