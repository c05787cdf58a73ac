"""Live games: one :class:`Session` per lobby or running game, found by channel or id.

A session holds the engine state (the truth, mirrored on disk after every
move), who sits where, and the runtime bits that never need saving: the lock
that puts concurrent clicks in a queue, the timer and computer tasks, and what
was last published to the channel and to each player's DMs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from .engine.game import Game, Options
from .engine.views import ResultView
from .registry import Variant, variant
from .store import GameRow, SeatRow, Store, StoreError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Seat:
    user_id: int | None
    name: str
    is_computer: bool = False
    left: bool = False
    level: str | None = None
    """A computer's level where the variant offers several (``None``: its default)."""
    hints: int = 0
    """Hints this seat has used (``/rummy hint``), saved with the game."""

    @property
    def human(self) -> bool:
        return not self.is_computer

    def row(self, index: int) -> SeatRow:
        return SeatRow(seat=index, user_id=self.user_id, name=self.name,
                       is_computer=self.is_computer, left=self.left, level=self.level,
                       hints=self.hints)

    @classmethod
    def from_row(cls, row: SeatRow) -> Seat:
        return cls(row.user_id, row.name, row.is_computer, row.left, row.level, row.hints)


@dataclass(eq=False)
class Session:
    """One lobby or game in one channel."""

    game_id: int
    guild_id: int
    channel_id: int
    variant: Variant
    options: Options
    seed: int
    host_id: int
    status: str = "lobby"
    """The store's status (lobby, running, finished, cancelled), or ``moved`` once another
    process took the game's shard over (Controller.release)."""
    seats: list[Seat] = field(default_factory=list)
    game: Game | None = None
    deadline: float | None = None
    lobby_message_id: int | None = None
    turn_message_id: int | None = None
    moves: int = 0
    """Moves saved so far (the store's move count)."""
    hints: bool = True
    """The game allows hints (the lobby's ``hints`` option)."""
    rated: bool = True
    """The finished game moved ratings (False: hints were used on a server that does not
    rate such games); told in the final results."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # What the channel and the DMs show. Saved (``published_record``) so that a restart
    # posts nothing twice: results once, one hand DM per player, the same turn message.
    published_serial: int = -1
    """The turn (``turn_serial``) the turn message is for."""
    published_results: int = 0
    """Hands whose results the channel has been told."""
    final_posted: bool = False
    dm_messages: dict[int, int] = field(default_factory=dict)
    dm_keys: dict[int, str] = field(default_factory=dict)
    posting: dict[str, str] = field(default_factory=dict)
    """Posts under way, by what they are (``turn``, ``results:2``…): the nonce each is sent
    with, saved before it is sent, so a post repeated after a crash is the same post."""
    # Runtime only.
    published: tuple = ()
    """What the current turn message shows (Publisher.snapshot); rebuilt after a restart."""
    log: list[str] = field(default_factory=list)
    dm_closed: set[int] = field(default_factory=set)
    shown: dict[int, tuple[list[str], str]] = field(default_factory=dict)
    """Per user: the hand order of the image last shown (NOT-7) and the hand it showed."""
    computer_serial: int = -1
    """The turn in which a computer last acted (its further actions follow sooner)."""
    tasks: dict[str, asyncio.Task] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def from_row(cls, row: GameRow) -> Session:
        kind = variant(row.variant)
        options = kind.game.options_type.build(**row.options)
        session = cls(game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
                      variant=kind, options=options, seed=int(row.seed), host_id=row.host_id,
                      lobby_message_id=row.lobby_message_id,
                      turn_message_id=row.turn_message_id, hints=row.hints)
        session.adopt(row)
        session.adopt_published(row.published)
        return session

    def adopt(self, row: GameRow) -> None:
        """Take the game as saved: status, seats, state, move count and deadline (at a
        restore, or after another process moved it on)."""
        self.status = str(row.status)
        self.seats = [Seat.from_row(s) for s in row.seats]
        self.game = None if row.state is None else self.variant.game.from_json(row.state)
        self.moves = row.move_count
        self.deadline = row.turn_deadline

    def published_record(self) -> dict[str, Any]:
        """What the channel and DMs show, as saved in the store."""
        return {"serial": self.published_serial, "results": self.published_results,
                "final": self.final_posted, "closed": sorted(self.dm_closed),
                "posting": dict(self.posting),
                "dms": {str(user): [self.dm_messages[user], self.dm_keys.get(user, "")]
                        for user in self.dm_messages}}

    def adopt_published(self, record: dict[str, Any]) -> None:
        self.published_serial = int(record.get("serial", -1))
        self.published_results = int(record.get("results", 0))
        self.final_posted = bool(record.get("final", False))
        self.dm_closed.update(int(user) for user in record.get("closed", ()))
        self.posting.update({str(k): str(v) for k, v in record.get("posting", {}).items()})
        for user, (message_id, key) in record.get("dms", {}).items():
            self.dm_messages[int(user)] = int(message_id)
            self.dm_keys[int(user)] = str(key)

    # -- seats ------------------------------------------------------------

    def seat_of(self, user_id: int) -> int | None:
        """The seat a person plays in this game (not one they left)."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.left:
                return index
        return None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.human and s.user_id is not None]

    def result_view(self, game: Game) -> ResultView:
        """The game's results as the channel and the records tell them: players who left
        placed after everyone who stayed (UX.md: a leaver is recorded last)."""
        return leavers_last(game.result_view(), {i for i, s in enumerate(self.seats) if s.left})

    @property
    def hinted(self) -> bool:
        """Somebody used a hint in this game."""
        return any(seat.hints for seat in self.seats)

    def seat_rows(self) -> list[SeatRow]:
        return [seat.row(i) for i, seat in enumerate(self.seats)]

    def next_computer_name(self) -> str:
        taken = {s.name for s in self.seats}
        return next(name for name in COMPUTER_NAMES if name not in taken)

    # -- runtime ----------------------------------------------------------

    def cancel_tasks(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()


COMPUTER_NAMES = tuple(f"{name} (bot)" for name in (
    "Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth", "Dijkstra", "Liskov"))
"""Computer players' names (plain text: the card art's font has no emoji)."""


class SessionRegistry:
    """Every open session, by channel and by game id."""

    def __init__(self) -> None:
        self._by_channel: dict[int, Session] = {}
        self._by_id: dict[int, Session] = {}

    def add(self, session: Session) -> None:
        self._by_channel[session.channel_id] = session
        self._by_id[session.game_id] = session

    def remove(self, session: Session) -> None:
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]
        self._by_id.pop(session.game_id, None)

    def in_channel(self, channel_id: int) -> Session | None:
        return self._by_channel.get(channel_id)

    def by_id(self, game_id: int) -> Session | None:
        return self._by_id.get(game_id)

    def close(self, session: Session) -> None:
        """Forget a session that ended: its timers stop and its channel is free again."""
        session.cancel_tasks()
        self.remove(session)

    async def abandon(self, session: Session, store: Store) -> None:
        """The game's channel is gone: the game cannot go on, so it is cancelled."""
        try:
            await store.cancel_game(session.game_id)
        except StoreError:
            log.exception("could not cancel game %s", session.game_id)
        session.status = "cancelled"
        self.close(session)

    def all(self) -> list[Session]:
        return list(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)


