"""Indian 13-card Rummy (rules IND-1 … IND-37, ``shared/rules/20-indian.md``).

Nothing is melded during play: players draw and discard until one of them
*declares* (shows) all 13 cards arranged in sequences and sets, with at least
two sequences and one of them pure. Losers are counted on their best
arrangement (capped at 80). A game is one deal (``points``), a pool played
until one player is left (``pool101``/``pool201``) or a fixed number of deals
paid in chips (``deals``).

Leaving (``forfeit_move``): ``Drop(seat, leave=True)``. A leaver is dropped
from the deal in play at once, whoever's turn it is, at the IND-21 cost (first
drop if they have not drawn a card in this deal, middle drop otherwise), and
is dropped again (first drop) at the start of every later deal, so a pool
charges them until they are eliminated. See :meth:`IndianGame.forfeit_move`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import ClassVar

from ..arrange import Arrangement, best_arrangement
from ..cards import Card, Piece, card_deck, codes, sort_by_suit
from ..drawdiscard import DrawDiscardGame
from ..errors import IllegalMove, InvalidOptions
from ..game import Event, HandResult, Move, Options, Timeout, option
from ..i18n import joined, tr, trn, who
from ..melds import ACES_BOTH, Meld, MeldRules, describe, extend_meld, read_meld
from ..moves import Discard, Draw, Placed
from ..notation import check_held, remove_pieces
from ..table import next_seat
from ..views import HandView, MeldView, Placing, PlayerPanel, ResultView, SeatState, TableView

HAND_SIZE = 13
"""IND-6."""
CAP = 80
"""IND-27: the most a loser is counted."""
WRONG_SHOW_POINTS = 80
"""IND-25."""
FORMATS = ("points", "pool101", "pool201", "deals")
DEALS_ALLOWED = (2, 3, 6)
POOL_LIMITS = {"pool101": 101, "pool201": 201}
"""IND-31: a total at or above the limit eliminates."""
SOURCES = ("closed", "open")


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IndianOptions(Options):
    """The options table of the Indian Rummy spec (IND-33)."""

    format: str = option("points", choices=FORMATS,
                         help=tr("points: a single deal; pool101 or pool201: deals until one "
                                 "player is left (reaching 101 or 201 points knocks a player "
                                 "out); deals: a fixed number of deals, paid in chips"))
    deals: int = option(2, also=DEALS_ALLOWED, help=tr("how many deals a game of format deals "
                                                       "has"))
    decks: str | None = option(None, choices=("1", "2"),
                               help=tr("1 pack and a joker (53 cards) or 2 packs and 2 jokers "
                                       "(106 cards); left out, 1 for 2 players and 2 for more"))
    wild_joker: bool = option(True, help=tr("cut a card and make every card of its rank wild; "
                                            "false: only the printed jokers are jokers"))
    turn_seconds: int = option(90, bounds=(10, 600), also=(0,),
                               help=tr("seconds per turn; 0 turns the timer off"))
    misses_to_drop: int = option(3, bounds=(1, 10),
                                 help=tr("missed turns in a row that drop a player (middle "
                                         "drop)"))
    first_open_joker_pickup: bool = option(
        True, help=tr("the deal's first open card may be taken even when it is a joker"))

    def check_together(self) -> None:
        if self.format != "deals" and self.deals != 2:
            raise InvalidOptions(tr("deals applies only to format deals"))

    @property
    def drop_costs(self) -> tuple[int, int]:
        """IND-21: (first drop, middle drop)."""
        return (25, 50) if self.format == "pool201" else (20, 40)


@cache
def indian_rules(wild_rank: int | None) -> MeldRules:
    """Meld rules of one deal (IND-11 … IND-15): aces low or high, sets of any size whose
    jokers may name any suit of the set's rank."""
    return MeldRules(runs=ACES_BOTH, set_max=None, jokers=True, wild_rank=wild_rank,
                     set_min_naturals=0, run_word=tr("sequence"), joker_suits_free=True)


def card_value(card: Piece, rules: MeldRules) -> int:
    """IND-4: A K Q J 10, pips face value, every joker (printed or wild rank) 0."""
    return value_table(rules.wild_rank)[card]


@cache
def value_table(wild_rank: int | None) -> dict[Piece, int]:
    """IND-4 values of every card for one wild rank (a lookup keeps the searches fast)."""
    rules = indian_rules(wild_rank)
    return {c: 0 if rules.is_joker(c) else 10 if c.rank in (1, 11, 12, 13) else c.rank
            for c in card_deck(1, 1)}


def deck_packs(players: int, decks: str | None) -> int:
    """IND-3: packs for a deal with ``players`` dealt in (each pack brings one printed joker)."""
    if decks is not None:
        return int(decks)
    return 1 if players == 2 else 2


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Declare(Move):
    """IND-22: show with ``finish`` on the open deck and, optionally, the other 13 grouped.

    ``groups`` ``None`` lets the engine search for a valid split (IND-23).
    """

    kind: ClassVar[str] = "declare"
    finish: Card | None
    groups: tuple[tuple[Placed, ...], ...] | None = None


@dataclass(frozen=True)
class Drop(Move):
    """IND-21: leave the deal before drawing. ``leave``: the player leaves the game."""

    kind: ClassVar[str] = "drop"
    leave: bool = False


