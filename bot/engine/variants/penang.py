"""Penang Rummy / Si Rummy (rules PEN-1 … PEN-31, ``shared/rules/30-penang.md``).

Hands of 20 (25 with three players) are dealt from two packs and 6 or 8
jokers (a third pack for five players); nobody ever draws or discards. A turn
is any number of melds, lay-offs and joker swaps, with at least one meld or
lay-off, ended by ``done``. A player with nothing left to play at the start
of their turn is Dead; the first to empty their hand calls Game. Lower
points are better. The turn, passport, Dead and timeout skeleton is shared
with Rummi in :mod:`bot.engine.shedding`.

Moves: :class:`~bot.engine.moves.MeldDown` (one or more new melds, each an
action), :class:`~bot.engine.moves.LayOff` (one or more cards onto one meld,
one action), :class:`~bot.engine.moves.Swap` (a substitution, not an
action), :class:`~bot.engine.moves.Done`, :class:`DeclareDead` and the
timer's :class:`~bot.engine.game.Timeout`. Leaving (``forfeit_move``) is
``DeclareDead(seat, leave=True)``: accepted whoever's turn it is, and the
leaver is Dead at once in every later game of the match.

For the bot's panels: :func:`list_swaps` (the substitutions legal now),
:func:`layoff_melds` (which table melds take a selection of cards) and
:func:`meld_reading` (how a selection would be read as a new meld).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from ..cards import JOKER, NO_SUIT, Card, Face, Piece, card_deck, codes
from ..errors import IllegalMove
from ..game import Event, Move, Options, Timeout, option
from ..i18n import and_list, joined, tr, trn, who
from ..melds import ACES_HIGH_ONLY, ACES_SPAN, Meld, MeldRules, describe, extend_meld, read_meld
from ..moves import Done, LayOff, MeldDown, Placed, Swap, placed
from ..notation import check_held, remove_pieces
from ..scoring import places
from ..shedding import (
    LayoffTargets,
    SheddingGame,
    any_new_meld,
    auto_order,
    best_single_layoff,
    cheapest_new_meld,
    new_meld_candidates,
    single_layoffs,
)
from ..table import TableMeld, find_meld, replace_meld
from ..views import HandView, Placing, ResultView, SeatState, TableView

HAND_SIZES = {2: 20, 3: 25, 4: 20, 5: 20}
"""PEN-5."""


# ---------------------------------------------------------------------------
# Options, rules, points
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PenangOptions(Options):
    """The options table of the Penang spec."""

    jokers: int = option(6, also=(6, 8), help=tr("printed jokers in the deck: 6 or 8"))
    ace_low: bool = option(True, help=tr("A-2-3 is a run; off: an Ace is high only (Q-K-A)"))
    dealer_rule: str = option("winner", choices=("winner", "loser"),
                              help=tr("who deals the next game: lowest or highest points"))
    games: int = option(1, bounds=(1, 20), help=tr("games in the match"))
    turn_seconds: int = option(120, bounds=(30, 600), also=(0,),
                               help=tr("turn timer in seconds; 0 = no timer"))
    points: str = option("standard", choices=("standard",),
                         help=tr("card points: 2–10 face value, J Q K 10, A 15, joker 20"))

    @property
    def meld_rules(self) -> MeldRules:
        return penang_rules(self.ace_low)


@cache
def penang_rules(ace_low: bool = True) -> MeldRules:
    """PEN-8 … PEN-11: runs never wrap (A…A allowed), sets of any size with repeated suits."""
    return MeldRules(runs=ACES_SPAN if ace_low else ACES_HIGH_ONLY, set_max=None,
                     distinct_suits=False, jokers=True)


def card_value(piece: Piece) -> int:
    """PEN-23: 2–10 face value, J Q K 10, Ace 15, joker 20."""
    if piece.is_joker:
        return 20
    if piece.rank == 1:
        return 15
    return min(piece.rank, 10)


def hand_points(pieces: Sequence[Piece]) -> int:
    """PEN-24."""
    return sum(card_value(p) for p in pieces)


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DeclareDead(Move):
    """PEN-18: concede during one's own turn. ``leave``: the player leaves the match."""

    kind: ClassVar[str] = "dead"
    leave: bool = False


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class PenangGame(SheddingGame):
    """A Penang Rummy match of ``games`` games."""

    variant: ClassVar[str] = "penang"
    title: ClassVar[str] = tr("Penang Rummy")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_type: ClassVar[type[Options]] = PenangOptions
    move_types: ClassVar[tuple[type[Move], ...]] = (MeldDown, LayOff, Swap, Done, DeclareDead,
                                                     Timeout)
    lower_is_better: ClassVar[bool] = True
    out_state: ClassVar[SeatState] = SeatState.DEAD
    # i18n: PEN: a player who can play nothing more (say "Mati" if Malaysian players do)
    out_word: ClassVar[str] = tr("Dead")
    game_word: ClassVar[str] = tr("Game")

    options: PenangOptions = field(default_factory=PenangOptions)

    # -- set-up -----------------------------------------------------------

    @property
    def rules(self) -> MeldRules:
        return self.options.meld_rules

    def value(self, piece: Piece) -> int:
        return card_value(piece)

    def hand_size(self) -> int:
        return HAND_SIZES[self.players]  # PEN-5

    def _deck(self) -> list[Card]:
        return card_deck(3 if self.players == 5 else 2, self.options.jokers)  # PEN-2

    # -- the turn-start check (PEN-17) --------------------------------------

    def has_action(self, seat: int) -> bool:
        """A new meld; after the passport also a lay-off, reached through swaps if need be."""
        return has_action(self.hands[seat], self.table, self.rules, self.passport[seat])

    # -- moves ------------------------------------------------------------

    def _apply(self, move: Move) -> list[Event]:
        events = super()._apply(move)
        if isinstance(move, MeldDown | LayOff):
            self.timeouts[move.seat] = 0  # PEN-31: an action of the player's own
        return events

    def _act(self, move: Move, events: list[Event]) -> None:
        if isinstance(move, MeldDown):
            melds = self.check_meld(move.seat, move.melds)
            self._meld(move.seat, melds, events)
        elif isinstance(move, LayOff):
            grown = self.check_layoff(move.seat, move.cards, move.meld)
            self._lay_off(move.seat, [p for p, _ in move.cards], move.meld, grown, events)
        elif isinstance(move, Swap):
            swapped = self.check_swap(move.seat, move.card, move.meld)
            self._swap(move.seat, move.card, move.meld, swapped, events)
        elif isinstance(move, DeclareDead):
            self._concede(move, events)

    def check_meld(self, seat: int, melds: Sequence[Sequence[Placed]]) -> list[Meld]:
        """PEN-13 (a): each group a valid run or set of cards held. Raises IllegalMove."""
        self.check_turn(seat)
        if not melds or not all(melds):
            raise IllegalMove(tr("name the cards of each meld"))
        read = [read_meld(list(m), self.rules) for m in melds]  # PEN-8 … PEN-11
        check_held([p for m in melds for p, _ in m], self.hands[seat])
        return read

    def check_layoff(self, seat: int, cards: Sequence[Placed], number: int) -> Meld:
        """PEN-13 (b), PEN-15: the grown meld. Raises IllegalMove."""
        self.check_turn(seat)
        if not cards:
            raise IllegalMove(tr("name the cards to lay off"))
        if not self.passport[seat]:
            raise IllegalMove(tr("your first action must be a new meld (passport)"))  # PEN-15
        check_held([p for p, _ in cards], self.hands[seat])
        target = find_meld(self.table, number)  # PEN-12: anybody's meld
        return extend_meld(target.meld, list(cards), self.rules, number)

    def check_swap(self, seat: int, card: Piece, number: int) -> Meld:
        """PEN-16: the meld with ``card`` in a joker's place. Raises IllegalMove."""
        self.check_turn(seat)
        if not self.passport[seat]:
            raise IllegalMove(tr("no passport yet: make a new meld first"))  # PEN-15
        if card.is_joker:
            raise IllegalMove(tr("swap a natural card for a joker, not a joker"))
        check_held([card], self.hands[seat])
        target = find_meld(self.table, number)
        return swapped_meld(target.meld, card, number)

    def _meld(self, seat: int, melds: list[Meld], events: list[Event]) -> None:
        for meld in melds:
            self._shed(seat, self.own_all(meld.pieces))
            number = len(self.table) + 1
            self.table.append(TableMeld(number, seat, meld))
            events.append(Event("meld", tr("{player} laid meld {number}: {describe}.",
                                           player=who(seat), number=number, describe=describe(meld,
                                           self.rules)), seat))
        self.passport[seat] = True  # PEN-15
        self.actions += len(melds) - 1
        self._after_action(seat, events)

    def _lay_off(self, seat: int, cards: list[Piece], number: int, grown: Meld,
                 events: list[Event]) -> None:
        self._shed(seat, self.own_all(cards))
        replace_meld(self.table, number, grown)
        events.append(Event("layoff", tr("{player} laid off {cards} on meld {number}: "
                                         "{describe}.",
                                         player=who(seat), cards=codes(cards), number=number,
                                         describe=describe(grown, self.rules)), seat))
        self._after_action(seat, events)

    def _swap(self, seat: int, card: Piece, number: int, swapped: Meld,
              events: list[Event]) -> None:
        self._shed(seat, [self.own(card)])
        self.hands[seat].append(JOKER)
        self._learn(seat, JOKER)  # PEN-16: everyone saw the joker go to this hand
        replace_meld(self.table, number, swapped)
        events.append(Event("swap", tr("{player} swapped {card} for the joker in meld "
                                       "{number}: {describe}.",
                                       player=who(seat), card=card.code, number=number,
                                       describe=describe(swapped, self.rules)), seat))

    def _concede(self, move: DeclareDead, events: list[Event]) -> None:
        """PEN-18 (and leaving the match, see ``forfeit_move``)."""
        seat = move.seat
        if move.leave:
            if self.left[seat]:
                raise IllegalMove(tr("you have already left this game"))
            self.left[seat] = True
            events.append(Event("left", tr("{player} left the game.", player=who(seat)), seat))
            if self.out[seat]:
                return
            self._put_out(seat, "left", events)
        else:
            self.check_turn(seat)  # PEN-18: during one's own turn
            self._put_out(seat, "conceded", events)
        if seat == self.turn:
            self._end_turn(events)
        elif not self.live_seats():
            self._end_game(None, events)

    def forfeit_move(self, seat: int) -> Move | None:
        """``/rummy leave``: the leaver is declared Dead now and in every later game."""
        if self.is_over or self.left[seat]:
            return None
        return DeclareDead(seat, leave=True)

    # -- timeouts (PEN-30) ------------------------------------------------

    def _auto_action(self, seat: int) -> list[Move] | None:
        return auto_action(self, seat)

    # -- scoring (PEN-22 … PEN-27) ----------------------------------------

    def _settle(self, winner: int | None) -> tuple[list[int], list[str]]:
        points = [hand_points(h) for h in self.hands]  # PEN-24
        notes = []
        for s in range(self.players):
            if s == winner:
                notes.append(tr("Game"))
            elif self.out[s]:
                notes.append(tr("Dead ({notes})", notes=self.notes[s]))
            else:
                notes.append("")
        return points, notes

    def _next_dealer(self, points: Sequence[int]) -> int:
        """PEN-27: lowest (``winner``) or highest (``loser``) points; ties by turn order."""
        pick = min if self.options.dealer_rule == "winner" else max
        target = pick(points)
        return next(s for s in self.turn_order() if points[s] == target)

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        """Done, every 3-card new meld, every one-card lay-off, every swap, and Dead.

        Longer melds and several cards laid off at once are legal too but not
        listed (there are far too many); the timer's Timeout is not listed.
        """
        if self.is_over or seat != self.turn or self.out[seat]:
            return []
        hand = self.hands[seat]
        moves: list[Move] = []
        if self.actions:
            moves.append(Done(seat))
        moves.extend(MeldDown(seat, (placed(*c),)) for c in new_meld_candidates(hand, self.rules))
        if self.passport[seat]:
            moves.extend(LayOff(seat, placed(p), n)
                         for p, n in single_layoffs(hand, self.table, self.rules))
            moves.extend(list_swaps(self, seat))
        moves.append(DeclareDead(seat))
        return moves

    # -- views ------------------------------------------------------------

    def table_view(self) -> TableView:
        """Hand sizes, Dead players, match totals and every meld with its jokers' faces."""
        panels = self.player_panels()
        live = len(self.live_seats())
        where = tr("Game {game_number} of {games}",
                   game_number=self.game_number, games=self.games)
        status = tr("match over") if self.is_over else tr("{live} live · to meld, lay off or swap",
                                                      live=live)
        return TableView(variant=self.variant, tiles=False, players=panels,
                         melds=tuple(m.view() for m in self.table), to_move=self.to_move,
                         hand_number=self.game_number, hand_label=tr("game"),
                         status=joined(where, status, sep=" · "))

    def hand_view(self, seat: int) -> HandView:
        return HandView(seat=seat, pieces=tuple(self.hands[seat]))

    def result_view(self) -> ResultView:
        """The latest game: each hand's points and cards; places by match totals (PEN-25/26)."""
        last = self.results[-1] if self.results else None
        ranks = places(self.totals, lower_is_better=True)
        placings = tuple(sorted(
            (Placing(seat=s, place=ranks[s], points=str(last.points[s]) if last else "0",
                     total=str(self.totals[s]), held=last.held[s] if last else (),
                     note=last.notes[s] if last else "")
             for s in range(self.players)), key=lambda p: (p.place, p.seat)))
        title = (trn("Match over after {n} game", "Match over after {n} games",
                     self.game_number) if self.is_over
                 else tr("Game {number} result", number=last.number) if last
                 else tr("No game finished yet"))
        return ResultView(variant=self.variant, title=title, placings=placings, seed=self.seed,
                          match_over=self.is_over)

    # -- helpers for tests and the bench ---------------------------------------

    def deck(self) -> Counter[Card]:
        return Counter(self._deck())


