"""A finished game, step by step: from the deal to the results, every hand open.

A :class:`Timeline` replays a :class:`~bot.engine.record.GameRecord` once, checks
where it ends, and lists its steps: the deal of each hand, each move, and the end
of each hand (the move that ended it, told with its results). A step's state is
rebuilt on demand from the nearest checkpoint (one every :data:`CHECKPOINT_EVERY`
moves) and the last few states are kept, so stepping forward costs one move and a
jump at most :data:`CHECKPOINT_EVERY`, however long the game.

:func:`open_view` tells what a step shows: the public table and every seat's
hand (the game is over: nothing is secret any more), with what the move changed
marked: pieces that came into a hand, pieces laid in melds, the card put on the
discard pile.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import Piece, sort_by_suit
from .errors import RummyError
from .game import Event, Game, Move
from .i18n import tr
from .record import GameRecord, RecordError
from .views import MeldView, TableView

CHECKPOINT_EVERY = 32
"""Moves between two kept states; a jump replays at most this many moves."""
RECENT_STATES = 4
"""States kept besides the checkpoints: stepping on from the last one costs one move."""

StepKind = Literal["deal", "move", "end"]


@dataclass(frozen=True, slots=True)
class Step:
    """One picture of a replay.

    ``moves`` is how many moves have been made when it is shown: a move step
    and an end step show move number ``moves`` (1-based) and the state after
    it; a deal step shows the state after ``moves`` moves, a new hand dealt.
    """

    kind: StepKind
    moves: int
    hand: int
    """The number of the hand shown (for an end step, the hand that ended)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """What one step shows: the state, the one before it, the move between, its events."""

    step: Step
    after: Game
    before: Game | None = None
    move: Move | None = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class HandSpan:
    """One hand of the match in the timeline: where its deal and its end are."""

    number: int
    deal: int
    """Index of its deal step."""
    end: int | None
    """Index of its end step (``None`` only while a game is unfinished)."""


