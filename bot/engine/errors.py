"""Exceptions raised by the engine.

Every message is one line that names the offending part (NOT-13); the bot
shows it to the player unchanged. A raised error never leaves a state changed.
"""

from __future__ import annotations

from .i18n import tr


class RummyError(Exception):
    """Base class: a one-line reason a player can act on."""

    def __init__(self, message: str) -> None:
        if "\n" in message:
            raise ValueError("engine error messages are one line")
        super().__init__(message)

    @property
    def message(self) -> str:
        """The reason as made (a :class:`~bot.engine.i18n.Msg` the bot translates)."""
        message: str = self.args[0]
        return message


class ParseError(RummyError):
    """The input could not be read as cards, tiles, melds or positions."""


class IllegalMove(RummyError):
    """The input was read but the rules refuse it."""


class NotYourTurn(IllegalMove):
    """Somebody other than the player to move tried a turn move."""

    def __init__(self, message: str = tr("it is not your turn")) -> None:
        super().__init__(message)


class InvalidOptions(RummyError):
    """A game option is out of range or unknown (STR-38 and its siblings)."""