# ---------------------------------------------------------------------------
# Pure helpers: the Dead check, swaps, lay-off targets, auto-play
# ---------------------------------------------------------------------------


def joker_slots(meld: Meld) -> list[int]:
    return [i for i, p in enumerate(meld.pieces) if p.is_joker]


def swapped_meld(meld: Meld, card: Piece, number: int) -> Meld:
    """``meld`` with ``card`` in place of the joker it can replace (PEN-16), or IllegalMove."""
    slots = joker_slots(meld)
    if not slots:
        raise IllegalMove(tr("meld {number} has no joker", number=number))
    if meld.is_run:
        face = Face(card.rank, card.suit)
        slot = next((i for i in slots if meld.faces[i] == face), None)
        if slot is None:
            stands = and_list([meld.faces[i].label() for i in slots])
            if len(slots) == 1:
                raise IllegalMove(tr("JK in meld {number} stands for {stands}; {card} does "
                                     "not fit", number=number, stands=stands, card=card.code))
            raise IllegalMove(tr("the jokers in meld {number} stand for {stands}; {card} fits "
                                 "none of them", number=number, stands=stands, card=card.code))
    else:
        if card.rank != meld.rank:
            raise IllegalMove(tr("meld {number} is a set of {rank}s; {card} does not fit",
                                 number=number, rank=Face(meld.rank, NO_SUIT).label(),
                                 card=card.code))
        slot = slots[0]
    pieces = list(meld.pieces)
    faces = list(meld.faces)
    pieces[slot] = card
    faces[slot] = Face(card.rank, card.suit)
    return Meld(meld.kind, tuple(pieces), tuple(faces), pure=len(slots) == 1)


