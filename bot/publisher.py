"""Keeps the channel and the players' DMs in step with each game.

Publishing runs after a move is saved and answered, in one task per game,
so a burst of moves becomes one update and a slow or failing Discord call
never holds up play. The channel sees one compact message per turn (table
image, whose turn, deadline, routine-move buttons); earlier turn messages
lose their buttons. Each player's DM holds their hand, refreshed on change.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from dataclasses import replace
from typing import Any

import discord

from .engine.game import Game
from .engine.views import ResultView, ScoreSeries
from .panels import HandPanels, hand_key
from .render import Renderer, as_file
from .sessions import Session, SessionRegistry
from .store import Store
from .tasks import Tasks
from .texts import (
    EMBED_LIMIT,
    clip,
    drawn_text,
    hand_text,
    hand_word,
    plural,
    result_text,
    scores_text,
    table_text,
    wild_text,
    with_names,
)
from .ui import ButtonSpec, make_view

log = logging.getLogger(__name__)

LOG_LINES = 6
COLOUR = discord.Colour.from_rgb(0x1B, 0x5E, 0x3B)


NOT_KEPT = ("*Melds shown here were not kept: the table went back to how it was (the next "
            "message shows it).*")
"""Said on a retired turn message whose picture showed melds that never stood."""

MeldKey = tuple[tuple[str, ...], tuple[str, ...]]


def with_hints(view: ResultView, session: Session) -> ResultView:
    """The results with ``2 hints`` in the note of each player who used any (the text and
    the picture both show notes)."""
    placings = []
    for placing in view.placings:
        used = session.seats[placing.seat].hints if placing.seat < len(session.seats) else 0
        if used:
            note = " · ".join(n for n in (placing.note, plural(used, "hint")) if n)
            placing = replace(placing, note=note)
        placings.append(placing)
    return replace(view, placings=tuple(placings))


def table_melds(game: Game) -> Counter[MeldKey]:
    """The melds a table picture shows: each one's pieces and what they stand for."""
    view = game.table_view()
    return Counter((tuple(p.code for p in m.pieces),
                    tuple(f.label(tiles=view.tiles) for f in m.faces)) for m in view.melds)


def score_series(game: Game) -> ScoreSeries:
    """Running totals after each hand, for the score chart."""
    history = game.history()
    totals = tuple(tuple(float(r.totals[s]) for r in history) for s in range(game.players))
    return ScoreSeries(game.variant, totals, tuple(str(r.number) for r in history),
                       lower_is_better=game.lower_is_better,
                       hand_label=game.table_view().hand_label)


