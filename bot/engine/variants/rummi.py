"""Singapore Rummi (rules RMI-1 … RMI-32, ``shared/rules/40-rummi.md``).

112 cards (two packs and 8 jokers), 20 each dealt anticlockwise in batches of
4, the rest set aside unseen; nobody draws or discards. Before play every hand
is checked for Tien Hu (the whole hand divides into melds: that player wins at
once) and then for a passport (no three cards forming a sequence: out before
play). A play is one new 3-card meld (sequence or kill, suits may repeat) or
one card added to a table meld; the first play of a game must be a sequence
(the passport). Jokers on the table are fixed. A player with no play at the
start of a turn is out; emptying the hand is a Hu; the game also ends when at
most one player is not out. Results are chips in half-chip integers, settled
by :func:`bot.engine.rummi_chips.settle` (tiers, Hu payments, joker/Ace
adjustments) and always summing to 0. The turn, passport, out and timeout
skeleton is shared with Penang in :mod:`bot.engine.shedding`.

Moves: :class:`~bot.engine.moves.MeldDown` (exactly one meld of exactly 3
cards), :class:`~bot.engine.moves.LayOff` (exactly one card onto one meld),
:class:`~bot.engine.moves.Done` (``plays_per_turn`` = ``many``),
:class:`Leave` (``/rummy leave``: ``forfeit_move``) and the timer's
:class:`~bot.engine.game.Timeout`. :class:`~bot.engine.moves.Swap` is accepted
as a move type only to be refused with the rule's reason (RMI-13).

For the bot's panels: :func:`add_targets` (the table melds one card can be
added to now), :func:`new_meld_reading` / :func:`is_new_meld` (whether a
3-card selection is a legal new meld now, and how it reads).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..cards import Card, Piece, card_deck
from ..errors import IllegalMove
from ..game import Event, Move, Options, Timeout, option
from ..i18n import figure, joined, tr, trn, who
from ..melds import Meld, describe, extend_meld, read_meld
from ..moves import Done, LayOff, MeldDown, Placed, Swap, placed
from ..notation import check_held
from ..rummi_chips import (
    DEFAULT_TIERS,
    HALVES,
    Payment,
    Settlement,
    card_points,
    parse_tiers,
    settle,
)
from ..rummi_rules import RUMMI_RULES, first_tien_hu
from ..scoring import places
from ..shedding import (
    LayoffTargets,
    SheddingGame,
    any_new_meld,
    best_single_layoff,
    meld_order_key,
    new_meld_candidates,
    single_layoffs,
)
from ..table import TableMeld, deal_in_batches, find_meld, replace_meld
from ..views import HandView, MeldView, Placing, ResultView, SeatState, TableView

HAND_SIZE = 20
"""RMI-5: five rounds of 4."""
DEAL_BATCH = 4
NEW_MELD_SIZE = 3
"""RMI-15: a new meld is exactly 3 cards."""
AUTO_JOKER_VALUE = 20
"""RMI-31: for timeout auto-play only, a joker is worth 20."""


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RummiOptions(Options):
    """The options table of the Rummi spec."""

    plays_per_turn: str = option("one", choices=("one", "many"),
                                 help=tr("plays per turn: one, or many ended by done"))
    hu_chips: int = option(10, bounds=(1, 1000), help=tr("chips each player pays a Hu winner"))
    tiers: str = option(DEFAULT_TIERS, text=parse_tiers,
                        help=tr("chips paid to place 1 by places 2, 3, … joined by -, like "
                                "1-2-3"))
    turn_seconds: int = option(90, bounds=(30, 600), also=(0,),
                               help=tr("turn timer in seconds; 0 = no timer"))
    games: int = option(1, bounds=(1, 20), help=tr("games in the match"))

    @property
    def tier_halves(self) -> tuple[int, ...]:
        """``tiers`` in half-chips (RMI-25)."""
        return parse_tiers(self.tiers)


def auto_value(piece: Piece) -> int:
    """RMI-31: points as RMI-24, but a joker is worth 20 (so it is not spent cheaply)."""
    return AUTO_JOKER_VALUE if piece.is_joker else card_points(piece)


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Leave(Move):
    """The player leaves the match (``/rummy leave``): out now and in every later game.

    Accepted whoever's turn it is. There is no voluntary drop otherwise (RMI-19).
    """

    kind: ClassVar[str] = "leave"


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class RummiGame(SheddingGame):
    """A Rummi match of ``games`` games; scores are integer half-chips (RMI-22)."""

    variant: ClassVar[str] = "rummi"
    title: ClassVar[str] = tr("Rummi (Singapore)")
    min_players: ClassVar[int] = 2  # RMI-1
    max_players: ClassVar[int] = 5
    options_type: ClassVar[type[Options]] = RummiOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (MeldDown, LayOff, Done, Swap, Leave, Timeout)
    lower_is_better: ClassVar[bool] = False
    points_unit: ClassVar[str] = "chip"
    points_scale: ClassVar[int] = HALVES  # RMI-22: results are stored in half-chips
    direction: ClassVar[int] = -1  # RMI-3: anticlockwise
    min_live: ClassVar[int] = 2  # RMI-21: at most one player not out ends the game
    out_state: ClassVar[SeatState] = SeatState.OUT
    out_word: ClassVar[str] = tr("out")
    # i18n: RMI: playing your last card wins the game
    game_word: ClassVar[str] = tr("Hu")
    done_refusal: ClassVar[str] = tr("make a play first: a turn cannot be passed")

    options: RummiOptions = field(default_factory=RummiOptions)
    division: list[Meld] = field(default_factory=list)
    """The Tien Hu winner's division of the hand, when the game was won by Tien Hu (RMI-8)."""
    payments: list[list[Payment]] = field(default_factory=list)
    """Every payment of every finished game, itemised (RMI-23 … RMI-27)."""
    last_division: list[Meld] = field(default_factory=list)
    """The Tien Hu division of the last finished game (empty if it was no Tien Hu)."""

    rules: ClassVar = RUMMI_RULES

    # -- set-up -----------------------------------------------------------

    def hand_size(self) -> int:
        return HAND_SIZE

    def _deck(self) -> list[Card]:
        return card_deck(2, 8)  # RMI-2

    def _deal_hands(self, deck: list[Card], first: int) -> list[list[Card]]:
        """RMI-5: batches of 4, anticlockwise from the dealer's right, five rounds."""
        return deal_in_batches(deck, self.players, first, HAND_SIZE, DEAL_BATCH, self.direction)

    def _before_play(self, events: list[Event]) -> None:
        """RMI-7: leavers out, then (1) Tien Hu, (2) no passport, then RMI-21."""
        self.division = []
        super()._before_play(events)
        order = [s for s in self.turn_order() if not self.out[s]]
        found = first_tien_hu(self.hands, order)  # RMI-8: first in turn order
        if found is not None:
            seat, division = found
            self.division = list(division)
            self.notes[seat] = tr("Tien Hu")
            events.append(Event("tien_hu", tr("{player} holds a Tien Hu: {melds}.",
                                              player=who(seat),
                                              melds=" | ".join(m.codes for m in division)),
                                seat))
            self._end_game(seat, events)
            return
        for seat in order:
            if not any_new_meld(self.hands[seat], self.rules, sets=False):  # RMI-9
                self._put_out(seat, tr("no passport"), events)
        if len(self.live_seats()) < self.min_live:  # RMI-21 right after RMI-7
            self._end_game(None, events)

    # -- the turn-start check (RMI-18) -------------------------------------

    def has_action(self, seat: int) -> bool:
        """Before the passport a new 3-card sequence; after it any new meld or one card added."""
        return has_play(self.hands[seat], self.table, self.passport[seat])

    # -- moves ------------------------------------------------------------

    def _apply(self, move: Move) -> list[Event]:
        number = self.game_number
        if isinstance(move, Done) and self.options.plays_per_turn == "one":
            self.check_turn(move.seat)
            raise IllegalMove(tr("with plays_per_turn one your turn ends by itself after your "
                                 "play"))  # RMI-16
        events = super()._apply(move)
        if isinstance(move, MeldDown | LayOff):
            self.timeouts[move.seat] = 0  # RMI-32: a play of the player's own
            if (self.options.plays_per_turn == "one" and self.phase == "play"
                    and self.game_number == number):
                self._end_turn(events)  # RMI-16: one play, then the turn ends
        return events

    def _act(self, move: Move, events: list[Event]) -> None:
        if isinstance(move, MeldDown):
            if len(move.melds) != 1:
                self.check_turn(move.seat)
                raise IllegalMove(tr("lay one new meld per play"))  # RMI-15
            meld = self.check_new_meld(move.seat, move.melds[0])
            self._lay(move.seat, meld, events)
        elif isinstance(move, LayOff):
            grown = self.check_add(move.seat, move.cards, move.meld)
            self._add(move.seat, move.cards[0][0], move.meld, grown, events)
        elif isinstance(move, Swap):
            self.check_turn(move.seat)
            raise IllegalMove(tr("jokers on the table are fixed: there is no substitution in "
                                 "Rummi"))  # RMI-13
        elif isinstance(move, Leave):
            self._leave(move.seat, events)

    def check_new_meld(self, seat: int, pieces: Sequence[Placed]) -> Meld:
        """RMI-15 (a)/(b), RMI-17: a 3-card meld of cards held; a sequence before the passport."""
        self.check_turn(seat)
        if not pieces:
            raise IllegalMove(tr("name the 3 cards of the new meld"))
        if len(pieces) != NEW_MELD_SIZE:
            raise IllegalMove(_size_refusal(pieces))
        check_held([p for p, _ in pieces], self.hands[seat])
        meld = read_meld(list(pieces), self.rules)  # RMI-10 … RMI-12
        if not self.passport[seat] and not meld.is_run:
            raise IllegalMove(tr("your first play must be a 3-card sequence (passport)"))  # RMI-17
        return meld

    def check_add(self, seat: int, cards: Sequence[Placed], number: int) -> Meld:
        """RMI-15 (c)/(d), RMI-17, RMI-13: one held card onto any table meld; the grown meld."""
        self.check_turn(seat)
        if not cards:
            raise IllegalMove(tr("name the card to add"))
        if not self.passport[seat]:
            raise IllegalMove(tr("no passport yet: lay a 3-card sequence first"))  # RMI-17
        if len(cards) != 1:
            raise IllegalMove(tr("add one card per play"))  # RMI-15
        check_held([cards[0][0]], self.hands[seat])
        target = find_meld(self.table, number)  # RMI-14: anybody's meld
        return extend_meld(target.meld, list(cards), self.rules, number)  # RMI-13

    def _lay(self, seat: int, meld: Meld, events: list[Event]) -> None:
        self._shed(seat, self.own_all(meld.pieces))
        number = len(self.table) + 1
        self.table.append(TableMeld(number, seat, meld))
        events.append(Event("meld", tr("{player} laid meld {number}: {describe}.",
                                       player=who(seat), number=number, describe=describe(meld,
                                       self.rules)), seat))
        self.passport[seat] = True  # RMI-17
        self._after_action(seat, events)

    def _add(self, seat: int, card: Piece, number: int, grown: Meld,
             events: list[Event]) -> None:
        self._shed(seat, [self.own(card)])
        replace_meld(self.table, number, grown)
        events.append(Event("layoff", tr("{player} added {card} to meld {number}: {describe}.",
                                         player=who(seat), card=card.code, number=number,
                                         describe=describe(grown, self.rules)), seat))
        self._after_action(seat, events)

    def forfeit_move(self, seat: int) -> Move | None:
        """``/rummy leave``: the leaver is out now and in every later game of the match."""
        if self.is_over or self.left[seat]:
            return None
        return Leave(seat)

    # -- timeouts (RMI-31) ------------------------------------------------

    def _auto_action(self, seat: int) -> list[Move] | None:
        return auto_play(self, seat)

    # -- scoring (RMI-22 … RMI-28) ----------------------------------------

    def settlement(self, winner: int | None) -> Settlement:
        """This game's chips if it ended now with ``winner`` (a Hu) or on points."""
        return settle(self.hands, self.turn_order(), tiers=self.options.tier_halves,
                      hu_chips=self.options.hu_chips, winner=winner,
                      tien_hu=winner is not None and bool(self.division),
                      last=[s for s in range(self.players) if self.left[s]])

    def _settle(self, winner: int | None) -> tuple[list[int], list[str]]:
        result = self.settlement(winner)
        self.payments.append(list(result.payments))
        self.last_division = list(self.division) if result.tien_hu else []
        notes = []
        for s in range(self.players):
            status = self.notes[s] if s == winner else \
                tr("out ({notes})", notes=self.notes[s]) if self.out[s] else tr("still in")
            if result.points is not None:
                status = tr("{status}, {points} points", status=status, points=result.points[s])
            notes.append(joined(status, *seat_payments(result.payments, s), sep="; "))
        return list(result.chips), notes

    def _game_summary(self, winner: int | None) -> str:
        """Who won and every payment of the game just settled (for the results message)."""
        if winner is not None:
            head = tr("{winner} wins by Tien Hu: {melds}.", winner=who(winner),
                      melds=" | ".join(m.codes for m in self.division)) if self.division else \
                tr("{winner} played their last card: Hu.", winner=who(winner))
        elif self.live_seats():
            head = tr("Only {live_seats} is not out: the game ends on points.",
                      live_seats=who(self.live_seats()[0]))
        else:
            head = tr("Every player is out: the game ends on points.")
        paid = payments_text(self.payments[-1])
        return joined(head, paid, sep=" ") if paid else head

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        """Done (``many``, after a play), every distinct new 3-card meld, every one-card add.

        The timer's Timeout and Leave are not listed.
        """
        if self.is_over or seat != self.turn or self.out[seat]:
            return []
        hand = self.hands[seat]
        moves: list[Move] = []
        if self.actions and self.options.plays_per_turn == "many":
            moves.append(Done(seat))
        moves.extend(MeldDown(seat, (placed(*c),)) for c in new_melds(hand, self.passport[seat]))
        if self.passport[seat]:
            moves.extend(LayOff(seat, placed(p), n)
                         for p, n in single_layoffs(hand, self.table, self.rules))
        return moves

    # -- views ------------------------------------------------------------

    def score_text(self, seat: int) -> str:
        return figure(self.totals[seat] / HALVES, signed=True)

    def table_view(self) -> TableView:
        """Hand sizes, who is out, chip totals (0.5 steps) and every meld with its jokers."""
        panels = self.player_panels()
        where = tr("Game {game_number} of {games}",
                   game_number=self.game_number, games=self.games)
        if self.is_over:
            status = tr("match over")
        elif self.options.plays_per_turn == "one":
            status = tr("{count} in · one play per turn", count=len(self.live_seats()))
        else:
            status = tr("{count} in · many plays per turn", count=len(self.live_seats()))
        return TableView(variant=self.variant, tiles=False, players=panels,
                         melds=tuple(m.view() for m in self.table), to_move=self.to_move,
                         hand_number=self.game_number, hand_label=tr("game"),
                         status=joined(where, status, sep=" · "))

    def hand_view(self, seat: int) -> HandView:
        return HandView(seat=seat, pieces=tuple(self.hands[seat]))

    def result_view(self) -> ResultView:
        """The latest game's chips and payments; places by match chip totals (RMI-29).

        Notes name seats as ``{p0}`` … like events. A Tien Hu winner's hand is shown
        as its winning division.
        """
        last = self.results[-1] if self.results else None
        ranks = places(self.totals, lower_is_better=False)
        placings = []
        for s in range(self.players):
            groups: tuple[MeldView, ...] = ()
            deadwood_value = None
            if last is not None and self.last_division and s in last.winners:
                groups = tuple(MeldView(i + 1, m.pieces, m.faces, m.kind)
                               for i, m in enumerate(self.last_division))
                deadwood_value = 0
            placings.append(Placing(
                seat=s, place=ranks[s],
                points=figure(last.points[s] / HALVES, signed=True) if last else "0",
                total=figure(self.totals[s] / HALVES, signed=True),
                held=last.held[s] if last else (),
                note=last.notes[s] if last else "", groups=groups,
                deadwood_value=deadwood_value))
        title = (trn("Match over after {n} game", "Match over after {n} games",
                     self.game_number) if self.is_over
                 else tr("Game {number} result", number=last.number) if last
                 else tr("No game finished yet"))
        return ResultView(variant=self.variant, title=title,
                          placings=tuple(sorted(placings, key=lambda p: (p.place, p.seat))),
                          seed=self.seed, match_over=self.is_over,
                          run_word=RUMMI_RULES.run_word, set_word=RUMMI_RULES.set_word,
                          pure_runs=False)

    # -- helpers for tests and the bench ---------------------------------------

    def deck(self) -> Counter[Card]:
        return Counter(self._deck())


