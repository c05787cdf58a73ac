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
from .engine.serial import to_data
from .interactions import reply
from .publisher import Publisher
from .registry import Variant, variant
from .rules_text import glance, options_in_effect
from .sessions import Seat, Session, SessionRegistry, turn_deadline
from .shards import ShardSet
from .store import ChannelBusy, Store
from .texts import FIELD_LIMIT, clip, with_names
from .ui import ButtonSpec, make_view

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60
"""UX.md: a lobby that sees no activity for 15 minutes closes itself."""
COLOUR = discord.Colour.from_rgb(0x1B, 0x5E, 0x3B)


class LobbyFlow:
    ACTIONS = ("join", "leave", "addbot", "start", "cancel")

    def __init__(self, store: Store, sessions: SessionRegistry, publisher: Publisher) -> None:
        self.store = store
        self.sessions = sessions
        self.publisher = publisher

    # -- opening ----------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, kind: Variant,
                   values: Mapping[str, Any], computers: int | None, seed: int | None,
                   hints: bool | None = None) -> None:
        """``/<variant> new``: a lobby in this channel with the host seated.

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
            await reply(interaction,
                                        f"computers must be 0 to {kind.game.max_players - 1}")
            return
        seats = [Seat(interaction.user.id, interaction.user.display_name)]
        await self.create(interaction, kind, options, seats, computers, seed,
                          hints=hints is not False)

    async def create(self, interaction: discord.Interaction, kind: Variant, options: Options,
                     seats: list[Seat], computers: int, seed: int | None, *,
                     hints: bool = True) -> None:
        """Save a new lobby, then show it in the channel as the answer to ``interaction``."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await reply(interaction, "Games are played in a server channel, "
                                                     "not in DMs.")
            return
        if self.sessions.in_channel(interaction.channel_id):
            await reply(interaction, BUSY)
            return
        session = Session(game_id=0, guild_id=interaction.guild_id,
                          channel_id=interaction.channel_id, variant=kind, options=options,
                          seed=seed if seed is not None else secrets.randbits(32),
                          host_id=interaction.user.id, seats=seats, hints=hints)
        for _ in range(computers):
            session.seats.append(Seat(None, session.next_computer_name(), is_computer=True))
        try:
            session.game_id = await self.store.create_game(
                session.guild_id, session.channel_id, kind.key, to_data(options),
                session.seed, session.host_id, seats=session.seat_rows(), hints=hints)
        except ChannelBusy:
            await reply(interaction, BUSY)
            return
        self.sessions.add(session)
        response = await interaction.response.send_message(
            embed=self.embed(session), view=self.view(session) or discord.utils.MISSING)
        session.lobby_message_id = response.message_id
        if response.message_id is not None:
            await self.store.set_messages(session.game_id, lobby=response.message_id)

    def embed(self, session: Session, note: str = "") -> discord.Embed:
        kind = session.variant
        seats = "\n".join(f"{i + 1}. {s.name}{' (host)' if s.user_id == session.host_id else ''}"
                          + (f" · {s.level}" if s.level else "")
                          for i, s in enumerate(session.seats)) or "—"
        game = kind.game
        status = {"lobby": "Open lobby", "running": "Started", "cancelled": "Cancelled",
                  "finished": "Finished"}[session.status]
        embed = discord.Embed(title=f"{kind.title} · {status}", colour=COLOUR,
                              description=note or None)
        embed.add_field(name="Host", value=f"<@{session.host_id}>")
        embed.add_field(name="Players", value=f"{len(session.seats)} of "
                                              f"{game.min_players}–{game.max_players}")
        embed.add_field(name="Rules", value=clip(f"{glance(kind.key)} `/rummy rules` tells "
                                                 "the rest.", FIELD_LIMIT), inline=False)
        hints = "hints: on" if session.hints else "**hints: off**"
        embed.add_field(name="Options", value=clip(f"{options_in_effect(session.options)} · "
                                                   f"{hints}", FIELD_LIMIT), inline=False)
        embed.add_field(name="Seats", value=seats, inline=False)
        if session.status == "lobby":
            embed.set_footer(text="Join, add computers, and the host presses Start · "
                                  "closes after 15 idle minutes")
        return embed

    def view(self, session: Session) -> discord.ui.View | None:
        if session.status != "lobby":
            return None
        full = len(session.seats) >= session.variant.game.max_players
        enough = len(session.seats) >= session.variant.game.min_players
        return make_view(session.game_id, [
            ButtonSpec("Join", "join", style=discord.ButtonStyle.success, disabled=full),
            ButtonSpec("Leave", "leave"),
            *add_computer_buttons(session.variant, full),
            ButtonSpec("Start", "start", style=discord.ButtonStyle.primary,
                       disabled=not enough),
            ButtonSpec("Cancel", "cancel", style=discord.ButtonStyle.danger),
        ])

    # -- buttons and /rummy commands ------------------------------------------------

    async def perform(self, interaction: discord.Interaction, session: Session,
                      action: str, arg: str = "") -> str:
        """Join, leave, add a computer, start or cancel (lock held); the line to show.

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
            raise LobbyRefusal("The game has already started.")

    async def _join(self, interaction: discord.Interaction, session: Session) -> str:
        self._require_lobby(session)
        user = interaction.user
        if session.seat_of(user.id) is not None:
            raise LobbyRefusal("You are already seated in this game.")
        if len(session.seats) >= session.variant.game.max_players:
            raise LobbyRefusal("The game is full.")
        session.seats.append(Seat(user.id, user.display_name))
        await self._save_seats(session)
        return f"{user.display_name} joined."

    async def _leave(self, interaction: discord.Interaction, session: Session) -> str:
        """Leave a lobby (a running game's leave is the controller's: the variant's way out)."""
        user = interaction.user
        seat = session.seat_of(user.id)
        if seat is None:
            raise LobbyRefusal("You are not seated in this game.")
        self._require_lobby(session)
        del session.seats[seat]
        if user.id == session.host_id:
            humans = [s for s in session.seats if s.human and s.user_id is not None]
            if not humans:
                await self._close(session, "cancelled")
                return "The host left and nobody else is seated: the lobby is closed."
            session.host_id = humans[0].user_id  # type: ignore[assignment]
        await self._save_seats(session)
        return f"{user.display_name} left."

    async def _addbot(self, interaction: discord.Interaction, session: Session,
                      level: str | None = None) -> str:
        self._require_lobby(session)
        if interaction.user.id != session.host_id:
            raise LobbyRefusal("Only the host can add computer players.")
        if len(session.seats) >= session.variant.game.max_players:
            raise LobbyRefusal("The game is full.")
        if level is not None and level not in session.variant.computers:
            raise LobbyRefusal(f"{session.variant.title} has no {level} computer.")
        name = session.next_computer_name()
        session.seats.append(Seat(None, name, is_computer=True, level=level))
        await self._save_seats(session)
        return f"{name} sits down" + (f" ({level})." if level else ".")

    async def _start(self, interaction: discord.Interaction, session: Session) -> str:
        self._require_lobby(session)
        if interaction.user.id != session.host_id:
            raise LobbyRefusal("Only the host can start the game.")
        kind = session.variant.game
        try:
            game = kind.new(len(session.seats), session.options, session.seed)
        except RummyError as error:
            raise LobbyRefusal(error.message) from None
        deadline = turn_deadline(session, None, game)
        await self.store.start_game(session.game_id, game.to_json(), session.seat_rows(),
                                    deadline)
        session.game, session.deadline, session.status = game, deadline, "running"
        session.log.extend(with_names(e.text, session.names) for e in game.opening())
        return "The game has started. Good luck!"

    async def _cancel(self, interaction: discord.Interaction, session: Session) -> str:
        member = interaction.user
        manager = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
        if member.id != session.host_id and not manager:
            raise LobbyRefusal("Only the host or someone with Manage Server can cancel.")
        await self._close(session, "cancelled")
        return f"Cancelled by {member.display_name}."

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
            await reply(interaction, "That game cannot be replayed.")
            return
        players = [s for s in row.seats if not s.left]
        if interaction.user.id not in {s.user_id for s in players if not s.is_computer}:
            await reply(interaction, "Only the players of that game can ask "
                                                     "for a rematch.")
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
            await self.refresh_message(session, "Closed after 15 minutes without activity.")
            closed += 1
        return closed

    async def refresh_message(self, session: Session, note: str) -> None:
        if session.lobby_message_id is None:
            return
        channel = await self.publisher.channel(session)
        if channel is None:
            return
        message = channel.get_partial_message(session.lobby_message_id)  # type: ignore[attr-defined]
        try:
            await message.edit(embed=self.embed(session, note), view=None)
        except discord.HTTPException:
            log.info("lobby message %s could not be edited", session.lobby_message_id)


def add_computer_buttons(kind: Variant, full: bool) -> list[ButtonSpec]:
    """*Add computer*, or one button per level where the variant offers several."""
    levels = list(kind.computers) if len(kind.computers) > 1 else [""]
    return [ButtonSpec(f"Add {level + ' ' if level else ''}computer", "addbot", level,
                       disabled=full, emoji="🤖") for level in levels]


OVER = {
    "join": "This game is over: press Rematch on its results, or open a new game.",
    "leave": "This game is already over: there is nothing to leave.",
    "addbot": "This game is over: open a new one to add computer players.",
    "start": "This game is already over: open a new one, or press Rematch on its results.",
    "cancel": "This game is already over: there is nothing to cancel.",
}
"""Answers to lobby actions on a game that finished or was cancelled meanwhile."""

BUSY = ("This channel already has a game. Finish or cancel it (`/rummy cancel`), or start one "
        "in another channel.")


class LobbyRefusal(Exception):
    """A lobby action that cannot be done, with the one-line reason."""


