"""Buttons and select menus that keep working after a restart.

Every component is a :class:`discord.ui.DynamicItem`: its ``custom_id``
carries the game id, the action and its argument (``rm:42:draw:stock``), so
a click on a message sent before a restart is routed without any saved view.
What comes back is read by :func:`bot.customids.decode` alone, and every
interaction is answered: one line for anything unreadable, and one line (with
the error logged) for anything that fails on the bot's side. Callbacks hand
over to the client's ``controller`` (any :class:`ComponentRouter`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord

from .customids import Action, Click, Unreadable, decode, encode
from .i18n import say, say_error
from .interactions import FAILED, received, reply

log = logging.getLogger(__name__)

T = TypeVar("T")

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25


class ComponentRouter(Protocol):
    """Where clicks go: the bot's controller."""

    def actions_of(self, game_id: int) -> Mapping[str, Action] | None:
        """The running game's own actions (``None``: no such game is running)."""
        ...

    async def on_click(self, interaction: discord.Interaction, click: Click) -> None: ...


async def enter_language(interaction: discord.Interaction) -> None:
    """Answer ``interaction`` in the clicker's language (:mod:`bot.languages`)."""
    languages = getattr(getattr(interaction.client, "controller", None), "languages", None)
    if languages is not None:
        await languages.enter(interaction)


def router(interaction: discord.Interaction) -> ComponentRouter:
    """The controller of the client that received ``interaction``."""
    found: ComponentRouter = getattr(interaction.client, "controller")  # noqa: B009
    return found


async def dispatch(interaction: discord.Interaction, custom_id: str,
                   values: Sequence[str] | None = None, offered: Sequence[str] = ()) -> None:
    """Read a game component strictly and hand it to the controller."""
    controller = router(interaction)
    await answered(interaction, custom_id, values,
                   lambda: decode(custom_id, values, offered, controller.actions_of),
                   controller.on_click)


async def answered(interaction: discord.Interaction, custom_id: str,
                   values: Sequence[str] | None, read: Callable[[], T],
                   handle: Callable[[discord.Interaction, T], Awaitable[None]]) -> None:
    """The bot's every component: ``read`` it strictly (``bot.customids``), ``handle`` it,
    and answer whatever happens: one line for what cannot be read, and one line, the error
    logged, for a failure on the bot's side (as ``RummyTree.on_error`` for commands)."""
    received(interaction)
    await enter_language(interaction)
    try:
        what = read()
    except Unreadable as refusal:
        log.info("refused component %.120r (values %.120r)", custom_id, values)
        await reply(interaction, say_error(refusal))
        return
    try:
        await handle(interaction, what)
    except Exception:
        log.exception("component %s failed", custom_id)
        await reply(interaction, FAILED)


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button as a variant describes it: the controller turns it into a GameButton."""

    label: str
    action: str
    arg: str = ""
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A select menu: ``options`` are (label, value) pairs."""

    action: str
    placeholder: str
    options: tuple[tuple[str, str], ...]
    arg: str = ""
    min_values: int = 1
    max_values: int = 1
    chosen: frozenset[str] = frozenset()
    """Values shown as already selected."""


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long: {custom_id}")
    return custom_id


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?s)rm:.*"):
    """Any ``rm:`` button: whatever its id holds, the click is read and answered."""

    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    def make(cls, game_id: int, spec: ButtonSpec) -> GameButton:
        return cls(discord.ui.Button(
            label=say(spec.label)[:80], style=spec.style, disabled=spec.disabled, emoji=spec.emoji,
            custom_id=_checked(encode("m", game_id, spec.action, spec.arg))))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.item.custom_id or "")


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"(?s)rs:.*"):
    """Any ``rs:`` select: its values are read against the options the message offered."""

    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)

    @classmethod
    def make(cls, game_id: int, spec: SelectSpec) -> GameSelect:
        options = [discord.SelectOption(label=say(label)[:100], value=value,
                                        default=value in spec.chosen)
                   for label, value in spec.options[:SELECT_LIMIT]]
        return cls(discord.ui.Select(
            custom_id=_checked(encode("s", game_id, spec.action, spec.arg)),
            placeholder=say(spec.placeholder)[:150], options=options,
            min_values=min(spec.min_values, len(options)),
            max_values=max(1, min(spec.max_values, len(options)))))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.item.custom_id, list(self.item.values),
                       [option.value for option in self.item.options])


class StrayComponent(discord.ui.DynamicItem[discord.ui.Item[Any]],
                     template=r"(?s)(?!r[a-z]{1,2}:).*"):
    """Any custom_id without the bot's prefix: every component the bot makes has one,
    ``r`` and a letter or two (``rm:`` buttons, ``rs:`` selects, ``rpb:``/``rps:`` replay
    steppers), so only a tampered client sends one of these."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> StrayComponent:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, getattr(self.item, "custom_id", "") or "")


def make_view(game_id: int, buttons: Sequence[ButtonSpec] = (),
              selects: Sequence[SelectSpec] = ()) -> discord.ui.View | None:
    """Components for a message: selects first (one row each), then buttons five to a row.

    The view is returned already stopped. Its items are DynamicItems, which the
    client routes by ``custom_id`` alone, so discord.py need not keep the view:
    a live view would sit in its store forever (ephemeral ones for 15 minutes,
    with a timer task each), costing memory on every move for nothing.
    """
    if not buttons and not selects:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for menu in selects[:4]:
        select = GameSelect.make(game_id, menu)
        select.item.row = row
        view.add_item(select)
        row += 1
    for i, spec in enumerate(buttons[: 5 * (5 - row)]):
        button = GameButton.make(game_id, spec)
        button.item.row = row + i // 5
        view.add_item(button)
    view.stop()
    return view


DYNAMIC_ITEMS = (GameButton, GameSelect, StrayComponent)