def possible_swaps(hand: Sequence[Piece], table: Sequence[TableMeld]
                   ) -> list[tuple[Piece, int, int]]:
    """Every distinct (card, meld number, joker slot) substitution ``hand`` allows."""
    held = {p for p in hand if not p.is_joker}
    found: list[tuple[Piece, int, int]] = []
    for table_meld in table:
        meld = table_meld.meld
        seen: set[Piece] = set()
        for slot in joker_slots(meld):
            candidates: list[Piece]
            if meld.is_run:
                face = meld.faces[slot]
                candidates = [Card(face.rank, face.suit)]
            else:
                candidates = sorted((c for c in held if c.rank == meld.rank),
                                    key=lambda c: c.suit)
            for card in candidates:
                if card in held and card not in seen:
                    seen.add(card)
                    found.append((card, table_meld.number, slot))
    return found


def has_action(hand: Sequence[Piece], table: Sequence[TableMeld], rules: MeldRules,
               passport: bool) -> bool:
    """PEN-17: a legal new meld; with a passport also a lay-off, after swaps if need be."""
    if any_new_meld(hand, rules):
        return True
    if not passport:
        return False
    if LayoffTargets.of(table, rules).any_fits(hand):
        return True
    return swap_path(hand, table, rules)


def swap_path(hand: Sequence[Piece], table: Sequence[TableMeld], rules: MeldRules) -> bool:
    """Whether some sequence of swaps leads to a new meld or a lay-off (PEN-17, PEN-E13)."""
    return _swap_path(list(hand), list(table), rules, set())


