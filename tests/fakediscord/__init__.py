"""A strict fake Discord on 127.0.0.1 for end-to-end tests of the real bot.

The unmodified discord.py client talks to it over real HTTP and a real
websocket; it refuses what Discord refuses, with Discord's error codes, and
records everything, so a test reads like a story::

    from tests.fakediscord import CallbackType
    from tests.fakediscord.client import running

    async def test_lobby(fake_discord):
        alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
        async with running(fake_discord, RummyBot(...)):
            inter = await fake_discord.slash(alice, "/straight new", computers=2, seed=5)
            lobby = await inter.reply()               # the message that answered it
            assert "Join" in lobby.button_labels
            join = await fake_discord.click(bob, lobby, "Join")
            assert (await join.response()).type is CallbackType.UPDATE_MESSAGE
            hand = await fake_discord.wait_for_message(visible_to=alice, ephemeral=True,
                                                       after=join)
            image = hand.attachments[0].image()       # a PIL image

Setup (before the bot connects; later additions are sent over the gateway):
    ``FakeDiscord(token=..., bot_name=..., attachment_size_limit=10 MiB,
    privileged_intents=0)``; ``await fake.start()`` / ``stop()`` or
    ``async with FakeDiscord() as fake``; ``fake.add_user(name, dms_open=True)``,
    ``fake.add_guild(name, owner=None) -> Guild``, ``guild.add_text_channel(name)``,
    ``channel.add_thread(name, private=False)``,
    ``guild.add_member(user, manage_guild=False, administrator=False, nick=None)``;
    lookups ``fake.user(name)``, ``fake.guild(name)``, ``fake.channel(name)``,
    ``fake.default_channel`` (first text channel), ``fake.dm_channel(user)``,
    ``fake.bot``, ``fake.owner`` (the application's owner), ``fake.application_id``,
    ``fake.synced_commands(guild=None)``.

Pointing a bot at it:
    ``fake.bot_env(dev_guild=None)`` → ``DISCORD_TOKEN``, ``DISCORD_API_BASE``
    (``http://127.0.0.1:PORT/api/v10``), ``DISCORD_GATEWAY_URL``
    (``ws://127.0.0.1:PORT/gateway``) [, ``DEV_GUILD_ID``] for a subprocess;
    ``await fake.wait_until_ready(commands=True, timeout=10)`` waits for
    IDENTIFY (READY + GUILD_CREATEs sent) and a first command sync.
    In-process: ``async with client.running(fake, bot)`` starts, waits and
    closes; ``client.pointed_at(fake)`` only sets ``Route.BASE`` and
    ``DiscordWebSocket.DEFAULT_GATEWAY`` as the bot's configuration would.

Acting as users (each returns at once with an :class:`InteractionRecord`):
    ``await fake.slash(user, "/group sub", channel=None, options=None, **values)``
    — values are typed and checked like the Discord client does (choices by
    value or name, min/max, required, unknown names); users/members and
    channels get ``resolved`` data; ``options={...}`` for names that clash.
    ``await fake.autocomplete(user, "/cmd", "option", "typed", **values)``
    returns the bot's ``Choice(name, value)`` list
    (``autocomplete_interaction`` returns the record instead).
    ``await fake.click(user, message, "Label or custom_id")``,
    ``await fake.select(user, message, ["value or label"], custom_id=None)``,
    ``await fake.submit_modal(user, opened_by, {"field_custom_id": "text"})``;
    ``await fake.forge(user, message, custom_id, values=None, offer=True)``
    sends what no client can (a tampered custom_id or select values), for
    hardening tests.

InteractionRecord:
    ``await inter.response()`` → :class:`Callback` (``type`` a
    :class:`CallbackType`, ``data``, ``ephemeral``, ``message``);
    ``await inter.reply()`` → the answering :class:`Message` in its final
    form (waits through deferrals; type 6 waits for the next edit);
    ``await inter.followup(i)``; ``inter.original``, ``inter.followups``,
    ``inter.modal``, ``inter.choices``, ``inter.payload`` (what was sent),
    ``inter.problems``; ``inter.expect_unanswered()``. Waits default to 5 s
    and fail at once, naming the refusal, if Discord refused the answer.

Messages (live objects; ``history`` keeps earlier revisions):
    ``fake.messages``, ``fake.message(id)``, ``fake.find_messages(pred,
    channel=, visible_to=, ephemeral=, contains=, include_deleted=False)``,
    ``fake.find_message(...)`` (newest), ``fake.channel_messages(channel)``
    (public only), ``fake.last_message(channel)``, ``fake.dms(user)``,
    ``fake.ephemerals(user)``, ``fake.last_ephemeral(user)``,
    ``await fake.wait_for_message(pred, after=mark_or_interaction, timeout=5,
    **filters)``, ``fake.mark()``, ``await fake.wait_until(condition)``.
    A :class:`Message` has ``content``, ``embeds``, ``components``,
    ``attachments`` (``.data`` bytes, ``.image()`` → PIL), ``flags``,
    ``ephemeral``, ``loading``, ``visibility`` ("channel" | "dm" |
    "ephemeral"), ``visible_to``, ``is_visible_to(user)``, ``text`` (content
    and embed text), ``buttons``, ``button_labels``, ``button(key)``,
    ``selects``, ``select(custom_id)``, ``deleted``, ``edited_at``,
    ``interaction``, ``thread``.

Strictness and failures:
    ``fake.close_dms(user)`` (403/50007), ``fake.fail_next("POST
    /channels/{channel_id}/messages", status=429|500, retry_after=0.05,
    is_global=False, times=1)``, ``fake.stall(route, times=1)`` (carry a
    request out but hold its answer until ``release()``: kill the bot there),
    ``fake.advance_time(seconds)`` (3 s and 15 min rules),
    ``await fake.drop_connection(wait_resumed=True)``,
    ``fake.requests`` / ``fake.requests_to(route)``, ``fake.problems``,
    ``fake.allow_errors(*codes, kinds=())``, ``fake.take_problems(kind=,
    code=)``, ``await fake.wait_for_problem(kind=, code=)``,
    ``await fake.settle()``, ``fake.assert_clean()``; ``inter.answer_time``
    and ``fake.late_answers()``: every test fails if an interaction was first
    answered after 3 s (the plugin's ``answered_in_time``;
    ``inter.expect_late()`` declares one). A message create with ``nonce`` and
    ``enforce_nonce`` returns the earlier message of that nonce in the channel
    from the last 5 minutes instead of making another. Problem kinds:
    ``unknown_endpoint``, ``refused``, ``gateway``, ``unanswered``,
    ``ephemeral_ignored``, ``fake_error``. 50007 is always expected.

Fixture: ``fake_discord`` (``tests/fakediscord/plugin.py``, enabled by
``tests/conftest.py``): guild "Rummy Club", text channel "games", members
"alice" and "bob"; teardown settles, stops the server and ``assert_clean``s.
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