# ---------------------------------------------------------------------------
# Judging a show (pure functions, also used by /indian check and the computer)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowVerdict:
    """Whether 13 cards make a valid show (IND-23), and the grouping judged or found.

    ``groups`` holds the pieces of each group in display order (as given, or as
    found by the search); ``shown`` prints them with joker stand-ins
    (``JC 7H(=KC) QC``), groups separated by ``|``. ``leftover`` lists cards
    the search could not place. ``finish`` is the finish card (declared, or
    the one a check with 14 cards would use). ``reason`` is one line.
    """

    valid: bool
    groups: tuple[tuple[Card, ...], ...]
    shown: str
    reason: str
    leftover: tuple[Card, ...] = ()
    finish: Card | None = None
    sequences: int = 0
    pure_sequences: int = 0
    melds: tuple[Meld, ...] = ()
    """The groups read as melds (with joker stand-ins), when every group is one."""

    @property
    def text(self) -> str:
        """``AD 2D 3D | 5S 6S 7S | … — valid show``: the one line the bot prints."""
        parts = [self.shown] if self.shown else []
        if self.leftover:
            parts.append(tr("left over: {cards}", cards=codes(self.leftover)))
        body = joined(*parts, sep=" · ")
        return joined(body, self.reason, sep=" — ") if parts else self.reason


def _show_text(melds: Sequence[Meld], rules: MeldRules) -> str:
    return " | ".join(describe(m, rules) for m in melds)


def _kind_summary(melds: Sequence[Meld]) -> str:
    runs = [m for m in melds if m.is_run]
    pure = sum(1 for m in runs if m.pure)
    sets = len(melds) - len(runs)
    text = tr("{count} sequences ({pure} pure)", count=len(runs), pure=pure)
    if sets:
        text = trn("{text} and {n} set", "{text} and {n} sets", sets, text=text)
    return text


def _verdict_from_melds(melds: Sequence[Meld], rules: MeldRules) -> ShowVerdict:
    """IND-23 on groups that are each a valid meld: two sequences, one pure."""
    runs = [m for m in melds if m.is_run]
    pure = [m for m in runs if m.pure]
    groups = _card_groups(melds)
    shown = _show_text(melds, rules)
    if len(runs) < 2:
        what = tr("no sequence") if not runs else tr("only one sequence")
        return ShowVerdict(False, groups, shown, tr("{what}: a show needs two sequences, one "
                                                    "of them pure", what=what),
                                                    sequences=len(runs), pure_sequences=len(pure))
    if not pure:
        return ShowVerdict(False, groups, shown, tr("no pure sequence: a show needs one "
                                                    "sequence without jokers"),
                                                    sequences=len(runs), pure_sequences=0)
    return ShowVerdict(True, groups, shown, tr("valid show: {kind_summary}",
                                               kind_summary=_kind_summary(melds)),
                       sequences=len(runs), pure_sequences=len(pure), melds=tuple(melds))


def _card_groups(melds: Sequence[Meld]) -> tuple[tuple[Card, ...], ...]:
    """The cards of each meld, in order (meld pieces are typed as cards or tiles)."""
    return tuple(tuple(IndianGame.own_all(m.pieces)) for m in melds)


def judge_grouping(groups: Sequence[Sequence[Placed]], rules: MeldRules) -> ShowVerdict:
    """IND-23: an explicit grouping judged exactly as given (no rescue search)."""
    melds: list[Meld] = []
    for group in groups:
        try:
            melds.append(read_meld(list(group), rules))
        except IllegalMove as error:
            given = tuple(tuple(IndianGame.own_all(p for p, _ in g)) for g in groups)
            shown = " | ".join(" ".join(_placed_code(item) for item in g) for g in groups)
            return ShowVerdict(False, given, shown, str(error))  # IND-25 names the group
    return _verdict_from_melds(melds, rules)


def _placed_code(item: Placed) -> str:
    piece, face = item
    return piece.code if face is None else f"{piece.code}={face.label()}"


def absorb_jokers(melds: Sequence[Meld], jokers: Sequence[Piece],
                  rules: MeldRules) -> list[Meld] | None:
    """Put leftover jokers into groups without breaking IND-23; ``None`` if impossible.

    Three or more form a set of their own (IND-13); otherwise each joins a set,
    else an impure sequence, else a pure sequence while another pure one stays.
    """
    result = list(melds)
    if not jokers:
        return result
    if len(jokers) >= rules.set_min:
        result.append(read_meld(list(jokers), rules))
        return result
    for joker in jokers:
        pure_runs = sum(1 for m in result if m.is_run and m.pure)
        order = sorted(range(len(result)), key=lambda i: (
            result[i].is_run, result[i].pure))
        for i in order:
            meld = result[i]
            if meld.is_run and meld.pure and pure_runs < 2:
                continue
            try:
                grown = extend_meld(meld, [joker], rules, i + 1)
            except IllegalMove:
                continue
            if meld.is_run and meld.pure and not grown.pure:
                pure_runs -= 1
            result[i] = grown
            break
        else:
            return None
    return result


def show_arrangement(cards: Sequence[Card], rules: MeldRules) -> Arrangement | None:
    """IND-23/IND-27: least deadwood with two sequences, one pure; ``None`` if impossible."""
    return best_arrangement(cards, rules, value_table(rules.wild_rank).__getitem__,
                            min_runs=2, min_pure_runs=1)