# ---------------------------------------------------------------------------
# Pure helpers
# ---------------------------------------------------------------------------


def _size_refusal(pieces: Sequence[Placed]) -> str:
    """RMI-15: name the meld kind when the cards would make a longer meld (RMI-E6)."""
    if len(pieces) > NEW_MELD_SIZE:
        try:
            meld = read_meld(list(pieces), RUMMI_RULES)
        except IllegalMove:
            pass
        else:
            word = RUMMI_RULES.run_word if meld.is_run else RUMMI_RULES.set_word
            return tr("a new {word} is exactly 3 cards: lay 3, then add one card per play",
                      word=word)
    return tr("a new meld is exactly 3 cards")


def has_play(hand: Sequence[Piece], table: Sequence[TableMeld], passport: bool) -> bool:
    """RMI-18: a new 3-card sequence; with the passport also a kill or one card added."""
    if any_new_meld(hand, RUMMI_RULES, sets=passport):
        return True
    return passport and LayoffTargets.of(table, RUMMI_RULES).any_fits(hand)


def new_melds(hand: Sequence[Piece], passport: bool) -> list[tuple[Piece, ...]]:
    """Every distinct new 3-card meld ``hand`` may lay (only sequences before the passport)."""
    found = new_meld_candidates(hand, RUMMI_RULES)
    if passport:
        return found
    return [c for c in found if read_meld(list(c), RUMMI_RULES).is_run]


