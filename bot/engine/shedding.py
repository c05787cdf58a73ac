"""Shedding games: dealt hands, no draw, a passport, out of play when stuck.

Penang Rummy (PEN, ``variants/penang.py``) and Rummi (RMI, to come) share a
shape that the draw–meld–discard games do not:

* every player is dealt a big hand and the rest of the deck is set aside
  unseen; nobody ever draws or discards (PEN-5/PEN-7, RMI-5);
* a turn is one or more *actions* (a new meld, or a lay-off onto any table
  meld) ended by :class:`~bot.engine.moves.Done` (PEN-14, RMI-16 ``many``);
* a player's first action of the game must be a new meld, the *passport*
  (PEN-15, RMI-17);
* at the start of each of a player's turns the engine checks whether they
  have any legal action; if not they are out of the game (Penang "Dead",
  Rummi "out") and the turn passes, skipping them from then on (PEN-17,
  RMI-18);
* a hand that empties ends the game at once (PEN-20, RMI-20); so does the
  number of players still in falling below :attr:`SheddingGame.min_live`
  (Penang: nobody left, the last player plays on alone, PEN-21; Rummi: at most
  one left, RMI-21);
* timer expiry after an action ends the turn as ``done``; before any action
  the engine plays one action by a fixed rule and ends the turn; the third
  consecutive expiry puts the player out instead (PEN-28…31, RMI-30…32).

:class:`SheddingGame` is that skeleton: the match (games, totals, dealer,
timeout counts), the deal, the turn loop with its turn-start check, ``done``,
timeouts and the end of a game. A variant supplies the deck, the hand size,
its actions (:meth:`SheddingGame._act`), its check (:meth:`SheddingGame.has_action`),
the timeout choice (:meth:`SheddingGame._auto_action`), scoring
(:meth:`SheddingGame._settle`) and the next dealer.

The "any legal action left?" check runs at every turn start on hands of
20–25 cards against tables of 20 or more melds, so it is built from quick
predicates on counts rather than from trying melds: :func:`any_new_meld`
(some 3-card meld exists: any longer meld contains one, because a meld keeps
a natural card in every 3-card window or subset) and :class:`LayoffTargets`
(some single piece fits some table meld: any multi-piece lay-off contains
one, since a run grows from its ends and a set takes any card of its rank).
:func:`new_meld_candidates`, :func:`single_layoffs`,
:func:`best_single_layoff` and :func:`cheapest_new_meld` list and rank the
same actions for legal-move lists, timeouts and computer players.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from typing import ClassVar, Self

from .cards import JOKER, Card, Piece
from .errors import IllegalMove
from .game import Event, Game, HandResult, Move, Timeout
from .i18n import and_list, tr, trn, who
from .melds import MeldRules, RunShape
from .moves import Done
from .notation import remove_pieces
from .rng import Rng
from .scoring import best_seats
from .table import TableMeld, deal_one_at_a_time, next_seat
from .views import PlayerPanel, SeatState

TIMEOUTS_OUT = 3
"""PEN-31, RMI-32: the consecutive timeout that puts a player out instead of auto-play."""

Value = Callable[[Piece], int]


# ---------------------------------------------------------------------------
# Quick predicates for the turn-start check
# ---------------------------------------------------------------------------


@cache
def run_ends(shape: RunShape, ranks: tuple[int, ...]) -> tuple[int | None, int | None]:
    """The ranks a run with these ranks (in run order) would take below and above its ends.

    ``None`` where the run already reaches the end of its line (K-A-2 never wraps).
    """
    length = len(ranks)
    for line in shape.lines:
        for start in range(len(line) - length + 1):
            if line[start:start + length] == ranks:
                below = line[start - 1] if start > 0 else None
                end = start + length
                above = line[end] if end < len(line) else None
                return below, above
    return None, None


@dataclass(frozen=True, slots=True)
class MeldTargets:
    """The single pieces one table meld takes as a lay-off."""

    number: int
    faces: frozenset[tuple[int, int]] = frozenset()
    """Run ends, as (rank, suit)."""
    rank: int = 0
    """A set's rank (0 for a run)."""
    suits_taken: frozenset[int] = frozenset()
    """Suits a set already holds (only matters when suits may not repeat)."""
    joker: bool = False
    """A joker fits (a run with a free end, a set with room)."""

    @classmethod
    def of(cls, table_meld: TableMeld, rules: MeldRules) -> MeldTargets:
        meld = table_meld.meld
        if meld.is_run:
            ranks = tuple(f.rank for f in meld.faces)
            below, above = run_ends(rules.runs, ranks)
            suit = meld.suit
            faces = frozenset((r, suit) for r in (below, above) if r is not None)
            return cls(table_meld.number, faces=faces, joker=bool(faces) and rules.jokers)
        room = rules.set_max is None or len(meld) < rules.set_max
        suits = frozenset(f.suit for f in meld.faces if not f.suit_open)
        return cls(table_meld.number, rank=meld.rank if room else 0, suits_taken=suits,
                   joker=room and rules.jokers)

    def takes(self, piece: Piece, rules: MeldRules) -> bool:
        if piece.is_joker:
            return self.joker
        if self.rank:
            return piece.rank == self.rank and not (
                rules.distinct_suits and piece.suit in self.suits_taken)
        return (piece.rank, piece.suit) in self.faces