def leavers_last(view: ResultView, left: Collection[int]) -> ResultView:
    """``view`` with the seats in ``left`` placed after every other seat.

    Everyone keeps their order among their own kind; places are competition
    ranks again (ties share a place), so the stayers' places close up and one
    order serves the results message, the records and ``/rummy history``.
    """
    if not left:
        return view
    ordered = sorted(view.placings, key=lambda p: (p.seat in left, p.place, p.seat))
    placings = []
    for placing in ordered:
        rivals = [p for p in ordered if (p.seat in left) == (placing.seat in left)]
        ahead = 0 if placing.seat not in left else len(ordered) - len(rivals)
        place = 1 + ahead + sum(1 for p in rivals if p.place < placing.place)
        placings.append(replace(placing, place=place))
    return replace(view, placings=tuple(placings))


def turn_deadline(session: Session, old: Game | None, new: Game,
                  now: float | None = None) -> float | None:
    """A fresh timer when a person's turn starts; the same one while the turn lasts.

    A turn of many actions (Penang, Rummi, Tile Rummy) keeps one deadline: the
    engine's ``turn_serial`` only changes when a turn starts.
    """
    seat = new.to_move
    if new.is_over or seat is None or not new.turn_seconds or session.seats[seat].is_computer:
        return None
    if old is not None and old.turn_serial == new.turn_serial and session.deadline:
        return session.deadline
    return (time.time() if now is None else now) + new.turn_seconds
