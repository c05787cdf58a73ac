"""A strict fake Discord on 127.0.0.1 for end-to-end tests of the real bot.

The unmodified discord.py client talks to it over real HTTP and a real
websocket; it refuses what Discord refuses, with Discord's error codes, and
records everything, so a test reads like a story::

    async def test_lobby(fake_discord, bot):          # bot: your running client
        fake = fake_discord
        alice = fake.user("alice")
        inter = await fake.slash(alice, "/straight new", computers=2, seed=5)
        lobby = await inter.reply()                   # the message that answered it
        assert "Join" in lobby.button_labels
        join = await fake.click(fake.user("bob"), lobby, "Join")
        assert (await join.response()).type is CallbackType.UPDATE_MESSAGE
        hand = await fake.wait_for_message(visible_to=alice, ephemeral=True, after=join)
        image = hand.attachments[0].image()           # a PIL image

Setup (before the bot connects; later additions are sent over the gateway):
    ``FakeDiscord(token=..., bot_name=..., attachment_size_limit=10 MiB,
    privileged_intents=0)``; ``await fake.start()`` / ``stop()`` or
    ``async with FakeDiscord() as fake``; ``fake.add_user(name, dms_open=True)``,
    ``fake.add_guild(name) -> Guild``, ``guild.add_text_channel(name)``,
    ``channel.add_thread(name, private=False)``,
    ``guild.add_member(user, manage_guild=False, administrator=False)``;
    lookups ``fake.user(name)``, ``fake.guild(name)``, ``fake.channel(name)``,
    ``fake.default_channel``, ``fake.dm_channel(user)``, ``fake.bot``,
    ``fake.owner`` (the application owner), ``fake.application_id``.

Pointing a bot at it:
    ``fake.bot_env(dev_guild=None)`` → ``DISCORD_TOKEN``, ``DISCORD_API_BASE``
    (``http://127.0.0.1:PORT/api/v10``), ``DISCORD_GATEWAY_URL``
    (``ws://127.0.0.1:PORT/gateway``) [, ``DEV_GUILD_ID``] for a subprocess;
    ``await fake.wait_until_ready(commands=True, timeout=10)`` waits for
    IDENTIFY (READY + GUILD_CREATEs sent) and a command sync.
    In-process: ``tests.fakediscord.client.running(fake, client)`` (async
    context manager) or ``pointed_at(fake)`` sets ``Route.BASE`` and
    ``DiscordWebSocket.DEFAULT_GATEWAY`` as the bot's config would.

Acting as users (all return at once with an :class:`InteractionRecord`):
    ``await fake.slash(user, "/group sub", channel=None, options=None, **values)``
    — values typed and checked like the client (choices by value or name,
    min/max, required; users/members and channels get ``resolved`` data);
    ``await fake.autocomplete(user, "/cmd", "option", "typed", **values)`` →
    the bot's ``Choice(name, value)`` list; ``await fake.click(user, message,
    "Label or custom_id")``; ``await fake.select(user, message, ["value or
    label"], custom_id=None)``; ``await fake.submit_modal(user, opened_by,
    {"field_custom_id": "text"})``.

InteractionRecord:
    ``await inter.response()`` → :class:`Callback` (``type``: a
    :class:`CallbackType`, ``data``, ``ephemeral``, ``message``);
    ``await inter.reply()`` → the answering :class:`Message` in final form
    (waits through deferrals); ``await inter.followup(i)``; ``inter.original``,
    ``inter.followups``, ``inter.modal``, ``inter.choices``, ``inter.problems``;
    ``inter.expect_unanswered()``. Waits fail at once if Discord refused the
    bot's answer, naming the refusal.

Messages (live objects with ``history``):
    ``fake.messages``, ``fake.find_messages(pred, channel=, visible_to=,
    ephemeral=, contains=, include_deleted=False)``, ``fake.find_message(...)``
    (newest), ``fake.channel_messages(channel)``, ``fake.last_message(channel)``,
    ``fake.dms(user)``, ``fake.ephemerals(user)``, ``fake.last_ephemeral(user)``,
    ``await fake.wait_for_message(pred, after=mark_or_interaction, timeout=5,
    **filters)``, ``fake.mark()``. A :class:`Message` has ``content``,
    ``embeds``, ``components``, ``attachments`` (``.data`` bytes, ``.image()``),
    ``flags``, ``ephemeral``, ``visibility`` ("channel" | "dm" | "ephemeral"),
    ``visible_to``, ``is_visible_to(user)``, ``text`` (content + embeds),
    ``buttons``, ``button_labels``, ``button(key)``, ``selects``,
    ``select(custom_id)``, ``deleted``, ``history``, ``interaction``.

Strictness and failures:
    ``fake.close_dms(user)`` (403/50007), ``fake.fail_next("POST
    /channels/{channel_id}/messages", status=429|500, retry_after=0.05,
    is_global=False, times=1)``, ``fake.advance_time(seconds)`` (3 s and 15 min
    rules), ``await fake.drop_connection()`` (waits for RESUME),
    ``fake.requests`` / ``fake.requests_to(route)``, ``fake.problems``,
    ``fake.allow_errors(*codes, kinds=())``, ``fake.take_problems(kind=, code=)``,
    ``await fake.wait_for_problem(kind=, code=)``, ``await fake.settle()``,
    ``fake.assert_clean()``. Problem kinds: ``unknown_endpoint``, ``refused``,
    ``gateway``, ``unanswered``, ``ephemeral_ignored``, ``fake_error``.

Fixture: ``fake_discord`` in ``tests/fakediscord/plugin.py`` (enabled by
``tests/conftest.py``): guild "Rummy Club", channel "games", members "alice"
and "bob"; teardown settles, stops and calls ``assert_clean``.
"""

from .interactions import CallbackType, Choice, InteractionRecord, InteractionType
from .models import Attachment, Channel, ChannelType, Guild, Member, Message, MessageFlag, User
from .recorder import Problem, RequestRecord
from .server import FakeDiscord

__all__ = [
    "Attachment",
    "CallbackType",
    "Channel",
    "ChannelType",
    "Choice",
    "FakeDiscord",
    "Guild",
    "InteractionRecord",
    "InteractionType",
    "Member",
    "Message",
    "MessageFlag",
    "Problem",
    "RequestRecord",
    "User",
]
