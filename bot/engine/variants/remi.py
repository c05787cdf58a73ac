"""Indonesian Remi (rules REM-1 … REM-32, ``shared/rules/50-remi.md``).

Seven cards, one pack, no jokers. A turn is one acquisition, a draw from the
stock or a *take* from the spread discard pile (any of its top three cards,
laid at once in one combination with two or more hand cards; the cards above
it go to the hand), then a discard or a *close*. Sequences are 2–10 of one
suit or exactly J-Q-K; sets count only when *backed* by a sequence. A deal
ends with a close (bonus 10 × the closing card) or when the player to move
draws from an empty stock. Everybody is scored on table combinations plus,
and on the best arrangement of their hand: combinations plus, loose cards
minus (REM-24). A match is deals until someone reaches ``target`` (or a
fixed number of ``deals``).

Players who time out three times in a row go on auto-play (REM-31): their
turns are played inside the engine, at once, by the timeout rule (REM-30),
until they send :class:`~bot.engine.moves.Resume`. When every seat is on
auto-play the engine stops and waits for the turn timer (each
:class:`Timeout` then plays one turn), so a match of absent players never
runs away inside one call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import ClassVar

from ..arrange import best_arrangement
from ..cards import Card, Piece, card_deck, codes, sort_by_rank, sort_by_suit
from ..drawdiscard import DrawDiscardGame, TakeVerdict
from ..errors import IllegalMove
from ..game import Event, HandResult, Move, Options, Timeout, option
from ..melds import REMI_SEQUENCES, SET, Meld, MeldRules, read_meld
from ..moves import Discard, Draw, Placed, Resume, Take
from ..notation import check_held, remove_pieces
from ..scoring import places
from ..views import Placing, PlayerPanel, ResultView, SeatState, TableView

HAND_SIZE = 7
"""REM-6."""
POSITIONS = 3
"""REM-7, REM-16: the top three pile cards may be taken."""
BONUS_FACTOR = 10
"""REM-25."""
NO_JOKERS = "there are no jokers in Remi"
NEEDS_SEQUENCE = "a set needs a sequence first (on the table or in your hand)"

RULES = MeldRules(runs=REMI_SEQUENCES, set_max=4, run_word="sequence",
                  no_jokers_reason=NO_JOKERS)
"""REM-9, REM-10: Remi sequences (2–10 or J Q K), sets of 3 or 4, no jokers."""


def card_value(card: Piece) -> int:
    """REM-3: 2–10 are 5, J Q K 10, A 15."""
    if card.rank == 1:
        return 15
    return 10 if card.rank >= 11 else 5


def card_order(card: Piece) -> tuple[int, int, int]:
    """REM-4: by value, then rank A K Q J 10 … 2, then suit S H D C (larger is higher)."""
    return (card_value(card), 14 if card.rank == 1 else card.rank, -card.suit)


def highest(cards: Iterable[Card]) -> Card:
    """The highest card by REM-4."""
    return max(cards, key=card_order)


# ---------------------------------------------------------------------------
# Options and moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RemiOptions(Options):
    """The options table of the Remi spec."""

    first_player: str = option("dealer", choices=("dealer", "previous_winner"),
                               help="who plays first in a deal: the dealer, or the winner "
                                    "of the previous deal")
    target: int = option(500, bounds=(50, 5000),
                         help="the match ends when someone reaches this score")
    deals: int = option(0, bounds=(1, 50), also=(0,),
                        help="fixed number of deals; overrides target (0 = off)")
    turn_seconds: int = option(90, bounds=(30, 600), also=(0,),
                               help="turn timer in seconds; 0 = no timer")


@dataclass(frozen=True)
class Close(Move):
    """REM-19: close with ``card`` on the pile, the rest of the hand exposed in combinations.

    ``groups`` (NOT-6) names the combinations; ``None`` lets the engine find them.
    """

    kind: ClassVar[str] = "close"
    card: Card
    groups: tuple[tuple[Placed, ...], ...] | None = None


# ---------------------------------------------------------------------------
# Combinations, backing and scoring (pure functions, also used by the computer)
# ---------------------------------------------------------------------------


def has_sequence(cards: Iterable[Card]) -> bool:
    """REM-9, REM-11: some three of ``cards`` form a sequence (2–10 of a suit, or J Q K)."""
    by_suit: dict[int, set[int]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    for ranks in by_suit.values():
        if {11, 12, 13} <= ranks:
            return True
        if any(r in ranks and r + 1 in ranks and r + 2 in ranks for r in range(2, 9)):
            return True
    return False


def unfit_cards(cards: Sequence[Card]) -> list[Card]:
    """The cards of ``cards`` that belong to no combination made only of ``cards``.

    A cheap necessary test before an exact search: a hand with two such cards
    cannot close (REM-19), and only such a card can be its closing card.
    """
    present = set(cards)
    ranks = Counter(c.rank for c in present)
    found = []
    for card in cards:
        if ranks[card.rank] >= RULES.set_min:
            continue
        suit = card.suit
        if not any(all(Card(r, suit) in present for r in window)
                   for window in _WINDOWS_OF_THREE.get(card.rank, ())):
            found.append(card)
    return found


_WINDOWS_OF_THREE = {rank: [w for w in REMI_SEQUENCES.windows(RULES.run_min) if rank in w]
                     for rank in range(1, 14)}
"""Each rank's shortest sequence windows (a card is in a sequence only if in one of these)."""


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One player's deal score (REM-24, REM-25, REM-26), itemised for the results post.

    ``plus`` lists the combinations counted plus (table ones first); ``minus_sets``
    the sets counted minus because nothing backs them; ``minus`` the loose
    hand cards. ``closing`` and ``bonus`` are the closer's (REM-25).
    """

    plus: tuple[tuple[Card, ...], ...] = ()
    minus_sets: tuple[tuple[Card, ...], ...] = ()
    minus: tuple[Card, ...] = ()
    closing: Card | None = None
    bonus: int = 0
    total: int = 0

    @property
    def text(self) -> str:
        """``+20 (3C 4C 5C 6C) −30 (JC JD QC)``: what the results post lists (REM-26)."""
        parts = []
        plus = sum(card_value(c) for m in self.plus for c in m)
        if self.plus:
            parts.append(f"+{plus} ({' | '.join(codes(m) for m in self.plus)})")
        minus_cards = [c for m in self.minus_sets for c in m] + list(self.minus)
        if minus_cards:
            shown = " | ".join([*(codes(m) for m in self.minus_sets),
                                *([codes(self.minus)] if self.minus else [])])
            parts.append(f"−{sum(card_value(c) for c in minus_cards)} ({shown})")
        if self.closing is not None:
            parts.append(f"closed with {self.closing.code}: bonus +{self.bonus}")
        return " ".join(parts) or "0"


def arrangement_score(table: Sequence[Meld], melds: Sequence[Meld], loose: Sequence[Card],
                      closing: Card | None = None) -> SeatScore:
    """REM-24 for one arrangement: ``table`` and ``melds`` (hand combinations), ``loose`` minus.

    Sets count plus only when a sequence is on the table or among ``melds``
    (REM-11, REM-23). With a ``closing`` card its REM-25 bonus is added.
    """
    backed = any(m.is_run for m in (*table, *melds))
    plus: list[tuple[Card, ...]] = []
    minus_sets: list[tuple[Card, ...]] = []
    for meld in (*table, *melds):
        pieces: tuple[Card, ...] = meld.pieces  # type: ignore[assignment]
        (plus if meld.is_run or backed else minus_sets).append(pieces)
    bonus = BONUS_FACTOR * card_value(closing) if closing is not None else 0
    total = (sum(card_value(c) for m in plus for c in m)
             - sum(card_value(c) for m in minus_sets for c in m)
             - sum(card_value(c) for c in loose) + bonus)
    return SeatScore(tuple(plus), tuple(minus_sets), tuple(sort_by_suit(loose)), closing,
                     bonus, total)


def best_score(hand: Sequence[Card], table: Sequence[Meld] = ()) -> SeatScore:
    """REM-24: the highest arrangement score of ``hand`` with ``table`` (the seat's own melds).

    Exact, through the shared search :func:`~bot.engine.arrange.best_arrangement`.
    For a fixed backing, every card of the hand counts either plus (in a
    backed combination) or minus (loose), so the score is
    ``table ± hand value − 2 × (loose value)``: the best arrangement is the
    one with the least loose value. The search cannot say "sets count only
    when backed", so backing is handled around it, exactly:

    * a sequence on the table backs everything: least loose value, any melds;
    * otherwise an arrangement either holds a sequence (``min_runs=1``: the
      search's least loose value under that minimum; every set is backed),
      or holds none, and then every set in it counts minus just like a loose
      card, so all of those score the same as no arrangement at all (every
      hand card and table set minus). The best of the two is the answer.
    """
    table_run = any(m.is_run for m in table)
    arrangement = best_arrangement(hand, RULES, card_value, min_runs=0 if table_run else 1)
    unbacked = arrangement_score(table, (), hand)
    if arrangement is None:
        return unbacked
    found = arrangement_score(table, arrangement.melds, arrangement.deadwood)  # type: ignore[arg-type]
    return found if table_run or found.total >= unbacked.total else unbacked


def covering(cards: Sequence[Card], table: Sequence[Meld] = ()) -> tuple[Meld, ...] | None:
    """REM-19: combinations using every one of ``cards``, each set backed; ``None`` if none.

    Sets need a sequence on the table or among the combinations, so without a
    table sequence the search must find a cover holding at least one sequence.
    """
    if not cards:
        return ()
    table_run = any(m.is_run for m in table)
    arrangement = best_arrangement(cards, RULES, card_value, min_runs=0 if table_run else 1)
    if arrangement is None or arrangement.value:
        return None
    return arrangement.melds


def close_refusal(cards: Sequence[Card], table: Sequence[Meld] = ()) -> str:
    """Why ``cards`` (a hand without its closing card) cannot all be exposed (REM-19, REM-20)."""
    free = best_arrangement(cards, RULES, card_value)
    if free is not None and free.deadwood:
        verb = "fits" if len(free.deadwood) == 1 else "fit"
        return (f"{codes(sort_by_suit(free.deadwood))} {verb} no combination: every card but "
                "the closing card must be in one")
    return "a set needs a sequence first (on the table or in your combinations)"


def timeout_discard(hand: Sequence[Card], table: Sequence[Meld] = ()) -> Card:
    """REM-30: the card the bot discards for a player whose time ran out.

    The highest card (REM-4) that at least one best arrangement leaves loose:
    a card is loose in some best arrangement exactly when the best score of
    the hand without it, minus its value, equals the hand's best score. If
    no such card exists, the card whose removal leaves the best score (ties:
    the highest).
    """
    best = best_score(hand, table).total
    distinct = sorted(set(hand), key=lambda c: c.index)
    without = {c: best_score(remove_pieces(hand, [c]), table).total for c in distinct}
    loose = [c for c in distinct if without[c] - card_value(c) == best]
    if loose:
        return highest(loose)
    return max(distinct, key=lambda c: (without[c], card_order(c)))


def take_options(hand: Sequence[Card], picked: Card) -> list[tuple[Card, ...]]:
    """Every group of hand cards that makes one combination with ``picked`` (REM-16b).

    Backing and the empty-hand rule are not checked here (see ``RemiGame.take_verdict``).
    """
    held = set(hand)
    found: list[tuple[Card, ...]] = []
    same_rank = sorted((c for c in held if c.rank == picked.rank and c != picked),
                       key=lambda c: c.index)
    for size in (2, 3):
        found.extend(combinations(same_rank, size))
    by_rank = {c.rank: c for c in held if c.suit == picked.suit}
    for others in _SEQUENCE_PARTNERS[picked.rank]:
        if all(r in by_rank for r in others):
            found.append(tuple(by_rank[r] for r in others))
    return found


_SEQUENCE_PARTNERS = {rank: [tuple(r for r in window if r != rank)
                             for length in range(RULES.run_min, REMI_SEQUENCES.max_length + 1)
                             for window in REMI_SEQUENCES.windows(length) if rank in window]
                      for rank in range(1, 14)}
"""For each rank, the other ranks of every sequence containing it (REM-9)."""


# ---------------------------------------------------------------------------
# Verdicts the bot can show before a move (pure, change nothing)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClosePreview:
    """What a close would expose and score (for the confirmation question)."""

    card: Card
    melds: tuple[Meld, ...]
    score: SeatScore

    @property
    def text(self) -> str:
        shown = " | ".join(m.codes for m in self.melds) or "no combination"
        return (f"close with {self.card.code}, exposing {shown}: "
                f"{self.score.total:+d} this deal (bonus {self.score.bonus})")


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class RemiGame(DrawDiscardGame):
    """An Indonesian Remi match: deals until ``target`` (or ``deals``), one deal in play.

    The deal, stock, spread pile, takes, discards, auto-play and the match are
    the shared :class:`~bot.engine.drawdiscard.DrawDiscardGame`; this class adds
    Remi's combinations and backing, the close, scoring and the dealer rule.
    """

    variant: ClassVar[str] = "remi"
    title: ClassVar[str] = "Indonesian Remi"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type[Options]] = RemiOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, Take, Discard, Close, Timeout, Resume)
    legacy_names: ClassVar[dict[str, str]] = {"deal_number": "hand_number"}
    hand_word: ClassVar[str] = "deal"
    draw_sources: ClassVar[tuple[str, ...]] = ("stock",)
    draw_phase: ClassVar[str] = "acquire"
    play_phase: ClassVar[str] = "discard"
    already_drawn: ClassVar[str] = "you have already drawn or taken this turn"  # REM-14
    acquire_first: ClassVar[str] = "draw or take first"  # REM-14
    upcard: ClassVar[bool] = False  # REM-6: the discard pile starts empty
    sort_dealt: ClassVar[bool] = True
    empty_stock_draw_ends: ClassVar[bool] = True  # REM-21
    take_depth: ClassVar[int | None] = POSITIONS  # REM-16a

    options: RemiOptions = field(default_factory=RemiOptions)
    scorings: list[list[SeatScore]] = field(default_factory=list)
    """Per finished deal, each seat's itemised score (REM-26)."""

    # -- set-up -----------------------------------------------------------

    @property
    def deal_number(self) -> int:
        return self.hand_number

    @property
    def rules(self) -> MeldRules:
        return RULES

    def value(self, card: Piece) -> int:
        """REM-4: what a card counts (loose in hand, or laid)."""
        return card_value(card)

    @property
    def hands_to_play(self) -> int | None:
        return self.options.deals or None  # REM-27

    def _deck(self, order: Sequence[int]) -> list[Card]:
        return card_deck(1)  # REM-1

    def hand_size(self, dealt: int) -> int:
        return HAND_SIZE  # REM-6

    def _first_player(self, order: Sequence[int]) -> int:
        """REM-8: the dealer, or with ``previous_winner`` the previous deal's winner."""
        if self.options.first_player == "previous_winner" and self.results:
            return self.results[-1].winners[0]
        return self.dealer

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        events.append(Event("deal_started", f"Deal {self.hand_number}: {{p{self.dealer}}} deals "
                            f"{HAND_SIZE} cards each; {{p{self.turn}}} plays first."))

    def _stock_empty(self, events: list[Event]) -> bool:
        return True  # REM-21: the deal ends only when the player to move draws

    def _source_refusal(self, source: str) -> str:
        if source == "discard":
            return "to use the discard pile, take a card with the hand cards it completes"
        return "draw from the stock"  # REM-16

    def check_piece(self, piece: Piece) -> None:
        if piece.is_joker:
            raise IllegalMove(NO_JOKERS)  # REM-1

    def _act(self, move: Move, events: list[Event]) -> None:
        if isinstance(move, Close):
            self._close(self._check_close(move.seat, move.card, move.groups), events)
        else:
            super()._act(move, events)

    def _acts_for_timeouts(self, move: Move) -> bool:
        """REM-31: a discard or close resets the count (a draw that ends the deal does not)."""
        return not isinstance(move, Draw)

    # -- checks (raise, never mutate) ----------------------------------------

    def _check_cards(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self.check_piece(card)

    def take_verdict(self, seat: int, card: Card, with_cards: Sequence[Card],
                     position: int | None = None, meld: int | None = None) -> TakeVerdict:
        """Whether ``seat`` may take ``card`` with ``with_cards`` now (REM-16a–d), and why not.

        Turn and phase are not judged here (so the *My hand* panel can ask at
        any time); :meth:`apply` checks them first. Changes nothing.
        """
        self._check_cards([card, *with_cards])
        if meld is not None:
            return TakeVerdict(False, "a take lays a new combination: nothing is laid off "
                               "in Remi")  # REM-16, REM-12
        where = self.pile_refusal(card, POSITIONS, position)  # REM-16a
        if isinstance(where, str):
            return TakeVerdict(False, where)
        hand = self.hands[seat]
        for other in with_cards:
            if other in self.pile and other not in hand:  # REM-16b
                return TakeVerdict(False, f"{other.code} is in the discard pile: only the "
                                   "picked card may come from it")
        try:
            check_held(with_cards, hand)
        except IllegalMove as error:
            return TakeVerdict(False, str(error))
        if len(with_cards) < 2:
            return TakeVerdict(False, "name 2 or more hand cards that make a combination with "
                               f"{card.code}")  # REM-16
        try:
            made = read_meld(sort_by_rank([card, *with_cards]), RULES)  # REM-16b, REM-9
        except IllegalMove as error:
            return TakeVerdict(False, str(error))
        rest = remove_pieces(hand, with_cards)
        if made.kind == SET and not (self._table_run(seat) or has_sequence(rest)):
            return TakeVerdict(False, NEEDS_SEQUENCE)  # REM-16c, REM-11
        received = self.cards_above(where)
        if not rest and not received:
            return TakeVerdict(False, "you would have no card left to discard")  # REM-16d
        return TakeVerdict(True, f"lays {made.codes}", where, made, received,
                           tuple(with_cards))

    def _table_run(self, seat: int) -> bool:
        return any(m.is_run for m in self.own_melds(seat))

    def _check_close(self, seat: int, card: Card,
                     groups: Sequence[Sequence[Placed]] | None) -> ClosePreview:
        self._check_play(seat)
        return self.close_preview(seat, card, groups)

    def close_preview(self, seat: int, card: Card,
                      groups: Sequence[Sequence[Placed]] | None = None) -> ClosePreview:
        """What closing with ``card`` (and ``groups``) would expose and score (REM-19, REM-25).

        Raises :class:`IllegalMove` with the reason when the close would be
        refused (turn and phase aside, as :meth:`take_verdict`). Changes nothing.
        """
        self._check_cards([card])
        hand = self.hands[seat]
        check_held([card], hand)
        rest = remove_pieces(hand, [card])
        table = self.own_melds(seat)
        if groups is None:
            melds = covering(rest, table)
            if melds is None:
                raise IllegalMove(close_refusal(rest, table))  # REM-19, REM-20
        else:
            melds = self._judge_groups(rest, card, groups, table)
        return ClosePreview(card, melds, arrangement_score(table, melds, (), card))

    def _judge_groups(self, rest: Sequence[Card], card: Card,
                      groups: Sequence[Sequence[Placed]], table: Sequence[Meld]
                      ) -> tuple[Meld, ...]:
        """REM-19 with the player's grouping: exactly ``rest``, each group valid and backed."""
        if not groups and rest:
            raise IllegalMove("name your combinations, or leave them out to let the bot find "
                              "them")
        for number, group in enumerate(groups, start=1):
            if not group:
                raise IllegalMove(f"group {number} is empty")
        named = self.own_all(p for g in groups for p, _ in g)
        self._check_cards(named)
        have = Counter(rest)
        for piece, count in Counter(named).items():
            if count > have.get(piece, 0):
                if piece == card:
                    raise IllegalMove(f"{card.code} is your closing card: group the other "
                                      "cards")
                check_held([piece] * count, rest)
        missing = Counter(rest) - Counter(named)
        if missing:
            raise IllegalMove(f"{codes(sort_by_suit(missing.elements()))} "
                              f"{'is' if sum(missing.values()) == 1 else 'are'} in no group: "
                              "every card but the closing card must be in a combination")
        melds = []
        for number, group in enumerate(groups, start=1):
            try:
                melds.append(read_meld(list(group), RULES))
            except IllegalMove as error:
                raise IllegalMove(f"group {number}: {error}") from None
        if any(not m.is_run for m in melds) and not any(m.is_run for m in (*table, *melds)):
            raise IllegalMove("a set needs a sequence first (on the table or in your "
                              "combinations)")  # REM-19, REM-11
        return tuple(melds)

    # -- effects ----------------------------------------------------------

    def _stock_ran_out(self, events: list[Event]) -> None:
        seat = self.turn
        events.append(Event("stock_out", f"{{p{seat}}} drew from the empty stock: the deal "
                            "ends with no close.", seat))
        self._end_deal(None, None, events)  # REM-21

    def _take(self, verdict: TakeVerdict, events: list[Event]) -> None:
        """REM-16: the combination is laid first, then the cards above reach the hand."""
        seat = self.turn
        meld = verdict.meld
        assert meld is not None
        self._remove(seat, verdict.with_cards)
        _, above = self._lift(verdict.position)
        self._lay_meld(seat, meld)  # REM-16, REM-12
        self._receive(seat, above)
        self.phase = self.play_phase
        got = f"; {codes(above)} went to their hand" if above else ""
        events.append(Event("take", f"{{p{seat}}} took position {verdict.position} and laid "
                            f"{meld.codes}{got}.", seat))

    def _discard(self, card: Card, events: list[Event]) -> None:
        if len(self.hands[self.turn]) == 1:  # REM-18, REM-A4: the last card closes
            self._close(self.close_preview(self.turn, card), events)
            return
        super()._discard(card, events)

    def _close(self, preview: ClosePreview, events: list[Event]) -> None:
        seat = self.turn
        self._remove(seat, [preview.card])
        for meld in preview.melds:  # exposed: they join the seat's table combinations
            self._remove(seat, self.own_all(meld.pieces))
            self._lay_meld(seat, meld)
        self.pile.append(preview.card)
        shown = " | ".join(m.codes for m in preview.melds)
        events.append(Event("close", f"{{p{seat}}} closed with {preview.card.code}"
                            + (f", exposing {shown}" if shown else "") + ".", seat))
        self._end_deal(seat, preview, events)

    def _timeout(self, events: list[Event]) -> None:
        """REM-30, REM-31: draw if needed, then discard by the fixed rule."""
        seat = self.turn
        events.append(Event("timeout", f"{{p{seat}}} ran out of time; the bot played for them.",
                            seat))
        self._count_timeout_to_auto(seat, events)
        self._play_for(seat, events)

    def _play_for(self, seat: int, events: list[Event]) -> None:
        """REM-30: the turn the bot plays (never a take, never a close but REM-18's)."""
        if self.phase == self.draw_phase:
            self._draw(self.stock_source, events)
            if self.phase != self.play_phase:
                return  # the stock was empty: the deal ended (REM-21)
        self._discard(timeout_discard(self.hands[seat], self.own_melds(seat)), events)

    # -- the end of a deal and of the match ------------------------------------

    def _end_deal(self, closer: int | None, preview: ClosePreview | None,
                  events: list[Event]) -> None:
        """REM-22 … REM-28, then the next deal (REM-5)."""
        n = self.players
        scores = [preview.score if s == closer and preview is not None
                  else best_score(self.hands[s], self.own_melds(s)) for s in range(n)]
        points = [s.total for s in scores]
        if closer is not None:
            winner = closer
        else:  # REM-22: highest deal score, ties first clockwise from the dealer
            order = [(self.dealer + i) % n for i in range(n)]
            winner = max(order, key=lambda s: (points[s], -order.index(s)))
        self.scorings.append(scores)
        summary = (f"{{p{closer}}} closed and wins deal {self.hand_number}." if closer is not None
                   else f"The stock ran out: {{p{winner}}} wins deal {self.hand_number} with the "
                   "highest score.")
        self._finish_hand(winners=(winner,), points=points,
                          notes=[scores[s].text for s in range(n)], summary=summary,
                          events=events)

    def _next_dealer(self, result: HandResult) -> int:
        return self.next_dealer()

    def next_dealer(self) -> int:
        """REM-5: the lowest cumulative score; ties: first clockwise after the previous dealer."""
        n = self.players
        low = min(self.totals)
        return next(s for s in ((self.dealer + i) % n for i in range(1, n + 1))
                    if self.totals[s] == low)

    # -- legal moves and helpers for the bot's buttons ---------------------------

    def top_cards(self, count: int = POSITIONS) -> list[Card]:
        """The pile's positions 1, 2, 3 (as many as there are): the ones a take may pick."""
        return super().top_cards(count)

    def _take_candidates(self, seat: int, picked: Card, position: int) -> list[Take]:
        """REM-16b: ``picked`` with each group of hand cards it makes a combination with."""
        return [Take(seat, picked, with_cards)
                for with_cards in take_options(self.hands[seat], picked)]

    def positions_for(self, seat: int, with_cards: Sequence[Card] | None = None) -> list[int]:
        """Positions ``seat`` could take now; with ``with_cards``, with exactly those cards.

        Private to ``seat`` (it reads their hand): for the *My hand* panel's
        select of the pile's top three.
        """
        if with_cards is not None:
            return [p for p, c in enumerate(self.top_cards(), start=1)
                    if self.take_verdict(seat, c, with_cards).ok]
        return self.take_positions(seat)

    def open_positions(self) -> list[int]:
        """Positions whose card some hand could still use: public, for the turn message.

        A position is offered when two cards nobody can see (not on the table,
        not in the pile) would make a combination with its card. Backing and
        the player's actual hand are left to the refusal, so nothing private leaks.
        """
        seen = set(self.pile) | {c for m in self.table for c in m.meld.pieces}
        hidden = [c for c in card_deck(1) if c not in seen]
        return [p for p, c in enumerate(self.top_cards(), start=1) if take_options(hidden, c)]

    def close_options(self, seat: int) -> list[ClosePreview]:
        """Every closing card that works for ``seat`` now, best score first (REM-19, REM-25)."""
        hand = self.hands[seat]
        table = self.own_melds(seat)
        unfit = unfit_cards(hand)
        if len(unfit) > 1:
            return []
        previews = []
        for card in sorted(set(unfit or hand), key=lambda c: c.index):
            rest = remove_pieces(hand, [card])
            if unfit_cards(rest):
                continue
            melds = covering(rest, table)
            if melds is not None:
                previews.append(ClosePreview(card, melds,
                                             arrangement_score(table, melds, (), card)))
        return sorted(previews, key=lambda p: (-p.score.total, -card_value(p.card)))

    def legal_moves(self, seat: int) -> list[Move]:
        """Every distinct move ``seat`` may make now (closes without a grouping).

        :class:`Timeout` is the timer's and is not listed; :class:`Resume` is,
        for a seat on auto-play.
        """
        moves: list[Move] = [Resume(seat)] if not self.is_over and self.auto[seat] else []
        if self.is_over or seat != self.turn:
            return moves
        if self.phase == "acquire":
            return [*moves, Draw(seat, "stock"), *self.takes(seat)]
        distinct = sorted(set(self.hands[seat]), key=lambda c: c.index)
        moves.extend(Discard(seat, c) for c in distinct)
        if len(distinct) > 1:  # a one-card hand closes by its discard (REM-18)
            moves.extend(Close(seat, p.card) for p in self.close_options(seat))
        return moves

    # -- views ------------------------------------------------------------

    def _state(self, seat: int) -> SeatState:
        if self.is_over and seat in self.winners:
            return SeatState.WON
        return SeatState.AUTO if self.auto[seat] else SeatState.PLAYING

    def table_view(self) -> TableView:
        """REM-7: the whole pile with positions 1–3, combinations by owner, totals."""
        panels = tuple(PlayerPanel(seat=s, pieces_left=len(self.hands[s]),
                                   score=str(self.totals[s]), state=self._state(s),
                                   to_move=s == self.to_move, dealer=s == self.dealer,
                                   note="auto-play" if self.auto[s] else "")
                       for s in range(self.players))
        where = (f"Deal {self.hand_number} of {self.options.deals}" if self.options.deals
                 else f"Deal {self.hand_number} · playing to {self.options.target}")
        phase = {"acquire": "to draw or take", "discard": "to discard or close",
                 "over": "match over"}[self.phase]
        return TableView(variant=self.variant, tiles=False, players=panels,
                         melds=tuple(m.view() for m in self.table),
                         discard=tuple(self.pile), discard_marked=min(POSITIONS, len(self.pile)),
                         stock=len(self.stock), to_move=self.to_move,
                         hand_number=self.hand_number, hand_label="deal",
                         melds_by_owner=True, status=f"{where} · {phase}")

    def result_view(self) -> ResultView:
        """The latest deal's scores (REM-26), or the match's standings once it is over."""
        n = self.players
        last = self.results[-1] if self.results else None
        if last is None:
            return ResultView(variant=self.variant, title="No deal finished yet",
                              placings=tuple(Placing(seat=s, place=1, points="0", total="0")
                                             for s in range(n)), seed=self.seed)
        keys = self.totals if self.is_over else list(last.points)
        ranks = places(keys, False)
        scores = self.scorings[-1]
        placings = tuple(sorted(
            (Placing(seat=s, place=ranks[s], points=f"{last.points[s]:+d}",
                     total=str(last.totals[s]), held=last.held[s], note=last.notes[s],
                     finish=scores[s].closing)
             for s in range(n)), key=lambda p: (p.place, p.seat)))
        deals = f"{self.hand_number} deal" + ("s" if self.hand_number != 1 else "")
        title = f"Match over after {deals}" if self.is_over else f"Deal {last.number} result"
        return ResultView(variant=self.variant, title=title, placings=placings, seed=self.seed,
                          match_over=self.is_over)
