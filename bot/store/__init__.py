"""Persistence: games, the move log, results, ratings and user settings, in a SQLite file
or in PostgreSQL.

Everything goes through :class:`Store`; no other module writes SQL.
"""

from .errors import (
    ChannelBusy,
    ConstraintViolation,
    GameNotFound,
    SchemaTooNew,
    StaleGame,
    StoreError,
    WrongStatus,
)
from .rows import (
    GameRow,
    GameStatus,
    HistoryPlayer,
    HistoryRow,
    MoveRow,
    PlayerStatsRow,
    ResultRow,
    SeatRow,
    Settings,
    ShardClaim,
    StandingRow,
)
from .store import Store

__all__ = [
    "ChannelBusy",
    "ConstraintViolation",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "HistoryPlayer",
    "HistoryRow",
    "MoveRow",
    "PlayerStatsRow",
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "Settings",
    "ShardClaim",
    "StaleGame",
    "StandingRow",
    "Store",
    "StoreError",
    "WrongStatus",
]