@dataclass(frozen=True, slots=True)
class LayoffTargets:
    """Every table meld's :class:`MeldTargets`: does some single piece fit somewhere?"""

    melds: tuple[MeldTargets, ...]
    rules: MeldRules

    @classmethod
    def of(cls, table: Sequence[TableMeld], rules: MeldRules) -> LayoffTargets:
        return cls(tuple(MeldTargets.of(m, rules) for m in table), rules)

    def takes(self, piece: Piece) -> bool:
        return any(t.takes(piece, self.rules) for t in self.melds)

    def any_fits(self, hand: Iterable[Piece]) -> bool:
        faces: set[tuple[int, int]] = set()
        ranks: set[int] = set()
        joker = False
        for t in self.melds:
            faces |= t.faces
            if t.rank and not self.rules.distinct_suits:
                ranks.add(t.rank)
            joker = joker or t.joker
        for piece in hand:
            if piece.is_joker:
                if joker:
                    return True
            elif ((piece.rank, piece.suit) in faces or piece.rank in ranks
                  or (self.rules.distinct_suits and self.takes(piece))):
                return True
        return False

    def fitting(self, piece: Piece) -> list[int]:
        """Numbers of the melds ``piece`` alone fits, lowest first."""
        return sorted(t.number for t in self.melds if t.takes(piece, self.rules))


def _split_hand(hand: Iterable[Piece]) -> tuple[Counter[Card], int]:
    naturals: Counter[Card] = Counter()
    jokers = 0
    for piece in hand:
        if piece.is_joker:
            jokers += 1
        else:
            naturals[piece] += 1  # type: ignore[index]
    return naturals, jokers


