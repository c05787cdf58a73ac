"""``/rummy``: what is the same in every variant — seats, the hand, the table, records, rules."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import patiently, reply
from bot.registry import TITLES, VARIANTS, rules, rules_index
from bot.render import as_file
from bot.sessions import Session
from bot.texts import EMBED_LIMIT, clip, record_text, result_number, table_text

if TYPE_CHECKING:
    from bot.app import RummyBot
    from bot.controller import Controller

VARIANT_CHOICES = [app_commands.Choice(name=title, value=key) for key, title in TITLES.items()]
"""Every variant offered, from the registry (Discord allows 25 choices)."""
PERIODS = {"all": None, "month": 30 * 24 * 3600, "week": 7 * 24 * 3600}
COLOUR = discord.Colour.from_rgb(0x1B, 0x5E, 0x3B)


class RummyCog(commands.GroupCog, group_name="rummy",
               group_description="Rummy games: seats, your hand, the table, records, rules"):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def controller(self) -> Controller:
        return self.bot.controller

    async def _session(self, interaction: discord.Interaction) -> Session | None:
        session = self.controller.session_for(interaction)
        if session is None:
            starts = " or ".join(f"`/{key} new`" for key in VARIANTS)
            await reply(interaction, f"There is no game in this channel. Open one with {starts}.")
        return session

    # -- seats --------------------------------------------------------------------

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.lobby_action(interaction, session, "join")

    @app_commands.command(name="leave", description="Leave the lobby, or forfeit the game in "
                                                    "progress")
    async def leave(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.lobby_action(interaction, session, "leave")

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.lobby_action(interaction, session, "start")

    @app_commands.command(name="cancel", description="Cancel the lobby or game (host or "
                                                     "Manage Server)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.lobby_action(interaction, session, "cancel")

    # -- playing --------------------------------------------------------------------

    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.panels.open(interaction, session)

    @app_commands.command(name="table", description="Post the table: melds, piles, players, "
                                                    "whose turn")
    async def table(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        game = session.game
        if game is None:
            await reply(interaction, "The game has not started yet.")
            return
        view = game.table_view()
        text = table_text(view, session.names)
        if session.deadline and not game.is_over:
            text += f"\nTurn ends <t:{int(session.deadline)}:R>."
        png = await patiently(interaction, self.controller.renderer.table(view, session.names),
                              ephemeral=False)  # a picture drawn first: deferred if slow
        embed = discord.Embed(title=f"{game.title} · {view.hand_label} {view.hand_number}",
                              description=clip(text, EMBED_LIMIT), colour=COLOUR)
        embed.set_image(url="attachment://table.png")
        await reply(interaction, None, embed=embed, file=as_file(png, "table.png"),
                    ephemeral=False)

    @app_commands.command(name="hint", description="On your turn: the move the strongest "
                                                   "computer would make, and why (only you "
                                                   "see it)")
    async def hint(self, interaction: discord.Interaction) -> None:
        if session := await self._session(interaction):
            await self.controller.hint(interaction, session)

    @app_commands.command(name="resume", description="Take back your seat from auto-play")
    async def resume(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        await self.controller.resume(interaction, session)

    @app_commands.command(name="settings", description="How your hand is shown; this "
                                                       "server's settings (Manage Server)")
    @app_commands.describe(sort="Order cards by suit or by rank",
                           style="Four-colour suits, or classic red and black",
                           rate_hinted_games="This server: do games in which someone used a "
                                             "hint count for ratings? (Manage Server)")
    async def settings(self, interaction: discord.Interaction,
                       sort: Literal["suit", "rank"] | None = None,
                       style: Literal["four", "classic"] | None = None,
                       rate_hinted_games: bool | None = None) -> None:
        lines = []
        if rate_hinted_games is not None:
            refusal = _server_refusal(interaction)
            if refusal:
                await reply(interaction, refusal)
                return
            assert interaction.guild_id is not None
            await self.controller.store.set_server_settings(
                interaction.guild_id, {"rate_hinted_games": rate_hinted_games})
            lines.append("Games in which someone used a hint "
                         + ("count for ratings in this server." if rate_hinted_games else
                            "are recorded but not rated in this server."))
        if sort is not None or style is not None or not lines:
            settings = await self.controller.store.set_settings(
                interaction.user.id, hand_sort=sort, card_style=style)
            lines.insert(0, f"Your hand is sorted by {settings.hand_sort} and drawn in the "
                            f"{settings.card_style} style.")
        await reply(interaction, "\n".join(lines))

    # -- records --------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="This server's standings")
    @app_commands.describe(variant="One variant, or all", period="Games of all time, this "
                                                                 "month or this week")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction,
                          variant: str | None = None,
                          period: Literal["all", "month", "week"] = "all") -> None:
        if interaction.guild_id is None:
            await reply(interaction, "Leaderboards belong to a server.")
            return
        span = PERIODS[period]
        since = time.time() - span if span else None
        rows = await self.controller.store.leaderboard(interaction.guild_id, variant, since)
        title = f"Leaderboard · {TITLES[variant] if variant else 'all variants'}"
        if period != "all":
            title += f" · this {period}"
        if not rows:
            await reply(interaction, "No finished games here yet.",
                                        ephemeral=False)
            return
        # Results of different variants count different things: no average across them.
        unit = _unit(variant) if variant else None
        lines = [f"{i}. <@{r.user_id}> — rating **{r.rating}**, " + record_text(
                     r.games, r.wins, r.win_rate, r.avg_points if unit else None, *(unit or ()))
                 for i, r in enumerate(rows, start=1)]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
        await interaction.response.send_message(embed=embed,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(member="Whose record (you, if left out)")
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        if interaction.guild_id is None:
            await reply(interaction, "Records belong to a server.")
            return
        who = member or interaction.user
        rows = await self.controller.store.player_stats(interaction.guild_id, who.id)
        if not rows:
            await reply(interaction, f"{who.display_name} has no finished "
                                                     "games here yet.")
            return
        lines = [f"**{TITLES.get(r.variant, r.variant)}** — rating {r.rating}, "
                 f"{record_text(r.games, r.wins, r.win_rate, r.avg_points, *_unit(r.variant))}"
                 f", best place {r.best_place}, last played <t:{int(r.last_played)}:R>"
                 for r in rows]
        embed = discord.Embed(title=f"{who.display_name} · stats", description="\n".join(lines),
                              colour=COLOUR)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="history", description="Recent finished games with their seeds")
    @app_commands.describe(member="Only games this member played")
    async def history(self, interaction: discord.Interaction,
                      member: discord.Member | None = None) -> None:
        if interaction.guild_id is None:
            await reply(interaction, "History belongs to a server.")
            return
        rows = await self.controller.store.history(interaction.guild_id,
                                                   member.id if member else None)
        if not rows:
            await reply(interaction, "No finished games here yet.")
            return
        lines = []
        for row in rows:
            scale = _unit(row.variant)[1]
            players = ", ".join(f"{p.place}. {p.name} ({result_number(p.points, scale)})"
                                for p in sorted(row.players, key=lambda p: p.place))
            lines.append(f"**{TITLES.get(row.variant, row.variant)}** "
                         f"<t:{int(row.finished_at)}:d> · seed `{row.seed}` — {players}")
        embed = discord.Embed(title="Recent games", description=clip("\n".join(lines),
                                                                     EMBED_LIMIT),
                              colour=COLOUR)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="replay", description="Step through a finished game, every "
                                                     "hand open, and get its record (only you "
                                                     "see it)")
    @app_commands.describe(game="Which finished game of this server (your last one, if left "
                                "out)")
    async def replay(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.controller.replays.command(interaction, game)

    @replay.autocomplete("game")
    async def replay_games(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        return await self.controller.replays.complete(interaction, current)

    @app_commands.command(name="rules", description="A short summary of a variant's rules")
    @app_commands.describe(variant="Which variant (the one in this channel, if left out)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        if variant is None:
            session = self.controller.session_for(interaction)
            if session is None:
                await reply(interaction, clip(rules_index()))
                return
            variant = session.variant.key
        await reply(interaction, clip(rules(variant)))


def _server_refusal(interaction: discord.Interaction) -> str:
    """Why the clicker may not change this server's settings (``""``: they may)."""
    member = interaction.user
    if interaction.guild_id is None:
        return "Server settings are changed in a server, not in DMs."
    if not isinstance(member, discord.Member) or not member.guild_permissions.manage_guild:
        return "Only a member with Manage Server can change this server's settings."
    return ""


def _unit(variant: str) -> tuple[str, int]:
    """How a variant's stored results read: (unit, stored units per unit)."""
    game = VARIANTS[variant].game if variant in VARIANTS else None
    return (game.points_unit, game.points_scale) if game else ("point", 1)


async def setup(bot) -> None:
    await bot.add_cog(RummyCog(bot))