class Publisher:
    def __init__(self, client: discord.Client, store: Store, renderer: Renderer,
                 background: Tasks, panels: HandPanels, sessions: SessionRegistry) -> None:
        self.bot = client
        self.store = store
        self.renderer = renderer
        self.background = background
        self.panels = panels
        self.sessions = sessions
        self.stopped = False
        self.tasks: dict[int, asyncio.Task] = {}
        self.dm_channels: dict[int, discord.DMChannel] = {}
        self.pictured: dict[int, tuple[discord.Embed, Counter[MeldKey]]] = {}
        """Per game: the current turn message's embed and the melds its picture shows."""

    async def dm_channel(self, user_id: int) -> discord.DMChannel:
        """The DM channel with a player, opened once and remembered.

        Without the members intent discord.py rarely has the user cached and
        keeps only 128 DM channels, so asking it each time would cost a
        ``GET /users`` and often a ``POST /users/@me/channels`` per refresh.
        """
        channel = self.dm_channels.get(user_id)
        if channel is None:
            channel = await self.bot.create_dm(discord.Object(user_id))
            self.dm_channels[user_id] = channel
        return channel

    def wake(self, session: Session) -> None:
        if self.stopped:
            return
        session.wake.set()
        task = self.tasks.get(session.game_id)
        if task is None or task.done():
            self.tasks[session.game_id] = self.background.spawn(
                self._run(session), f"publish-{session.game_id}")

    async def idle(self) -> None:
        """Wait until every game's channel and DMs show its latest state."""
        while running := [t for t in self.tasks.values() if not t.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    def stop(self) -> None:
        self.stopped = True
        for task in self.tasks.values():
            task.cancel()

    def forget(self, session: Session) -> None:
        """Stop publishing a game another process took over (it publishes from now on)."""
        task = self.tasks.pop(session.game_id, None)
        if task is not None:
            task.cancel()

    async def _run(self, session: Session) -> None:
        while session.wake.is_set():
            session.wake.clear()
            try:
                await self.publish(session)
            except discord.HTTPException:
                log.warning("publishing game %s failed", session.game_id, exc_info=True)
        if session.status in ("finished", "cancelled"):
            self.tasks.pop(session.game_id, None)

    async def channel(self, session: Session) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(session.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(session.channel_id)
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel  # type: ignore[return-value]

    # -- the channel ---------------------------------------------------------

    async def publish(self, session: Session) -> None:
        game = session.game
        if game is None:
            return
        channel = await self.channel(session)
        if channel is None:
            log.warning("game %s: its channel is gone; cancelling", session.game_id)
            await self.sessions.abandon(session, self.store)
            return
        await self.publish_results(session, game, channel)
        if game.is_over:
            try:
                await self.retire_turn_message(session, channel, game)
                if not session.final_posted:
                    await self.publish_final(session, game, channel)
                    session.final_posted = True
                    await self.remember(session)
            finally:  # even when Discord refuses the results, the game's timers stop
                self.sessions.close(session)
        elif game.turn_serial != session.published_serial:
            await self.retire_turn_message(session, channel, game)
            await self.post_turn_message(session, game, channel)
        elif session.published != self.snapshot(session, game):
            await self.edit_turn_message(session, game, channel)
        await self.refresh_dms(session, game, channel)

    async def remember(self, session: Session) -> None:
        """Save what the channel and DMs show now, so a restart posts nothing twice."""
        await self.store.set_published(session.game_id, session.published_record())

    async def post_once(self, session: Session, key: str, channel: discord.abc.Messageable,
                        content: str | None = None, **kwargs: Any
                        ) -> tuple[discord.Message, bool]:
        """Post a message at most once, even if the bot dies between sending and saving it.

        The post's nonce is saved (``Session.posting``, under ``key``: what the post
        is) before it is sent, and Discord enforces it: sent again after a restart,
        the same post returns the message already made instead of a second one. The
        caller saves what it posted (clearing the intent) as it always does. Returns
        the message and whether it may be that earlier one (its words then may be old).
        """
        nonce = session.posting.get(key)
        again = nonce is not None
        if nonce is None:
            nonce = session.posting[key] = secrets.token_hex(12)  # Discord allows 25
            await self.remember(session)
        try:
            message = await channel.send(content, nonce=nonce, **kwargs)
        except discord.HTTPException as error:
            if not isinstance(error, discord.DiscordServerError):  # refused: nothing was made
                del session.posting[key]
            raise
        del session.posting[key]
        return message, again

    @staticmethod
    def snapshot(session: Session, game: Game) -> tuple:
        """What the turn message shows; equal snapshots need no edit."""
        return (id(game), session.deadline, tuple(session.log[-LOG_LINES:]))

    def turn_embed(self, session: Session, game: Game) -> discord.Embed:
        view = game.table_view()
        names = session.names
        title = f"{game.title} · {view.hand_label} {view.hand_number}"
        description = table_text(view, names)
        if session.log:
            description += "\n\n" + "\n".join(session.log[-LOG_LINES:])
        embed = discord.Embed(title=title, description=clip(description, EMBED_LIMIT),
                              colour=COLOUR)
        embed.set_image(url="attachment://table.png")
        embed.set_footer(text=f"My {hand_word(game.tiles)} shows your {game.notation.noun}s "
                              "privately · /rummy rules for help")
        return embed

    def turn_content(self, session: Session, game: Game) -> str:
        seat = game.to_move
        if seat is None:
            return ""
        player = session.seats[seat]
        who = f"<@{player.user_id}>" if player.human and player.user_id else player.name
        deadline = (f" — time runs out <t:{int(session.deadline)}:R>"
                    if session.deadline and player.human else "")
        return f"{who}, it's your turn{deadline}." if player.human else f"{who} is thinking…"

    def turn_view(self, session: Session, game: Game) -> discord.ui.View | None:
        buttons = list(session.variant.controls.turn_buttons(game))
        buttons.append(ButtonSpec(f"My {hand_word(game.tiles)}", "hand",
                                  style=discord.ButtonStyle.primary,
                                  emoji="🂠"))
        return make_view(session.game_id, buttons)

    async def post_turn_message(self, session: Session, game: Game,
                                channel: discord.abc.Messageable) -> None:
        png = await self.renderer.table(game.table_view(), session.names)
        embed = self.turn_embed(session, game)
        message, again = await self.post_once(
            session, "turn", channel, self.turn_content(session, game),
            embed=embed, file=as_file(png, "table.png"),
            view=self.turn_view(session, game) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True))
        self.pictured[session.game_id] = (embed, table_melds(game))
        session.turn_message_id = message.id
        session.published_serial = game.turn_serial
        session.log = session.log[-2:] if session.log else []
        # A turn message posted just before a crash (perhaps for an earlier turn) comes
        # back as itself: it becomes this turn's message and is brought up to date.
        session.published = () if again else self.snapshot(session, game)
        if again:
            session.wake.set()
        await self.store.set_published(session.game_id, session.published_record(),
                                       turn=message.id)

    async def edit_turn_message(self, session: Session, game: Game,
                                channel: discord.abc.Messageable) -> None:
        if session.turn_message_id is None:
            await self.post_turn_message(session, game, channel)
            return
        png = await self.renderer.table(game.table_view(), session.names)
        message = channel.get_partial_message(session.turn_message_id)  # type: ignore[attr-defined]
        shown = self.snapshot(session, game)
        embed = self.turn_embed(session, game)
        try:
            await message.edit(content=self.turn_content(session, game), embed=embed,
                               attachments=[as_file(png, "table.png")],
                               view=self.turn_view(session, game))
        except discord.NotFound:
            await self.post_turn_message(session, game, channel)
            return
        self.pictured[session.game_id] = (embed, table_melds(game))
        session.published = shown

    async def retire_turn_message(self, session: Session, channel: discord.abc.Messageable,
                                  game: Game | None = None) -> None:
        """The previous turn message loses its buttons and keeps its picture, unless the
        picture shows melds ``game`` no longer has (a staged Tile Rummy table undone by a
        penalty or a draw): then it loses the picture too and says why."""
        shown = self.pictured.pop(session.game_id, None)
        if session.turn_message_id is None:
            return
        message = channel.get_partial_message(session.turn_message_id)  # type: ignore[attr-defined]
        changes: dict[str, Any] = {"view": None}
        if shown is not None and game is not None and shown[1] - table_melds(game):
            embed = shown[0].copy()
            embed.set_image(url=None)
            embed.description = clip(f"{embed.description or ''}\n\n{NOT_KEPT}", EMBED_LIMIT)
            changes.update(embed=embed, attachments=[])
        try:
            await message.edit(**changes)
        except discord.HTTPException:
            log.info("turn message %s could not be retired", session.turn_message_id)
        session.turn_message_id = None

    async def publish_results(self, session: Session, game: Game,
                              channel: discord.abc.Messageable) -> None:
        """A results message for every hand that ended since the last publish."""
        history = game.history()
        while session.published_results < len(history):
            result = history[session.published_results]
            if game.is_over and session.published_results + 1 == len(history):
                return  # the final hand is told by publish_final
            session.published_results += 1
            summary = with_names(result.summary, session.names)
            head = f"**{game.table_view().hand_label.capitalize()} {result.number} is over.** "
            if session.published_results < len(history):
                scores = scores_text(result, session.names, game.points_unit, game.points_scale)
                await self.post_once(session, f"results:{result.number}", channel,
                                     clip(f"{head}{summary}\n{scores}"))
            else:  # the latest hand: each hand as scored (grouped where it was), and a picture
                view = game.result_view()
                png = await self.renderer.results(view, session.names)
                await self.post_once(
                    session, f"results:{result.number}", channel,
                    clip(f"{head}{summary}\n{result_text(view, session.names)}"),
                    file=as_file(png, "results.png"))
            await self.remember(session)

    async def publish_final(self, session: Session, game: Game,
                            channel: discord.abc.Messageable) -> None:
        # In the order the records keep (leavers last), with the hints each player used.
        view = with_hints(session.result_view(game), session)
        names = session.names
        files = [as_file(await self.renderer.results(view, names), "results.png"),
                 as_file(await self.renderer.table(game.table_view(), names), "table.png")]
        history = game.history()
        if len(history) > 1:
            series = score_series(game)
            files.append(as_file(await self.renderer.chart(series, names), "scores.png"))
        last = with_names(history[-1].summary, names) if history else ""
        text = f"**{view.title}.** {last}\n{result_text(view, names)}"
        if not session.rated:
            text += ("\nNot rated: hints were used, and this server does not rate games with "
                     "hints.")
        rematch = make_view(session.game_id, [ButtonSpec("Rematch", "rematch",
                                                         style=discord.ButtonStyle.success,
                                                         emoji="🔁"),
                                              ButtonSpec("Replay", "replay", emoji="⏯")])
        await self.post_once(session, "final", channel, clip(text), files=files,
                             view=rematch or discord.utils.MISSING)

    # -- DMs ------------------------------------------------------------------

    async def refresh_dms(self, session: Session, game: Game,
                          channel: discord.abc.Messageable) -> None:
        changed = False
        for seat, player in enumerate(session.seats):
            if not player.human or player.user_id is None or player.left:
                continue
            key = hand_key(game.hand(seat))
            if session.dm_keys.get(player.user_id) == key or player.user_id in session.dm_closed:
                continue
            session.dm_keys[player.user_id] = key
            changed = True
            await self.send_hand(session, game, seat, player.user_id, channel)
        if changed:
            await self.remember(session)

    async def send_hand(self, session: Session, game: Game, seat: int, user_id: int,
                        channel: discord.abc.Messageable) -> None:
        settings = await self.store.get_settings(user_id)
        view = game.hand_view(seat)
        rendered = await self.renderer.hand(view, settings.hand_sort, settings.card_style)
        guild = self.bot.get_guild(session.guild_id)
        where = (f"**{guild.name if guild else 'your server'}** <#{session.channel_id}> — "
                 f"https://discord.com/channels/{session.guild_id}/{session.channel_id}")
        extra = [line for line in (drawn_text(view), wild_text(view.wild_rank)) if line]
        content = clip("\n".join([f"Your {hand_word(game.tiles)} in {where}",
                                   hand_text(rendered.order), *extra]))
        file = as_file(rendered.png, "hand.png")
        try:
            dm = await self.dm_channel(user_id)
            old = session.dm_messages.get(user_id)
            if old is not None:
                try:
                    await dm.get_partial_message(old).edit(content=content, attachments=[file])
                except discord.NotFound:
                    old = None
            if old is None:
                message, again = await self.post_once(session, f"dm:{user_id}", dm, content,
                                                      file=file)
                if again:  # the DM sent just before a crash: show the hand as it is now
                    await message.edit(content=content, attachments=[as_file(rendered.png,
                                                                             "hand.png")])
                session.dm_messages[user_id] = message.id
        except discord.Forbidden:
            session.dm_closed.add(user_id)
            await self.post_once(
                session, f"closed:{user_id}", channel,
                f"<@{user_id}>, I can't send you direct messages, so your hand stays here: use "
                "**My hand** or `/rummy hand` to see it.",
                allowed_mentions=discord.AllowedMentions(users=True))
            return
        if session.game is game:  # a move made meanwhile has shown a newer hand already
            await self.panels.remember(session, user_id, rendered.order, game.hand(seat))
