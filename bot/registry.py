"""The one list of variants: everything the bot needs to know about each, in one place.

Adding a variant is one line in :data:`VARIANTS` (and its own engine module,
computer player, controls and cog). Every other list — cogs to load, titles,
the choices of ``/rummy`` options, rules summaries — is derived from here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .ai import gin as gin_ai
from .ai import indian as indian_ai
from .ai import penang as penang_ai
from .ai import remi as remi_ai
from .ai import rummi as rummi_ai
from .ai import rummy500 as rummy500_ai
from .ai import straight as straight_ai
from .ai import tiles as tiles_ai
from .ai.levels import levels
from .controls.base import Controls
from .controls.gin import GinControls
from .controls.indian import IndianControls
from .controls.penang import PenangControls
from .controls.remi import RemiControls
from .controls.rummi import RummiControls
from .controls.rummy500 import Rummy500Controls
from .controls.straight import StraightControls
from .controls.tiles import TilesControls
from .engine.game import Game, Move
from .engine.variants.gin import GinGame
from .engine.variants.indian import IndianGame
from .engine.variants.penang import PenangGame
from .engine.variants.remi import RemiGame
from .engine.variants.rummi import RummiGame
from .engine.variants.rummy500 import Rummy500Game
from .engine.variants.straight import StraightGame
from .engine.variants.tiles import TilesGame
from .i18n import _, say
from .rules_text import SUMMARIES, first_line, options_text

ChooseMove = Callable[[Any, int, random.Random], Move]
"""A computer player: a pure function of its variant's game, a seat and a seeded RNG."""

LEVEL_ORDER = ("easy", "standard", "strong")
"""The computer levels (bot.ai.levels), weakest first: the order the lobby offers them."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One playable variant."""

    key: str
    """The slash-command group and the key in the database (``straight``)."""
    game: type[Game]
    computers: Mapping[str, ChooseMove]
    """Computer players by level; the first is the default."""
    controls: Controls
    summary: str
    cog: str = field(default="")
    """The extension module of its slash commands (``cogs.<key>`` unless set)."""

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def extension(self) -> str:
        return self.cog or f"cogs.{self.key}"

    def computer(self, level: str | None = None) -> ChooseMove:
        """The computer player at ``level`` (the default level if unknown)."""
        return self.computers.get(level or "", next(iter(self.computers.values())))

    @property
    def default_level(self) -> str:
        return next(iter(self.computers))

    @property
    def levels(self) -> list[str]:
        """The levels offered, weakest first (``easy``, ``standard``, ``strong``)."""
        known = [level for level in LEVEL_ORDER if level in self.computers]
        return known + [level for level in self.computers if level not in LEVEL_ORDER]

    def choose_move(self, game: Game, seat: int, rng: random.Random,
                    level: str | None = None) -> Move:
        """The computer's move for ``seat`` at ``level`` (the default level if unknown).

        A strong player searches with its default budget here; the bot sends it to
        a worker process with the configured one (:mod:`bot.thinker`).
        """
        return self.computer(level)(game, seat, rng)

    def rules(self) -> str:
        """``/rummy rules``: the summary and every option of ``/<key> new``."""
        command = f"`/{self.key} new`"
        return (f"## {say(self.title)}\n{say(self.summary)}\n"
                + _("**Options** ({command}):", command=command) + "\n"
                + options_text(self.game.options_type))


VARIANTS: dict[str, Variant] = {v.key: v for v in (
    Variant("straight", StraightGame, levels(straight_ai.choose_move, cost=straight_ai.cost),
            StraightControls(), SUMMARIES["straight"]),
    Variant("indian", IndianGame, levels(indian_ai.choose_move, cost=indian_ai.cost),
            IndianControls(), SUMMARIES["indian"]),
    Variant("penang", PenangGame, levels(penang_ai.choose_move, rounds=None),
            PenangControls(), SUMMARIES["penang"]),
    Variant("remi", RemiGame, levels(remi_ai.choose_move, cost=remi_ai.cost),
            RemiControls(), SUMMARIES["remi"]),
    Variant("rummi", RummiGame, levels(rummi_ai.choose_move, rounds=None),
            RummiControls(), SUMMARIES["rummi"]),
    Variant("rummy500", Rummy500Game, levels(rummy500_ai.choose_move,
                                             easy=rummy500_ai.choose_easy),
            Rummy500Controls(), SUMMARIES["rummy500"]),
    Variant("tiles", TilesGame, levels(tiles_ai.choose_strong, easy=tiles_ai.choose_easy,
                              cost=tiles_ai.rack_cost, candidates=tiles_ai.search_moves),
            TilesControls(), SUMMARIES["tiles"]),
    Variant("gin", GinGame, levels(gin_ai.choose_move, easy=gin_ai.choose_easy),
            GinControls(), SUMMARIES["gin"]),
)}

PLANNED: dict[str, str] = {
}
"""Variants being built: named in ``/rummy rules`` and records, not playable yet."""

TITLES: dict[str, str] = {**{k: v.title for k, v in VARIANTS.items()}, **PLANNED}
"""Every variant the product offers or will offer, by key."""


class UnknownVariant(KeyError):
    """A key that is not a playable variant; ``str()`` says so in words."""

    def __str__(self) -> str:
        return str(self.args[0])


def variant(key: str) -> Variant:
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariant(_("{variant} is not available yet",
                               variant=TITLES.get(key, key))) from None


def rules(key: str) -> str:
    """The rules summary of any offered variant, playable or planned."""
    if key in VARIANTS:
        return VARIANTS[key].rules()
    return (f"## {say(TITLES[key])}\n{say(SUMMARIES[key])}\n*"
            + _("Not playable yet: it is being built.") + "*")


def rules_index() -> str:
    """``/rummy rules`` outside a game: every variant in a line, and how to read one."""
    lines = [_("**Rummy variants** — `/rummy rules variant:<name>` for one in full.")]
    for key, title in TITLES.items():
        first = first_line(key)
        start = f"`/{key} new`" if key in VARIANTS else _("coming soon")
        lines.append(f"• **{say(title)}** ({start}): {first}")
    return "\n".join(lines)