class Timeline:
    """The steps of a recorded game, and the state at any of them.

    Building one replays the whole game once; it raises :class:`RecordError`
    when a move does not replay (a game played under older rules code) or when
    the moves do not end the game. Safe to share between threads.
    """

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        game = record.new_game()
        self._checkpoints: list[Game] = [game]
        hand = game.table_view().hand_number  # changes only when a hand ends
        steps: list[Step] = [Step("deal", 0, hand)]
        ended = len(game.history())
        if ended:  # decided in the deal (Rummi's Tien Hu, RMI-7)
            steps.append(Step("end", 0, game.history()[-1].number))
        for number in range(1, len(record.moves) + 1):
            game = self._apply(game, number)
            if len(game.history()) > ended:
                ended = len(game.history())
                steps.append(Step("end", number, game.history()[-1].number))
                if not game.is_over:
                    hand = game.table_view().hand_number
                    steps.append(Step("deal", number, hand))
            else:
                steps.append(Step("move", number, hand))
            if number % CHECKPOINT_EVERY == 0:
                self._checkpoints.append(game)
        if not game.is_over:
            raise RecordError(tr("after its {count} moves the game is not over",
                                 count=len(record.moves)))
        self.final = game
        self.steps: tuple[Step, ...] = tuple(steps)
        self._recent: OrderedDict[int, Game] = OrderedDict({len(record.moves): game})
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.steps)

    def _apply(self, game: Game, number: int) -> Game:
        return self._apply_with_events(game, number)[0]

    def _apply_with_events(self, game: Game, number: int) -> tuple[Game, list[Event]]:
        try:
            return game.apply(self.record.moves[number - 1])
        except RummyError as error:
            raise RecordError(tr("move {number} ({move_line}) does not replay: {message}",
                                 number=number, move_line=self.record.move_line(number),
                                 message=error.message)) from None

    def state(self, moves: int) -> Game:
        """The game after ``moves`` moves."""
        if not 0 <= moves <= len(self.record.moves):
            raise IndexError(f"the game has {len(self.record.moves)} moves, not {moves}")
        with self._lock:
            if moves in self._recent:
                self._recent.move_to_end(moves)
                return self._recent[moves]
            start = moves // CHECKPOINT_EVERY * CHECKPOINT_EVERY
            nearest = max((m for m in self._recent if start <= m < moves), default=None)
            if nearest is None:
                nearest, game = start, self._checkpoints[start // CHECKPOINT_EVERY]
            else:
                game = self._recent[nearest]
        for number in range(nearest + 1, moves + 1):
            game = self._apply(game, number)
        self._remember(moves, game)
        return game

    def _remember(self, moves: int, game: Game) -> None:
        with self._lock:
            self._recent[moves] = game
            self._recent.move_to_end(moves)
            while len(self._recent) > RECENT_STATES:
                self._recent.popitem(last=False)

    def frame(self, index: int) -> Frame:
        """What step ``index`` shows."""
        step = self.steps[index]
        if step.kind == "deal" or step.moves == 0:
            return Frame(step, self.state(step.moves))
        before = self.state(step.moves - 1)
        after, events = self._apply_with_events(before, step.moves)
        self._remember(step.moves, after)
        return Frame(step, after, before, self.record.moves[step.moves - 1], tuple(events))

    def hands(self) -> list[HandSpan]:
        """Every hand of the match, in order, with its deal and end steps."""
        spans: list[HandSpan] = []
        for index, step in enumerate(self.steps):
            if step.kind == "deal":
                spans.append(HandSpan(step.hand, index, None))
            elif step.kind == "end" and spans:
                spans[-1] = HandSpan(spans[-1].number, spans[-1].deal, index)
        return spans

    def hand_at(self, index: int) -> int:
        """The position in :meth:`hands` of the hand step ``index`` belongs to."""
        return sum(1 for step in self.steps[1:index + 1] if step.kind == "deal")


# ---------------------------------------------------------------------------
# The open table: every hand shown, the changes marked
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenHand:
    """One seat's hand, shown to everybody after the game."""

    seat: int
    pieces: tuple[Piece, ...]
    """In the order drawn: by suit (tiles: by colour), jokers last."""
    gained: tuple[int, ...] = ()
    """Positions in ``pieces`` of what the step brought into the hand."""
    lost: tuple[Piece, ...] = ()
    """What left the hand in the step (laid, discarded, given)."""

    def changes(self) -> str:
        """``+KD −7H``: what came into the hand and what left it, or ``""``."""
        return " ".join([*(f"+{self.pieces[i].code}" for i in self.gained),
                         *(f"−{piece.code}" for piece in self.lost)])


@dataclass(frozen=True, slots=True)
class OpenTableView:
    """The table with every hand open, and what the step changed marked."""

    table: TableView
    hands: tuple[OpenHand, ...]
    melds_marked: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """(meld number, positions in the meld) of the pieces the step laid."""
    discard_marked: bool = False
    """The top discard is the piece the step put there."""
    heading: str = ""
    """What the step is (``Hand 2 · move 37 of 240``)."""
    caption: str = ""
    """The move in the record's notation (``37. bob: discard 7H``)."""

    def marks_in(self, number: int) -> tuple[int, ...]:
        return next((positions for n, positions in self.melds_marked if n == number), ())


def open_view(after: Game, before: Game | None = None, *, heading: str = "",
              caption: str = "") -> OpenTableView:
    """The open table of ``after``; with ``before``, what changed since it is marked."""
    table = after.table_view()
    hands = []
    lost_anywhere: Counter[Piece] = Counter()
    for seat in range(after.players):
        pieces = tuple(sort_by_suit(after.hand_view(seat).pieces))
        if before is None:
            hands.append(OpenHand(seat, pieces))
            continue
        old = Counter(before.hand_view(seat).pieces)
        new = Counter(pieces)
        lost = list((old - new).elements())
        lost_anywhere.update(lost)
        hands.append(OpenHand(seat, pieces, _positions(pieces, new - old, last=True),
                              tuple(sort_by_suit(lost))))
    if before is None:
        return OpenTableView(table, tuple(hands), heading=heading, caption=caption)
    old_table = before.table_view()
    return OpenTableView(table, tuple(hands), _meld_marks(old_table.melds, table.melds),
                         _discard_marked(old_table.discard, table.discard, lost_anywhere),
                         heading, caption)


def _positions(pieces: Sequence[Piece], wanted: Counter[Piece], *, last: bool = False
               ) -> tuple[int, ...]:
    """Positions in ``pieces`` of the ``wanted`` copies (the last copies with ``last``)."""
    left = Counter(wanted)
    order = range(len(pieces) - 1, -1, -1) if last else range(len(pieces))
    found = []
    for i in order:
        if left[pieces[i]] > 0:
            left[pieces[i]] -= 1
            found.append(i)
    return tuple(sorted(found))


def _meld_marks(before: Sequence[MeldView], after: Sequence[MeldView]
                ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """What each meld gained. A meld found unchanged (same pieces and stand-ins) anywhere
    before is unmarked even if renumbered (Tile Rummy renumbers at a commit); any other
    meld is compared with the meld of its number before, all new if there was none."""
    unchanged = Counter((m.pieces, m.faces) for m in before)
    by_number = {m.number: m for m in before}
    marks = []
    for meld in after:
        key = (meld.pieces, meld.faces)
        if unchanged[key] > 0:
            unchanged[key] -= 1
            continue
        old = by_number.get(meld.number)
        added = Counter(meld.pieces) - Counter(old.pieces if old is not None else ())
        positions = _positions(meld.pieces, added)
        if positions:
            marks.append((meld.number, positions))
    return tuple(marks)


def _discard_marked(before: Sequence[Piece], after: Sequence[Piece],
                    lost: Counter[Piece]) -> bool:
    """The top discard came from a hand in this step (a discard, a declaration's finish)."""
    if not after or lost[after[-1]] == 0:
        return False
    return len(after) > len(before) or not before or before[-1] != after[-1]