def add_targets(game: RummiGame, seat: int, card: Piece) -> list[int]:
    """Numbers of the table melds ``card`` alone can be added to by ``seat`` now (lowest first).

    Empty when it is not ``seat``'s turn, ``seat`` has no passport or does not hold ``card``.
    """
    if (game.is_over or seat != game.turn or game.out[seat] or not game.passport[seat]
            or card not in game.hands[seat]):
        return []
    return LayoffTargets.of(game.table, game.rules).fitting(card)


def new_meld_reading(game: RummiGame, seat: int, pieces: Sequence[Placed]) -> Meld:
    """How ``pieces`` would be laid as a new meld by ``seat`` now; raises IllegalMove why not."""
    return game.check_new_meld(seat, pieces)


def is_new_meld(game: RummiGame, seat: int, pieces: Sequence[Piece]) -> bool:
    """Whether ``pieces`` (jokers read by default) are a legal new meld for ``seat`` now."""
    try:
        game.check_new_meld(seat, placed(*pieces))
    except IllegalMove:
        return False
    return True


def auto_play(game: RummiGame, seat: int) -> list[Move] | None:
    """RMI-31: the one play the bot makes for a player whose timer expired before any play.

    (1) after the passport, the most valuable card that can be added, onto the
    lowest-numbered meld taking it; (2) otherwise the legal new 3-card meld with
    the lowest total (before the passport a sequence). Jokers count 20 here.
    """
    hand = game.hands[seat]
    if game.passport[seat]:
        single = best_single_layoff(hand, game.table, game.rules, auto_value)
        if single is not None:
            piece, number = single
            return [LayOff(seat, placed(piece), number)]
    candidates = new_melds(hand, game.passport[seat])
    if not candidates:
        return None
    cheapest = min(candidates, key=lambda c: meld_order_key(c, auto_value))
    return [MeldDown(seat, (placed(*cheapest),))]


def seat_payments(payments: Sequence[Payment], seat: int) -> list[str]:
    """``seat``'s part of the payments, netted per other seat: ``pays {p1} 1.5`` …"""
    net: Counter[int] = Counter()
    for p in payments:
        if p.payer == seat:
            net[p.payee] -= p.half_chips
        elif p.payee == seat:
            net[p.payer] += p.half_chips
    lines = []
    for other, amount in sorted(net.items()):
        if amount < 0:
            lines.append(tr("pays {other} {chips}", other=who(other), chips=-amount / HALVES))
        elif amount > 0:
            lines.append(tr("gets {chips} from {other}", chips=amount / HALVES,
                            other=who(other)))
    return lines


def payments_text(payments: Sequence[Payment]) -> str:
    """Every payment itemised: ``{p1} pays {p0} 1 (tier); {p2} pays {p0} 0.5 (joker …)``."""
    if not payments:
        return ""
    each = [tr("{payer} pays {payee} {chips} ({reason})", payer=who(p.payer), payee=who(p.payee),
               chips=p.half_chips / HALVES, reason=p.label) for p in payments]
    return tr("{payments}.", payments=joined(*each, sep="; "))

