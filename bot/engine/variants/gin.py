"""Gin Rummy (rules GIN-1 … GIN-44, ``shared/rules/70-gin.md``).

Two players, ten cards each, melds stay in the hand. A hand starts with the
upcard offer (GIN-8), then turns of draw and discard until a player *knocks*
with little enough unmatched value (deadwood, GIN-17 … GIN-21). The engine
plays the defender: it lays off onto the knocker's melds and arranges the
defender's own for the lowest count (GIN-22, GIN-23); then the hand is scored
(knock, undercut, gin, big gin, Oklahoma spades, GIN-28 … GIN-33). A hand
that reaches the wall (two stock cards) or loops ends void (GIN-24 … GIN-27).
The game runs to ``target`` (or ``hands``), then the box, game and shutout
bonuses are added (GIN-34 … GIN-36).

The stock, pile, draws, discards, auto-play and the match are the shared
:class:`~bot.engine.drawdiscard.DrawDiscardGame`; the hand analysis (exact
best deadwood over bit masks, the canonical arrangement of GIN-12 and the
defender's lay-offs of GIN-23) are pure functions below, also used by the
computer player and the bench.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any, ClassVar, Self

from ..cards import Card, Face, Piece, Suit, card_deck, codes
from ..drawdiscard import DrawDiscardGame
from ..errors import IllegalMove, InvalidOptions
from ..game import Event, HandResult, Move, Options, Timeout, option
from ..melds import ACES_LOW, MeldRules, read_meld
from ..moves import Discard, Draw, Placed, Resume
from ..notation import check_held, remove_pieces
from ..scoring import places
from ..views import MeldView, Placing, PlayerPanel, ResultView, SeatState, TableView

HAND_SIZE = 10
"""GIN-7."""
WALL = 2
"""GIN-24: a hand never uses the last two stock cards."""
TAKE_LIMIT = 50
"""GIN-26: the 50th take from the pile in one hand ends it void."""
NO_JOKERS = "there are no jokers in Gin Rummy"
RULES = MeldRules(runs=ACES_LOW, set_max=4, no_jokers_reason=NO_JOKERS)
"""GIN-5, GIN-10: runs of 3+ of a suit with aces low, sets of 3 or 4 of a rank."""
WALL_TURN = "2 cards are left in the stock: knock with the upcard or pass"
OFFER_TURN = "take the upcard or pass"
BOTH_PASSED = "both players passed the upcard: draw from the stock"


def card_value(card: Piece) -> int:
    """GIN-4: ace 1, 2–10 their pips, J Q K 10."""
    return min(card.rank, 10)


def canonical(card: Card) -> tuple[int, int]:
    """GIN-12 card order: rank A … K, then suit S H D C."""
    return (card.rank, card.suit)


# ---------------------------------------------------------------------------
# Melds as bit masks over the 52 cards (bit = Card.index)
# ---------------------------------------------------------------------------

_CARDS: tuple[Card, ...] = tuple(sorted(card_deck(1), key=lambda c: c.index))
_VALUES: tuple[int, ...] = tuple(card_value(c) for c in _CARDS)


def _all_melds() -> tuple[int, ...]:
    """Every set of 3 or 4 of a rank and every run of 3 or more of a suit (GIN-10)."""
    melds: list[int] = []
    for rank in range(1, 14):
        bits = [Card(rank, s).index for s in range(4)]
        melds.append(sum(1 << b for b in bits))
        for left_out in bits:
            melds.append(sum(1 << b for b in bits if b != left_out))
    for suit in range(4):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                melds.append(sum(1 << Card(r, suit).index for r in range(low, high + 1)))
    return tuple(melds)


MELDS: tuple[int, ...] = _all_melds()
_BY_LOWEST: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in MELDS if (m & -m).bit_length() - 1 == bit) for bit in range(52))
"""The melds whose lowest card is each bit: the search decides the lowest card first."""


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    found = []
    while mask:
        low = mask & -mask
        found.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return found


def mask_value(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += _VALUES[low.bit_length() - 1]
        mask ^= low
    return total


@lru_cache(maxsize=1 << 18)
def _best(mask: int) -> tuple[int, int]:
    """(least deadwood count, fewest melds at that count) of the cards in ``mask`` (GIN-11).

    Exact: the lowest card is either deadwood or the lowest card of one meld
    taken now, so every arrangement is reached once.
    """
    if not mask:
        return (0, 0)
    low = mask & -mask
    bit = low.bit_length() - 1
    dead, melds = _best(mask ^ low)
    best = (dead + _VALUES[bit], melds)
    for meld in _BY_LOWEST[bit]:
        if meld & mask == meld:
            d, m = _best(mask ^ meld)
            if (d, m + 1) < best:
                best = (d, m + 1)
    return best


@lru_cache(maxsize=1 << 18)
def _after_discard(mask: int) -> int:
    """The least best deadwood of ``mask`` less one card (at least one card must go)."""
    if not mask:
        return 1 << 30
    low = mask & -mask
    bit = low.bit_length() - 1
    rest = mask ^ low
    best = min(_best(rest)[0], _after_discard(rest) + _VALUES[bit])
    for meld in _BY_LOWEST[bit]:
        if meld & mask == meld:
            best = min(best, _after_discard(mask ^ meld))
    return best


def discard_deadwood(mask: int) -> int:
    """The lowest best deadwood a discard from the cards of ``mask`` leaves (GIN-16): one
    search, the discard chosen inside it."""
    return _after_discard(mask)


def mask_deadwood(mask: int) -> int:
    """:func:`deadwood_count` of the cards of a bit mask (bit = ``Card.index``)."""
    return _best(mask)[0]


def deadwood_count(cards: Iterable[Card]) -> int:
    """GIN-11: the best deadwood count of ``cards`` (distinct cards of one pack)."""
    return _best(mask_of(cards))[0]


def _optimal_arrangements(mask: int) -> Iterable[tuple[int, ...]]:
    """Every arrangement of ``mask`` with the least count and then the fewest melds."""
    if not mask:
        yield ()
        return
    target = _best(mask)
    low = mask & -mask
    bit = low.bit_length() - 1
    dead, melds = _best(mask ^ low)
    if (dead + _VALUES[bit], melds) == target:
        yield from _optimal_arrangements(mask ^ low)
    for meld in _BY_LOWEST[bit]:
        if meld & mask == meld:
            d, m = _best(mask ^ meld)
            if (d, m + 1) == target:
                for rest in _optimal_arrangements(mask ^ meld):
                    yield (meld, *rest)


def _meld_cards(meld: int) -> tuple[Card, ...]:
    """A meld's cards in GIN-12 order (rank, then suit S H D C)."""
    return tuple(sorted(cards_of(meld), key=canonical))


