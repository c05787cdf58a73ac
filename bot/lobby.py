"""Lobbies: opening a game, seats, starting, cancelling, rematches, idle expiry."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

import discord

from .engine.errors import RummyError
from .engine.game import Options
from .engine.i18n import tr
from .engine.serial import to_data
from .i18n import _, _label, say, speaking
from .interactions import reply
from .languages import Languages
from .publisher import Publisher
from .registry import Variant, variant
from .rules_text import glance, options_in_effect
from .sessions import Seat, Session, SessionRegistry, turn_deadline
from .shards import ShardSet
from .store import ChannelBusy, Store
from .texts import FIELD_LIMIT, clip, level_word
from .ui import ButtonSpec, make_view

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60
"""UX.md: a lobby that sees no activity for 15 minutes closes itself."""
COLOUR = discord.Colour.from_rgb(0x1B, 0x5E, 0x3B)


class LobbyFlow:
    ACTIONS = ("join", "leave", "addbot", "start", "cancel")

    def __init__(self, store: Store, sessions: SessionRegistry, publisher: Publisher,
                 languages: Languages) -> None:
        self.store = store
        self.sessions = sessions
        self.publisher = publisher
        self.languages = languages

    # -- opening ----------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, kind: Variant,
                   values: Mapping[str, Any], computers: int | None, seed: int | None,
                   level: str | None = None, hints: bool | None = None) -> None:
        """``/<variant> new``: a lobby in this channel with the host seated (and ``computers``
        computer players at ``level``, the variant's default level if none).

        ``hints``: the lobby option every variant shares (not a rule of the variant, so
        not among its engine options): whether ``/rummy hint`` works in the game.
        """
        try:
            options = kind.game.options_type.build(**{k: v for k, v in values.items()
                                                      if v is not None})
        except RummyError as error:
            await reply(interaction, error.message)
            return
        computers = computers or 0
        if not 0 <= computers < kind.game.max_players:
            await reply(interaction, _("computers must be 0 to {most}",
                                       most=kind.game.max_players - 1))
            return
        if level is not None and level not in kind.computers:
            await reply(interaction, _("level must be one of {levels}",
                                       levels=", ".join(kind.levels)))
            return
        seats = [Seat(interaction.user.id, interaction.user.display_name)]
        await self.create(interaction, kind, options, seats, computers, seed, level,
                          hints=hints is not False)

    async def create(self, interaction: discord.Interaction, kind: Variant, options: Options,
                     seats: list[Seat], computers: int, seed: int | None,
                     level: str | None = None, *, hints: bool = True) -> None:
        """Save a new lobby, then show it in the channel as the answer to ``interaction``."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await reply(interaction, _("Games are played in a server channel, not in DMs."))
            return
        if self.sessions.in_channel(interaction.channel_id):
            await reply(interaction, BUSY)
            return
        session = Session(game_id=0, guild_id=interaction.guild_id,
                          channel_id=interaction.channel_id, variant=kind, options=options,
                          seed=seed if seed is not None else secrets.randbits(32),
                          host_id=interaction.user.id, seats=seats, hints=hints)
        for _seat in range(computers):
            session.seats.append(Seat(None, session.next_computer_name(), is_computer=True,
                                      level=level or kind.default_level))
        try:
            session.game_id = await self.store.create_game(
                session.guild_id, session.channel_id, kind.key, to_data(options),
                session.seed, session.host_id, seats=session.seat_rows(), hints=hints)
        except ChannelBusy:
            await reply(interaction, BUSY)
            return
        self.sessions.add(session)
        with speaking(await self.languages.public(interaction)):
            embed, view = self.embed(session), self.view(session)
        response = await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING)
        session.lobby_message_id = response.message_id
        if response.message_id is not None:
            await self.store.set_messages(session.game_id, lobby=response.message_id)

    def embed(self, session: Session, note: str = "") -> discord.Embed:
        """The lobby message's embed (public: build it in the server's language). ``note``
        may be a message (``tr``), said in that language."""
        kind = session.variant
        seats = "\n".join(f"{i + 1}. {name}"
                           + (" " + _("(host)") if s.user_id == session.host_id else "")
                           for i, (s, name) in enumerate(zip(session.seats, session.names,
                                                             strict=True))) or "—"
        game = kind.game
        status = {"lobby": _("Open lobby"), "running": _("Started"), "cancelled": _("Cancelled"),
                  "finished": _("Finished")}[session.status]
        embed = discord.Embed(title=f"{say(kind.title)} · {status}", colour=COLOUR,
                              description=say(note) or None)
        embed.add_field(name=_("Host"), value=f"<@{session.host_id}>")
        embed.add_field(name=_("Players"), value=_("{seated} of {fewest}–{most}",
                                                   seated=len(session.seats),
                                                   fewest=game.min_players,
                                                   most=game.max_players))
        embed.add_field(name=_("Rules"), value=clip(
            _("{glance} `/rummy rules` tells the rest.", glance=glance(kind.key)), FIELD_LIMIT),
            inline=False)
        hints = "hints: " + _("on") if session.hints else "**hints: " + _("off") + "**"
        embed.add_field(name=_("Options"), value=clip(f"{options_in_effect(session.options)} · "
                                                      f"{hints}", FIELD_LIMIT), inline=False)
        embed.add_field(name=_("Seats"), value=seats, inline=False)
        if session.status == "lobby":
            embed.set_footer(text=_("Join, add computers, and the host presses Start · closes "
                                    "after 15 idle minutes"))
        return embed

    def view(self, session: Session) -> discord.ui.View | None:
        if session.status != "lobby":
            return None
        full = len(session.seats) >= session.variant.game.max_players
        enough = len(session.seats) >= session.variant.game.min_players
        return make_view(session.game_id, [
            ButtonSpec(_label("Join"), "join", style=discord.ButtonStyle.success, disabled=full),
            ButtonSpec(_label("Leave"), "leave"),
            *add_computer_buttons(session.variant, full),
            ButtonSpec(_label("Start"), "start", style=discord.ButtonStyle.primary,
                       disabled=not enough),
            ButtonSpec(_label("Cancel"), "cancel", style=discord.ButtonStyle.danger),
        ])

    # -- buttons and /rummy commands ------------------------------------------------

    async def perform(self, interaction: discord.Interaction, session: Session,
                      action: str, arg: str = "") -> str:
        """Join, leave, add a computer, start or cancel (lock held); the line to show, as a
        message (``tr``): the lobby shows it in the server's language, the answer in the
        clicker's.

        Raises :class:`LobbyRefusal` with the one-line reason when it cannot be done.
        """
        if session.status in ("finished", "cancelled"):
            raise LobbyRefusal(OVER[action])
        if action == "addbot":
            return await self._addbot(interaction, session, arg or None)
        return await getattr(self, f"_{action}")(interaction, session)

    async def show(self, interaction: discord.Interaction, session: Session, note: str,
                   from_button: bool) -> None:
        """Update the lobby message: in place for a button, through the channel otherwise."""
        with speaking(await self.languages.public(interaction)):
            embed, view = self.embed(session, note), self.view(session)
        if from_button and not interaction.response.is_done():
            await interaction.response.edit_message(embed=embed, view=view)
            return
        await reply(interaction, note)
        if session.lobby_message_id is not None:
            channel = await self.publisher.channel(session)
            if channel is not None:
                message = channel.get_partial_message(session.lobby_message_id)  # type: ignore[attr-defined]
                try:
                    await message.edit(embed=embed, view=view)
                except discord.HTTPException:
                    log.info("lobby message %s could not be edited", session.lobby_message_id)

    def _require_lobby(self, session: Session) -> None:
        if session.status != "lobby":
            raise LobbyRefusal(_("The game has already started."))

    async def _join(self, interaction: discord.Interaction, session: Session) -> str:
        self._require_lobby(session)
        user = interaction.user
        if session.seat_of(user.id) is not None:
            raise LobbyRefusal(_("You are already seated in this game."))
        if len(session.seats) >= session.variant.game.max_players:
            raise LobbyRefusal(_("The game is full."))
        session.seats.append(Seat(user.id, user.display_name))
        await self._save_seats(session)
        return tr("{name} joined.", name=user.display_name)

    async def _leave(self, interaction: discord.Interaction, session: Session) -> str:
        """Leave a lobby (a running game's leave is the controller's: the variant's way out)."""
        user = interaction.user
        seat = session.seat_of(user.id)
        if seat is None:
            raise LobbyRefusal(_("You are not seated in this game."))
        self._require_lobby(session)
        del session.seats[seat]
        if user.id == session.host_id:
            humans = [s for s in session.seats if s.human and s.user_id is not None]
            if not humans:
                await self._close(session, "cancelled")
                return tr("The host left and nobody else is seated: the lobby is closed.")
            session.host_id = humans[0].user_id  # type: ignore[assignment]
        await self._save_seats(session)
        return tr("{name} left.", name=user.display_name)

    async def _addbot(self, interaction: discord.Interaction, session: Session,
                      level: str | None = None) -> str:
        self._require_lobby(session)
        if interaction.user.id != session.host_id:
            raise LobbyRefusal(_("Only the host can add computer players."))
        if len(session.seats) >= session.variant.game.max_players:
            raise LobbyRefusal(_("The game is full."))
        if level and level not in session.variant.computers:
            raise LobbyRefusal(_("{variant} has no {level} computer.",
                                 variant=say(session.variant.title), level=level))
        name = session.next_computer_name()
        level = level or session.variant.default_level
        session.seats.append(Seat(None, name, is_computer=True, level=level))
        await self._save_seats(session)
        return tr("{name} sits down ({level}).", name=name, level=level_word(level))

    async def _start(self, interaction: discord.Interaction, session: Session) -> str:
        self._require_lobby(session)
        if interaction.user.id != session.host_id:
            raise LobbyRefusal(_("Only the host can start the game."))
        kind = session.variant.game
        try:
            game = kind.new(len(session.seats), session.options, session.seed)
        except RummyError as error:
            raise LobbyRefusal(say(error.message)) from None
        deadline = turn_deadline(session, None, game)
        await self.store.start_game(session.game_id, game.to_json(), session.seat_rows(),
                                    deadline)
        session.game, session.deadline, session.status = game, deadline, "running"
        session.log.extend(e.text for e in game.opening())
        return tr("The game has started. Good luck!")

    async def _cancel(self, interaction: discord.Interaction, session: Session) -> str:
        member = interaction.user
        manager = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
        if member.id != session.host_id and not manager:
            raise LobbyRefusal(_("Only the host or someone with Manage Server can cancel."))
        await self._close(session, "cancelled")
        return tr("Cancelled by {name}.", name=member.display_name)

    async def _save_seats(self, session: Session) -> None:
        await self.store.set_seats(session.game_id, session.seat_rows())

    async def _close(self, session: Session, status: str) -> None:
        await self.store.cancel_game(session.game_id)
        session.status = status
        self.sessions.close(session)
        if session.turn_message_id is not None:
            channel = await self.publisher.channel(session)
            if channel is not None:
                await self.publisher.retire_turn_message(session, channel)

    # -- rematch and idle lobbies ---------------------------------------------------

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Rematch: the same players and options in a new lobby; the clicker hosts it."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != "finished":
            await reply(interaction, _("That game cannot be replayed."))
            return
        players = [s for s in row.seats if not s.left]
        if interaction.user.id not in {s.user_id for s in players if not s.is_computer}:
            await reply(interaction, _("Only the players of that game can ask for a rematch."))
            return
        kind = variant(row.variant)
        options = kind.game.options_type.build(**row.options)
        host = next(s for s in players if s.user_id == interaction.user.id)
        seats = [Seat(host.user_id, host.name)]
        seats += [Seat(s.user_id, s.name, s.is_computer, level=s.level)
                  for s in players if s is not host]
        await self.create(interaction, kind, options, seats, 0, None, hints=row.hints)

    async def expire_idle(self, shards: Callable[[], ShardSet]) -> None:
        """Close idle lobbies of ``shards()`` (this process's), checking every minute
        (a task for the bot's lifetime)."""
        while True:
            await asyncio.sleep(60)
            await self.close_idle_lobbies(time.time(), shards())

    async def close_idle_lobbies(self, now: float, shards: ShardSet | None = None) -> int:
        """Close lobbies nobody touched for 15 minutes (UX.md) in the guilds of
        ``shards`` (default: all); returns how many."""
        closed = 0
        on_shards = (shards.count, shards.ids) if shards is not None else None
        for row in await self.store.lobbies_idle_since(now - LOBBY_IDLE_SECONDS, on_shards):
            session = self.sessions.by_id(row.id)
            if session is None or session.status != "lobby":
                continue
            async with session.lock:
                await self._close(session, "cancelled")
            await self.refresh_message(session, tr("Closed after 15 minutes without activity."))
            closed += 1
        return closed

    async def refresh_message(self, session: Session, note: str) -> None:
        if session.lobby_message_id is None:
            return
        channel = await self.publisher.channel(session)
        if channel is None:
            return
        message = channel.get_partial_message(session.lobby_message_id)  # type: ignore[attr-defined]
        with speaking(await self.languages.of_guild(self.publisher.bot, session.guild_id)):
            embed = self.embed(session, note)
        try:
            await message.edit(embed=embed, view=None)
        except discord.HTTPException:
            log.info("lobby message %s could not be edited", session.lobby_message_id)


def add_computer_buttons(kind: Variant, full: bool) -> list[ButtonSpec]:
    """*Add computer*, or one button per level where the variant offers several."""
    levels = kind.levels if len(kind.computers) > 1 else [""]
    return [ButtonSpec(_label("Add {level} computer", level=level_word(level)) if level
                       else _label("Add computer"), "addbot", level, disabled=full, emoji="🤖")
            for level in levels]


OVER = {
    "join": tr("This game is over: press Rematch on its results, or open a new game."),
    "leave": tr("This game is already over: there is nothing to leave."),
    "addbot": tr("This game is over: open a new one to add computer players."),
    "start": tr("This game is already over: open a new one, or press Rematch on its results."),
    "cancel": tr("This game is already over: there is nothing to cancel."),
}
"""Answers to lobby actions on a game that finished or was cancelled meanwhile."""

BUSY = (tr("This channel already has a game. Finish or cancel it (`/rummy cancel`), or start "
           "one in another channel."))


class LobbyRefusal(Exception):
    """A lobby action that cannot be done, with the one-line reason."""


