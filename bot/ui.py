"""Buttons and select menus that keep working after a restart.

Every component is a :class:`discord.ui.DynamicItem`: its ``custom_id``
carries the game id, the action and its argument (``rm:42:draw:stock``), so
a click on a message sent before a restart is routed without any saved view.
Callbacks hand over to the client's ``controller`` (any :class:`ComponentRouter`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25


class ComponentRouter(Protocol):
    """Where clicks go: the bot's controller."""

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str,
                        arg: str) -> None: ...

    async def on_select(self, interaction: discord.Interaction, game_id: int, action: str,
                        arg: str, values: list[str]) -> None: ...


def router(interaction: discord.Interaction) -> ComponentRouter:
    """The controller of the client that received ``interaction``."""
    found: ComponentRouter = getattr(interaction.client, "controller")  # noqa: B009
    return found


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


class GameButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"rm:(?P<game>[0-9]+):(?P<action>[a-z_]+):(?P<arg>[^:]*)"):
    def __init__(self, game_id: int, spec: ButtonSpec) -> None:
        custom_id = f"rm:{game_id}:{spec.action}:{spec.arg}"
        if len(custom_id) > CUSTOM_ID_LIMIT:
            raise ValueError(f"custom_id too long: {custom_id}")
        super().__init__(discord.ui.Button(label=spec.label[:80], style=spec.style,
                                           custom_id=custom_id, disabled=spec.disabled,
                                           emoji=spec.emoji))
        self.game_id = game_id
        self.spec = spec

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        spec = ButtonSpec(item.label or "", match["action"], match["arg"], item.style)
        return cls(int(match["game"]), spec)

    async def callback(self, interaction: discord.Interaction) -> None:
        await router(interaction).on_button(interaction, self.game_id, self.spec.action,
                                            self.spec.arg)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"rs:(?P<game>[0-9]+):(?P<action>[a-z_]+):(?P<arg>[^:]*)"):
    def __init__(self, game_id: int, spec: SelectSpec) -> None:
        custom_id = f"rs:{game_id}:{spec.action}:{spec.arg}"
        if len(custom_id) > CUSTOM_ID_LIMIT:
            raise ValueError(f"custom_id too long: {custom_id}")
        options = [discord.SelectOption(label=label[:100], value=value,
                                        default=value in spec.chosen)
                   for label, value in spec.options[:SELECT_LIMIT]]
        super().__init__(discord.ui.Select(
            custom_id=custom_id, placeholder=spec.placeholder[:150], options=options,
            min_values=min(spec.min_values, len(options)),
            max_values=max(1, min(spec.max_values, len(options)))))
        self.game_id = game_id
        self.spec = spec

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        spec = SelectSpec(match["action"], item.placeholder or "",
                          tuple((o.label, o.value) for o in item.options), match["arg"],
                          item.min_values, item.max_values)
        return cls(int(match["game"]), spec)

    async def callback(self, interaction: discord.Interaction) -> None:
        await router(interaction).on_select(interaction, self.game_id, self.spec.action,
                                            self.spec.arg, list(self.item.values))


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
        select = GameSelect(game_id, menu)
        select.item.row = row
        view.add_item(select)
        row += 1
    for i, spec in enumerate(buttons[: 5 * (5 - row)]):
        button = GameButton(game_id, spec)
        button.item.row = row + i // 5
        view.add_item(button)
    view.stop()
    return view


DYNAMIC_ITEMS = (GameButton, GameSelect)
