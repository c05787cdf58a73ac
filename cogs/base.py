"""What every variant cog shares: lobby creation, typed moves, hand autocomplete.

A variant cog is a :class:`discord.ext.commands.GroupCog` (``/straight``…) that
turns typed options into moves. Buttons and panels are the variant's controls
(:mod:`bot.controls`), found through the registry; the cog only types.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.controls.base import Reply
from bot.engine.cards import Piece
from bot.engine.game import Game, Move
from bot.engine.moves import Discard, LayOff, MeldDown, Placed
from bot.engine.notation import parse_groups, parse_list, parse_single
from bot.interactions import reply
from bot.registry import Variant, variant
from bot.sessions import Session

if TYPE_CHECKING:
    from bot.app import RummyBot
    from bot.controller import Controller

AUTOCOMPLETE_LIMIT = 25
LOBBY_OPTIONS = {"hints": "Allow /rummy hint in this game (on unless set off)"}
"""Options of every lobby, beside the variant's own: not rules, so not engine options."""


def with_lobby_options(command: app_commands.Command) -> app_commands.Command:
    """``/<variant> new`` with the options every lobby shares added (:data:`LOBBY_OPTIONS`).

    Done once here for every variant cog (:meth:`VariantCog.__init_subclass__`), so a new
    variant's ``new`` needs nothing for them: the command is rebuilt from its callback's
    signature plus ``hints: bool | None``, and the callback finds the value in
    ``interaction.extras`` (read by :meth:`VariantCog.open_lobby`).
    """
    original = command.callback
    cache: dict[str, Any] = {}
    params = []
    for param in inspect.signature(original).parameters.values():
        if isinstance(param.annotation, str):  # postponed annotations: in the cog's module
            param = param.replace(annotation=discord.utils.resolve_annotation(
                param.annotation, original.__globals__, None, cache))
        params.append(param)
    params.append(inspect.Parameter("hints", inspect.Parameter.KEYWORD_ONLY, default=None,
                                    annotation=bool | None))

    async def new(self: VariantCog, interaction: discord.Interaction, **values: Any) -> None:
        interaction.extras["hints"] = values.pop("hints", None)
        await original(self, interaction, **values)  # type: ignore[arg-type]

    new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    for name in ("__qualname__", "__name__", "__module__", "__doc__"):
        setattr(new, name, getattr(original, name))
    for name, value in vars(original).items():
        if name.startswith("__discord_app_commands_"):
            setattr(new, name, dict(value) if isinstance(value, dict) else value)
    described = getattr(new, "__discord_app_commands_param_description__", {})
    described.update(LOBBY_OPTIONS)
    new.__discord_app_commands_param_description__ = described  # type: ignore[attr-defined]
    return app_commands.Command(name=command.name, description=command.description,
                                callback=new)


class VariantCog(commands.GroupCog):
    """Base of ``/straight``, ``/indian`` …; subclasses set ``key`` and add their moves."""

    key: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        command = cls.__dict__.get("new")
        if isinstance(command, app_commands.Command):
            setattr(cls, "new", with_lobby_options(command))  # noqa: B010 (a class attribute)

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def controller(self) -> Controller:
        return self.bot.controller

    @property
    def variant(self) -> Variant:
        return variant(self.key)

    # -- lobby ----------------------------------------------------------------

    async def open_lobby(self, interaction: discord.Interaction, values: dict[str, Any],
                         computers: int | None, seed: int | None) -> None:
        await self.controller.lobby.open(interaction, self.variant, values, computers, seed,
                                         hints=interaction.extras.get("hints"))

    # -- moves from commands ------------------------------------------------------

    async def play(self, interaction: discord.Interaction,
                   build: Callable[[Game, int, Reader], Move | Reply]) -> None:
        """Run a typed move: ``build(game, seat, read)`` turns the options into a move."""
        session = await self.session(interaction)
        if session is None:
            return
        user_id = interaction.user.id
        await self.controller.panels.ensure_shown(session, user_id)

        def make(game: Game, seat: int) -> Move | Reply:
            shown = self.controller.panels.shown_order(session, user_id, game, seat)
            return build(game, seat, Reader(game, seat, shown))

        await self.controller.submit(interaction, session, make)

    async def session(self, interaction: discord.Interaction) -> Session | None:
        """The game in this channel, if it is this variant's; answers when not."""
        session = self.controller.session_for(interaction)
        if session is None:
            await reply(interaction, f"There is no game in this channel. Start one with "
                                     f"`/{self.key} new`.")
            return None
        if session.variant.key != self.key:
            await reply(interaction, f"The game here is {session.variant.title}: use "
                                     f"`/{session.variant.key}` commands.")
            return None
        return session

    # -- autocomplete ------------------------------------------------------------------

    async def complete_cards(self, interaction: discord.Interaction, current: str,
                             *, single: bool = False) -> list[app_commands.Choice[str]]:
        """Suggest codes from the player's own hand, continuing what they typed."""
        session = self.controller.session_for(interaction)
        game = session.game if session else None
        seat = session.seat_of(interaction.user.id) if session else None
        if session is None or game is None or seat is None:
            return []
        return hand_choices(game.hand(seat), current, single=single)