def canonical_key(melds: Iterable[Sequence[Card]]) -> tuple[tuple[int, int], ...]:
    """GIN-12: melds written in card order, sorted, compared card by card."""
    ordered = sorted(tuple(sorted(m, key=canonical)) for m in melds)
    ordered.sort(key=lambda m: [canonical(c) for c in m])
    return tuple(canonical(c) for m in ordered for c in m)


def _sorted_melds(melds: Iterable[Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(sorted((tuple(sorted(m, key=canonical)) for m in melds),
                        key=lambda m: [canonical(c) for c in m]))


@dataclass(frozen=True, slots=True)
class Grouping:
    """An arrangement of some cards (GIN-11): melds (GIN-12 order) and deadwood."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def count(self) -> int:
        return sum(card_value(c) for c in self.deadwood)

    @property
    def text(self) -> str:
        """``3H 4H 5H | 9S 9D 9C · deadwood 4S = 4``."""
        melds = " | ".join(codes(m) for m in self.melds) or "no melds"
        dead = f"deadwood {codes(self.deadwood)} = {self.count}" if self.deadwood \
            else "no deadwood"
        return f"{melds} · {dead}"


def best_grouping(cards: Sequence[Card]) -> Grouping:
    """GIN-12: the arrangement the engine picks (least count, fewest melds, canonical order)."""
    mask = mask_of(cards)
    chosen = min(_optimal_arrangements(mask),
                 key=lambda melds: canonical_key(_meld_cards(m) for m in melds))
    melded = 0
    for meld in chosen:
        melded |= meld
    return Grouping(_sorted_melds(_meld_cards(m) for m in chosen),
                    tuple(sorted(cards_of(mask & ~melded), key=canonical)))


def best_discards(cards: Sequence[Card], keep: Card | None = None) -> list[tuple[int, Card]]:
    """For 11 cards: (best deadwood of the 10 left, card) for each discard but ``keep``."""
    mask = mask_of(cards)
    return [(_best(mask & ~(1 << c.index))[0], c) for c in cards if c != keep]


def is_gin_shape(cards: Sequence[Card]) -> bool:
    return _best(mask_of(cards))[0] == 0


# ---------------------------------------------------------------------------
# The defender's lay-offs (GIN-22, GIN-23)
# ---------------------------------------------------------------------------


def _layoff_choices(meld: Sequence[Card], held: int) -> list[list[Card]]:
    """Ways to lay cards of ``held`` onto one knocker meld, each in the order laid."""
    if len({c.rank for c in meld}) == 1:  # a set: the missing card, if it is a 3-card set
        if len(meld) == 3:
            (suit,) = set(range(4)) - {c.suit for c in meld}
            fourth = Card(meld[0].rank, suit)
            if held >> fourth.index & 1:
                return [[], [fourth]]
        return [[]]
    suit = meld[0].suit
    low, high = min(c.rank for c in meld), max(c.rank for c in meld)
    down: list[Card] = []
    rank = low - 1
    while rank >= 1 and held >> Card(rank, suit).index & 1:
        down.append(Card(rank, suit))
        rank -= 1
    up: list[Card] = []
    rank = high + 1
    while rank <= 13 and held >> Card(rank, suit).index & 1:
        up.append(Card(rank, suit))
        rank += 1
    return [down[:i] + up[:j] for i in range(len(down) + 1) for j in range(len(up) + 1)]


@dataclass(frozen=True, slots=True)
class Defence:
    """How the defender ends a hand: own melds, lay-offs (card, knocker meld index), deadwood."""

    grouping: Grouping
    layoffs: tuple[tuple[Card, int], ...] = ()

    @property
    def count(self) -> int:
        return self.grouping.count


def defend(cards: Sequence[Card], knocker_melds: Sequence[Sequence[Card]],
           lay_off: bool = True) -> Defence:
    """GIN-23: lay-offs and own melds together for the lowest count; ties: fewest cards laid
    off, then GIN-12 on the defender's melds. ``lay_off`` False after gin (GIN-22)."""
    held = mask_of(cards)
    if not lay_off:
        return Defence(best_grouping(cards))
    per_meld = [_layoff_choices(m, held) for m in knocker_melds]
    options: list[tuple[int, int, tuple[tuple[Card, int], ...]]] = []
    for combo in product(*per_meld):
        laid = tuple((card, i) for i, cs in enumerate(combo) for card in cs)
        laid_mask = mask_of(c for c, _ in laid)
        if len(laid) != laid_mask.bit_count():
            continue  # one card offered to two melds
        options.append((_best(held & ~laid_mask)[0], len(laid), laid))
    least = min(option[:2] for option in options)
    best: tuple[Any, ...] | None = None
    chosen: tuple[tuple[Card, int], ...] = ()
    grouping = None
    for dead, count, laid in options:
        if (dead, count) != least:
            continue
        found = best_grouping(remove_pieces(list(cards), [c for c, _ in laid]))
        rank = (canonical_key(found.melds), tuple(canonical(c) for c, _ in laid))
        if best is None or rank < best:
            best, chosen, grouping = rank, laid, found
    assert grouping is not None
    return Defence(grouping, chosen)


# ---------------------------------------------------------------------------
# Options and moves
# ---------------------------------------------------------------------------

OPENSPIEL_PRESET: dict[str, Any] = {
    "undercut_on_tie": False, "big_gin_bonus": 0, "discard_taken_card": True,
    "fiftieth_card": True, "oklahoma_spades_double": False, "line_bonus": 0, "game_bonus": 0,
    "shutout": "off", "hands": 1}
"""GIN-37: the defaults ``preset`` = ``openspiel`` changes."""


@dataclass(frozen=True)
class GinOptions(Options):
    """The options table of the Gin Rummy spec (GIN-37)."""

    knock_limit: int = option(10, bounds=(0, 10),
                              help="most deadwood a knock may leave (0 = gin only)")
    gin_bonus: int = option(25, bounds=(0, 100), help="bonus for going gin")
    undercut_bonus: int = option(25, bounds=(0, 100), help="bonus for an undercut")
    undercut_on_tie: bool = option(True, help="equal counts are an undercut (off: nobody "
                                              "scores)")
    big_gin_bonus: int = option(0, bounds=(1, 100), also=(0,),
                                help="bonus for gin with all 11 cards (0 = off; 31 is usual)")
    oklahoma: bool = option(False, help="the first upcard's value is the knock limit "
                                        "(an ace: gin only)")
    oklahoma_spades_double: bool = option(True, help="with oklahoma, a spade upcard doubles "
                                                     "the hand")
    discard_taken_card: bool = option(False, help="the card taken from the discard pile may "
                                                  "be discarded in the same turn")
    fiftieth_card: bool = option(True, help="with 2 stock cards left, the next player may "
                                            "still knock with the upcard")
    line_bonus: int = option(25, bounds=(0, 100), help="end bonus per hand won (box)")
    game_bonus: int = option(100, bounds=(0, 500), help="end bonus for the game's winner")
    shutout: str = option("double", choices=("double", "bonus", "off"),
                          help="when the loser won no hand: double the winner's total, add "
                               "the game bonus again, or nothing")
    target: int = option(100, bounds=(10, 1000), help="the game ends when a score reaches "
                                                      "this")
    hands: int | None = option(None, bounds=(1, 100),
                               help="play exactly this many hands instead (target ignored)")
    dealer: str = option("winner", choices=("winner", "alternate"),
                         help="who deals next: the hand's winner, or alternate")
    turn_seconds: int = option(90, bounds=(10, 600), also=(0,),
                               help="seconds per decision; 0 turns the timer off")
    preset: str = option("standard", choices=("standard", "openspiel"),
                         help="openspiel: OpenSpiel's gin_rummy rules (one hand, no tie "
                              "undercut, …) where not set explicitly")

    @classmethod
    def build(cls, **values: Any) -> Self:
        """GIN-37: ``preset`` = ``openspiel`` changes the defaults of the options not given."""
        if values.get("preset") == "openspiel":
            values = {**OPENSPIEL_PRESET, **values}
        return super().build(**values)


@dataclass(frozen=True)
class Pass(Move):
    """GIN-8, GIN-24: decline the upcard (offer) or the wall knock."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Knock(Move):
    """GIN-17 … GIN-20: knock discarding ``card`` (``None``: big gin) with ``groups`` or the
    engine's grouping; ``gin`` refuses anything but gin (the ``/gin gin`` alias, GIN-40)."""

    kind: ClassVar[str] = "knock"
    card: Card | None = None
    groups: tuple[tuple[Placed, ...], ...] | None = None
    gin: bool = False


@dataclass(frozen=True, slots=True)
class Showdown:
    """How a knocked hand ended (GIN-41): both hands grouped, lay-offs, the points line."""

    knocker: int
    kind: str
    """``knock``, ``gin``, ``big gin`` or ``undercut``."""
    discard: Card | None
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_deadwood: tuple[Card, ...]
    defender_melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    """(card, 0-based index of the knocker's meld), in the order laid."""
    defender_deadwood: tuple[Card, ...]
    line: str
    """``{p0} scores 25 − 4 = 21``."""

    @property
    def knocker_count(self) -> int:
        return sum(card_value(c) for c in self.knocker_deadwood)

    @property
    def defender_count(self) -> int:
        return sum(card_value(c) for c in self.defender_deadwood)


@dataclass(frozen=True, slots=True)
class KnockPreview:
    """What a knock would lay (for the confirmation question and ``check``)."""

    card: Card | None
    grouping: Grouping
    kind: str
    """``knock``, ``gin`` or ``big gin``."""


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class GinGame(DrawDiscardGame):
    """A Gin Rummy game (a series of hands, GIN-1) and the hand in play."""

    variant: ClassVar[str] = "gin"
    title: ClassVar[str] = "Gin Rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_type: ClassVar[type[Options]] = GinOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, Pass, Discard, Knock, Timeout, Resume)
    match_word: ClassVar[str] = "game"
    already_drawn: ClassVar[str] = "you have already drawn"  # GIN-13

    options: GinOptions = field(default_factory=GinOptions)
    offer: int = 0
    """GIN-8: 1 the non-dealer decides on the upcard, 2 the dealer, 3 both passed (the
    non-dealer must draw from the stock), 0 the offer is over."""
    first_upcard: Card | None = None
    """The hand's first upcard (GIN-21, GIN-32: Oklahoma)."""
    pile_takes: int = 0
    """Takes from the pile this hand, offer and wall aside (GIN-26)."""
    recycled: bool = False
    """The last turn ended by discarding the card taken that turn (GIN-27)."""
    discards: list[list[Card]] = field(default_factory=list)
    """Per seat, the cards it discarded this hand, in order (public, GIN-9)."""
    showdowns: list[Showdown | None] = field(default_factory=list)
    """Per finished hand, how it ended (``None``: void)."""
    running: list[int] = field(default_factory=list)
    """Running scores before the end bonuses, once the game is over (GIN-35)."""
    abandoned: bool = False
    """GIN-44: both players on auto-play when a hand would be dealt."""

    # -- set-up -----------------------------------------------------------

    @property
    def rules(self) -> MeldRules:
        return RULES

    @property
    def taken_locked(self) -> bool:
        return not self.options.discard_taken_card  # GIN-15

    @classmethod
    def new(cls, players: int, options: Options | None = None, seed: int = 0) -> Self:
        if players != 2:
            raise InvalidOptions("Gin Rummy is for exactly 2 players")  # GIN-2
        return super().new(players, options, seed)

    def _deck(self, order: Sequence[int]) -> list[Card]:
        return card_deck(1)  # GIN-3

    def hand_size(self, dealt: int) -> int:
        return HAND_SIZE  # GIN-7

    def check_piece(self, piece: Piece) -> None:
        if piece.is_joker:
            raise IllegalMove(NO_JOKERS)  # GIN-3

    @property
    def knock_limit(self) -> int:
        """GIN-21: the option, or with Oklahoma the first upcard's value (an ace: 0)."""
        if self.options.oklahoma and self.first_upcard is not None:
            return 0 if self.first_upcard.rank == 1 else card_value(self.first_upcard)
        return self.options.knock_limit

    @property
    def doubled(self) -> bool:
        """GIN-32: Oklahoma spades double this hand."""
        return (self.options.oklahoma and self.options.oklahoma_spades_double
                and self.first_upcard is not None and self.first_upcard.suit == Suit.S)

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    def _deal(self, events: list[Event]) -> None:
        if self.hand_number and all(self.auto):  # GIN-44, GIN-A11
            self.abandoned = True
            self.phase = "over"
            events.append(Event("abandoned", "Both players are on auto-play: the game is "
                                "abandoned, with no winner."))
            return
        super()._deal(events)

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        """GIN-7, GIN-8: the deal, the upcard, and the non-dealer decides on it first."""
        self.first_upcard = self.pile[-1]
        self.discards = [[], []]
        self.offer = 1
        self.pile_takes = 0
        self.recycled = False
        limit = self.knock_limit
        rule = "only gin" if limit == 0 else f"knock limit {limit}"
        double = " Spades double this hand." if self.doubled else ""
        events.append(Event("hand_started", f"Hand {self.hand_number}: {{p{self.dealer}}} deals "
                            f"10 cards each; the upcard is {self.first_upcard.code} ({rule})."
                            f"{double} {{p{self.non_dealer}}} may take it or pass."))

    def _begin_turn(self, events: list[Event]) -> None:
        super()._begin_turn(events)
        if self.offer:
            self.phase = "offer"

    # -- checks -----------------------------------------------------------

    def _check_draw(self, seat: int, source: str) -> None:
        self._check_turn(seat)
        if self.phase == "offer":
            if source != self.pile_source:
                raise IllegalMove(OFFER_TURN)  # GIN-8
            return
        if self.phase == "wall":
            raise IllegalMove(WALL_TURN)  # GIN-24
        if self.phase == self.draw_phase and source == self.pile_source and self.offer == 3:
            raise IllegalMove(BOTH_PASSED)  # GIN-8
        super()._check_draw(seat, source)

    def _check_play(self, seat: int) -> None:
        self._check_turn(seat)
        if self.phase == "offer":
            raise IllegalMove(OFFER_TURN)
        if self.phase == "wall":
            raise IllegalMove(WALL_TURN)
        super()._check_play(seat)

    def _check_pass(self, seat: int) -> None:
        self._check_turn(seat)
        if self.phase not in ("offer", "wall"):
            raise IllegalMove("you can pass only on the upcard offer or at the wall")

    def knock_preview(self, seat: int, card: Card | None,
                      groups: Sequence[Sequence[Placed]] | None = None,
                      gin: bool = False) -> KnockPreview:
        """Whether ``seat`` may knock so now and what it would lay (GIN-17 … GIN-21).

        Raises :class:`IllegalMove` with the reason (turn and phase aside, so the
        hand panel can ask). At the wall the upcard counts as in the hand (GIN-24).
        Changes nothing.
        """
        hand = list(self.hands[seat])
        taken = self.taken
        if self.phase == "wall":
            hand.append(self.pile[-1])
            taken = self.pile[-1]
        if card is not None:
            self.check_piece(card)
            check_held([card], hand)
            if self.taken_locked and card == taken:
                raise IllegalMove(f"you took {card.code} from the {self.pile_word} this "
                                  "turn")  # GIN-15
        if len(hand) != HAND_SIZE + 1:
            raise IllegalMove(self.acquire_first)
        if card is None:
            if not self.options.big_gin_bonus:
                raise IllegalMove("name the card you discard")  # GIN-20
            grouping = self._grouping(hand, groups)
            if grouping.deadwood:
                raise IllegalMove("big gin needs all 11 cards in melds; name the card you "
                                  "discard")
            return KnockPreview(None, grouping, "big gin")
        rest = remove_pieces(hand, [card])
        grouping = self._grouping(rest, groups)
        count = grouping.count
        limit = self.knock_limit
        if gin and count:
            raise IllegalMove(f"that is not gin: deadwood {count}")  # GIN-40
        if count > limit:
            if limit == 0:
                raise IllegalMove("the knock limit is 0 this hand: only gin")  # GIN-21
            if groups is not None:
                raise IllegalMove(f"your groups leave deadwood {count}; the knock limit is "
                                  f"{limit}")  # GIN-17
            raise IllegalMove(f"after discarding {card.code} your best deadwood is {count}; "
                              f"the knock limit is {limit}")  # GIN-17
        return KnockPreview(card, grouping, "gin" if count == 0 else "knock")

    def _grouping(self, cards: Sequence[Card],
                  groups: Sequence[Sequence[Placed]] | None) -> Grouping:
        """GIN-18: the player's groups (each a valid meld, disjoint) or GIN-12's choice."""
        if groups is None:
            return best_grouping(cards)
        named = [p for g in groups for p, _ in g]
        for piece in named:
            self.check_piece(piece)
        check_held(named, cards)  # also refuses a card named twice (NOT-5)
        melds = []
        for number, group in enumerate(groups, start=1):
            if not group:
                raise IllegalMove(f"group {number} is empty")
            try:
                meld = read_meld(list(group), RULES)
            except IllegalMove as error:
                raise IllegalMove(f"group {number}: {error}") from None  # NOT-13
            melds.append(tuple(self.own_all(meld.pieces)))
        rest = remove_pieces(list(cards), self.own_all(named))
        return Grouping(_sorted_melds(melds), tuple(sorted(rest, key=canonical)))

    def check(self, seat: int, groups: Sequence[Sequence[Placed]] | None = None) -> str:
        """GIN-16 ``check``: private, changes nothing."""
        hand = list(self.hands[seat])
        if groups is not None:
            grouping = self._grouping(hand, groups)
            return f"Your groups: {grouping.text}."
        if len(hand) <= HAND_SIZE:
            return f"Your best grouping: {best_grouping(hand).text}."
        locked = self.taken if self.taken_locked else None
        low, card = min(best_discards(hand, locked),
                        key=lambda dc: (dc[0], -card_value(dc[1]), -dc[1].rank, dc[1].suit))
        limit = self.knock_limit
        verdict = (f"you may knock discarding {card.code}" if low <= limit
                   else f"the knock limit is {limit}: no knock yet")
        return (f"Discarding {card.code} leaves deadwood {low} "
                f"({best_grouping(remove_pieces(hand, [card])).text}); {verdict}.")

    # -- moves ------------------------------------------------------------

    def _act(self, move: Move, events: list[Event]) -> None:
        if isinstance(move, Pass):
            self._check_pass(move.seat)
            self._pass(events)
        elif isinstance(move, Knock):
            self._check_turn(move.seat)
            if self.phase in ("offer",) or (self.phase == self.draw_phase):
                raise IllegalMove(OFFER_TURN if self.phase == "offer" else self.acquire_first)
            card = self.own(move.card) if move.card is not None else None
            preview = self.knock_preview(move.seat, card, move.groups, move.gin)
            self._knock(preview, events)
        else:
            super()._act(move, events)

    def _pass(self, events: list[Event]) -> None:
        seat = self.turn
        if self.phase == "wall":
            events.append(Event("pass", f"{{p{seat}}} passed at the wall: the hand is void.",
                                seat))
            self._void("Two cards were left in the stock and nobody knocked", events)
            return
        events.append(Event("pass", f"{{p{seat}}} passed on the upcard.", seat))
        self.offer += 1
        self.turn = 1 - seat
        self.turn_serial += 1
        if self.offer == 3:  # both passed: the non-dealer draws from the stock
            self.phase = self.draw_phase
        events.append(Event("turn", f"{{p{self.turn}}} to play.", self.turn))

    def _draw(self, source: str, events: list[Event]) -> None:
        if source == self.pile_source and not self.offer:
            self.pile_takes += 1
            if self.pile_takes >= TAKE_LIMIT:  # GIN-26: this take does not happen
                events.append(Event("take_limit", f"That would be the {TAKE_LIMIT}th take from "
                                    "the discard pile this hand: the hand is void."))
                self._void(f"The {TAKE_LIMIT}th take from the discard pile", events)
                return
        self.offer = 0
        super()._draw(source, events)
        events[-1] = dataclasses.replace(
            events[-1], text=events[-1].text[:-1] + f" ({len(self.stock)} left in the stock).")

    def _discard(self, card: Card, events: list[Event]) -> None:
        seat = self.turn
        recycled = card == self.taken
        self._put_on_pile(seat, card, events)
        if recycled and self.recycled and self.options.discard_taken_card:  # GIN-27
            self._void("Both players discarded the card they took", events)
            return
        self.recycled = recycled
        if len(self.stock) <= WALL:  # GIN-24
            if not self.options.fiftieth_card:
                self._void("Two cards are left in the stock", events)
                return
            self.turn = 1 - seat
            self.phase = "wall"
            self.drawn = self.taken = None
            self.turn_serial += 1
            events.append(Event("wall", f"2 cards are left in the stock: {{p{self.turn}}} may "
                                f"knock with {self.pile[-1].code} or pass.", self.turn))
            return
        self._pass_turn(events)

    def _put_on_pile(self, seat: int, card: Card, events: list[Event]) -> None:
        super()._put_on_pile(seat, card, events)
        self.discards[seat].append(card)

    def _knock(self, preview: KnockPreview, events: list[Event]) -> None:
        """GIN-17 … GIN-33: lay the knocker's melds, the engine defends, the hand is scored."""
        seat = self.turn
        if self.phase == "wall":  # GIN-24: the upcard joins the hand first (not a take)
            upcard = self.pile.pop()
            self._receive(seat, [upcard])
            events.append(Event("draw", f"{{p{seat}}} took {upcard.code} at the wall.", seat))
        if preview.card is not None:
            self._put_on_pile(seat, preview.card, events)
        opts = self.options
        defender = 1 - seat
        knocker = preview.grouping
        gin = preview.kind != "knock"
        defence = defend(self.hands[defender], knocker.melds, lay_off=not gin)
        k, d = knocker.count, defence.count
        factor = 2 if self.doubled else 1
        winner: int | None
        if gin:
            bonus = opts.big_gin_bonus if preview.kind == "big gin" else opts.gin_bonus
            winner, points, kind = seat, (d + bonus) * factor, preview.kind
            sum_text = f"{d} + {bonus}"
        elif k < d:
            winner, points, kind = seat, (d - k) * factor, "knock"
            sum_text = f"{d} − {k}"
        elif d < k or opts.undercut_on_tie:
            winner, points, kind = defender, (k - d + opts.undercut_bonus) * factor, "undercut"
            sum_text = f"{k} − {d} + {opts.undercut_bonus}"
        else:
            winner, points, kind, sum_text = None, 0, "knock", ""
        if winner is None:
            line = f"equal counts ({k}): nobody scores"
        else:
            shown = f"({sum_text}) × 2" if factor == 2 else sum_text
            line = f"{{p{winner}}} scores {shown} = {points}"
        show = Showdown(seat, kind, preview.card, knocker.melds, knocker.deadwood,
                        defence.grouping.melds, defence.layoffs, defence.grouping.deadwood,
                        line)
        self.showdowns.append(show)
        scores = [0, 0]
        if winner is not None:
            scores[winner] = points
        word = {"knock": "knocked", "undercut": "knocked", "gin": "went gin",
                "big gin": "went big gin"}[preview.kind if gin else "knock"]
        summary = f"{{p{seat}}} {word}" + (": undercut!" if kind == "undercut" else ".")
        self._finish_hand(winners=() if winner is None else (winner,), points=scores,
                          notes=[self._note(show, s) for s in range(2)], summary=summary,
                          events=events, held=self._held(show))

    def _held(self, show: Showdown) -> list[list[Card]]:
        held: list[list[Card]] = [[], []]
        held[show.knocker] = [c for m in show.knocker_melds for c in m] + \
            list(show.knocker_deadwood)
        held[1 - show.knocker] = [c for m in show.defender_melds for c in m] + \
            [c for c, _ in show.layoffs] + list(show.defender_deadwood)
        return held

    def _note(self, show: Showdown, seat: int) -> str:
        if seat == show.knocker:
            return f"{show.kind if show.kind != 'undercut' else 'knock'}, deadwood " \
                   f"{show.knocker_count}"
        return f"deadwood {show.defender_count}"

    def _void(self, why: str, events: list[Event]) -> None:
        """GIN-25: no points, no box, the same dealer deals again."""
        self.showdowns.append(None)
        self._finish_hand(winners=(), points=[0, 0], notes=["void", "void"],
                          summary=f"{why}: the hand is void.", events=events)

    def _hand_over_text(self, result: HandResult) -> str:
        show = self.showdowns[-1]
        boxes = self.boxes
        totals = ", ".join(f"{{p{s}}} {result.totals[s]} ({boxes[s]} box"
                           f"{'es' if boxes[s] != 1 else ''})" for s in range(2))
        if show is None:
            return f"{result.summary} Scores: {totals}."
        return f"{result.summary} {showdown_text(show)} Scores: {totals}."

    def _next_dealer(self, result: HandResult) -> int:
        """GIN-6: the winner deals (or alternate); after no winner the same dealer."""
        if not result.winners:
            return self.dealer
        if self.options.dealer == "alternate":
            return 1 - self.dealer
        return result.winners[0]

    @property
    def hands_to_play(self) -> int | None:
        return self.options.hands

    @property
    def boxes(self) -> list[int]:
        """GIN-33: hands won by each player."""
        won = [0, 0]
        for result in self.results:
            for s in result.winners:
                won[s] += 1
        return won

    def _end_match(self, events: list[Event]) -> None:
        """GIN-35, GIN-36: game, line and shutout bonuses into the final totals."""
        opts = self.options
        self.running = list(self.totals)
        boxes = self.boxes
        finals = [self.running[s] + opts.line_bonus * boxes[s] for s in range(2)]
        fixed = opts.hands is not None
        if self.running[0] != self.running[1] or not fixed:
            leader = 0 if self.running[0] > self.running[1] else 1
            finals[leader] += opts.game_bonus
            if boxes[1 - leader] == 0:  # GIN-36
                if opts.shutout == "double":
                    finals[leader] *= 2
                elif opts.shutout == "bonus":
                    finals[leader] += opts.game_bonus
        self.totals = finals
        self.results[-1] = dataclasses.replace(self.results[-1], totals=tuple(finals))
        if finals != self.running:
            events.append(Event("bonuses", "Final totals with the bonuses: " + ", ".join(
                f"{{p{s}}} {finals[s]}" for s in range(2)) + "."))

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.abandoned else super().winners

    # -- timeouts and auto-play (GIN-42 … GIN-44) ---------------------------------

    def _timeout(self, events: list[Event]) -> None:
        seat = self.turn
        events.append(Event("timeout", f"{{p{seat}}} ran out of time; the bot played for them.",
                            seat))
        self._count_timeout_to_auto(seat, events)
        self._play_for(seat, events)

    def _play_for(self, seat: int, events: list[Event]) -> None:
        """GIN-43: pass the offer or the wall; draw from the stock; discard by the rule."""
        if self.phase in ("offer", "wall"):
            self._pass(events)
            return
        if self.phase == self.draw_phase:
            self._draw(self.stock_source, events)
        self._discard(timeout_discard(self.hands[seat],
                                      self.taken if self.taken_locked else None), events)

    def _acts_for_timeouts(self, move: Move) -> bool:
        return not isinstance(move, Draw)

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = [Resume(seat)] if not self.is_over and self.auto[seat] else []
        if self.is_over or seat != self.turn:
            return moves
        if self.phase == "offer":
            return [*moves, Draw(seat, "discard"), Pass(seat)]
        if self.phase == self.draw_phase:
            moves.append(Draw(seat, "stock"))
            if self.pile and self.offer != 3:
                moves.append(Draw(seat, "discard"))
            return moves
        if self.phase == "wall":
            moves.append(Pass(seat))
            moves.extend(self.knocks(seat))
            return moves
        hand = sorted(set(self.hands[seat]), key=lambda c: c.index)
        locked = self.taken if self.taken_locked else None
        moves.extend(Discard(seat, c) for c in hand if c != locked)
        moves.extend(self.knocks(seat))
        return moves

    def knocks(self, seat: int) -> list[Knock]:
        """Every knock ``seat`` may make now with the engine's grouping (big gin included)."""
        hand = list(self.hands[seat])
        taken = self.taken
        if self.phase == "wall":
            hand.append(self.pile[-1])
            taken = self.pile[-1]
        if len(hand) != HAND_SIZE + 1:
            return []
        locked = taken if self.taken_locked else None
        found: list[Knock] = []
        limit = self.knock_limit
        for count, card in best_discards(hand, locked):
            if count <= limit:
                found.append(Knock(seat, card))
        if self.options.big_gin_bonus and is_gin_shape(hand):
            found.append(Knock(seat))
        return found

    # -- views ------------------------------------------------------------

    def _state(self, seat: int) -> SeatState:
        if self.is_over and seat in self.winners:
            return SeatState.WON
        if self.is_over:
            return SeatState.LOST
        return SeatState.AUTO if self.auto[seat] else SeatState.PLAYING

    def table_view(self) -> TableView:
        """GIN-9: the whole pile, the stock count, the knock limit, scores and boxes."""
        boxes = self.boxes
        panels = tuple(PlayerPanel(seat=s, pieces_left=len(self.hands[s]),
                                   score=f"{self.totals[s]} · {boxes[s]} box"
                                         f"{'es' if boxes[s] != 1 else ''}",
                                   state=self._state(s), to_move=s == self.to_move,
                                   dealer=s == self.dealer,
                                   note="auto-play" if self.auto[s] else "")
                       for s in range(2))
        where = (f"Hand {self.hand_number} of {self.options.hands}" if self.options.hands
                 else f"Hand {self.hand_number} · playing to {self.options.target}")
        limit = self.knock_limit
        rule = "gin only" if limit == 0 else f"knock limit {limit}"
        phase = {"offer": "upcard offer: take it or pass", "draw": "to draw",
                 "play": "to discard or knock", "wall": "the wall: knock with the upcard or "
                 "pass", "over": "game over"}[self.phase]
        return TableView(variant=self.variant, tiles=False, players=panels,
                         discard=tuple(self.pile), stock=len(self.stock), to_move=self.to_move,
                         hand_number=self.hand_number, status=f"{where} · {rule} · {phase}")

    def result_view(self) -> ResultView:
        """The last hand: both hands grouped, the defender's lay-offs marked (GIN-41)."""
        last = self.results[-1] if self.results else None
        if last is None:
            return ResultView(variant=self.variant, title="No hand finished yet",
                              placings=tuple(Placing(seat=s, place=1, points="0", total="0")
                                             for s in range(2)), seed=self.seed)
        show = self.showdowns[-1]
        keys = self.totals if self.is_over else list(last.points)
        ranks = places(keys, False)
        placings = []
        for s in range(2):
            groups: tuple[MeldView, ...] = ()
            deadwood: tuple[Piece, ...] = ()
            value: int | None = None
            note = ""
            if show is not None and s == show.knocker:
                groups = tuple(_meld_view(i + 1, m) for i, m in enumerate(show.knocker_melds))
                deadwood, value = show.knocker_deadwood, show.knocker_count
            elif show is not None:
                targets = sorted({i for _, i in show.layoffs})
                groups = tuple(
                    [_meld_view(i + 1, m) for i, m in enumerate(show.defender_melds)]
                    + [_meld_view(len(show.defender_melds) + n + 1,
                                  [c for c, j in show.layoffs if j == i], "layoff")
                       for n, i in enumerate(targets)])
                deadwood, value = show.defender_deadwood, show.defender_count
                note = " · ".join(
                    f"{codes(c for c, j in show.layoffs if j == i)} → "
                    f"{codes(show.knocker_melds[i])}" for i in targets)
            placings.append(Placing(
                seat=s, place=ranks[s], points=f"{last.points[s]:+d}",
                total=str(last.totals[s]), held=last.held[s], note=last.notes[s],
                groups=groups, deadwood=deadwood, deadwood_value=value,
                grouping_note=f"laid off: {note}" if note else ""))
        placings.sort(key=lambda p: (p.place, p.seat))
        if self.is_over:
            hands = f"{self.hand_number} hand" + ("s" if self.hand_number != 1 else "")
            title = ("Game abandoned" if self.abandoned else f"Game over after {hands}")
        elif show is None:
            title = f"Hand {last.number}: void"
        else:
            title = f"Hand {last.number}: {show.kind}"
        return ResultView(variant=self.variant, title=title, placings=tuple(placings),
                          seed=self.seed, match_over=self.is_over, pure_runs=False)


def _meld_view(number: int, cards: Sequence[Card], kind: str = "") -> MeldView:
    """A group of a hand in the results: a meld, or (``layoff``) cards laid off on one."""
    ordered = sorted(cards, key=canonical)
    kind = kind or ("set" if len({c.rank for c in cards}) == 1 else "run")
    return MeldView(number=number, pieces=tuple(ordered),
                    faces=tuple(Face.of(c) for c in ordered), kind=kind)


def showdown_text(show: Showdown) -> str:
    """GIN-41: the knock message's body (names as ``{p0}``)."""
    k, d = show.knocker, 1 - show.knocker
    kind = {"undercut": "knock", "knock": "knock"}.get(show.kind, show.kind)
    discard = f" discarding {show.discard.code}" if show.discard is not None else ""
    melds = " | ".join(codes(m) for m in show.knocker_melds) or "no melds"
    dead = codes(show.knocker_deadwood) if show.knocker_deadwood else "none"
    own = " | ".join(codes(m) for m in show.defender_melds) or "no melds"
    laid = ", ".join(f"{c.code} → {codes(show.knocker_melds[i])}" for c, i in show.layoffs)
    defender_dead = codes(show.defender_deadwood) if show.defender_deadwood else "none"
    return (f"**{kind.capitalize()}**{discard}: {{p{k}}} melds {melds}, deadwood {dead} = "
            f"{show.knocker_count}. {{p{d}}} melds {own}"
            + (f", lays off {laid}" if laid else "")
            + f"; deadwood {defender_dead} = {show.defender_count}. {show.line}.")


def timeout_discard(hand: Sequence[Card], locked: Card | None = None) -> Card:
    """GIN-43: the discard leaving the lowest best deadwood; ties: higher value, then higher
    rank, then suit S, H, D, C."""
    return min(best_discards(hand, locked),
               key=lambda dc: (dc[0], -card_value(dc[1]), -dc[1].rank, dc[1].suit))[1]