@cache
def _three_windows(shape: RunShape, size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(dict.fromkeys(w for w in shape.windows(size) if len(set(w)) == size))


def any_new_meld(hand: Iterable[Piece], rules: MeldRules, runs: bool = True,
                 sets: bool = True) -> bool:
    """Whether some new meld can be laid from ``hand`` (runs and/or sets allowed).

    Checks 3-card melds only: every longer valid meld contains a valid 3-card one.
    """
    naturals, jokers = _split_hand(hand)
    if not rules.jokers:
        jokers = 0
    size = 3
    if sets:
        by_rank: Counter[int] = Counter()
        suits_by_rank: dict[int, set[int]] = {}
        for c, n in naturals.items():
            by_rank[c.rank] += n
            suits_by_rank.setdefault(c.rank, set()).add(c.suit)
        for rank, count in by_rank.items():
            usable = len(suits_by_rank[rank]) if rules.distinct_suits else count
            if min(usable, size) + jokers >= max(size, rules.set_min) \
                    and usable >= rules.set_min_naturals:
                return True
    if runs:
        held = {(c.rank, c.suit) for c in naturals}
        suits = {s for _, s in held}
        for window in _three_windows(rules.runs, max(size, rules.run_min)):
            for suit in suits:
                present = sum(1 for r in window if (r, suit) in held)
                if present >= max(1, rules.run_min_naturals) \
                        and len(window) - present <= jokers:
                    return True
    return False


def new_meld_candidates(hand: Iterable[Piece], rules: MeldRules, runs: bool = True,
                        sets: bool = True) -> list[tuple[Piece, ...]]:
    """Every distinct 3-card multiset of ``hand`` that is a valid new meld.

    Each is sorted by card index (jokers last); read with ``read_meld`` it
    gives its default reading (a run when both readings exist, PEN-11).
    """
    naturals, jokers = _split_hand(hand)
    if not rules.jokers:
        jokers = 0
    found: dict[tuple[Piece, ...], None] = {}

    def add(pieces: Sequence[Piece]) -> None:
        found.setdefault(tuple(sorted(pieces, key=lambda p: p.index)), None)

    if sets:
        by_rank: dict[int, list[Card]] = {}
        for c in sorted(naturals, key=lambda c: c.index):
            by_rank.setdefault(c.rank, []).append(c)
        for cards in by_rank.values():
            for k in range(max(1, rules.set_min_naturals), 4):
                if 3 - k > jokers:
                    continue
                for combo in combinations_with_replacement(cards, k):
                    counts = Counter(combo)
                    if any(counts[c] > naturals[c] for c in counts):
                        continue
                    if rules.distinct_suits and len({c.suit for c in combo}) < k:
                        continue
                    add([*combo, *([JOKER] * (3 - k))])
    if runs:
        suits = {c.suit for c in naturals}
        for window in _three_windows(rules.runs, 3):
            for suit in suits:
                held = [Card(r, suit) for r in window if naturals.get(Card(r, suit))]
                for mask in range(1, 1 << len(held)):
                    chosen = [c for i, c in enumerate(held) if mask >> i & 1]
                    if len(chosen) < max(1, rules.run_min_naturals) or 3 - len(chosen) > jokers:
                        continue
                    add([*chosen, *([JOKER] * (3 - len(chosen)))])
    return list(found)


def single_layoffs(hand: Iterable[Piece], table: Sequence[TableMeld],
                   rules: MeldRules) -> list[tuple[Piece, int]]:
    """Every distinct (piece, meld number) where ``piece`` alone is a legal lay-off."""
    targets = LayoffTargets.of(table, rules)
    found: list[tuple[Piece, int]] = []
    for piece in sorted(set(hand), key=lambda p: p.index):
        found.extend((piece, number) for number in targets.fitting(piece))
    return found


# ---------------------------------------------------------------------------
# The fixed order of timeout auto-play (PEN-30, RMI-31)
# ---------------------------------------------------------------------------


def auto_order(piece: Piece, value: Value) -> tuple[int, int, int]:
    """Most valuable first: points, then rank A > K > … > 2, then suit S, H, D, C."""
    rank = 14 if piece.rank == 1 else piece.rank
    return (value(piece), rank, -piece.suit)


def best_single_layoff(hand: Iterable[Piece], table: Sequence[TableMeld], rules: MeldRules,
                       value: Value) -> tuple[Piece, int] | None:
    """The most valuable piece that fits a meld alone, and the lowest-numbered such meld."""
    targets = LayoffTargets.of(table, rules)
    for piece in sorted(set(hand), key=lambda p: auto_order(p, value), reverse=True):
        numbers = targets.fitting(piece)
        if numbers:
            return piece, numbers[0]
    return None


def meld_order_key(pieces: Sequence[Piece], value: Value) -> tuple:
    """Lowest total first; ties compared card by card from the most valuable down."""
    ordered = sorted((auto_order(p, value) for p in pieces), reverse=True)
    return (sum(value(p) for p in pieces), tuple(ordered))


def cheapest_new_meld(hand: Iterable[Piece], rules: MeldRules, value: Value, runs: bool = True,
                      sets: bool = True) -> tuple[Piece, ...] | None:
    """The legal new 3-card meld with the lowest total (PEN-30 (2), RMI-31 (2))."""
    candidates = new_meld_candidates(hand, rules, runs, sets)
    if not candidates:
        return None
    return min(candidates, key=lambda c: meld_order_key(c, value))


# ---------------------------------------------------------------------------
# The game skeleton
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class SheddingGame(Game[Card]):
    """A match of shedding games (see the module docstring); variants fill in the hooks."""

    direction: ClassVar[int] = 1
    """+1: turns and the deal go clockwise (increasing seats); -1 anticlockwise."""
    min_live: ClassVar[int] = 1
    """The game ends when fewer players than this are still in (Penang 1, Rummi 2)."""
    out_state: ClassVar[SeatState] = SeatState.OUT
    # i18n: a player who can no longer play (Rummi: "out"); Penang says "Dead"
    out_word: ClassVar[str] = tr("out")
    """How a player out of the game is described: "Dead", "out"."""
    # i18n: going out by playing the last card (Penang: "Game", Rummi: "Hu")
    game_word: ClassVar[str] = tr("Game")
    """What going out is called ("Game", "Hu")."""
    done_refusal: ClassVar[str] = tr("make at least one meld or lay-off first")

    # The match.
    totals: list[int] = field(default_factory=list)
    game_number: int = 0
    dealer: int = 0
    timeouts: list[int] = field(default_factory=list)
    """Consecutive turns handled by the timer, kept across games (PEN-31, RMI-32)."""
    left: list[bool] = field(default_factory=list)
    """Seats that left the match: out at once in every later game."""
    results: list[HandResult] = field(default_factory=list)
    # The game in play.
    hands: list[list[Card]] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    """The undealt rest of the deck: never shown, never used (PEN-5, RMI-5)."""
    table: list[TableMeld] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Why each player is out (``no passport``, ``no play``, ``conceded``…), or ``Game``."""
    passport: list[bool] = field(default_factory=list)
    known: list[list[Card]] = field(default_factory=list)
    """Per seat, cards every seat knows are in its hand (Penang: a joker taken by a swap,
    PEN-16) until played: the basis of :meth:`redeal_unseen`."""
    turn: int = 0
    actions: int = 0
    """Actions (melds, lay-offs) made in the turn in play."""
    phase: str = "play"
    """``play``, or ``over`` when the match has ended."""

    # -- hooks ------------------------------------------------------------

    @abstractmethod
    def hand_size(self) -> int:
        """Cards dealt to each player (PEN-5, RMI-5)."""

    @abstractmethod
    def _deck(self) -> list[Card]:
        """A fresh, unshuffled deck for this game (PEN-2, RMI-2)."""

    def _deal_hands(self, deck: list[Card], first: int) -> list[list[Card]]:
        """Deal from the top, one card at a time in turn order (PEN-5); Rummi deals batches."""
        return deal_one_at_a_time(deck, self.players, first, self.hand_size(), self.direction)

    @abstractmethod
    def has_action(self, seat: int) -> bool:
        """Whether ``seat`` has any legal action now (the turn-start check)."""

    @abstractmethod
    def _act(self, move: Move, events: list[Event]) -> None:
        """Check and perform one variant move (meld, lay-off, swap…); raise IllegalMove."""

    @abstractmethod
    def _auto_action(self, seat: int) -> list[Move] | None:
        """The moves the timer plays for ``seat`` (one action); ``None`` if there is none."""

    @abstractmethod
    def _settle(self, winner: int | None) -> tuple[list[int], list[str]]:
        """Per seat, this game's score change and a note, when the game ends."""

    def _next_dealer(self, points: Sequence[int]) -> int:
        """The dealer of the next game of the match."""
        return next_seat(self.dealer, self.players, step=self.direction)

    def _game_summary(self, winner: int | None) -> str:
        """The one-line summary of the game just settled (Rummi adds its payments)."""
        if winner is not None:
            return tr("{winner} went out: {game_word}.",
                      winner=who(winner), game_word=self.game_word)
        return tr("Every player is {out_word}.",
                  out_word=self.out_word) if not self.live_seats() else \
            tr("Too few players are left in.")

    def _before_play(self, events: list[Event]) -> None:
        """Checks after the deal and before the first turn; by default, leavers are out."""
        for seat in self.turn_order():
            if self.left[seat]:
                self._put_out(seat, "left", events)

    # -- set-up -----------------------------------------------------------

    @property
    def games(self) -> int:
        return int(getattr(self.options, "games", 1))

    def _start(self) -> None:
        n = self.players
        self.totals = [0] * n
        self.timeouts = [0] * n
        self.left = [False] * n
        self.dealer = self.rng.below(n)  # PEN-4, RMI-4
        self._deal([])

    def _deal(self, events: list[Event]) -> None:
        n = self.players
        self.game_number += 1
        deck = self._deck()
        self.rng.shuffle(deck)
        first = next_seat(self.dealer, n, step=self.direction)
        self.hands = [sorted(h, key=lambda c: c.index) for h in self._deal_hands(deck, first)]
        self.set_aside = deck
        self.table = []
        self.out = [False] * n
        self.notes = [""] * n
        self.passport = [False] * n
        self.known = [[] for _ in range(n)]
        self.turn = first  # PEN-6, RMI-6
        self.actions = 0
        self.phase = "play"
        events.append(Event("game_started", tr("Game {game_number}: {dealer} deals "
                                               "{hand_size} cards each; {count} are set aside "
                                               "unseen.",
                                               game_number=self.game_number,
                                               dealer=who(self.dealer), hand_size=self.hand_size(),
                                               count=len(deck))))
        number = self.game_number
        self._before_play(events)
        if self.phase == "play" and self.game_number == number:  # not ended before play
            self._begin_turn(events)

    def turn_order(self) -> list[int]:
        """This game's seats in turn order, from the player on the dealer's left (or right)."""
        first = next_seat(self.dealer, self.players, step=self.direction)
        return [(first + self.direction * i) % self.players for i in range(self.players)]

    # -- the turn loop ----------------------------------------------------

    def live_seats(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    def _next_live(self, seat: int) -> int:
        return next_seat(seat, self.players, [not o for o in self.out], self.direction)

    def _begin_turn(self, events: list[Event]) -> None:
        """Start the turn of ``self.turn`` or the next player still in, putting out on the way
        every player with no legal action (PEN-17, RMI-18); end the game when too few are left.
        """
        while True:
            if len(self.live_seats()) < self.min_live:
                self._end_game(None, events)
                return
            seat = self.turn
            if self.out[seat]:
                self.turn = self._next_live(seat)
                continue
            if self.has_action(seat):
                break
            self._put_out(seat, tr("no play") if self.passport[seat] else tr("no passport"), events)
        self.actions = 0
        self.turn_serial += 1
        events.append(Event("turn", tr("{player} to play.", player=who(self.turn)), self.turn))

    def _put_out(self, seat: int, note: str, events: list[Event]) -> None:
        self.out[seat] = True
        self.notes[seat] = note
        events.append(Event(self.out_word.lower(), tr("{player} is {out_word} ({note}).",
                                                      player=who(seat), out_word=self.out_word,
                                                      note=note),
                            seat))

    def _leave(self, seat: int, events: list[Event]) -> None:
        """``seat`` leaves the match: out now (whoever's turn it is) and in every later game."""
        if self.left[seat]:
            raise IllegalMove(tr("you have already left this game"))
        self.left[seat] = True
        events.append(Event("left", tr("{player} left the game.", player=who(seat)), seat))
        if self.out[seat]:
            return
        self._put_out(seat, "left", events)
        if seat == self.turn:
            self._end_turn(events)
        elif len(self.live_seats()) < self.min_live:
            self._end_game(None, events)

    def _end_turn(self, events: list[Event]) -> None:
        """Pass the turn to the next player still in (the same one when alone, PEN-21)."""
        if len(self.live_seats()) < self.min_live:
            self._end_game(None, events)
            return
        self.turn = self._next_live(self.turn)
        self._begin_turn(events)

    def _after_action(self, seat: int, events: list[Event]) -> None:
        """Count the action; an empty hand ends the game at once (PEN-20, RMI-20)."""
        self.actions += 1
        if not self.hands[seat]:
            self.notes[seat] = self.game_word
            events.append(Event(self.game_word.lower(), tr("{player} played their last card: "
                                                           "{game_word}!",
                                                           player=who(seat),
                                                           game_word=self.game_word), seat))
            self._end_game(seat, events)

    # -- the protocol -----------------------------------------------------

    # -- views shared by the variants -------------------------------------

    def seat_state(self, seat: int) -> SeatState:
        """Won (at the end), out (Penang: Dead) or playing, for the players panel."""
        if self.is_over and seat in self.winners:
            return SeatState.WON
        return self.out_state if self.out[seat] else SeatState.PLAYING

    def seat_note(self, seat: int) -> str:
        """Why a player is out, else whether they have their passport.

        Beside a state that is not the out state (a Dead player who won on points)
        the reason alone would misread ("won · no play"), so it names the state:
        ``Dead (no play)``.
        """
        note = self.notes[seat]
        if note and self.out[seat] and self.seat_state(seat) is not self.out_state:
            return tr("{state} ({note})", state=self.out_word, note=note)
        if note:
            return note
        # i18n: the first meld that lets a player play on (Penang, Rummi)
        return tr("passport") if self.passport[seat] else tr("no passport yet")

    def score_text(self, seat: int) -> str:
        """A match total as the players panel shows it (Rummi: chips in 0.5 steps)."""
        return str(self.totals[seat])

    def player_panels(self) -> tuple[PlayerPanel, ...]:
        return tuple(PlayerPanel(seat=s, pieces_left=len(self.hands[s]),
                                 score=self.score_text(s), state=self.seat_state(s),
                                 to_move=s == self.to_move, dealer=s == self.dealer,
                                 note=self.seat_note(s))
                     for s in range(self.players))

    # -- what a seat cannot see ---------------------------------------------------

    def _shed(self, seat: int, pieces: Sequence[Card]) -> None:
        """``pieces`` leave ``seat``'s hand for the table: no longer known to be held there."""
        self.hands[seat] = remove_pieces(self.hands[seat], pieces)
        if seat < len(self.known):
            rest = list(self.known[seat])
            for piece in pieces:
                if piece in rest:
                    rest.remove(piece)
            self.known[seat] = rest

    def _learn(self, seat: int, piece: Card) -> None:
        """Everyone saw ``piece`` go into ``seat``'s hand."""
        if len(self.known) != self.players:  # a snapshot from before ``known``
            self.known = [[] for _ in range(self.players)]
        self.known[seat].append(piece)

    def _known_in(self, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand everyone knows are there (a snapshot saved before
        ``known`` existed knows none)."""
        known = self.known[seat] if seat < len(self.known) else []
        return sorted((Counter(self.hands[seat]) & Counter(known)).elements(),
                      key=lambda c: c.index)

    def redeal_unseen(self, seat: int, rng: Rng) -> Self:
        """A game ``seat`` cannot tell apart from this one (see :meth:`Game.redeal_unseen`).

        Hidden places: the other hands, less the cards known to be in them
        (``known``), and the cards set aside (PEN-5, RMI-5). Their cards are
        gathered in card order, shuffled with ``rng`` and dealt back, each place
        keeping its size; a redealt hand is kept in card order, as dealt.
        """
        new = self.clone()
        others = [s for s in range(self.players) if s != seat]
        kept = {s: self._known_in(s) for s in others}
        pool: list[Card] = list(self.set_aside)
        for s in others:
            pool.extend(remove_pieces(self.hands[s], kept[s]))
        pool.sort(key=lambda c: c.index)
        rng.shuffle(pool)
        for s in others:
            count = len(self.hands[s]) - len(kept[s])
            new.hands[s] = sorted([*kept[s], *pool[:count]], key=lambda c: c.index)
            del pool[:count]
        new.set_aside = pool
        new.rng = Rng(rng.next64())
        return new

    def inventory(self) -> Counter[Card]:
        """Every card of the game in play: hands, table and the cards set aside."""
        found = Counter[Card](c for hand in self.hands for c in hand)
        found.update(self.set_aside)
        found.update(self.own_all(c for m in self.table for c in m.meld.pieces))
        return found

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

    def check_turn(self, seat: int) -> None:
        """Refuse a turn move from a player who is out or not on turn (PEN-14, PEN-19)."""
        if self.out[seat]:
            raise IllegalMove(tr("you are {out_word} in this game", out_word=self.out_word))
        self.require_turn(seat)

    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        if isinstance(move, Done):
            self.check_turn(move.seat)
            if not self.actions:
                raise IllegalMove(self.done_refusal)  # PEN-14
            events.append(Event("done", tr("{player} ended their turn.", player=who(move.seat)),
                                           move.seat))
            self._end_turn(events)
        elif isinstance(move, Timeout):
            self.check_turn(move.seat)
            if not self.turn_seconds:
                raise IllegalMove(tr("there is no turn timer in this game"))  # PEN-28
            self._timeout(events)
        else:
            self._act(move, events)
        return events

    def _timeout(self, events: list[Event]) -> None:
        """PEN-29 … PEN-31 (RMI-30 … RMI-32)."""
        seat = self.turn
        if self.actions:
            events.append(Event("timeout", tr("{player} ran out of time; their turn ends.",
                                              player=who(seat)),
                                seat))
            self._end_turn(events)  # PEN-29
            return
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= TIMEOUTS_OUT:  # PEN-31
            events.append(Event("timeout", tr("{player} ran out of time again.",
                                              player=who(seat)), seat))
            self._put_out(seat, tr("timed out"), events)
            self._end_turn(events)
            return
        moves = self._auto_action(seat)
        if moves is None:
            self._put_out(seat, tr("no play"), events)
            self._end_turn(events)
            return
        events.append(Event("timeout", tr("{player} ran out of time; the bot played for them.",
                                          player=who(seat)),
                            seat))
        number = self.game_number
        for move in moves:
            self._act(move, events)
        if self.phase == "play" and self.game_number == number:  # no Game
            self._end_turn(events)  # PEN-30: one action, then the turn ends

    # -- the end of a game and of the match ----------------------------------

    def _end_game(self, winner: int | None, events: list[Event]) -> None:
        n = self.players
        points, notes = self._settle(winner)
        for s in range(n):
            self.totals[s] += points[s]
        best = best_seats(points, self.lower_is_better)
        summary = self._game_summary(winner)
        self.results.append(HandResult(
            number=self.game_number, winners=best, points=tuple(points),
            totals=tuple(self.totals), held=tuple(tuple(h) for h in self.hands),
            notes=tuple(notes), summary=summary))
        events.append(Event("hand_over", tr("{summary} Game {number} points: {points}.",
                                            summary=summary, number=self.game_number,
                                            points=", ".join(f"{{p{s}}} {points[s]}"
                                                             for s in range(n))), winner))
        if self.game_number >= self.games:
            self.phase = "over"
            events.append(Event("match_over", trn(
                "The match is over: {names} wins.", "The match is over: {names} win.",
                len(self.winners), names=and_list([who(s) for s in self.winners]))))
            return
        self.dealer = self._next_dealer(points)
        self._deal(events)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match (empty while it runs)."""
        if not self.is_over:
            return ()
        return best_seats(self.totals, self.lower_is_better)
