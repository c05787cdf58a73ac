"""The unmodified discord.py client, in-process, against the fake.

``SampleBot`` uses what the rummy bot will: a command group with typed
options (int, str, bool, member, channel, choices, autocomplete), views with
buttons and a select routed by message id, a modal, ephemeral replies,
defer + followup, file attachments, DMs and threads. Each test tells one
story and checks both what a player would see and what the fake recorded.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any, Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import CallbackType, FakeDiscord
from tests.fakediscord.client import running

HAND = (
    ["7H", "7S", "7D", "KD", "2C", "AS"]
    + [f"{n}C" for n in range(3, 11)]
    + [f"{n}{s}" for n in ("10", "J", "Q", "K") for s in "HSD"]
)


def png(width: int = 40, height: int = 20) -> discord.File:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "darkgreen").save(buffer, "PNG")
    buffer.seek(0)
    return discord.File(buffer, "hand.png")


class LobbyView(discord.ui.View):
    """Every lobby uses the same custom_ids: only the message id tells them apart."""

    def __init__(self, name: str) -> None:
        super().__init__(timeout=60)
        self.name = name
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"{self.name}: {', '.join(self.players)}")

    @discord.ui.select(
        custom_id="lobby:seats", options=[discord.SelectOption(label=str(n)) for n in (2, 3, 4)]
    )
    async def seats(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"{self.name} seats {select.values[0]}", ephemeral=True
        )


class HandView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.card: str | None = None

    @discord.ui.select(
        placeholder="Pick a card", options=[discord.SelectOption(label=c) for c in HAND[:5]]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.card = select.values[0]
        await interaction.response.edit_message(content=f"Selected {self.card}")

    @discord.ui.button(label="Discard")
    async def discard(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.send_message(f"Discarded {self.card}", ephemeral=True)


class PeekView(discord.ui.View):
    @discord.ui.button(label="Edit via channel")
    async def edit(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        assert interaction.message is not None
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        try:
            await interaction.message.edit(content="edited")
        except discord.NotFound as error:
            bot.errors.append(error)
            await interaction.response.edit_message(content="edited properly")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name: discord.ui.TextInput = discord.ui.TextInput(
        label="New name", custom_id="name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Renamed to {self.name.value}", ephemeral=True)


game = app_commands.Group(name="game", description="Play a game")


@game.command(name="new", description="Open a lobby")
@app_commands.describe(players="How many players")
@app_commands.choices(
    variant=[
        app_commands.Choice(name="Indian", value="indian"),
        app_commands.Choice(name="Straight", value="straight"),
    ]
)
async def new(
    interaction: discord.Interaction,
    players: app_commands.Range[int, 1, 4],
    name: str,
    variant: app_commands.Choice[str],
    fast: bool = False,
    rival: discord.Member | None = None,
    where: discord.TextChannel | None = None,
) -> None:
    bot = interaction.client
    assert isinstance(bot, SampleBot)
    bot.seen.append(
        {
            "players": players,
            "name": name,
            "variant": variant.value,
            "fast": fast,
            "rival": rival,
            "where": where,
            "interaction": interaction,
        }
    )
    await interaction.response.send_message(
        f"{name}: {players} players of {variant.name}", ephemeral=True
    )


@game.command(name="lobby", description="Post a lobby")
async def lobby(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.send_message(f"{name}: nobody yet", view=LobbyView(name))


@game.command(name="hand", description="Show your hand privately")
async def hand(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(
        "Your hand: " + " ".join(HAND[:5]), file=png(), view=HandView(), ephemeral=True
    )


@game.command(name="leak", description="The classic mistake")
async def leak(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.followup.send("secret hand: 7H 7S", ephemeral=True)


async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c, value=c) for c in HAND if c.startswith(current.upper())][
        :25
    ]


@game.command(name="discard", description="Discard a card")
@app_commands.autocomplete(card=card_autocomplete)
async def discard(interaction: discord.Interaction, card: str) -> None:
    await interaction.response.send_message(f"{interaction.user.name} discards {card}")


@game.command(name="rename", description="Rename the table")
async def rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RenameModal())


class ThanksView(discord.ui.View):
    @discord.ui.button(label="Thanks")
    async def thanks(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.send_message(f"You're welcome, {interaction.user.name}")


@game.command(name="dm", description="DM someone")
async def dm(interaction: discord.Interaction, member: discord.Member) -> None:
    try:
        await member.send(f"Hello {member.name}", file=png(), view=ThanksView())
    except discord.Forbidden:
        await interaction.response.send_message(f"{member.name} has DMs closed", ephemeral=True)
    else:
        await interaction.response.send_message("sent", ephemeral=True)


@game.command(name="twice", description="Answered here and by a listener: a real bug")
async def twice(interaction: discord.Interaction) -> None:
    await answer_recording_errors(interaction, "from the command")


async def answer_recording_errors(interaction: discord.Interaction, content: str) -> None:
    bot = interaction.client
    assert isinstance(bot, SampleBot)
    try:
        await interaction.response.send_message(content)
    except discord.HTTPException as error:
        bot.errors.append(error)


@game.command(name="slow", description="Answers when the test lets it")
async def slow(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, SampleBot)
    await bot.gate.wait()
    try:
        await interaction.response.send_message("finally")
    except discord.NotFound as error:
        bot.errors.append(error)


@game.command(name="later", description="Defers, then follows up when the test lets it")
async def later(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, SampleBot)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot.gate.wait()
    try:
        await interaction.followup.send("done")
    except discord.HTTPException as error:
        bot.errors.append(error)


@game.command(name="peek", description="An ephemeral message with a button")
async def peek(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("peek", view=PeekView(), ephemeral=True)


@game.command(name="announce", description="Posts to the channel, then answers")
async def announce(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.channel.send("announcement")
    await interaction.response.send_message("announced", ephemeral=True)


@game.command(name="stale", description="Posts buttons nobody listens to")
async def stale(interaction: discord.Interaction) -> None:
    view = LobbyView("stale")
    await interaction.response.send_message("stale lobby", view=view)
    view.stop()


@game.command(name="roles", description="Calls an endpoint the fake does not serve")
async def roles(interaction: discord.Interaction) -> None:
    assert interaction.guild is not None
    try:
        await interaction.guild.fetch_roles()
    except discord.NotFound:
        await interaction.response.send_message("no roles", ephemeral=True)


@game.command(name="table", description="Opens a thread for the game")
async def table(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.response.send_message("Table")
    message = await interaction.original_response()
    thread = await message.create_thread(name="Game 1")
    await thread.send("Turn 1", file=png())


class SampleBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id
        self.seen: list[dict[str, Any]] = []
        self.errors: list[Exception] = []
        self.gate = asyncio.Event()

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.add_command(game, guild=guild)

        @self.tree.command(name="ping", description="Are you there?")
        async def ping(
            interaction: discord.Interaction, mode: Literal["short", "long"] = "short"
        ) -> None:
            await interaction.response.send_message(f"pong ({mode})")

        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A second, independent handler for /game twice (its own Interaction object)."""
        if interaction.command is not None and interaction.command.name == "twice":
            await answer_recording_errors(interaction, "from the listener")


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[SampleBot]:
    sample = SampleBot(fake_discord.guild("Rummy Club").id)
    async with running(fake_discord, sample):
        yield sample