def search_show(cards: Sequence[Card], rules: MeldRules) -> ShowVerdict:
    """IND-23 without a grouping: does any split of the 13 cards qualify?"""
    arrangement = show_arrangement(cards, rules)
    if arrangement is None:
        return ShowVerdict(False, (), "", _no_sequences_reason(cards, rules),
                           leftover=tuple(sort_by_suit(cards)))
    ordinary = [c for c in arrangement.deadwood if not rules.is_joker(c)]
    jokers = [c for c in arrangement.deadwood if rules.is_joker(c)]
    if not ordinary:
        melds = absorb_jokers(arrangement.melds, jokers, rules)
        if melds is not None:
            return _verdict_from_melds(display_order(melds), rules)
    groups = _card_groups(arrangement.melds)
    left = tuple(IndianGame.own_all(arrangement.deadwood))
    unfit = ordinary or left
    return ShowVerdict(False, groups, _show_text(arrangement.melds, rules),
                       trn("{cards} fits no group", "{cards} fit no group", len(unfit),
                           cards=codes(unfit)),
                          leftover=left,
                       sequences=arrangement.runs, pure_sequences=arrangement.pure_runs)


def _no_sequences_reason(cards: Sequence[Card], rules: MeldRules) -> str:
    value = value_table(rules.wild_rank).__getitem__
    if best_arrangement(cards, rules, value, min_runs=1, min_pure_runs=1) is None:
        return tr("no pure sequence can be made from these cards")
    return tr("only one sequence can be made from these cards: a show needs two")


@dataclass(frozen=True, slots=True)
class Grouping:
    """One seat's cards at the end of a deal, grouped for the results (IND-23, IND-27).

    The winner's groups are the show as declared (or as the bot found it);
    a loser's are the arrangement that was scored, deadwood apart. ``value``
    is what the deadwood counts, before the 80 cap. ``counts_all``: no
    arrangement has two sequences with a pure one, so every card counts.
    """

    melds: tuple[Meld, ...] = ()
    deadwood: tuple[Card, ...] = ()
    value: int = 0
    counts_all: bool = False


def loser_grouping(cards: Sequence[Card], rules: MeldRules) -> Grouping:
    """IND-27: the arrangement a loser is counted on, pure sequences first, deadwood apart.

    Jokers the search left unmelded (they count 0) join a group where they fit,
    so the picture never shows a joker as deadwood when it could be used.
    """
    arrangement = show_arrangement(cards, rules)
    if arrangement is None:
        return Grouping((), tuple(sort_by_suit(cards)),
                        sum(card_value(c, rules) for c in cards), counts_all=True)
    melds = list(arrangement.melds)
    deadwood = IndianGame.own_all(arrangement.deadwood)
    jokers = [c for c in deadwood if rules.is_joker(c)]
    absorbed = absorb_jokers(melds, jokers, rules) if jokers else None
    if absorbed is not None:
        melds = absorbed
        deadwood = [c for c in deadwood if not rules.is_joker(c)]
    return Grouping(tuple(display_order(melds)), tuple(sort_by_suit(deadwood)),
                    arrangement.value)


def display_order(melds: Sequence[Meld]) -> list[Meld]:
    """Groups the bot found, as it shows them: pure sequences, other sequences, then sets
    (each kind by its lowest card). A player's own grouping keeps the player's order."""
    return sorted(melds, key=lambda m: (not m.is_run, not m.pure,
                                        min(p.index for p in m.pieces)))


def loser_count(cards: Sequence[Card], rules: MeldRules) -> int:
    """IND-27: the lowest count over all arrangements, capped at 80."""
    return min(loser_grouping(cards, rules).value, CAP)


def group_views(melds: Sequence[Meld]) -> tuple[MeldView, ...]:
    """Melds as numbered views for results (numbers in display order)."""
    return tuple(MeldView(i, m.pieces, m.faces, m.kind) for i, m in enumerate(melds, start=1))


