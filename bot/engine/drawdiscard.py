"""Draw-and-discard games: a stock, a discard pile, and turns of draw, play, discard.

Straight Rummy (STR), Indian Rummy (IND) and Remi (REM), and next Gin Rummy
(GIN) and Rummy 500 (FHR), share one shape, the counterpart of
:mod:`bot.engine.shedding`:

* a *match* of hands: running totals, the hand number, a dealer who changes
  each hand, the results of the hands played, and timeout counts that carry
  from hand to hand (STR-41, IND-36, REM-31, GIN-44, FHR-40);
* each hand is a fresh deck shuffled and dealt one card at a time from the
  dealer's left (STR-7, IND-6, REM-6, GIN-7, FHR-7), one card turned up to
  start the discard *pile* (except Remi), the rest face down as the *stock*;
* a turn is an acquisition, then the variant's play, then a discard that
  passes the turn (or the hand ends): the acquisition is a draw from the
  stock, the pile's top card (:class:`~bot.engine.moves.Draw`) or, with a
  spread pile, any card with every card above it
  (:class:`~bot.engine.moves.Take`: Remi, Rummy 500);
* a stock that runs out is refilled from the pile under its top card
  (STR-17, IND-16, FHR-25) or ends the hand (STR-17, REM-21, FHR-24/26);
* melds on the table, numbered as laid (NOT-11), grown by lay-offs (Straight,
  Rummy 500; Remi lays its combinations by take and close only);
* a player who times out repeatedly is removed from the hand (STR-42,
  FHR-41), dropped (IND-37) or put on auto-play until they resume (REM-31,
  GIN-44).

:class:`DrawDiscardGame` holds that skeleton and its state; a variant module
keeps only what is its own (its options, deck and values, melds it allows,
extra moves such as Indian's declaration or Remi's close, scoring, the end
of the match, its views). The hooks a variant overrides are grouped below
under "hooks"; everything else is shared.

It also knows what each seat knows, for :meth:`DrawDiscardGame.redeal_unseen`:
every card taken from the pile (by a draw or a take) is public and stays
known to be in that hand until it is played (``known``); the pile, the table
and anything a variant reveals are public; the stock and the rest of the
other hands are hidden.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, Self

from .cards import Card, codes, sort_by_suit
from .errors import IllegalMove
from .game import Event, Game, HandResult, Move, Timeout
from .i18n import and_list, capitalized, joined, tr, trn, who
from .melds import Meld, MeldRules, extend_meld, is_meld, read_meld
from .moves import Discard, Draw, LayOff, MeldDown, Placed, Resume, Take, placed
from .notation import check_held, remove_pieces
from .rng import Rng
from .scoring import best_seats
from .table import TableMeld, find_meld, next_seat, replace_meld
from .views import HandView

MAX_RESHUFFLES = 2
"""STR-44, FHR-25: reshuffles of the pile allowed in one hand; at the next empty stock a
variant with that limit ends the hand (stalemate)."""
TIMEOUTS_TO_ACT = 3
"""STR-42, FHR-41 (removal), REM-31, GIN-44 (auto-play): the consecutive timeout that acts."""


def forget(known: list[Card], cards: Sequence[Card]) -> list[Card]:
    """``known`` without one copy of each of ``cards`` that it holds (the others ignored)."""
    rest = list(known)
    for card in cards:
        if card in rest:
            rest.remove(card)
    return rest


# -- hand analysis (the variants' legal moves and computer players) ----------------------------


def possible_melds(hand: Sequence[Card], rules: MeldRules) -> list[Meld]:
    """Every distinct valid meld made only of the natural cards in ``hand``."""
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


def layoff_kin(meld: Meld) -> Callable[[Card], bool]:
    """Which cards could ever be laid off on ``meld``: jokers, and its suit (a run) or its
    rank (a set)."""
    if meld.is_run:
        suit = meld.suit
        return lambda c: c.is_joker or c.suit == suit
    rank = meld.rank
    return lambda c: c.is_joker or c.rank == rank


def possible_layoffs(hand: Sequence[Card], meld: Meld, rules: MeldRules,
                     number: int) -> list[tuple[Card, ...]]:
    """Every group of cards from ``hand`` that fits ``meld`` (lay-offs of one or more cards).

    A run grows one card at a time at its ends, so every valid group is found
    by adding fitting cards one by one.
    """
    distinct = sorted(set(filter(layoff_kin(meld), hand)), key=lambda c: c.index)
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
    return {c for meld in possible_melds(hand, rules) for c in meld.pieces
            if isinstance(c, Card)}


@dataclass(frozen=True, slots=True)
class TakeVerdict:
    """Whether a take from a spread pile works now and why not; what it would do.

    Built by a variant's :meth:`DrawDiscardGame.take_verdict` without changing
    anything, so the hand panel can ask before the move and the move does
    exactly what was judged.
    """

    ok: bool
    reason: str
    position: int = 0
    meld: Meld | None = None
    """The new meld the picked card makes, or the grown meld of a lay-off (:attr:`onto`)."""
    received: tuple[Card, ...] = ()
    """The pile cards above the picked one, which go to the hand."""
    with_cards: tuple[Card, ...] = ()
    """The hand cards that go with the picked card into :attr:`meld`."""
    onto: int | None = None
    """The table meld the picked card is laid off on (FHR-18 ``meld``); ``None``: a new meld."""


@dataclass(kw_only=True)
class DrawDiscardGame(Game[Card]):
    """A match of draw-and-discard hands (see the module docstring); variants fill the hooks."""

    snapshot_version: ClassVar[int] = 2
    """Version 1: each variant's own shape before this core (:meth:`upgrade_snapshot`)."""
    legacy_names: ClassVar[dict[str, str]] = {}
    """Version-1 field names of the variant that this core renamed (``scores`` → ``totals``)."""

    # How the variant words things and starts a hand.
    hand_word: ClassVar[str] = tr("hand")
    """What one deal is called: ``hand`` (Straight, Gin, Rummy 500) or ``deal`` (Indian, Remi)."""
    match_word: ClassVar[str] = tr("match")
    stock_word: ClassVar[str] = tr("stock")
    pile_word: ClassVar[str] = tr("discard pile")
    stock_source: ClassVar[str] = "stock"
    """``Draw.source`` naming the stock (Indian: ``closed``)."""
    pile_source: ClassVar[str] = "discard"
    """``Draw.source`` naming the pile's top card (Indian: ``open``)."""
    draw_sources: ClassVar[tuple[str, ...]] = ("stock", "discard")
    draw_phase: ClassVar[str] = "draw"
    """The phase before the acquisition (Remi: ``acquire``)."""
    play_phase: ClassVar[str] = "play"
    """The phase after it (Indian, Remi: ``discard``)."""
    already_drawn: ClassVar[str] = tr("you have already drawn this turn")
    acquire_first: ClassVar[str] = tr("draw first")
    upcard: ClassVar[bool] = True
    """A card is turned up after the deal to start the pile (not in Remi, REM-6)."""
    sort_dealt: ClassVar[bool] = False
    """Dealt hands are sorted by suit (Indian, Remi); Straight keeps the deal's order."""
    empty_stock_draw_ends: ClassVar[bool] = False
    """Drawing from an empty stock ends the hand (REM-21, FHR-24) instead of being refused."""
    out_of_hand: ClassVar[str] = tr("you are out of this hand")
    """The refusal for a seat that is not active in the hand in play."""
    take_depth: ClassVar[int | None] = None
    """With a spread pile (:class:`Take`), the deepest position a take may pick (Remi 3);
    ``None``: any (Rummy 500)."""

    # The match.
    totals: list[int] = field(default_factory=list)
    """Running scores (Indian ``deals``: chips) after the hands finished so far."""
    hand_number: int = 0
    dealer: int = 0
    timeouts: list[int] = field(default_factory=list)
    """Consecutive turns each seat let the timer end, carried from hand to hand."""
    auto: list[bool] = field(default_factory=list)
    """Seats on auto-play (REM-31, GIN-44): their turns are played at once until they resume."""
    results: list[HandResult] = field(default_factory=list)
    # The hand in play.
    hands: list[list[Card]] = field(default_factory=list)
    """Each seat's cards; a seat out of the hand keeps its cards here, out of play."""
    stock: list[Card] = field(default_factory=list)
    """Face down; the top card is the last element."""
    pile: list[Card] = field(default_factory=list)
    """The discard pile, face up, bottom to top (the top card, position 1, is the last)."""
    table: list[TableMeld] = field(default_factory=list)
    """Melds on the table, in the order laid (NOT-11)."""
    active: list[bool] = field(default_factory=list)
    """Seats still in the hand (dealt in, not removed, dropped or out)."""
    known: list[list[Card]] = field(default_factory=list)
    """Per seat, the cards in its hand that every seat knows are there: taken from the pile
    (or revealed) and not played since. The basis of :meth:`redeal_unseen`."""
    reshuffles: int = 0
    """Times the pile was shuffled into a new stock in this hand (STR-44, FHR-25)."""
    turn: int = 0
    phase: str = "draw"
    """:attr:`draw_phase`, :attr:`play_phase`, a variant's own phase, or ``over``."""
    drawn: Card | None = None
    """The card drawn this turn (badged in the hand image; Indian's timeout discards it)."""
    taken: Card | None = None
    """The card taken from the pile this turn (STR-24, GIN-15, FHR-19)."""

    # -- hooks ------------------------------------------------------------

    @abstractmethod
    def _deck(self, order: Sequence[int]) -> list[Card]:
        """A fresh, unshuffled deck for a hand dealt to the seats ``order``."""

    @abstractmethod
    def hand_size(self, dealt: int) -> int:
        """Cards dealt to each of ``dealt`` players."""

    def deal_order(self) -> list[int]:
        """The seats dealt in, in dealing order: by default all, from the dealer's left."""
        first = next_seat(self.dealer, self.players)
        return [(first + i) % self.players for i in range(self.players)]

    def _set_aside(self, deck: list[Card]) -> None:
        """Take cards out of the undealt deck before the upcard (Indian's cut joker)."""

    def _first_player(self, order: Sequence[int]) -> int:
        """Who plays first: by default the first seat dealt (the dealer's left)."""
        return order[0]

    def _start_match(self) -> None:
        """Set up the variant's own match fields (before the first dealer is drawn)."""

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        """Reset the variant's fields of a hand and announce the deal (the hand may end here,
        Indian IND-26)."""

    def _reset_turn(self) -> None:
        """Reset the variant's fields of a turn (Straight's melds this turn)."""

    def _stock_empty(self, events: list[Event]) -> bool:
        """A turn begins with an empty stock: refill it or end the hand; True to play on.

        By default the pile under its top card becomes the stock (IND-16), whenever it
        holds two cards or more.
        """
        if len(self.pile) >= 2:
            self._reshuffle(events)
        return True

    def _reshuffle_note(self) -> str:
        """Words added to the reshuffle announcement (Straight: reshuffles left)."""
        return ""

    def _stock_ran_out(self, events: list[Event]) -> None:
        """The player to move drew from an empty stock (:attr:`empty_stock_draw_ends`)."""
        raise NotImplementedError(f"{self.title} refuses a draw from an empty stock")

    def _check_seat(self, seat: int) -> None:
        """Refuse moves from a seat that is not in the hand in play."""
        if not self.active[seat]:
            raise IllegalMove(self.out_of_hand)

    def _check_pile_draw(self, seat: int, card: Card) -> None:
        """Refuse taking the pile's top ``card`` for a reason of the variant's (IND-18)."""

    def _source_refusal(self, source: str) -> str:
        return tr("draw from the {stock_word} or the {pile_word}",
                  stock_word=self.stock_word, pile_word=self.pile_word)

    def _act(self, move: Move, events: list[Event]) -> None:
        """Check and perform a move of the variant's own (declare, drop, take, close…)."""
        raise IllegalMove(tr("{kind} is not a move in {title}",
                             kind=move.kind, title=self.title))

    def _acts_for_timeouts(self, move: Move) -> bool:
        """Whether ``move``, when it ends its maker's turn, resets their timeout count."""
        return True

    @abstractmethod
    def _timeout(self, events: list[Event]) -> None:
        """The timer expired for the seat to move: play for it by the variant's rule."""

    def _play_for(self, seat: int, events: list[Event]) -> None:
        """Play one whole turn for ``seat`` on auto-play (REM-30); only variants that put
        seats on auto-play (:meth:`_count_timeout_to_auto`) need it."""
        raise NotImplementedError(f"{self.title} has no auto-play")

    @property
    def keep_a_card(self) -> bool:
        """Going out needs a final discard (STR-23, FHR-23 ``discard_to_go_out``)."""
        return False

    @property
    def taken_locked(self) -> bool:
        """The card taken from the pile this turn may not be discarded (STR-24, GIN-15)."""
        return False

    @property
    @abstractmethod
    def rules(self) -> MeldRules:
        """The variant's meld rules (of the hand in play: Indian's depend on the cut joker)."""

    def _went_out(self, seat: int, events: list[Event]) -> None:
        """``seat`` holds no card any more (STR-28, FHR-23): the variant ends the hand.

        Only variants whose hands can empty need it (Indian's never does; Remi's
        last discard is a close, REM-18)."""
        raise NotImplementedError(f"a hand cannot empty in {self.title}")

    def _hand_over_text(self, result: HandResult) -> str:
        """The announcement of a finished hand: by default its points and the totals."""
        n = self.players
        return tr("{summary} {hand} scores: {scores}. Totals: {totals}.",
                  summary=result.summary, hand=capitalized(self.hand_word),
                  scores=", ".join(f"{{p{s}}} {result.points[s]:+d}" for s in range(n)),
                  totals=", ".join(f"{{p{s}}} {result.totals[s]}" for s in range(n)))

    @property
    def hands_to_play(self) -> int | None:
        """A fixed number of hands, or ``None`` to play to :attr:`target_score`."""
        hands = getattr(self.options, "hands", None)
        return int(hands) if hands else None

    @property
    def target_score(self) -> int:
        return int(getattr(self.options, "target", 0))

    def _match_over(self) -> bool:
        """After a hand: the fixed number played, or a total at the target (STR-36)."""
        limit = self.hands_to_play
        if limit is not None:
            return self.hand_number >= limit
        return max(self.totals) >= self.target_score

    def _end_match(self, events: list[Event]) -> None:
        """The match just ended, before its announcement: end-of-match bonuses (GIN-35) go
        here, into :attr:`totals` and the last result's totals. Default: nothing."""

    def _next_dealer(self, result: HandResult) -> int:
        """The next hand's dealer: by default the next seat clockwise (STR-6, FHR-6)."""
        return next_seat(self.dealer, self.players)

    # -- set-up -----------------------------------------------------------

    def _start(self) -> None:
        n = self.players
        self.totals = [0] * n
        self.timeouts = [0] * n
        self.auto = [False] * n
        self._start_match()
        self.dealer = self.rng.below(n)  # STR-6, IND-5, REM-5, GIN-6, FHR-6
        self._deal([])

    def _deal(self, events: list[Event]) -> None:
        """Shuffle a fresh deck, deal one card at a time in :meth:`deal_order`, start the pile."""
        n = self.players
        self.hand_number += 1
        number = self.hand_number
        order = self.deal_order()
        deck = self._deck(order)
        self.rng.shuffle(deck)
        size = self.hand_size(len(order))
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(size * len(order)):
            hands[order[i % len(order)]].append(deck[i])
        del deck[:size * len(order)]
        self.hands = [sort_by_suit(h) for h in hands] if self.sort_dealt else hands
        self._set_aside(deck)
        self.pile = [deck.pop(0)] if self.upcard else []
        self.stock = deck[::-1]
        self.table = []
        self.active = [s in order for s in range(n)]
        self.known = [[] for _ in range(n)]
        self.reshuffles = 0
        self.turn = self._first_player(order)
        self.phase = self.draw_phase
        self.drawn = None
        self.taken = None
        self._start_hand(order, events)
        if self.phase != "over" and self.hand_number == number:  # not ended before play
            self._begin_turn(events)

    # -- the turn loop ----------------------------------------------------

    def _begin_turn(self, events: list[Event]) -> None:
        """A fresh turn for ``self.turn``, after refilling an empty stock (STR-17, IND-16)."""
        self.phase = self.draw_phase
        self.drawn = None
        self.taken = None
        self._reset_turn()
        if not self.stock and not self._stock_empty(events):
            return
        self.turn_serial += 1
        events.append(Event("turn", tr("{player} to play.", player=who(self.turn)), self.turn))

    def _reshuffle(self, events: list[Event]) -> None:
        """The pile but its top card, shuffled, becomes the stock (STR-17, IND-16, FHR-25)."""
        top = self.pile.pop()
        pile = self.pile
        self.rng.shuffle(pile)
        self.stock = pile
        self.pile = [top]
        self.reshuffles += 1
        events.append(Event("reshuffle", joined(tr("The {stock_word} ran out: the {pile_word} was "
                                            "shuffled into a new {stock_word} of {count}; "
                                            "{card} stays face up.",
                                            stock_word=self.stock_word, pile_word=self.pile_word,
                                            count=len(pile), card=top.code),
                                         self._reshuffle_note(), sep=" ")))

    def _pass_turn(self, events: list[Event]) -> None:
        """The next active player's turn."""
        self.turn = next_seat(self.turn, self.players, self.active)
        self._begin_turn(events)

    def active_seats(self) -> list[int]:
        return [s for s in range(self.players) if self.active[s]]

    # -- hands: what leaves and joins them, and who knows it ---------------------

    def _remove(self, seat: int, cards: Sequence[Card]) -> None:
        """``cards`` leave ``seat``'s hand (played: they are no longer known to be there)."""
        self.hands[seat] = remove_pieces(self.hands[seat], cards)
        if self.known[seat]:
            self.known[seat] = forget(self.known[seat], cards)

    def _receive(self, seat: int, cards: Sequence[Card]) -> None:
        """Public cards (from the pile) join ``seat``'s hand: everybody knows they are there."""
        self.hands[seat].extend(cards)
        self.known[seat].extend(cards)

    def _reveal(self, seat: int) -> None:
        """``seat``'s whole hand was shown to everybody (Indian's wrong show)."""
        self.known[seat] = list(self.hands[seat])

    def _put_on_pile(self, seat: int, card: Card, events: list[Event]) -> None:
        """``card`` goes from ``seat``'s hand to the top of the pile, face up."""
        self._remove(seat, [card])
        self.pile.append(card)
        events.append(Event("discard", tr("{player} discarded {card}.",
                                          player=who(seat), card=card.code), seat))

    # -- the protocol -----------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.phase == "over" else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def hand(self, seat: int) -> Sequence[Card]:
        return self.hands[seat]

    def history(self) -> Sequence[HandResult]:
        return self.results

    def inventory(self) -> Counter[Card]:
        """Every card of the hand in play: hands, stock, pile, table and anything set aside."""
        found = Counter[Card](c for hand in self.hands for c in hand)
        found.update(self.stock)
        found.update(self.pile)
        found.update(self.own_all(c for m in self.table for c in m.meld.pieces))
        found.update(self.set_aside_cards())
        return found

    def set_aside_cards(self) -> list[Card]:
        """Cards of the hand in play that are in no hand, pile or meld (Indian's cut joker)."""
        return []

    def own_melds(self, seat: int) -> list[Meld]:
        """The table melds ``seat`` laid (STR-14, REM-12)."""
        return [m.meld for m in self.table if m.owner == seat]

    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        seat, serial, number = move.seat, self.turn_serial, self.hand_number
        on_turn = seat == self.turn
        if isinstance(move, Timeout):
            self._check_timeout(seat)
            self._timeout(events)
        elif isinstance(move, Resume):
            self._resume(seat, events)
        elif isinstance(move, Draw):
            self._check_draw(seat, move.source)
            self._draw(move.source, events)
        elif isinstance(move, Discard):
            card = self.own(move.card)
            self._check_discard(seat, card)
            self._discard(card, events)
        elif isinstance(move, MeldDown):
            self._meld(self._check_meld(seat, move.melds), events)
        elif isinstance(move, LayOff):
            grown = self._check_layoff(seat, move.cards, move.meld)
            self._lay_off(move.meld, self.own_all(p for p, _ in move.cards), grown, events)
        elif isinstance(move, Take):
            self._take(self._check_take(move), events)
        else:
            self._act(move, events)
        ended = self.turn_serial != serial or self.hand_number != number or self.is_over
        if (on_turn and ended and not isinstance(move, Timeout | Resume)
                and self._acts_for_timeouts(move)):
            self.timeouts[seat] = 0  # STR-41, IND-36, REM-31: they ended their turn themselves
        self._run_auto(events)
        return events

    # -- checks (raise, never mutate) ----------------------------------------

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        self.require_turn(seat)

    def _check_timeout(self, seat: int) -> None:
        self._check_turn(seat)
        if not self.turn_seconds:
            raise IllegalMove(tr("there is no turn timer in this game"))  # STR-39, IND-34, REM-29

    def _check_draw(self, seat: int, source: str) -> None:
        self._check_turn(seat)
        if self.phase != self.draw_phase:
            raise IllegalMove(self.already_drawn)  # STR-18, IND-19, REM-14
        if source not in self.draw_sources:
            raise IllegalMove(self._source_refusal(source))
        if source == self.stock_source and not self.stock and not self.empty_stock_draw_ends:
            raise IllegalMove(tr("the {stock_word} is empty", stock_word=self.stock_word))
        if source == self.pile_source:
            if not self.pile:
                raise IllegalMove(tr("the {pile_word} is empty", pile_word=self.pile_word))
            self._check_pile_draw(seat, self.pile[-1])

    def _check_play(self, seat: int) -> None:
        """The seat to move, after its acquisition."""
        self._check_turn(seat)
        if self.phase != self.play_phase:
            raise IllegalMove(self.acquire_first)  # STR-18, IND-17, REM-14

    def _check_held(self, seat: int, cards: Sequence[Card]) -> list[Card]:
        """The hand left after ``cards`` leave it; refuses cards not held (NOT-5)."""
        for card in cards:
            self.check_piece(card)
        check_held(cards, self.hands[seat])
        return remove_pieces(self.hands[seat], cards)

    def _check_remainder(self, left: Sequence[Card]) -> None:
        """Refuse a play that would leave ``left`` when the turn could not end (STR-23, 24)."""
        if not left and self.keep_a_card:
            raise IllegalMove(tr("keep a card to discard"))  # STR-23, FHR-23
        taken = self.taken
        if taken is not None and self.taken_locked and list(left) == [taken]:
            raise IllegalMove(tr("{card} would be your only card and cannot be discarded this "
                                 "turn", card=taken.code))  # STR-24

    def _check_discard(self, seat: int, card: Card) -> None:
        self._check_play(seat)
        self._check_held(seat, [card])
        if self.taken_locked and card == self.taken:
            raise IllegalMove(tr("you took {card} from the {pile_word} this turn",
                                 card=card.code,
                                 pile_word=self.pile_word))  # STR-24, GIN-15, FHR-19

    def _check_meld(self, seat: int, melds: Sequence[Sequence[Placed]]) -> list[Meld]:
        """New melds from the hand (STR-19, FHR-20): all valid, or nothing is laid."""
        self._check_play(seat)
        if not melds:
            raise IllegalMove(tr("name the cards of at least one meld"))
        self._check_meld_count(seat, len(melds))
        cards = self.own_all(p for meld in melds for p, _ in meld)
        left = self._check_held(seat, cards)
        read = [read_meld(meld, self.rules) for meld in melds]
        self._check_remainder(left)
        return read

    def _check_meld_count(self, seat: int, count: int) -> None:
        """Refuse ``count`` new melds now for a reason of the variant's (STR-25)."""

    def _check_layoff(self, seat: int, cards: Sequence[Placed], number: int) -> Meld:
        """Cards from the hand onto table meld ``number`` (STR-20, FHR-21); the grown meld."""
        self._check_play(seat)
        if not cards:
            raise IllegalMove(tr("name the cards to lay off"))
        self._check_may_lay_off(seat)
        left = self._check_held(seat, self.own_all(p for p, _ in cards))
        target = find_meld(self.table, number)
        grown = extend_meld(target.meld, cards, self.rules, number)
        self._check_remainder(left)
        return grown

    def _check_may_lay_off(self, seat: int) -> None:
        """Refuse any lay-off now for a reason of the variant's (STR-26)."""

    def _check_resume(self, seat: int) -> None:
        if not self.auto[seat]:
            raise IllegalMove(tr("you are not on auto-play"))  # REM-31

    def _check(self, move: Move) -> None:
        """Run the checks ``apply`` would run on a shared move, without changing anything."""
        if isinstance(move, Discard):
            self._check_discard(move.seat, self.own(move.card))
        elif isinstance(move, MeldDown):
            self._check_meld(move.seat, move.melds)
        elif isinstance(move, LayOff):
            self._check_layoff(move.seat, move.cards, move.meld)
        elif isinstance(move, Draw):
            self._check_draw(move.seat, move.source)

    def _play_moves(self, seat: int, melds: Iterable[Meld]) -> list[Move]:
        """The play phase's legal moves of a melding variant (Straight, Rummy 500): each
        distinct discard, each of ``melds``, each lay-off on a table meld."""
        hand = self.hands[seat]
        moves: list[Move] = [Discard(seat, c) for c in sorted(set(hand), key=lambda c: c.index)]
        moves.extend(MeldDown(seat, (placed(*m.pieces),)) for m in melds)
        for table_meld in self.table:
            moves.extend(LayOff(seat, placed(*group), table_meld.number)
                         for group in possible_layoffs(hand, table_meld.meld, self.rules,
                                                       table_meld.number))
        legal = []
        for move in moves:
            try:
                self._check(move)
            except IllegalMove:
                continue
            legal.append(move)
        return legal

    # -- effects ----------------------------------------------------------

    def _draw(self, source: str, events: list[Event]) -> None:
        """The top card of the stock or of the pile joins the hand of the seat to move."""
        seat = self.turn
        if source == self.stock_source:
            if not self.stock:  # empty_stock_draw_ends (REM-21, FHR-24)
                self._stock_ran_out(events)
                return
            card = self.stock.pop()
            self.hands[seat].append(card)
            events.append(Event("draw", tr("{player} drew from the {stock_word}.",
                                           player=who(seat), stock_word=self.stock_word), seat,
                                private=tr("You drew {card}.", card=card.code)))
        else:
            card = self.pile.pop()
            self.taken = card
            self._receive(seat, [card])
            events.append(Event("draw", tr("{player} took {card} from the {pile_word}.",
                                           player=who(seat), card=card.code,
                                           pile_word=self.pile_word), seat))
        self.drawn = card
        self.phase = self.play_phase

    def _discard(self, card: Card, events: list[Event]) -> None:
        """A discard ends the turn, or the hand when it was the last card (STR-28)."""
        seat = self.turn
        self._put_on_pile(seat, card, events)
        if not self.hands[seat]:
            self._went_out(seat, events)
        else:
            self._pass_turn(events)

    def _lay_meld(self, seat: int, meld: Meld) -> int:
        """``meld`` joins the table as ``seat``'s, numbered next (NOT-11); its number."""
        number = len(self.table) + 1
        self.table.append(TableMeld(number, seat, meld))
        return number

    def _meld(self, melds: Sequence[Meld], events: list[Event]) -> None:
        seat = self.turn
        for meld in melds:
            self._remove(seat, self.own_all(meld.pieces))
            number = self._lay_meld(seat, meld)
            events.append(Event("meld", tr("{player} laid meld {number}: {cards}.",
                                           player=who(seat), number=number, cards=meld.codes),
                                           seat))
        self._after_play(events)

    def _lay_off(self, number: int, cards: Sequence[Card], grown: Meld,
                 events: list[Event]) -> None:
        seat = self.turn
        self._remove(seat, cards)
        replace_meld(self.table, number, grown)
        events.append(Event("layoff", tr("{player} laid off {cards} on meld {number}: "
                                         "{cards2}.",
                                         player=who(seat), cards=codes(cards), number=number,
                                         cards2=grown.codes), seat))
        self._after_play(events)

    def _after_play(self, events: list[Event]) -> None:
        """A meld or lay-off that empties the hand goes out (STR-28, FHR-23)."""
        if not self.hands[self.turn]:
            self._went_out(self.turn, events)

    # -- spread piles (Remi REM-16, Rummy 500 FHR-18) ------------------------------

    def position_of(self, card: Card) -> int | None:
        """The position of ``card`` in the pile (1 = top; the copy nearest the top), or None."""
        for i in range(len(self.pile) - 1, -1, -1):
            if self.pile[i] == card:
                return len(self.pile) - i
        return None

    def top_cards(self, count: int) -> list[Card]:
        """The pile's positions 1 … ``count`` (as many as there are), top first."""
        return self.pile[::-1][:count]

    def cards_above(self, position: int) -> tuple[Card, ...]:
        """The pile cards above ``position``, bottom to top: they come with a take."""
        return tuple(self.pile[len(self.pile) - position + 1:])

    def pile_refusal(self, card: Card, deepest: int | None,
                     position: int | None = None) -> str | int:
        """Where ``card`` is in the pile (its position), or why it cannot be taken from there.

        ``deepest``: the lowest position that may be taken (Remi 3; ``None``: any,
        Rummy 500). ``position`` names one copy (FHR-18 ``pos``); otherwise the
        copy nearest the top.
        """
        if not self.pile:
            return tr("the {pile_word} is empty", pile_word=self.pile_word)  # REM-16a
        if position is not None:
            if not 1 <= position <= len(self.pile):
                return tr("the {pile_word} has no position {position}",
                          pile_word=self.pile_word, position=position)
            if self.pile[-position] != card:
                return tr("position {position} of the {pile_word} is {card}, not {card2}",
                          position=position, pile_word=self.pile_word,
                          card=self.pile[-position].code, card2=card.code)
        else:
            found = self.position_of(card)
            if found is None:
                return tr("{card} is not in the {pile_word}",
                          card=card.code, pile_word=self.pile_word)  # REM-16a, FHR-18
            position = found
        if deepest is not None and position > deepest:
            return (tr("{card} is position {position} of the {pile_word}: only positions 1 to "
                       "{deepest} can be taken",
                       card=card.code, position=position, pile_word=self.pile_word,
                       deepest=deepest))  # REM-16a
        return position

    def _lift(self, position: int) -> tuple[Card, tuple[Card, ...]]:
        """Lift the card at ``position`` and every card above it off the pile.

        Returns (the picked card, the cards above it, bottom to top). The caller
        puts them where its rule says: Remi lays the picked card in a
        combination and gives the hand the rest; Rummy 500 gives the hand all of
        them (:meth:`_receive`) and then melds or lays off from the hand.
        """
        cut = len(self.pile) - position
        picked, above = self.pile[cut], tuple(self.pile[cut + 1:])
        del self.pile[cut:]
        self.taken = picked
        return picked, above

    def take_verdict(self, seat: int, card: Card, with_cards: Sequence[Card],
                     position: int | None = None, meld: int | None = None) -> TakeVerdict:
        """Whether ``seat`` may take ``card`` now and use it as the variant says, and why not.

        Turn and phase are not judged here (so a hand panel can ask at any time);
        :meth:`_check_take` checks them first. Changes nothing. Only variants
        with a spread pile (:class:`Take` in ``move_types``) implement it.
        """
        raise NotImplementedError(f"{self.title} has no spread discard pile")

    def _take_candidates(self, seat: int, picked: Card, position: int) -> list[Take]:
        """Takes of ``picked`` (at ``position``) worth judging for ``seat``: a superset of the
        legal ones, which :meth:`takes` filters through :meth:`take_verdict`."""
        return []

    def _take(self, verdict: TakeVerdict, events: list[Event]) -> None:
        """Perform a take :meth:`take_verdict` accepted (REM-16, FHR-18)."""
        raise NotImplementedError(f"{self.title} has no spread discard pile")

    def _check_take(self, move: Take) -> TakeVerdict:
        """The seat to move, before its acquisition, with a take the variant accepts."""
        self._check_turn(move.seat)
        if self.phase != self.draw_phase:
            raise IllegalMove(self.already_drawn)  # REM-14, FHR-16
        verdict = self.take_verdict(move.seat, move.card, move.with_cards, move.position,
                                    move.meld)
        if not verdict.ok:
            raise IllegalMove(verdict.reason)
        return verdict

    def takes(self, seat: int, depth: int | None = None) -> list[Take]:
        """Every take ``seat``'s hand allows now, at every position a take may pick or the
        top ``depth`` ones (turn and phase aside)."""
        deepest = self.take_depth if self.take_depth is not None else len(self.pile)
        depth = deepest if depth is None else min(depth, deepest)
        found = []
        for position, picked in enumerate(self.top_cards(depth), start=1):
            for take in self._take_candidates(seat, picked, position):
                if self.take_verdict(seat, take.card, take.with_cards, take.position,
                                     take.meld).ok:
                    found.append(take)
        return found

    def take_positions(self, seat: int) -> list[int]:
        """The pile positions ``seat`` could take now (private: it reads their hand)."""
        return sorted({t.position or self.position_of(t.card) or 0 for t in self.takes(seat)})

    # -- timeouts and absent players ---------------------------------------------

    def _remove_inactive(self, seat: int, events: list[Event]) -> list[int]:
        """STR-42, FHR-41: ``seat`` sits out the rest of the hand; the seats still active."""
        self.active[seat] = False
        events.append(Event("removed", tr("{player} was removed from this {hand_word} for "
                                          "inactivity.",
                                          player=who(seat), hand_word=self.hand_word), seat))
        return self.active_seats()

    def _count_timeout_to_auto(self, seat: int, events: list[Event]) -> None:
        """REM-31, GIN-44: one more timeout; the third in a row puts the seat on auto-play."""
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= TIMEOUTS_TO_ACT and not self.auto[seat]:
            self.auto[seat] = True
            events.append(Event("auto_play", tr("{player} timed out {timeouts_to_act} times "
                                                "in a row and is now on auto-play until they "
                                                "resume.",
                                                player=who(seat), timeouts_to_act=TIMEOUTS_TO_ACT),
                                                seat))

    def _resume(self, seat: int, events: list[Event]) -> None:
        self._check_resume(seat)
        self.auto[seat] = False
        self.timeouts[seat] = 0
        events.append(Event("resume", tr("{player} is back and plays their own turns again.",
                                         player=who(seat)),
                            seat))

    def _run_auto(self, events: list[Event]) -> None:
        """REM-31: play every auto-play turn now, unless every seat is on auto-play.

        When all are, the engine waits for the turn timer (each :class:`Timeout`
        plays one turn), so a match of absent players never runs away in one call.
        """
        while self.phase != "over" and self.auto[self.turn] and not all(self.auto):
            seat = self.turn
            events.append(Event("auto_turn", tr("{player} is on auto-play.", player=who(seat)),
                                                seat))
            self._play_for(seat, events)

    # -- the end of a hand and of the match ----------------------------------

    def _finish_hand(self, *, winners: Sequence[int], points: Sequence[int],
                     notes: Sequence[str], summary: str, events: list[Event],
                     held: Sequence[Sequence[Card]] | None = None,
                     after: Sequence[Event] = ()) -> HandResult:
        """Add ``points`` to the totals, record the hand, then end the match or deal again.

        ``held`` is what each seat held (by default their hands); ``after`` are
        announcements that follow the hand's (Indian eliminations).
        """
        for s in range(self.players):
            self.totals[s] += points[s]
        shown = held if held is not None else self.hands
        result = HandResult(number=self.hand_number, winners=tuple(winners),
                            points=tuple(points), totals=tuple(self.totals),
                            held=tuple(tuple(h) for h in shown), notes=tuple(notes),
                            summary=summary)
        self.results.append(result)
        events.append(Event("hand_over", self._hand_over_text(result),
                            winners[0] if winners else None))
        events.extend(after)
        if self._match_over():
            self.phase = "over"
            self._end_match(events)
            events.append(Event("match_over", trn(
                "The {match_word} is over: {names} wins.", "The {match_word} is over: {names} win.",
                len(self.winners), match_word=self.match_word,
                names=and_list([who(s) for s in self.winners]))))
            return result
        self.dealer = self._next_dealer(result)
        self._deal(events)
        return result

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match (empty while it runs): the best totals, ties share."""
        return best_seats(self.totals, self.lower_is_better) if self.is_over else ()

    # -- views ------------------------------------------------------------

    def hand_view(self, seat: int) -> HandView:
        newest = self.drawn if seat == self.turn and self.phase == self.play_phase else None
        return HandView(seat=seat, pieces=tuple(self.hands[seat]), newest=newest)

    # -- what a seat cannot see ---------------------------------------------------

    def redeal_unseen(self, seat: int, rng: Rng) -> Self:
        """A game ``seat`` cannot tell apart from this one (see :meth:`Game.redeal_unseen`).

        Hidden places: the stock and the other seats' hands, less the cards known
        to be in them (``known``). Their unknown cards are gathered in card order,
        shuffled with ``rng`` and dealt back, each place keeping its size: every
        other hand becomes its known cards then its new ones, the card it drew
        this turn (if hidden) last, and the rest is the stock. What ``seat`` sees
        (its hand, the pile, the table, counts, results) is untouched.
        """
        new = self.clone()
        others = [s for s in range(self.players) if s != seat]
        pool: list[Card] = []
        kept: dict[int, list[Card]] = {}
        for s in others:
            kept[s] = sort_by_suit((Counter(self.hands[s]) & Counter(self.known[s])).elements())
            pool.extend(remove_pieces(self.hands[s], kept[s]))
        pool.extend(self.stock)
        pool = sort_by_suit(pool)
        rng.shuffle(pool)
        # A card drawn from the stock is hidden, and so is whether it is still held: the
        # sample's stand-in is its mover's last card, whatever the real card was.
        hidden_draw = self.turn != seat and self.drawn is not None and self.taken is None
        for s in others:
            count = len(self.hands[s]) - len(kept[s])
            new.hands[s] = [*kept[s], *pool[:count]]
            del pool[:count]
            if hidden_draw and s == self.turn:
                new.drawn = new.hands[s][-1] if new.hands[s] else None
        new.stock = pool
        new.rng = Rng(rng.next64())
        return new

    # -- saved games ------------------------------------------------------

    @classmethod
    def upgrade_snapshot(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Version 1 (before this core): rename the variant's fields, add the core's new ones.

        ``known`` starts empty (cards taken from the pile before the upgrade are
        not remembered, which only makes a later sample less informed); the card
        taken from the pile in the turn in play is known.
        """
        if version != 1:
            return super().upgrade_snapshot(data, version)
        body = {cls.legacy_names.get(k, k): v for k, v in data.items()}
        n = int(body["players"])
        body.setdefault("active", [True] * n)
        body.setdefault("auto", [False] * n)
        body.setdefault("timeouts", [0] * n)
        known: list[list[str]] = [[] for _ in range(n)]
        taken = body.get("taken")
        if taken is not None and taken in body["hands"][body["turn"]]:
            known[body["turn"]].append(taken)
        body["known"] = known
        return body
