"""Persistence: games, the move log, results, ratings and user settings in SQLite.

Everything goes through :class:`Store`; no other module writes SQL.
"""

from .errors import ChannelBusy, GameNotFound, SchemaTooNew, StoreError, WrongStatus
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
    "StandingRow",
    "Store",
    "StoreError",
    "WrongStatus",
]