def groups_text(melds: Sequence[Meld], rules: MeldRules) -> str:
    """``Pure sequence AD 2D 3D · Set 9C 9D JK(=9)``: what each group is and its cards."""
    return joined(*(joined(view.title(rules.run_word), describe(meld, rules), sep=" ")
                    for view, meld in zip(group_views(melds), melds, strict=True)), sep=" · ")


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class IndianGame(DrawDiscardGame):
    """An Indian Rummy match (one deal, a pool, or a fixed number of deals).

    The deal, the closed deck (the core's stock) and open deck (its pile),
    draws, discards and the match are the shared
    :class:`~bot.engine.drawdiscard.DrawDiscardGame`; this class adds the cut
    joker, drops, declarations, the count of losers, pools and chips.
    """

    variant: ClassVar[str] = "indian"
    title: ClassVar[str] = tr("Indian Rummy")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options_type: ClassVar[type[Options]] = IndianOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, Discard, Declare, Drop, Timeout)
    legacy_names: ClassVar[dict[str, str]] = {"misses": "timeouts", "deal_number": "hand_number",
                                              "closed": "stock", "open": "pile"}
    hand_word: ClassVar[str] = tr("deal")
    match_word: ClassVar[str] = tr("game")
    stock_word: ClassVar[str] = tr("closed deck")
    pile_word: ClassVar[str] = tr("open deck")
    stock_source: ClassVar[str] = "closed"
    pile_source: ClassVar[str] = "open"
    draw_sources: ClassVar[tuple[str, ...]] = SOURCES
    play_phase: ClassVar[str] = "discard"
    sort_dealt: ClassVar[bool] = True
    out_of_hand: ClassVar[str] = tr("you are out of this deal")

    options: IndianOptions = field(default_factory=IndianOptions)
    # The match.
    eliminated: list[bool] = field(default_factory=list)
    eliminated_in: list[int] = field(default_factory=list)
    """The deal in which each seat was eliminated (0: still in)."""
    left: list[bool] = field(default_factory=list)
    """Seats that left the game (dropped at once in every deal, see ``forfeit_move``)."""
    finishes: list[Card | None] = field(default_factory=list)
    """Per finished deal (as ``results``), the finish card of its valid show, else ``None``."""
    groupings: list[tuple[Grouping | None, ...]] = field(default_factory=list)
    """Per finished deal, per seat: the declared or scored grouping, else ``None`` (shown flat)."""
    # The deal in play.
    packs: int = 1
    cut_joker: Card | None = None
    has_drawn: list[bool] = field(default_factory=list)
    """Drew a card in this deal (IND-21: first or middle drop)."""
    deal_points: list[int] = field(default_factory=list)
    """Points charged so far in this deal (drops, wrong shows)."""
    deal_notes: list[str] = field(default_factory=list)
    discarded: bool = False
    """A card has been discarded in this deal (IND-18)."""

    # -- the spec's words for the core's fields ---------------------------------

    @property
    def open(self) -> list[Card]:
        """The open deck, bottom to top; only its top card is public (IND-10)."""
        return self.pile

    @property
    def closed(self) -> list[Card]:
        """The closed deck, face down; its top card is the last element."""
        return self.stock

    @property
    def misses(self) -> list[int]:
        """IND-36: consecutive missed turns, carried from deal to deal."""
        return self.timeouts

    @property
    def deal_number(self) -> int:
        return self.hand_number

    # -- set-up -----------------------------------------------------------

    @property
    def lower_is_better(self) -> bool:  # type: ignore[override]
        return self.options.format != "deals"

    @property
    def wild_rank(self) -> int | None:
        """IND-7: the cut joker's rank; aces when it is a printed joker."""
        if self.cut_joker is None:
            return None
        return 1 if self.cut_joker.is_joker else self.cut_joker.rank

    @property
    def rules(self) -> MeldRules:
        return indian_rules(self.wild_rank)

    def value(self, card: Piece) -> int:
        return card_value(card, self.rules)

    def is_joker(self, card: Piece) -> bool:
        return self.rules.is_joker(card)

    def _check_setup(self) -> None:
        if self.options.decks == "1" and self.players >= 4:  # IND-3
            raise InvalidOptions(tr("decks 1 holds 53 cards, too few for {players} players "
                                    "({players} × 13 + 2 > 53): use decks 2 or none",
                                    players=self.players))

    def _start_match(self) -> None:
        n = self.players
        self.eliminated = [False] * n
        self.eliminated_in = [0] * n
        self.left = [False] * n

    def deal_order(self) -> list[int]:
        """IND-5, IND-6: the players still in, from the dealer's left."""
        seats_in = [not e for e in self.eliminated]
        order = [next_seat(self.dealer, self.players, seats_in)]
        while len(order) < seats_in.count(True):
            order.append(next_seat(order[-1], self.players, seats_in))
        return order

    def _deck(self, order: Sequence[int]) -> list[Card]:
        """IND-3: packs by the number of players dealt in (or ``decks``)."""
        self.packs = deck_packs(len(order), self.options.decks)
        return card_deck(self.packs, self.packs)

    def hand_size(self, dealt: int) -> int:
        return HAND_SIZE  # IND-6

    def _set_aside(self, deck: list[Card]) -> None:
        """IND-7: the cut joker, drawn from the undealt cards, shown for the whole deal."""
        self.cut_joker = deck.pop(self.rng.below(len(deck))) if self.options.wild_joker else None

    def set_aside_cards(self) -> list[Card]:
        return [self.cut_joker] if self.cut_joker is not None else []

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        """IND-8, IND-9: the open deck is started; leavers drop at once (``forfeit_move``)."""
        n = self.players
        self.has_drawn = [False] * n
        self.deal_points = [0] * n
        self.deal_notes = ["" if self.active[s] else tr("not dealt in") for s in range(n)]
        self.discarded = False
        events.append(Event("deal_started", tr("Deal {hand_number}: {dealer} deals 13 cards "
                                               "each from {value} cards; {wild_text}; {card} "
                                               "starts the open deck.",
                                               hand_number=self.hand_number,
                                               dealer=who(self.dealer), value=53 * self.packs,
                                               wild_text=self._wild_text(),
                                               card=self.pile[-1].code)))
        for seat in order:
            if self.left[seat]:
                self._drop_seat(seat, self.options.drop_costs[0], tr("left, first drop"), events)
        if self._last_player_wins(events):
            return
        if not self.active[self.turn]:
            self.turn = next_seat(self.turn, n, self.active)

    def _wild_text(self) -> str:
        cut = self.cut_joker
        if cut is None:
            return tr("no cut joker (printed jokers only)")
        if cut.is_joker:
            return tr("the cut joker is JK, so aces are wild")
        return tr("the cut joker is {card}, so {label}s are wild",
                  card=cut.code, label=cut.label)

    # -- the protocol -----------------------------------------------------

    def _act(self, move: Move, events: list[Event]) -> None:
        if isinstance(move, Drop) and move.leave:
            self._check_leave(move.seat)
            self._leave(move.seat, events)
        elif isinstance(move, Drop):
            self._check_drop(move.seat)
            first = not self.has_drawn[move.seat]
            cost = self.options.drop_costs[0 if first else 1]
            self._drop_seat(move.seat, cost, tr("first drop") if first else tr("middle drop"),
                                                                               events)
            self._after_exit(events)
        elif isinstance(move, Declare):
            verdict = self._check_declare(move.seat, move.finish, move.groups)
            self._declare(verdict, events)
        else:
            super()._act(move, events)

    def _acts_for_timeouts(self, move: Move) -> bool:
        """IND-36: a discard, declaration or drop resets the misses; leaving does not."""
        return not (isinstance(move, Drop) and move.leave)

    # -- checks (raise, never mutate) ----------------------------------------

    def _check_seat(self, seat: int) -> None:
        if self.eliminated[seat]:
            raise IllegalMove(tr("you have been eliminated from this pool"))
        super()._check_seat(seat)

    def _check_pile_draw(self, seat: int, card: Card) -> None:
        if self.is_joker(card) and not self._first_card_free():
            raise IllegalMove(tr("jokers cannot be taken from the open deck"))  # IND-18

    def _first_card_free(self) -> bool:
        """IND-18: the deal's first open card, until the first discard, with the option on."""
        return not self.discarded and self.options.first_open_joker_pickup

    def _check_drop(self, seat: int) -> None:
        self._check_turn(seat)
        if self.phase != "draw":
            raise IllegalMove(tr("you can drop only before drawing"))  # IND-19, IND-21

    def _check_leave(self, seat: int) -> None:
        if self.eliminated[seat]:
            raise IllegalMove(tr("you have been eliminated from this pool"))
        if self.left[seat]:
            raise IllegalMove(tr("you have already left this game"))

    def _check_declare(self, seat: int, finish: Card | None,
                       groups: Sequence[Sequence[Placed]] | None) -> ShowVerdict:
        """IND-22: refuse malformed declarations; judge the rest (IND-23)."""
        self._check_play(seat)
        if finish is None:
            raise IllegalMove(tr("name the finish card that goes on the open deck"))
        hand = self.hands[seat]
        check_held([finish], hand)
        rest = remove_pieces(hand, [finish])
        if groups is None:
            verdict = search_show(rest, self.rules)
        else:
            self._check_grouping(groups, rest, finish)
            verdict = judge_grouping(groups, self.rules)
        return replace(verdict, finish=finish)

    def _check_grouping(self, groups: Sequence[Sequence[Placed]], rest: Sequence[Card],
                        finish: Card | None) -> None:
        """The grouping names exactly the 13 cards ``rest`` (copies count, NOT-5)."""
        if not groups:
            raise IllegalMove(tr("name your groups, or leave groups out to let the bot find "
                                 "them"))
        for number, group in enumerate(groups, start=1):
            if not group:
                raise IllegalMove(tr("group {number} is empty", number=number))
            for piece, face in group:
                if face is not None and not self.is_joker(piece):
                    raise IllegalMove(tr("{card} is not a joker, so it cannot stand for "
                                         "{label}", card=piece.code,
                                         label=face.label()))  # NOT-8, IND-15
        named = self.own_all(p for g in groups for p, _ in g)
        have = Counter(rest)
        for piece, count in Counter(named).items():
            if count > have.get(piece, 0):
                if piece == finish and count > have.get(piece, 0):
                    raise IllegalMove(tr("{card} is your finish card: group the other 13 cards",
                                         card=piece.code))
                check_held([piece] * count, rest)
        if len(named) != HAND_SIZE:
            missing = Counter(rest) - Counter(named)
            hint = tr(" ({cards} missing)",
                      cards=codes(sort_by_suit(missing.elements()))) if missing else ""
            raise IllegalMove(tr("your groups name {count} cards: name the 13 cards other "
                                 "than the finish card{hint}", count=len(named), hint=hint))

    # -- effects ----------------------------------------------------------

    def _draw(self, source: str, events: list[Event]) -> None:
        super()._draw(source, events)
        self.has_drawn[self.turn] = True  # IND-21

    def _put_on_pile(self, seat: int, card: Card, events: list[Event]) -> None:
        super()._put_on_pile(seat, card, events)
        self.discarded = True  # IND-18

    def _declare(self, verdict: ShowVerdict, events: list[Event]) -> None:
        seat = self.turn
        finish = verdict.finish
        assert finish is not None
        self._remove(seat, [finish])
        self.pile.append(finish)  # IND-23: the finish card counts as a discard
        self.discarded = True
        if verdict.valid:
            events.append(Event("declare", tr("{player} declared with {card}: {text}.",
                                              player=who(seat), card=finish.code,
                                              text=verdict.text), seat))
            self._end_deal(seat, "show", events, show=verdict.melds)  # IND-24
            return
        events.append(Event("wrong_show", tr("{player} declared with {card}: {text}. Wrong "
                                             "show: 80 points.",
                                             player=who(seat), card=finish.code,
                                             text=verdict.text), seat))
        self._reveal(seat)  # the bot displays the grouping: every card of it is public
        self._drop_seat(seat, WRONG_SHOW_POINTS, tr("wrong show"), events, announce=False)  # IND-25
        self._after_exit(events)

    def _drop_seat(self, seat: int, cost: int, note: str, events: list[Event],
                   announce: bool = True) -> None:
        """Take ``seat`` out of the deal, charging ``cost`` deal points (IND-21, IND-25)."""
        self.active[seat] = False
        self.deal_points[seat] = cost
        self.deal_notes[seat] = note
        if announce:
            events.append(Event("drop", tr("{player} dropped ({note}): {cost} points.",
                                           player=who(seat), note=note, cost=cost), seat))

    def _after_exit(self, events: list[Event]) -> None:
        """After the player to move left the deal: IND-26, or the next active player's turn."""
        if not self._last_player_wins(events):
            self._pass_turn(events)

    def _last_player_wins(self, events: list[Event]) -> bool:
        """IND-26: exactly one active player left wins the deal at once."""
        still = self.active_seats()
        if len(still) > 1:
            return False
        if still:
            self._end_deal(still[0], "last", events)
        else:
            self._end_deal(None, "none", events)
        return True

    def _leave(self, seat: int, events: list[Event]) -> None:
        self.left[seat] = True
        events.append(Event("left", tr("{player} left the game.", player=who(seat)), seat))
        if not self.active[seat]:
            return
        was_turn = seat == self.turn
        if was_turn and self.phase == "discard" and self.drawn is not None:
            # Leaving after drawing: the card drawn goes on the open deck, 13 leave play.
            self._put_on_pile(seat, self.drawn, events)
        first = not self.has_drawn[seat]
        cost = self.options.drop_costs[0 if first else 1]
        self._drop_seat(seat, cost, tr("left, first drop") if first else tr("left, middle drop"),
                        events)
        if self._last_player_wins(events):
            return
        if was_turn:
            self._pass_turn(events)

    def _timeout(self, events: list[Event]) -> None:
        """IND-35 … IND-37: draw from the closed deck if needed, discard the card drawn."""
        seat = self.turn
        if self.phase == "draw":
            self._draw(self.stock_source, events)
        card = self.drawn
        assert card is not None
        events.append(Event("timeout", tr("{player} ran out of time; the bot played for them.",
                                          player=who(seat)),
                            seat))
        self.timeouts[seat] += 1  # IND-36
        self._put_on_pile(seat, card, events)
        if self.timeouts[seat] >= self.options.misses_to_drop:  # IND-37
            cost = self.options.drop_costs[1]
            self._drop_seat(seat, cost, tr("missed turns, middle drop"), events)
            self._after_exit(events)
            return
        self._pass_turn(events)

    # -- the end of a deal and of the match ------------------------------------

    def _end_deal(self, winner: int | None, how: str, events: list[Event],
                  show: tuple[Meld, ...] = ()) -> None:
        """IND-24, IND-26 … IND-32. ``show``: the winner's groups at a valid show."""
        n = self.players
        dealt = [not e for e in self.eliminated]
        points = list(self.deal_points)
        notes = list(self.deal_notes)
        rules = self.rules
        groupings: list[Grouping | None] = [None] * n
        if how == "show":
            for s in range(n):
                if self.active[s] and s != winner:
                    grouping = loser_grouping(self.hands[s], rules)  # IND-27
                    groupings[s] = grouping
                    points[s] = min(grouping.value, CAP)
                    notes[s] = tr("counted {points}", points=points[s])
            if winner is not None:
                groupings[winner] = Grouping(show)
        if winner is not None:
            points[winner] = 0
        gain = sum(points)
        if winner is not None:
            notes[winner] = tr("valid show, wins {gain}", gain=gain) if how == "show" else \
                tr("last player left, wins {gain}", gain=gain)
        if self.options.format == "deals":  # IND-32
            change = [-p for p in points]
            if winner is not None:
                change[winner] = gain
        else:
            change = points
        limit = POOL_LIMITS.get(self.options.format)
        eliminations = []
        if limit is not None:  # IND-31
            for s in range(n):
                total = self.totals[s] + change[s]
                if dealt[s] and total >= limit:
                    self.eliminated[s] = True
                    self.eliminated_in[s] = self.hand_number
                    notes[s] = tr("{notes}, eliminated",
                                  notes=notes[s]) if notes[s] else "eliminated"
                    eliminations.append(Event("eliminated", tr("{player} is eliminated with "
                                                               "{total} points.",
                                                               player=who(s), total=total), s))
        number = self.hand_number
        if winner is None:
            summary = tr("Deal {number} ended with no player left.", number=number)
        elif how == "show":
            summary = (tr("{winner} made a valid show and wins deal {number}: {groups_text}, "
                          "finishing with {card}.",
                          winner=who(winner), number=number, groups_text=groups_text(show, rules),
                          card=self.pile[-1].code))
        else:
            summary = tr("{winner} is the last player left and wins deal {number}.",
                         winner=who(winner), number=number)
        self.finishes += [None] * (len(self.results) - len(self.finishes))  # older saved games
        self.finishes.append(self.pile[-1] if how == "show" else None)  # IND-23: finish on top
        self.groupings += [()] * (len(self.results) - len(self.groupings))  # older saved games
        self.groupings.append(tuple(groupings))
        self._finish_hand(winners=(winner,) if winner is not None else (), points=change,
                          notes=notes, summary=summary, events=events,
                          held=[self.hands[s] if dealt[s] else [] for s in range(n)],
                          after=eliminations)

    def _hand_over_text(self, result: HandResult) -> str:
        scores = ", ".join(f"{{p{s}}} {self._score_text(result.points[s])}"
                           for s in range(self.players) if result.held[s])
        if self.options.format == "deals":
            return tr("{summary} Deal chips: {scores}.", summary=result.summary, scores=scores)
        return tr("{summary} Deal points: {scores}.", summary=result.summary, scores=scores)

    def _next_dealer(self, result: HandResult) -> int:
        return next_seat(self.dealer, self.players, [not e for e in self.eliminated])  # IND-5

    def _score_text(self, value: int) -> str:
        return f"{value:+d}" if self.options.format == "deals" else str(value)

    def _match_over(self) -> bool:
        fmt = self.options.format
        if fmt == "points":
            return True  # IND-30
        if fmt == "deals":
            return self.hand_number >= self.options.deals  # IND-32
        return self.eliminated.count(False) <= 1  # IND-31

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match (empty while it runs)."""
        if not self.is_over or not self.results:
            return ()
        fmt = self.options.format
        if fmt == "points":
            return self.results[-1].winners
        if fmt == "deals":
            best = max(self.totals)
            return tuple(s for s in range(self.players) if self.totals[s] == best)
        return tuple(s for s in range(self.players) if not self.eliminated[s])

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        """Every distinct move ``seat`` may make now (declarations without a grouping).

        A declaration is legal even when it would be a wrong show (IND-25).
        The timer's :class:`Timeout` and leaving (``forfeit_move``) are not listed.
        """
        if (self.is_over or seat != self.turn or self.eliminated[seat]
                or not self.active[seat]):
            return []
        if self.phase == "draw":
            moves: list[Move] = []
            for source in SOURCES:
                try:
                    self._check_draw(seat, source)
                except IllegalMove:
                    continue
                moves.append(Draw(seat, source))
            moves.append(Drop(seat))
            return moves
        distinct = sorted(set(self.hands[seat]), key=lambda c: c.index)
        return [*(Discard(seat, c) for c in distinct), *(Declare(seat, c) for c in distinct)]

    def forfeit_move(self, seat: int) -> Move | None:
        """``/rummy leave``: ``Drop(seat, leave=True)``, accepted whoever's turn it is.

        The leaver is dropped from the deal in play at once: a first drop (20,
        25 in pool201) if they have not drawn in this deal, otherwise a middle
        drop (40/50), even after drawing (the card drawn goes on the open deck)
        or out of turn, since a player who is gone cannot wait for their turn.
        In later deals of a pool or deals match they are dealt in and dropped
        at once (first drop) every time, so a pool charges them until they are
        eliminated. ``None`` when the
        game is over, the seat was eliminated, or it has already left.
        """
        if self.is_over or self.eliminated[seat] or self.left[seat]:
            return None
        return Drop(seat, leave=True)

    # -- /indian check ----------------------------------------------------

    def check_show(self, seat: int,
                   groups: Sequence[Sequence[Placed]] | None = None) -> ShowVerdict:
        """``/indian check``: would ``seat``'s hand be a valid show? Changes nothing.

        With 14 cards (after drawing), a grouping must name 13 of them and the
        card left is the finish card; without a grouping every possible
        finish card is tried and the verdict names one that works (the
        highest-valued) or the closest miss. With 13 cards the hand is judged
        as it is. A malformed grouping raises :class:`IllegalMove` (IND-22).
        """
        hand = list(self.hands[seat])
        rules = self.rules
        if len(hand) == HAND_SIZE + 1:
            if groups is not None:
                named = self.own_all(p for g in groups for p, _ in g)
                check_held(named, hand)
                left = remove_pieces(hand, named)
                finish = left[0] if len(left) == 1 else None
                rest = remove_pieces(hand, [finish]) if finish is not None else hand
                self._check_grouping(groups, rest, finish)
                return replace(judge_grouping(groups, rules), finish=finish)
            candidates = sorted(set(hand), key=lambda c: (-self.value(c), c.index))
            closest: tuple[int, ShowVerdict] | None = None
            for finish in candidates:
                rest = remove_pieces(hand, [finish])
                verdict = replace(search_show(rest, rules), finish=finish)
                if verdict.valid:
                    return replace(verdict, reason=f"{verdict.reason}, finishing with "
                                   f"{finish.code}")
                miss = sum(self.value(c) for c in verdict.leftover) + 100 * (
                    verdict.sequences < 2 or verdict.pure_sequences < 1)
                if closest is None or miss < closest[0]:
                    closest = (miss, verdict)
            assert closest is not None
            return closest[1]
        if groups is not None:
            self._check_grouping(groups, hand, None)
            return judge_grouping(groups, rules)
        return search_show(hand, rules)

    def declare_verdict(self, seat: int, finish: Card,
                        groups: Sequence[Sequence[Placed]] | None = None) -> ShowVerdict:
        """How ``Declare(seat, finish, groups)`` would be judged now. Changes nothing.

        Raises :class:`IllegalMove` exactly when the declaration would be refused
        (IND-17, IND-22), so the bot can preview a show before asking to confirm it.
        """
        return self._check_declare(seat, finish, groups)

    # -- views ------------------------------------------------------------

    def _state(self, seat: int) -> SeatState:
        """The seat's standing; once the game is over, as it ended."""
        if self.is_over and seat in self.winners:
            return SeatState.WON
        if self.eliminated[seat]:
            return SeatState.ELIMINATED
        if not self.active[seat]:
            return SeatState.DROPPED
        return SeatState.LOST if self.is_over else SeatState.PLAYING

    def _panel_score(self, seat: int) -> str:
        fmt = self.options.format
        if fmt == "points":
            if self.is_over and self.results:
                return str(self.results[-1].points[seat])
            return str(self.deal_points[seat])
        return self._score_text(self.totals[seat])

    def table_view(self) -> TableView:
        """IND-10: cut joker, open-deck top, closed-deck count, who is active, totals."""
        n = self.players
        over = self.is_over
        panels = tuple(PlayerPanel(
            seat=s, pieces_left=len(self.hands[s]) if self.active[s] and not over else 0,
            score=self._panel_score(s), state=self._state(s), to_move=s == self.to_move,
            dealer=s == self.dealer,
            note=self.deal_notes[s] if not self.active[s] and not self.eliminated[s] else "")
            for s in range(n))
        fmt = self.options.format
        where = {"points": tr("Deal {hand_number}", hand_number=self.hand_number),
                 "pool101": tr("Pool 101 · deal {hand_number}", hand_number=self.hand_number),
                 "pool201": tr("Pool 201 · deal {hand_number}", hand_number=self.hand_number),
                 "deals": tr("Deal {hand_number} of {deals}",
                             hand_number=self.hand_number, deals=self.options.deals)}[fmt]
        phase = {"draw": tr("to draw or drop"), "discard": tr("to discard or declare"),
                 "over": tr("game over")}[self.phase]
        return TableView(variant=self.variant, tiles=False, players=panels,
                         discard=tuple(self.pile[-1:]), discard_label=tr("open deck"),
                         stock=len(self.stock), stock_label=tr("closed deck"),
                         wild=self.cut_joker, to_move=self.to_move,
                         hand_number=self.hand_number, hand_label=tr("deal"),
                         status=joined(where, phase, sep=" · "))

    def hand_view(self, seat: int) -> HandView:
        return replace(super().hand_view(seat), wild_rank=self.wild_rank)

    def result_view(self) -> ResultView:
        """The latest deal's result, or the match's once it is over."""
        n = self.players
        last = self.results[-1] if self.results else None
        if last is None:
            placings = tuple(Placing(seat=s, place=1, points="0", total="0")
                             for s in range(n))
            return ResultView(variant=self.variant, title=tr("No deal finished yet"),
                              placings=placings, seed=self.seed)
        keys = self._match_keys() if self.is_over else self._deal_keys(last)
        finish = self.finishes[-1] if len(self.finishes) == len(self.results) else None
        ranks = [1 + sum(1 for other in keys if other < mine) for mine in keys]
        placings = tuple(sorted(
            (self._placing(last, s, ranks[s], finish if s in last.winners else None)
             for s in range(n)),
            key=lambda p: (p.place, p.seat)))
        if self.is_over and self.options.format != "points":
            title = trn("Game over after {n} deal", "Game over after {n} deals",
                        self.hand_number)
        elif self.is_over:
            title = tr("Game over")
        else:
            title = tr("Deal {number} result", number=last.number)
        return ResultView(variant=self.variant, title=title, placings=placings, seed=self.seed,
                          match_over=self.is_over, run_word=self.rules.run_word)

    def _last_grouping(self, seat: int) -> Grouping | None:
        """``seat``'s grouping in the latest finished deal, if it was grouped."""
        if not self.results or len(self.groupings) != len(self.results):
            return None  # no deal yet, or a game saved before groupings were kept
        row = self.groupings[-1]
        return row[seat] if seat < len(row) else None

    def _placing(self, result: HandResult, seat: int, place: int,
                 finish: Card | None) -> Placing:
        if not result.held[seat] and 0 < self.eliminated_in[seat] < result.number:
            # Out of the pool before this deal: nothing to show for it (IND-31).
            return Placing(seat=seat, place=place, points="–",
                           total=self._score_text(result.totals[seat]),
                           note=tr("eliminated in deal {eliminated_in}",
                                   eliminated_in=self.eliminated_in[seat]))
        placing = Placing(seat=seat, place=place, points=self._score_text(result.points[seat]),
                          total=self._score_text(result.totals[seat]), held=result.held[seat],
                          note=result.notes[seat], finish=finish)
        grouping = self._last_grouping(seat) if result is self.results[-1] else None
        if grouping is None:
            return placing
        why = (tr("no two sequences with a pure one, so every card counts")
               if grouping.counts_all else "")
        return replace(placing, groups=group_views(grouping.melds), deadwood=grouping.deadwood,
                       deadwood_value=grouping.value, grouping_note=why)

    def _deal_keys(self, result: HandResult) -> list[tuple[int, ...]]:
        sign = -1 if self.options.format == "deals" else 1
        return [(0 if s in result.winners else 1 if result.held[s] else 2,
                 sign * result.points[s]) for s in range(self.players)]

    def _match_keys(self) -> list[tuple[int, ...]]:
        fmt = self.options.format
        if fmt == "points":
            return self._deal_keys(self.results[-1])
        if fmt == "deals":
            return [(0, -t) for t in self.totals]
        # Pools: survivors first, then later eliminations before earlier ones.
        return [(0, t, 0) if not self.eliminated[s] else (1, -self.eliminated_in[s], t)
                for s, t in enumerate(self.totals)]

    # -- helpers for tests and the bench ---------------------------------------

    def all_cards(self) -> Counter[Card]:
        """Every card of the deal: hands (in and out of play), both decks and the cut joker."""
        return self.inventory()

    def deck(self) -> Counter[Card]:
        """The cards of the deal in play (IND-3)."""
        return Counter(card_deck(self.packs, self.packs))