@pytest.fixture
def alice(fake_discord: FakeDiscord) -> Any:
    return fake_discord.user("alice")


@pytest.fixture
def bob(fake_discord: FakeDiscord) -> Any:
    return fake_discord.user("bob")


async def test_bot_logs_in_syncs_and_identifies(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    routes = [r.route for r in fake_discord.requests]
    guild = fake_discord.guild("Rummy Club")
    ready = next(f["d"] for d, f in fake_discord.gateway.frames if f.get("t") == "READY")

    assert routes[:2] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert "PUT /applications/{application_id}/guilds/{guild_id}/commands" in routes
    assert ready["resume_gateway_url"] == fake_discord.gateway_url
    assert [c["name"] for c in fake_discord.synced_commands(guild)] == ["game"]
    assert [c["name"] for c in fake_discord.synced_commands()] == ["ping"]
    cached = await fake_discord.wait_until(lambda: bot.get_guild(guild.id), what="the guild cache")
    assert cached.get_channel(fake_discord.default_channel.id) is not None
    assert bot.user is not None and bot.user.id == fake_discord.bot.id


async def test_slash_options_reach_the_command_typed(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any, bob: Any
) -> None:
    games = fake_discord.default_channel

    inter = await fake_discord.slash(
        alice,
        "/game new",
        players=3,
        name="Friday",
        variant="Indian",
        fast=True,
        rival=bob,
        where=games,
    )
    reply = await inter.reply()

    seen = bot.seen[-1]
    assert (seen["players"], seen["name"], seen["variant"], seen["fast"]) == (
        3,
        "Friday",
        "indian",
        True,
    )
    assert isinstance(seen["rival"], discord.Member) and seen["rival"].id == bob.id
    assert seen["where"].id == games.id
    received: discord.Interaction = seen["interaction"]
    assert received.filesize_limit == 10 * 1024 * 1024
    assert received.guild_id == games.guild.id and received.user.id == alice.id
    assert reply.ephemeral and reply.visible_to is alice
    assert reply.content == "Friday: 3 players of Indian"
    assert (await inter.response()).type is CallbackType.CHANNEL_MESSAGE


async def test_the_fake_refuses_options_no_client_could_send(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    with pytest.raises(ValueError, match="outside"):
        await fake_discord.slash(alice, "/game new", players=9, name="x", variant="indian")
    with pytest.raises(ValueError, match="choices"):
        await fake_discord.slash(alice, "/game new", players=2, name="x", variant="gin")
    with pytest.raises(TypeError, match="missing"):
        await fake_discord.slash(alice, "/game new", players=2)
    with pytest.raises(TypeError, match="unknown option"):
        await fake_discord.slash(alice, "/game lobby", name="x", colour="red")
    with pytest.raises(LookupError, match="no subcommand"):
        await fake_discord.slash(alice, "/game fly")
    with pytest.raises(LookupError, match="needs a subcommand"):
        await fake_discord.slash(alice, "/game")
    with pytest.raises(PermissionError, match="not a member"):
        await fake_discord.slash(fake_discord.add_user("stranger"), "/ping")


async def test_autocomplete_returns_the_bots_choices(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    sevens = await fake_discord.autocomplete(alice, "/game discard", "card", "7")
    everything = await fake_discord.autocomplete(alice, "/game discard", "card", "")

    assert [c.name for c in sevens] == ["7H", "7S", "7D", "7C"]
    assert len(HAND) > 25 and len(everything) == 25
    inter = await fake_discord.slash(alice, "/game discard", card=sevens[0].value)
    assert (await inter.reply()).content == "alice discards 7H"


async def test_views_are_routed_by_message_id(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any, bob: Any
) -> None:
    first = await (await fake_discord.slash(alice, "/game lobby", name="Table A")).reply()
    second = await (await fake_discord.slash(alice, "/game lobby", name="Table B")).reply()

    click = await fake_discord.click(bob, second, "Join")
    updated = await click.reply()
    seats = await (await fake_discord.select(bob, first, ["3"])).reply()

    assert first.button(key="Join")["custom_id"] == second.button("Join")["custom_id"]
    assert (await click.response()).type is CallbackType.UPDATE_MESSAGE
    assert updated is second and second.content == "Table B: bob"
    assert [r.content for r in second.history] == ["Table B: nobody yet"]
    assert first.content == "Table A: nobody yet"
    assert seats.content == "Table A seats 3" and seats.visible_to is bob


async def test_private_hand_via_deferral_with_file_and_components(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any, bob: Any
) -> None:
    inter = await fake_discord.slash(alice, "/game hand")
    deferred = await inter.response()
    hand = await inter.reply()

    assert deferred.type is CallbackType.DEFERRED_CHANNEL_MESSAGE and deferred.ephemeral
    assert hand is inter.original is inter.followups[0]
    assert hand.ephemeral and hand.visible_to is alice and not hand.loading
    assert hand.history[0].flags & 128
    assert hand.attachments[0].image().size == (40, 20)
    assert fake_discord.last_ephemeral(alice) is hand
    assert fake_discord.channel_messages() == []
    with pytest.raises(PermissionError):
        await fake_discord.click(bob, hand, "Discard")

    picked = await (await fake_discord.select(alice, hand, ["KD"])).reply()
    discarded = await (await fake_discord.click(alice, hand, "Discard")).reply()

    assert picked is hand and hand.content == "Selected KD"
    assert discarded.content == "Discarded KD" and discarded.ephemeral


async def test_public_deferral_makes_the_ephemeral_followup_public(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    inter = await fake_discord.slash(alice, "/game leak")
    message = await inter.reply()

    assert not message.ephemeral and message.visibility == "channel"
    assert fake_discord.channel_messages()[-1].content == "secret hand: 7H 7S"
    [problem] = fake_discord.take_problems(kind="ephemeral_ignored")
    assert problem.interaction is inter


async def test_modal_round_trip(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any, bob: Any
) -> None:
    opened = await fake_discord.slash(alice, "/game rename")
    await opened.response()

    assert opened.modal is not None and opened.modal["title"] == "Rename the table"
    with pytest.raises(PermissionError):
        await fake_discord.submit_modal(bob, opened, {"name": "Bob's"})
    with pytest.raises(ValueError, match="length"):
        await fake_discord.submit_modal(alice, opened, {"name": "x" * 21})
    submitted = await fake_discord.submit_modal(alice, opened, {"name": "High Rollers"})
    assert (await submitted.reply()).content == "Renamed to High Rollers"


async def test_dms_are_delivered_and_closed_dms_are_handled(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any, bob: Any
) -> None:
    fake_discord.close_dms(bob)

    to_alice = await (await fake_discord.slash(alice, "/game dm", member=alice)).reply()
    to_bob = await (await fake_discord.slash(alice, "/game dm", member=bob)).reply()

    [dm] = fake_discord.dms(alice)
    assert dm.content == "Hello alice" and dm.visibility == "dm"
    assert dm.attachments[0].image().format == "PNG"
    assert to_alice.content == "sent"
    assert to_bob.content == "bob has DMs closed"
    assert fake_discord.dms(bob) == []
    assert [p.code for p in fake_discord.problems] == [50007]
    thanks = await (await fake_discord.click(alice, dm, "Thanks")).reply()
    assert thanks.content == "You're welcome, alice" and thanks.channel is dm.channel


async def test_invalid_command_definitions_fail_the_sync(fake_discord: FakeDiscord) -> None:
    class Careless(commands.Bot):
        async def setup_hook(self) -> None:
            @self.tree.command(name="pick", description="A choice value over 100 characters")
            @app_commands.choices(card=[app_commands.Choice(name="long", value="x" * 101)])
            async def pick(interaction: discord.Interaction, card: str) -> None:
                await interaction.response.send_message(card)

            await self.tree.sync()

    careless = Careless(command_prefix="!", intents=discord.Intents.default())
    with pytest.raises(app_commands.CommandSyncFailure, match="value"):
        async with running(fake_discord, careless):
            pass
    [problem] = fake_discord.take_problems()
    assert problem.code == 50035 and problem.request is not None
    assert problem.request.route == "PUT /applications/{application_id}/commands"


async def test_a_second_response_is_refused_with_40060(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    inter = await fake_discord.slash(alice, "/game twice")
    first = await inter.reply()

    problem = await fake_discord.wait_for_problem(code=40060)
    await fake_discord.wait_until(lambda: bot.errors, what="the bot to see the refusal")

    assert problem.interaction is inter and problem.status == 400
    assert first.content in ("from the command", "from the listener")
    assert [getattr(e, "code", None) for e in bot.errors] == [40060]
    assert len(fake_discord.channel_messages()) == 1
    fake_discord.take_problems(code=40060)


async def test_a_first_response_after_three_seconds_is_refused_with_10062(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    inter = await fake_discord.slash(alice, "/game slow")
    fake_discord.advance_time(3.1)
    bot.gate.set()

    problem = await fake_discord.wait_for_problem(code=10062)
    await fake_discord.wait_until(lambda: bot.errors, what="the bot to see the refusal")

    assert problem.interaction is inter and problem.status == 404
    with pytest.raises(AssertionError, match="Unknown interaction"):
        await inter.reply()
    assert isinstance(bot.errors[0], discord.NotFound)
    fake_discord.take_problems()
    inter.expect_unanswered()
    inter.expect_late()


async def test_a_followup_after_fifteen_minutes_is_refused(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    inter = await fake_discord.slash(alice, "/game later")
    await inter.response()
    fake_discord.advance_time(15 * 60 + 1)
    bot.gate.set()

    problem = await fake_discord.wait_for_problem(code=50027)
    await fake_discord.wait_until(lambda: bot.errors, what="the bot to see the refusal")

    assert problem.status == 401
    assert isinstance(bot.errors[0], discord.HTTPException) and bot.errors[0].status == 401
    assert inter.original is not None and inter.original.loading
    fake_discord.take_problems()
    inter.expect_unanswered()


async def test_ephemeral_messages_cannot_be_edited_through_the_channel(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    peek = await (await fake_discord.slash(alice, "/game peek")).reply()

    result = await (await fake_discord.click(alice, peek, "Edit via channel")).reply()

    assert result is peek and peek.content == "edited properly"
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10008
    fake_discord.take_problems(code=10008)


async def test_rate_limits_are_retried_by_discord_py(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    route = "POST /channels/{channel_id}/messages"
    fake_discord.fail_next(route, status=429, retry_after=0.01)

    await (await fake_discord.slash(alice, "/game announce")).reply()

    attempts = fake_discord.requests_to(route)
    assert [(a.status, a.injected) for a in attempts] == [(429, True), (200, False)]
    assert fake_discord.last_message().content == "announcement"


async def test_server_errors_are_retried_by_discord_py(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    route = "POST /channels/{channel_id}/messages"
    fake_discord.fail_next(route, status=500)

    await (await fake_discord.slash(alice, "/game announce")).reply()

    assert [a.status for a in fake_discord.requests_to(route)] == [500, 200]


async def test_resume_replays_what_was_missed(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)
    await fake_discord.drop_connection(wait_resumed=False)

    inter = await fake_discord.slash(alice, "/ping", mode="long")
    reply = await inter.reply()

    assert reply.content == "pong (long)"
    assert fake_discord.gateway.resumes == 1 and fake_discord.gateway.identifies == 1
    await asyncio.wait_for(resumed.wait(), 5)


async def test_unanswered_clicks_are_reported(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    stale = await (await fake_discord.slash(alice, "/game stale")).reply()
    click = await fake_discord.click(alice, stale, "Join")

    await fake_discord.settle(timeout=0.2)

    [problem] = fake_discord.take_problems(kind="unanswered")
    assert problem.interaction is click and "never answered" in problem.detail


async def test_unknown_endpoints_fail_the_test(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    await (await fake_discord.slash(alice, "/game roles")).reply()

    with pytest.raises(AssertionError, match=r"unknown_endpoint.*GET /guilds/\d+/roles"):
        fake_discord.assert_clean()
    fake_discord.take_problems(kind="unknown_endpoint")


async def test_threads_created_by_the_bot(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    await (await fake_discord.slash(alice, "/game table")).reply()

    turn = await fake_discord.wait_for_message(contains="Turn 1")

    guild = fake_discord.guild("Rummy Club")
    [thread] = guild.threads
    assert thread.name == "Game 1" and thread.parent is fake_discord.default_channel
    assert thread.id == fake_discord.find_message(contains="Table").id
    assert turn.channel is thread and fake_discord.channel_messages(thread) == [turn]
    assert any(f.get("t") == "THREAD_CREATE" for _, f in fake_discord.gateway.frames)


async def test_global_commands_work_in_dms(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    reply = await (
        await fake_discord.slash(alice, "/ping", channel=fake_discord.dm_channel(alice))
    ).reply()

    assert reply.content == "pong (short)" and reply.visibility == "dm"
    with pytest.raises(LookupError):
        await fake_discord.slash(
            alice, "/game lobby", name="x", channel=fake_discord.dm_channel(alice)
        )


async def test_channels_added_later_reach_the_bot(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    lounge = fake_discord.guild("Rummy Club").add_text_channel("lounge")

    cached = await fake_discord.wait_until(
        lambda: bot.get_channel(lounge.id), what="the new channel"
    )

    assert isinstance(cached, discord.TextChannel) and cached.name == "lounge"


async def test_commands_run_in_threads(
    fake_discord: FakeDiscord, bot: SampleBot, alice: Any
) -> None:
    thread = fake_discord.default_channel.add_thread("Game 7")
    await fake_discord.wait_until(
        lambda: bot.get_channel(thread.id), what="the thread in the cache"
    )

    reply = await (await fake_discord.slash(alice, "/ping", channel=thread)).reply()

    assert reply.channel is thread and fake_discord.last_message(thread) is reply


async def test_a_restarted_bot_drops_clicks_on_non_persistent_views(
    fake_discord: FakeDiscord, alice: Any
) -> None:
    guild_id = fake_discord.guild("Rummy Club").id
    async with running(fake_discord, SampleBot(guild_id)):
        lobby = await (await fake_discord.slash(alice, "/game lobby", name="Before")).reply()

    async with running(fake_discord, SampleBot(guild_id)):
        click = await fake_discord.click(alice, lobby, "Join")
        await fake_discord.settle(timeout=0.2)

    assert fake_discord.gateway.identifies == 2
    [problem] = fake_discord.take_problems(kind="unanswered")
    assert problem.interaction is click