def _swap_path(hand: list[Piece], table: list[TableMeld], rules: MeldRules,
               tried: set[frozenset[tuple[int, int]]], done: frozenset = frozenset()) -> bool:
    """Does some sequence of swaps lead to a meld or a lay-off (PEN-E13)?"""
    for card, number, slot in possible_swaps(hand, table):
        key = done | {(number, slot)}
        if key in tried:
            continue
        tried.add(key)
        new_hand = [*remove_pieces(hand, [card]), JOKER]
        new_table = _table_after_swap(table, card, number)
        if any_new_meld(new_hand, rules) or LayoffTargets.of(new_table, rules).any_fits(new_hand):
            return True
        if _swap_path(new_hand, new_table, rules, tried, key):
            return True
    return False


def _table_after_swap(table: Sequence[TableMeld], card: Piece, number: int) -> list[TableMeld]:
    result = list(table)
    index = next(i for i, m in enumerate(result) if m.number == number)
    result[index] = TableMeld(number, result[index].owner,
                              swapped_meld(result[index].meld, card, number))
    return result


def list_swaps(game: PenangGame, seat: int) -> list[Swap]:
    """The substitutions ``seat`` may make now (offered as *Swap for joker*)."""
    if game.is_over or seat != game.turn or game.out[seat] or not game.passport[seat]:
        return []
    return [Swap(seat, card, number) for card, number, _ in
            possible_swaps(game.hands[seat], game.table)]


