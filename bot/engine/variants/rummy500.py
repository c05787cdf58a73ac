"""Rummy 500 (rules FHR-1 … FHR-42, ``shared/rules/80-rummy500.md``).

Melds and lay-offs score for the player who puts them down, cards left in
hand count against, and the discard pile is spread: any card in it may be
taken with every card above it, the picked card used at once in a new meld
or a lay-off on anyone's meld (FHR-18). The first to 500 wins.

The match, the deal, the stock and its empty-stock rules, draws, melds,
lay-offs, discards and the spread-pile take (its checks and the listing of
legal takes) are the shared :class:`~bot.engine.drawdiscard.DrawDiscardGame`,
as for Remi (FHR-33); this module adds Rummy 500's options and values, the
use of a take, the credit of every table card to the player who placed it
(FHR-15), scoring, the end of the match and the timeout rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import ClassVar

from ..cards import Card, Piece, card_deck, codes, sort_by_rank, sort_by_suit
from ..drawdiscard import (
    MAX_RESHUFFLES,
    TIMEOUTS_TO_ACT,
    DrawDiscardGame,
    TakeVerdict,
    layoff_kin,
    possible_layoffs,
    possible_melds,
)
from ..errors import IllegalMove, InvalidOptions
from ..game import Event, HandResult, Move, Options, Timeout, option
from ..melds import ACES_AROUND, Meld, MeldRules, RunShape, extend_meld, is_meld, read_meld
from ..moves import Discard, Draw, LayOff, MeldDown, Take
from ..notation import check_held, remove_pieces
from ..scoring import best_seats, places
from ..table import find_meld, replace_meld
from ..views import MeldView, Placing, PlayerPanel, ResultView, SeatState, TableView

TWO_PLAYER_DEALS = (10, 13)
"""FHR-7: cards each with two players (``two_player_deal``)."""
HAND_SIZE = 7
"""FHR-7: cards each with 3 to 8 players."""
JOKERS_PER_PACK = 2
"""FHR-4."""
JOKERS_OFF = "jokers are off in this game"

ACES_HIGH_OR_LOW = RunShape("both", (tuple(range(1, 14)), (*range(2, 14), 1)),
                            "an ace is high or low, not both")
"""FHR-11 ``both``: A-2-3 and Q-K-A, never K-A-2."""


@dataclass(frozen=True)
class Rummy500Options(Options):
    """The options table of the Rummy 500 spec (FHR-32)."""

    decks: str = option("auto", choices=("auto", "1", "2"),
                        help="packs: auto is one for 2–4 players and two for 5–8")
    jokers: bool = option(False, help="add 2 jokers per pack (each scores 15)")
    two_player_deal: int = option(13, also=TWO_PLAYER_DEALS,
                                  help="cards each with two players: 13 or 10")
    aces: str = option("both", choices=("both", "around"),
                       help="both: an ace is high (Q-K-A) or low (A-2-3, scoring 1); "
                            "around: K-A-2 too, every ace scores 15")
    free_top_card: bool = option(False, help="the top pile card may be taken without using "
                                             "it at once (but not discarded that turn)")
    discard_to_go_out: bool = option(False, help="going out needs a final discard")
    stock_out: str = option("pile", choices=("pile", "reshuffle", "end"),
                            help="empty stock: play on from the pile (a draw ends the hand), "
                                 "reshuffle the pile (twice at most), or end the hand")
    target: int = option(500, bounds=(100, 5000), help="the game ends once a score reaches "
                                                       "this")
    hands: int | None = option(None, bounds=(1, 50),
                               help="play exactly this many hands instead of playing to target")
    finish: str = option("highest", choices=("highest", "went_out"),
                         help="at the target: the highest score wins, or the player who went "
                              "out if they reached it")
    turn_seconds: int = option(90, bounds=(10, 600), also=(0,),
                               help="seconds per turn; 0 turns the timer off")

    @property
    def meld_rules(self) -> MeldRules:
        """FHR-10 … FHR-13: runs by ``aces``, sets of 3 or 4 in different suits."""
        return meld_rules(self.aces, self.jokers)


@cache
def meld_rules(aces: str, jokers: bool) -> MeldRules:
    """One rules object per choice, so the arrangement search finds its tables by identity."""
    runs = ACES_AROUND if aces == "around" else ACES_HIGH_OR_LOW
    return MeldRules(runs=runs, set_max=4, jokers=jokers, no_jokers_reason=JOKERS_OFF)


def card_value(card: Piece) -> int:
    """FHR-5 for a card in hand: pips, J Q K 10, ace and joker 15."""
    if card.is_joker or card.rank == 1:
        return 15
    return min(card.rank, 10)


def table_values(meld: Meld, aces: str) -> list[int]:
    """FHR-5 for each card of a table meld: an ace beginning a run (A-2-3 …) scores 1.

    Jokers score 15 whatever they stand for (FHR-A2); with ``around`` every ace is 15.
    """
    values = [card_value(p) for p in meld.pieces]
    if (aces == "both" and meld.is_run and meld.faces[0].rank == 1 and len(meld) > 1
            and meld.faces[1].rank == 2 and not meld.pieces[0].is_joker):
        values[0] = 1
    return values


def timeout_order(card: Card) -> tuple[int, int, int]:
    """FHR-39: highest value, then higher rank (A, K, Q … 2), then suit S, H, D, C."""
    return (card_value(card), 14 if card.rank == 1 else card.rank, -card.suit)


def candidate_melds(hand: Sequence[Card], rules: MeldRules) -> list[Meld]:
    """Distinct melds made of ``hand``: natural ones, and with jokers on, two natural cards
    and one joker (enough for the computer and the listing of legal moves)."""
    naturals = [c for c in hand if not c.is_joker]
    found = possible_melds(naturals, rules)
    joker = next((c for c in hand if c.is_joker), None)
    if joker is not None and rules.jokers:
        seen = {tuple(sorted(m.pieces, key=lambda p: p.index)) for m in found}
        for a, b in combinations(sorted(set(naturals), key=lambda c: c.index), 2):
            if a.rank != b.rank and (a.suit != b.suit or abs(a.rank - b.rank) > 2):
                continue
            if a.rank == b.rank and a.suit == b.suit:
                continue
            if is_meld([a, b, joker], rules):
                meld = read_meld([a, b, joker], rules)
                key = tuple(sorted(meld.pieces, key=lambda p: p.index))
                if key not in seen:
                    seen.add(key)
                    found.append(meld)
    return found


def cards_in_held_melds(hand: Sequence[Card], rules: MeldRules) -> set[Card]:
    """FHR-39: the cards of ``hand`` that belong to some meld of held cards."""
    return {c for meld in candidate_melds(hand, rules) for c in Rummy500Game.own_all(meld.pieces)}


@dataclass(kw_only=True)
class Rummy500Game(DrawDiscardGame):
    """A Rummy 500 match: hands until a score reaches ``target`` (or ``hands`` are played).

    ``credit`` keeps, for every table meld (in table order) and every card in it
    (in the meld's order), the seat that placed that card (FHR-15): melds,
    lay-offs and takes credit their cards to whoever made them.
    """

    variant: ClassVar[str] = "rummy500"
    title: ClassVar[str] = "Rummy 500"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_type: ClassVar[type[Options]] = Rummy500Options
    move_types: ClassVar[tuple[type[Move], ...]] = (Draw, Take, MeldDown, LayOff, Discard,
                                                    Timeout)
    draw_sources: ClassVar[tuple[str, ...]] = ("stock",)
    already_drawn: ClassVar[str] = "you have already drawn"  # FHR-16
    acquire_first: ClassVar[str] = "draw or take first"  # FHR-16
    empty_stock_draw_ends: ClassVar[bool] = True  # FHR-24
    out_of_hand: ClassVar[str] = "you were removed from this hand for inactivity"  # FHR-41
    take_depth: ClassVar[int | None] = None  # FHR-18: any position

    options: Rummy500Options = field(default_factory=Rummy500Options)
    credit: list[list[int]] = field(default_factory=list)
    """Per table meld, the seat that placed each of its cards (FHR-15)."""

    # -- set-up -----------------------------------------------------------

    @property
    def rules(self) -> MeldRules:
        return self.options.meld_rules

    @property
    def keep_a_card(self) -> bool:
        return self.options.discard_to_go_out  # FHR-23

    @property
    def taken_locked(self) -> bool:
        return self.options.free_top_card  # FHR-19 (``taken`` is set by a free take only)

    @property
    def packs(self) -> int:
        """FHR-3: one pack for 2–4 players and two for 5–8 unless ``decks`` says."""
        if self.options.decks == "auto":
            return 2 if self.players >= 5 else 1
        return int(self.options.decks)

    def _check_setup(self) -> None:
        if self.options.decks == "1" and self.players >= 5:
            raise InvalidOptions("use two packs with 5 or more players")  # FHR-3

    def _deck(self, order: Sequence[int]) -> list[Card]:
        packs = self.packs
        return card_deck(packs, JOKERS_PER_PACK * packs if self.options.jokers else 0)

    def hand_size(self, dealt: int) -> int:
        return self.options.two_player_deal if dealt == 2 else HAND_SIZE  # FHR-7

    def check_piece(self, piece: Piece) -> None:
        if piece.is_joker and not self.options.jokers:
            raise IllegalMove(JOKERS_OFF)  # FHR-4

    def _start_hand(self, order: Sequence[int], events: list[Event]) -> None:
        self.credit = []
        events.append(Event("hand_started", f"Hand {self.hand_number}: {{p{self.dealer}}} deals "
                            f"{self.hand_size(len(order))} cards each; {self.pile[-1].code} "
                            f"starts the discard pile; {{p{self.turn}}} plays first."))

    def _stock_empty(self, events: list[Event]) -> bool:
        """FHR-24 – FHR-26: a turn begins with an empty stock; False when the hand ended."""
        mode = self.options.stock_out
        if mode == "pile":
            if self.pile:
                return True  # FHR-24: take from the pile, or draw to end the hand
            self._end_hand(None, "The stock and the discard pile are empty: the hand ends.",
                           events)
        elif mode == "reshuffle" and len(self.pile) >= 2 and self.reshuffles < MAX_RESHUFFLES:
            self._reshuffle(events)  # FHR-25
            return True
        elif mode == "reshuffle":
            self._end_hand(None, "The stock ran out and cannot be refilled again: the hand "
                           "ends.", events)
        else:
            self._end_hand(None, "The stock ran out: the hand ends.", events)  # FHR-26
        return False

    def _stock_ran_out(self, events: list[Event]) -> None:
        seat = self.turn
        self._end_hand(None, f"{{p{seat}}} drew from the empty stock: the hand ends.",
                       events)  # FHR-24, FHR-A6

    # -- table credit (FHR-15) ----------------------------------------------------

    def _lay_meld(self, seat: int, meld: Meld) -> int:
        self.credit.append([seat] * len(meld))
        return super()._lay_meld(seat, meld)

    def _credit_growth(self, number: int, grown: Meld, seat: int) -> None:
        """Meld ``number`` became ``grown``: its old cards keep their placers, the new ones
        are ``seat``'s (cards are matched with what they stand for, so jokers keep theirs)."""
        old = find_meld(self.table, number).meld
        index = next(i for i, m in enumerate(self.table) if m.number == number)
        pool = list(zip(old.pieces, old.faces, self.credit[index], strict=True))
        credit = []
        for piece, face in zip(grown.pieces, grown.faces, strict=True):
            match = next((i for i, (p, f, _) in enumerate(pool) if p == piece and f == face),
                         None)
            if match is None:
                credit.append(seat)
            else:
                credit.append(pool.pop(match)[2])
        self.credit[index] = credit

    def _lay_off(self, number: int, cards: Sequence[Card], grown: Meld,
                 events: list[Event]) -> None:
        self._credit_growth(number, grown, self.turn)
        super()._lay_off(number, cards, grown, events)

    def _remove(self, seat: int, cards: Sequence[Card]) -> None:
        super()._remove(seat, cards)
        if self.taken is not None and self.taken not in self.hands[seat]:
            self.taken = None  # FHR-19: a free top card melded or laid off locks nothing more

    def table_points(self, seat: int) -> int:
        """FHR-27: the value of every table card credited to ``seat``."""
        total = 0
        for table_meld, credit in zip(self.table, self.credit, strict=True):
            values = table_values(table_meld.meld, self.options.aces)
            total += sum(v for v, who in zip(values, credit, strict=True) if who == seat)
        return total

    def hand_value(self, seat: int) -> int:
        return sum(card_value(c) for c in self.hands[seat])

    # -- the take (FHR-18, FHR-19) ---------------------------------------------------

    def take_verdict(self, seat: int, card: Card, with_cards: Sequence[Card],
                     position: int | None = None, meld: int | None = None) -> TakeVerdict:
        """Whether ``seat`` may take ``card`` and use it as named (FHR-18), and why not.

        The picked card and every card above it reach the hand first, so ``with_cards``
        may include cards just taken (FHR-A3). Turn and phase are not judged here.
        """
        try:
            for piece in (card, *with_cards):
                self.check_piece(piece)
        except IllegalMove as error:
            return TakeVerdict(False, str(error))
        where = self.pile_refusal(card, None, position)
        if isinstance(where, str):
            return TakeVerdict(False, where)
        received = self.cards_above(where)
        if not with_cards and meld is None:
            if self.options.free_top_card and where == 1:  # FHR-19
                return TakeVerdict(True, f"takes {card.code}", where, None, received)
            return TakeVerdict(False, f"say how you use {card.code}: with:<cards> for a new "
                               "meld or meld:<n> to lay it off")
        pool = [*self.hands[seat], *received]
        try:
            check_held(with_cards, pool)
            if meld is None:
                made = read_meld(sort_by_rank([card, *with_cards]), self.rules)
            else:
                made = extend_meld(find_meld(self.table, meld).meld, [card, *with_cards],
                                   self.rules, meld)
        except IllegalMove as error:
            return TakeVerdict(False, str(error))
        if self.keep_a_card and not remove_pieces(pool, with_cards):
            return TakeVerdict(False, "keep a card to discard")  # FHR-23
        how = f"lays {made.codes}" if meld is None else f"lays off on meld {meld}"
        return TakeVerdict(True, how, where, made, received, tuple(with_cards), meld)

    def _take_candidates(self, seat: int, picked: Card, position: int) -> list[Take]:
        """Every meld with ``picked`` from the hand and the cards above it, every lay-off of
        it (with hand cards) on a table meld, and the free top card (FHR-19)."""
        at = position if self.position_of(picked) != position else None
        found: list[Take] = []
        if position == 1 and self.options.free_top_card:
            found.append(Take(seat, picked, position=at))
        pool = [*self.hands[seat], *self.cards_above(position)]
        near = [c for c in pool if c.is_joker or c.rank == picked.rank or c.suit == picked.suit]
        for made in candidate_melds([*near, picked], self.rules):
            pieces = self.own_all(made.pieces)
            if picked in pieces:
                found.append(Take(seat, picked, tuple(remove_pieces(pieces, [picked])),
                                  position=at))
        for table_meld in self.table:
            if not layoff_kin(table_meld.meld)(picked):
                continue
            for group in possible_layoffs([*pool, picked], table_meld.meld, self.rules,
                                          table_meld.number):
                if picked in group:
                    found.append(Take(seat, picked, tuple(remove_pieces(group, [picked])),
                                      meld=table_meld.number, position=at))
        return found

    def _take(self, verdict: TakeVerdict, events: list[Event]) -> None:
        """FHR-18: the picked card and those above it reach the hand, then the picked card is
        laid in its meld or lay-off; the hand may empty (FHR-23)."""
        seat = self.turn
        picked, above = self._lift(verdict.position)
        self._receive(seat, [picked, *above])
        self.phase = self.play_phase
        got = f"; {codes(above)} went to their hand" if above else ""
        where = f"{picked.code} from position {verdict.position}"
        if verdict.meld is None:  # FHR-19: a free top card
            events.append(Event("take", f"{{p{seat}}} took {where}.", seat))
            return
        self.taken = None  # used at once: nothing is locked (FHR-19 concerns a free take)
        used = [picked, *verdict.with_cards]
        if verdict.onto is None:
            self._remove(seat, used)
            number = self._lay_meld(seat, verdict.meld)
            made = f"laid meld {number}: {verdict.meld.codes}"
        else:
            self._credit_growth(verdict.onto, verdict.meld, seat)
            self._remove(seat, used)
            replace_meld(self.table, verdict.onto, verdict.meld)
            made = f"laid off {codes(used)} on meld {verdict.onto}: {verdict.meld.codes}"
        events.append(Event("take", f"{{p{seat}}} took {where}{got}, and {made}.", seat))
        self._after_play(events)

    # -- going out, timeouts ----------------------------------------------------------

    def _went_out(self, seat: int, events: list[Event]) -> None:
        self._end_hand(seat, f"{{p{seat}}} went out.", events)  # FHR-23

    def _timeout(self, events: list[Event]) -> None:
        """FHR-39 – FHR-42: draw if needed, discard by the fixed rule, count, remove."""
        seat, number = self.turn, self.hand_number
        events.append(Event("timeout", f"{{p{seat}}} ran out of time; the bot played for them.",
                            seat))
        self.timeouts[seat] += 1  # FHR-40
        if self.phase == self.draw_phase:
            self._draw(self.stock_source, events)
            if self.hand_number != number or self.is_over:
                return  # an empty stock under ``pile``: the draw ended the hand (FHR-24)
        self._put_on_pile(seat, self.timeout_discard(seat), events)
        if not self.hands[seat]:
            self._went_out(seat, events)
            return
        if self.timeouts[seat] >= TIMEOUTS_TO_ACT:  # FHR-41
            still = self._remove_inactive(seat, events)
            if len(still) == 1:  # FHR-42
                self._end_hand(None, f"{{p{still[0]}}} is the last active player: the hand "
                               "ends.", events)
                return
        self._pass_turn(events)

    def timeout_discard(self, seat: int) -> Card:
        """FHR-39: the card the bot discards for ``seat``."""
        hand = self.hands[seat]
        candidates = [c for c in hand if not (self.taken_locked and c == self.taken)]
        in_melds = cards_in_held_melds(hand, self.rules)
        pool = [c for c in candidates if c not in in_melds] or candidates
        pool = [c for c in pool if not c.is_joker] or pool
        return max(pool, key=timeout_order)

    # -- the end of a hand and of the match -------------------------------------------

    def _end_hand(self, out: int | None, summary: str, events: list[Event]) -> None:
        """FHR-27, FHR-28: table points minus hand value for everyone, removed players too."""
        n = self.players
        table = [self.table_points(s) for s in range(n)]
        held = [self.hand_value(s) for s in range(n)]
        points = [table[s] - held[s] for s in range(n)]
        notes = []
        for s in range(n):
            parts = ["went out"] if s == out else []
            if not self.active[s]:
                parts.append("removed")
            parts.append(f"table {table[s]}, hand −{held[s]}")
            notes.append(", ".join(parts))
        self._finish_hand(winners=(out,) if out is not None else (), points=points,
                          notes=notes, summary=summary, events=events)

    def _hand_over_text(self, result: HandResult) -> str:
        """FHR-36: per player, table points, hand cards and their value, hand and total."""
        lines = []
        for s in range(self.players):
            held = result.held[s]
            cards = f"{codes(sort_by_suit(held))} = {sum(card_value(c) for c in held)}" \
                if held else "no cards"
            table = result.points[s] + sum(card_value(c) for c in held)
            lines.append(f"{{p{s}}}: table {table}, hand {cards}, {result.points[s]:+d} → "
                         f"{result.totals[s]}")
        return f"{result.summary} " + "; ".join(lines) + "."

    def _match_over(self) -> bool:
        """FHR-29 – FHR-31: a fixed number of hands, or a single winner at the target."""
        limit = self.hands_to_play
        if limit is not None:
            return self.hand_number >= limit
        if max(self.totals) < self.target_score:
            return False
        return len(self._target_winners()) == 1

    def _target_winners(self) -> tuple[int, ...]:
        """FHR-30: the player who went out at or above the target (``went_out``), else the
        highest scores (more than one: FHR-31 plays another hand)."""
        last = self.results[-1] if self.results else None
        if (self.options.finish == "went_out" and last is not None and last.winners
                and self.totals[last.winners[0]] >= self.target_score):
            return (last.winners[0],)
        return best_seats(self.totals, False)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        if self.hands_to_play is not None:
            return best_seats(self.totals, False)  # FHR-29: ties share
        return self._target_winners()

    # -- legal moves ------------------------------------------------------

    def legal_moves(self, seat: int) -> list[Move]:
        if self.is_over or seat != self.turn or not self.active[seat]:
            return []
        if self.phase == self.draw_phase:
            return [Draw(seat, "stock"), *self.takes(seat)]
        return self._play_moves(seat, candidate_melds(self.hands[seat], self.rules))

    # -- views ------------------------------------------------------------

    def _state(self, seat: int) -> SeatState:
        if self.is_over:
            return SeatState.WON if seat in self.winners else SeatState.LOST
        return SeatState.PLAYING if self.active[seat] else SeatState.OUT

    def meld_views(self) -> tuple[MeldView, ...]:
        """FHR-9, FHR-35: every meld with its number and each card's placer."""
        return tuple(MeldView(m.number, m.meld.pieces, m.meld.faces, m.meld.kind, m.owner,
                              placers=tuple(credit))
                     for m, credit in zip(self.table, self.credit, strict=True))

    def table_view(self) -> TableView:
        """FHR-9, FHR-35: the spread pile with positions, melds and placers, counts, points."""
        panels = tuple(PlayerPanel(seat=s, pieces_left=len(self.hands[s]),
                                   score=str(self.totals[s]), state=self._state(s),
                                   to_move=s == self.to_move, dealer=s == self.dealer,
                                   note=("removed · " if not self.active[s] else "")
                                   + f"table {self.table_points(s)}")
                       for s in range(self.players))
        where = (f"Hand {self.hand_number} of {self.options.hands}" if self.options.hands
                 else f"Hand {self.hand_number} · playing to {self.options.target}")
        phase = {"draw": "to draw or take", "play": "to meld, lay off or discard",
                 "over": "game over"}[self.phase]
        return TableView(variant=self.variant, tiles=False, players=panels,
                         melds=self.meld_views(), discard=tuple(self.pile),
                         discard_marked=len(self.pile), stock=len(self.stock),
                         to_move=self.to_move, hand_number=self.hand_number,
                         status=f"{where} · {phase}")

    def result_view(self) -> ResultView:
        """The latest hand's scores (FHR-36), or the game's standings once it is over."""
        n = self.players
        last = self.results[-1] if self.results else None
        if last is None:
            return ResultView(variant=self.variant, title="No hand finished yet",
                              placings=tuple(Placing(seat=s, place=1, points="0", total="0")
                                             for s in range(n)), seed=self.seed)
        keys = self.totals if self.is_over else list(last.points)
        ranks = places(keys, False)
        if self.is_over:
            ranks = [1 if s in self.winners else max(2, r) for s, r in enumerate(ranks)]
        placings = tuple(sorted(
            (Placing(seat=s, place=ranks[s], points=f"{last.points[s]:+d}",
                     total=str(last.totals[s]), held=last.held[s], note=last.notes[s])
             for s in range(n)), key=lambda p: (p.place, p.seat)))
        hands = f"{self.hand_number} hand" + ("s" if self.hand_number != 1 else "")
        title = f"Game over after {hands}" if self.is_over else f"Hand {last.number} result"
        return ResultView(variant=self.variant, title=title, placings=placings, seed=self.seed,
                          match_over=self.is_over)

