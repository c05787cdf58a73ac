"""Errors the store raises on purpose; other database errors pass through unchanged."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's own errors."""


class SchemaTooNew(StoreError):
    """The database was migrated by a newer bot than this one."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"the database has schema version {found}, but this bot knows only "
                         f"up to {known}: run a newer bot or restore a backup")
        self.found = found
        self.known = known


class ChannelBusy(StoreError):
    """The channel already has a lobby or a running game."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open game")
        self.channel_id = channel_id


class GameNotFound(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"there is no game {game_id}")
        self.game_id = game_id


class WrongStatus(StoreError):
    """The game is not in a status that allows this (e.g. a move in a finished game)."""

    def __init__(self, game_id: int, status: str, expected: str) -> None:
        super().__init__(f"game {game_id} is {status}, not {expected}")
        self.game_id = game_id
        self.status = status
        self.expected = expected


class StaleGame(StoreError):
    """The game moved on since this writer read it: another process (or connection) saved
    a move first. Nothing was written; reload the game and carry on from there."""

    def __init__(self, game_id: int, expected: int, found: int) -> None:
        super().__init__(f"game {game_id} has {found} moves saved, not the {expected} this "
                         "writer's state was at: another writer moved it on")
        self.game_id = game_id
        self.expected = expected
        self.found = found


class ConstraintViolation(StoreError):
    """The database refused a write that breaks one of its constraints (a second seat for
    a player, two results for a seat, a move by a seat the game does not have). Nothing
    of the transaction was written. The driver's own error is the ``__cause__``."""