def layoff_melds(game: PenangGame, seat: int, pieces: Sequence[Piece]) -> list[int]:
    """Numbers of the table melds that take ``pieces`` (all together) as one lay-off now."""
    if not pieces:
        return []
    found = []
    for table_meld in game.table:
        try:
            game.check_layoff(seat, placed(*pieces), table_meld.number)
        except IllegalMove:
            continue
        found.append(table_meld.number)
    return found


def meld_reading(game: PenangGame, seat: int, pieces: Sequence[Placed]) -> Meld:
    """How ``pieces`` would be laid as a new meld by ``seat`` now; raises IllegalMove why not."""
    return game.check_meld(seat, [pieces])[0]


def auto_action(game: PenangGame, seat: int) -> list[Move] | None:
    """PEN-30: the one action the bot makes for a player whose timer expired.

    (1) with a passport, the most valuable single card that fits, onto the
    lowest-numbered meld taking it; (2) otherwise the cheapest legal new
    3-card meld; (3) otherwise the first swap (meld order, then joker, then
    card in the order of (1)) freeing a joker that can then be laid off,
    and that joker onto the lowest-numbered meld taking it. ``None`` if
    nothing at all is possible.
    """
    hand = game.hands[seat]
    rules = game.rules
    has_passport = game.passport[seat]
    if has_passport:
        single = best_single_layoff(hand, game.table, rules, card_value)
        if single is not None:
            piece, number = single
            return [LayOff(seat, placed(piece), number)]
    cheapest = cheapest_new_meld(hand, rules, card_value)
    if cheapest is not None:
        return [MeldDown(seat, (placed(*cheapest),))]
    if not has_passport:
        return None
    swaps = sorted(possible_swaps(hand, game.table),
                   key=lambda s: (s[1], s[2], [-x for x in auto_order(s[0], card_value)]))
    for card, number, _slot in swaps:
        new_table = _table_after_swap(game.table, card, number)
        fits = LayoffTargets.of(new_table, rules).fitting(JOKER)
        if fits:
            return [Swap(seat, card, number), LayOff(seat, placed(JOKER), fits[0])]
    return None
