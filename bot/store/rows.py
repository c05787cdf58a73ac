"""What the store hands out and takes in: plain frozen dataclasses.

States, moves and options are opaque JSON objects (``dict``) here; the engine
gives them meaning. Times are UTC epoch seconds. Ratings are display values
(:func:`bot.ratings.display`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

JSONObject = dict[str, Any]


class GameStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat. ``user_id`` is ``None`` for a computer; ``left`` marks a player who left
    a running game (a computer may then play the seat under their id)."""

    seat: int
    user_id: int | None
    name: str
    is_computer: bool = False
    left: bool = False
    level: str | None = None
    """A computer's level where the variant has several."""
    hints: int = 0
    """Hints the seat has used (``/rummy hint``)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    variant: str
    options: JSONObject
    seed: int
    status: GameStatus
    host_id: int
    state: JSONObject | None
    lobby_message_id: int | None
    table_message_id: int | None
    turn_message_id: int | None
    turn_deadline: float | None
    move_count: int
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[SeatRow, ...] = ()
    published: JSONObject = field(default_factory=dict)
    """What the channel and DMs already show (the publisher's memory, see migration 0002)."""
    hints: bool = True
    """The game allows hints (the lobby's ``hints`` option, migration 0005)."""

    @property
    def is_open(self) -> bool:
        return self.status in (GameStatus.LOBBY, GameStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class MoveRow:
    seq: int
    seat: int
    user_id: int | None
    move: JSONObject
    created_at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's result. Passed to ``finish_game`` without ratings; the store fills
    ``rating_before``/``rating_after`` (``None`` when the game was not rated)."""

    seat: int
    user_id: int | None
    is_computer: bool
    place: int
    points: int
    won: bool
    rating_before: int | None = None
    rating_after: int | None = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A leaderboard line (humans only)."""

    user_id: int
    rating: int
    games: int
    wins: int
    win_rate: float
    """0.0–1.0."""
    avg_points: float


@dataclass(frozen=True, slots=True)
class PlayerStatsRow:
    """One player's record in one variant of one server."""

    variant: str
    games: int
    wins: int
    win_rate: float
    avg_points: float
    best_place: int
    rating: int
    last_played: float


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    seat: int
    name: str
    user_id: int | None
    is_computer: bool
    place: int
    points: int
    won: bool
    rating_before: int | None
    rating_after: int | None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A finished game; ``players`` in order of place, then seat."""

    game_id: int
    variant: str
    finished_at: float
    seed: int
    players: tuple[HistoryPlayer, ...]


HandSort = Literal["suit", "rank"]
CardStyle = Literal["four", "classic"]


@dataclass(frozen=True, slots=True)
class Settings:
    """A user's preferences (the defaults until they change one)."""

    hand_sort: HandSort = "suit"
    card_style: CardStyle = "four"
    extra: JSONObject = field(default_factory=dict)
    """Settings added later, before they earn a column."""


@dataclass(frozen=True, slots=True)
class ShardClaim:
    """A process's claim on shard ``shard_id`` of ``shard_count`` (``id``: claim order)."""

    id: int
    shard_count: int
    shard_id: int
    owner: str
    claimed_at: float