class MeldingCog(VariantCog):
    """A variant cog with Straight Rummy's play-phase commands (Straight, Rummy 500):
    ``meld cards``, ``layoff cards meld``, ``discard card``, with hand autocomplete."""

    @app_commands.command(name="meld", description="Lay down melds: 7H 8H 9H | QS QD QC")
    @app_commands.describe(cards="Cards of one or more melds, melds separated by |")
    async def meld(self, interaction: discord.Interaction, cards: str) -> None:
        await self.play(interaction, lambda game, seat, read: MeldDown(seat, read.groups(cards)))

    @app_commands.command(name="layoff", description="Add cards to a meld on the table")
    @app_commands.describe(cards="Cards to add (codes or #positions)",
                           meld="The meld's number on the table")
    async def layoff(self, interaction: discord.Interaction, cards: str,
                     meld: app_commands.Range[int, 1, 500]) -> None:
        await self.play(interaction,
                        lambda game, seat, read: LayOff(seat, read.placed(cards), meld))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card to discard (a code like 7H, or #3)")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, lambda game, seat, read: Discard(seat, read.card(card)))

    @meld.autocomplete("cards")
    @layoff.autocomplete("cards")
    async def _meld_cards(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)

    @discard.autocomplete("card")
    async def _discard_card(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)


def hand_choices(hand: Sequence[Piece], current: str, *,
                 single: bool = False) -> list[app_commands.Choice[str]]:
    """Completions for a card list: the typed cards so far plus one more from the hand."""
    text = current.replace(",", " ")
    done, _, partial = text.rpartition(" ") if not text.endswith(" ") else (text, "", "")
    if single:
        done, partial = "", current.strip()
    typed = done.split()
    left = list(hand)
    for code in typed:
        match = next((p for p in left if p.code == code.upper()), None)
        if match is not None:
            left.remove(match)
    prefix = " ".join(typed)
    seen: set[str] = set()
    choices = []
    for piece in left:
        if piece.code in seen or not piece.code.startswith(partial.upper()):
            continue
        seen.add(piece.code)
        value = f"{prefix} {piece.code}".strip()
        choices.append(app_commands.Choice(name=value[:100], value=value[:100]))
    return choices[:AUTOCOMPLETE_LIMIT]


class Reader:
    """Reads what a player typed into pieces they hold (NOT-5 … NOT-8)."""

    def __init__(self, game: Game, seat: int, shown: Sequence[Piece] | None) -> None:
        self.game, self.seat, self.shown = game, seat, shown

    def cards(self, text: str) -> list[Piece]:
        return self.game.resolve(self.seat, parse_list(text, self.game.notation), self.shown)

    def placed(self, text: str) -> tuple[Placed, ...]:
        refs = parse_list(text, self.game.notation)
        pieces = self.game.resolve(self.seat, refs, self.shown)
        return tuple(zip(pieces, (r.stands_for for r in refs), strict=True))

    def card(self, text: str) -> Piece:
        ref = parse_single(text, self.game.notation)
        (piece,) = self.game.resolve(self.seat, [ref], self.shown)
        return piece

    def groups(self, text: str) -> tuple[tuple[Placed, ...], ...]:
        """``AS 2S 3S | 7D 7C 7H``: copies are counted across all the groups (NOT-5)."""
        groups = parse_groups(text, self.game.notation)
        pieces = iter(self.game.resolve(self.seat, [r for g in groups for r in g], self.shown))
        return tuple(tuple((next(pieces), ref.stands_for) for ref in group) for group in groups)
