"""The REST endpoints the fake serves: as much as the bot uses, and no more.

Each handler checks what Discord checks for that endpoint and answers with
Discord's JSON. Anything not listed in ``Endpoints.routes`` is a 404 that
fails the test, so a new call in the bot surfaces at once.
"""

from __future__ import annotations

from typing import Any

from . import payloads
from .commands import CommandRegistry, check_commands
from .errors import (
    FormErrors,
    cannot_message_user,
    missing_access,
    not_found,
    thread_already_exists,
    unknown_channel,
    unknown_member,
    unknown_message,
    unknown_user,
)
from .interactions import InteractionProtocol, InteractionRecord
from .messages import Messages
from .models import Channel, ChannelType, Guild, Message, User
from .rest import Reply, RequestContext, Route
from .validation import CREATE_FLAGS, unsupported
from .world import World

THREAD_NAME_MAX = 100
REPLY = 19
NONCE_MAX = 25
NONCE_WINDOW = 5 * 60.0
"""How long an enforced nonce is remembered ("the past few minutes")."""


class Endpoints:
    """Handlers for the Discord REST API subset, bound to the fake's state."""

    def __init__(
        self,
        world: World,
        commands: CommandRegistry,
        messages: Messages,
        protocol: InteractionProtocol,
        *,
        application_id: int,
        owner: User,
    ) -> None:
        self.world = world
        self.commands = commands
        self.messages = messages
        self.protocol = protocol
        self.application_id = application_id
        self.owner = owner

    def routes(self) -> list[Route]:
        webhook_message = "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"
        return [
            Route("GET /users/@me", self.get_current_user),
            Route("GET /users/{user_id}", self.get_user),
            Route("POST /users/@me/channels", self.create_dm),
            Route("GET /oauth2/applications/@me", self.get_application),
            Route("GET /applications/{application_id}/commands", self.get_commands),
            Route("PUT /applications/{application_id}/commands", self.put_commands),
            Route(
                "GET /applications/{application_id}/guilds/{guild_id}/commands", self.get_commands
            ),
            Route(
                "PUT /applications/{application_id}/guilds/{guild_id}/commands", self.put_commands
            ),
            Route("GET /guilds/{guild_id}/members/{user_id}", self.get_member),
            Route("GET /channels/{channel_id}", self.get_channel),
            Route("POST /channels/{channel_id}/messages", self.create_message),
            Route("GET /channels/{channel_id}/messages/{message_id}", self.get_message),
            Route("PATCH /channels/{channel_id}/messages/{message_id}", self.edit_message),
            Route("DELETE /channels/{channel_id}/messages/{message_id}", self.delete_message),
            Route("POST /channels/{channel_id}/threads", self.create_thread),
            Route(
                "POST /channels/{channel_id}/messages/{message_id}/threads",
                self.create_thread_from_message,
            ),
            Route("PUT /channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            Route(
                "POST /interactions/{interaction_id}/{interaction_token}/callback",
                self.interaction_callback,
                bot_auth=False,
            ),
            Route(
                "POST /webhooks/{application_id}/{interaction_token}",
                self.create_followup,
                bot_auth=False,
            ),
            Route(f"GET {webhook_message}", self.get_webhook_message, bot_auth=False),
            Route(f"PATCH {webhook_message}", self.edit_webhook_message, bot_auth=False),
            Route(f"DELETE {webhook_message}", self.delete_webhook_message, bot_auth=False),
            Route(
                "GET /attachments/{channel_id}/{attachment_id}/{filename}",
                self.get_attachment,
                bot_auth=False,
                under_api=False,
            ),
        ]

    # -- users and the application -------------------------------------------

    async def get_current_user(self, ctx: RequestContext) -> Reply:
        me = payloads.user(self.world.bot)
        return Reply(
            me | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
        )

    async def get_user(self, ctx: RequestContext) -> Reply:
        return Reply(payloads.user(self._user(ctx.params["user_id"])))

    async def get_application(self, ctx: RequestContext) -> Reply:
        bot = self.world.bot
        return Reply(
            {
                "id": str(self.application_id),
                "name": bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot": payloads.user(bot),
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": payloads.user(self.owner),
                "team": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "integration_types_config": {"0": {}},
            }
        )

    async def create_dm(self, ctx: RequestContext) -> Reply:
        user = self._user(str(ctx.body.get("recipient_id")))
        if user.bot:
            raise cannot_message_user()
        return Reply(payloads.channel(self.world.dm_channel(user), self.world.clock))

    # -- application commands ------------------------------------------------

    async def get_commands(self, ctx: RequestContext) -> Reply:
        return Reply(self.commands.list(self._command_scope(ctx)))

    async def put_commands(self, ctx: RequestContext) -> Reply:
        scope = self._command_scope(ctx)
        errors = FormErrors()
        check_commands(ctx.json, errors)
        errors.raise_if_any()
        stored = self.commands.overwrite(scope, ctx.json)
        self.world.touch()
        return Reply(stored)

    def _command_scope(self, ctx: RequestContext) -> int | None:
        if ctx.params["application_id"] != str(self.application_id):
            raise missing_access()
        if "guild_id" not in ctx.params:
            return None
        guild = self._guild(ctx.params["guild_id"])
        if self.world.bot.id not in guild.members:
            raise missing_access()
        return guild.id

    # -- guilds and channels -------------------------------------------------

    async def get_member(self, ctx: RequestContext) -> Reply:
        guild = self._guild(ctx.params["guild_id"])
        member = guild.members.get(_snowflake(ctx.params["user_id"]))
        if member is None:
            raise unknown_member()
        return Reply(payloads.member(member, self.world.clock))

    async def get_channel(self, ctx: RequestContext) -> Reply:
        return Reply(payloads.channel(self._channel(ctx), self.world.clock))

    async def create_thread(self, ctx: RequestContext) -> Reply:
        parent = self._channel(ctx)
        body = ctx.body
        kind = body.get("type", ChannelType.PRIVATE_THREAD)
        errors = FormErrors()
        errors.length_between(("name",), body.get("name"), 1, THREAD_NAME_MAX)
        if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")
        if parent.type is not ChannelType.GUILD_TEXT:
            errors.add(
                ("type",), "CHANNEL_TYPE_INVALID", "Threads can only be created in text channels"
            )
        errors.raise_if_any()
        private = kind == ChannelType.PRIVATE_THREAD
        thread = self.world.add_thread(
            parent, body["name"], private=private, owner_id=self.world.bot.id
        )
        return Reply(payloads.channel(thread, self.world.clock), status=201)

    async def create_thread_from_message(self, ctx: RequestContext) -> Reply:
        message = self._channel_message(ctx)
        errors = FormErrors()
        errors.length_between(("name",), ctx.body.get("name"), 1, THREAD_NAME_MAX)
        errors.raise_if_any()
        if message.thread is not None:
            raise thread_already_exists()
        message.thread = self.world.add_thread(
            message.channel,
            ctx.body["name"],
            private=False,
            owner_id=self.world.bot.id,
            thread_id=message.id,
        )
        self.world.touch(message)
        return Reply(payloads.channel(message.thread, self.world.clock), status=201)

    async def add_thread_member(self, ctx: RequestContext) -> Reply:
        thread = self._channel(ctx)
        if not thread.is_thread or thread.guild is None:
            raise unknown_channel()
        raw = ctx.params["user_id"]
        user_id = self.world.bot.id if raw == "@me" else _snowflake(raw)
        if user_id not in thread.guild.members:
            raise unknown_member()
        thread.thread_member_ids.add(user_id)
        self.world.touch()
        return Reply(status=204)

    # -- channel messages ----------------------------------------------------

    async def create_message(self, ctx: RequestContext) -> Reply:
        channel = self._channel(ctx)
        if channel.is_dm:
            recipient = channel.recipient
            assert recipient is not None
            if not recipient.dms_open or not self.world.shares_guild_with_bot(recipient):
                raise cannot_message_user()
        errors = FormErrors()
        nonce = _nonce(ctx.body, errors)
        if nonce is not None and ctx.body.get("enforce_nonce") is True:
            first = self._nonce_taken(channel, nonce)
            if first is not None:  # Discord returns the first message and makes no other
                return Reply(payloads.message(first, self.world.clock))
        reference_id = self._reference(channel, ctx.body, errors)
        message = self.messages.create(
            channel,
            ctx.body,
            ctx.files,
            allowed_flags=CREATE_FLAGS,
            errors=errors,
            message_type=REPLY if reference_id else 0,
            reference_id=reference_id,
        )
        message.nonce = nonce
        return Reply(payloads.message(message, self.world.clock))

    def _nonce_taken(self, channel: Channel, nonce: str | int) -> Message | None:
        """The bot's message made with ``nonce`` in ``channel`` in the last few minutes.

        Discord: "If true and nonce is present, it will be checked for uniqueness in
        the past few minutes. If another message was created by the same author with
        the same nonce, that message will be returned and no new message will be
        created." The fake takes "a few minutes" as NONCE_WINDOW and one channel."""
        since = self.world.clock.now() - NONCE_WINDOW
        return next(
            (
                m
                for m in reversed(self.world.messages.values())
                if m.channel is channel
                and m.nonce is not None
                and str(m.nonce) == str(nonce)
                and m.author is self.world.bot
                and m.created_at >= since
                and not m.deleted
            ),
            None,
        )

    async def get_message(self, ctx: RequestContext) -> Reply:
        return Reply(payloads.message(self._channel_message(ctx), self.world.clock))

    async def edit_message(self, ctx: RequestContext) -> Reply:
        message = self._channel_message(ctx)
        self.messages.edit(message, ctx.body, ctx.files, errors=FormErrors())
        return Reply(payloads.message(message, self.world.clock))

    async def delete_message(self, ctx: RequestContext) -> Reply:
        self.messages.delete(self._channel_message(ctx))
        return Reply(status=204)

    def _reference(self, channel: Channel, body: dict[str, Any], errors: FormErrors) -> int | None:
        reference = body.get("message_reference")
        if not reference:
            return None
        target = self.world.messages.get(_snowflake(str(reference.get("message_id"))))
        if target is None or target.channel is not channel or target.deleted or target.ephemeral:
            errors.add(
                ("message_reference",), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
            )
            return None
        return target.id

    # -- interactions ------------------------------------------------------------

    async def interaction_callback(self, ctx: RequestContext) -> Reply:
        record = self.protocol.for_callback(
            ctx.params["interaction_id"], ctx.params["interaction_token"]
        )
        ctx.interaction = record
        callback = self.protocol.respond(record, ctx.body, ctx.files)
        if ctx.query.get("with_response") in ("1", "true"):
            return Reply(self.protocol.response_body(record, callback))
        return Reply(status=204)

    async def create_followup(self, ctx: RequestContext) -> Reply:
        record = self._webhook(ctx)
        if "thread_id" in ctx.query:
            raise unsupported("followups into threads (thread_id)")
        message = self.protocol.send_followup(record, ctx.body, ctx.files)
        if ctx.query.get("wait") in ("1", "true"):
            return Reply(payloads.message(message, self.world.clock))
        return Reply(status=204)

    async def get_webhook_message(self, ctx: RequestContext) -> Reply:
        message = self.protocol.webhook_message(self._webhook(ctx), ctx.params["message_id"])
        return Reply(payloads.message(message, self.world.clock))

    async def edit_webhook_message(self, ctx: RequestContext) -> Reply:
        message = self.protocol.webhook_message(self._webhook(ctx), ctx.params["message_id"])
        self.messages.edit(message, ctx.body, ctx.files, errors=FormErrors())
        return Reply(payloads.message(message, self.world.clock))

    async def delete_webhook_message(self, ctx: RequestContext) -> Reply:
        message = self.protocol.webhook_message(self._webhook(ctx), ctx.params["message_id"])
        self.messages.delete(message)
        return Reply(status=204)

    def _webhook(self, ctx: RequestContext) -> InteractionRecord:
        record = self.protocol.for_webhook(
            ctx.params["application_id"], ctx.params["interaction_token"]
        )
        ctx.interaction = record
        return record

    # -- attachments (the "CDN") ---------------------------------------------

    async def get_attachment(self, ctx: RequestContext) -> Reply:
        wanted = _snowflake(ctx.params["attachment_id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted and attachment.filename == ctx.params["filename"]:
                    return Reply(attachment.data, content_type=attachment.content_type)
        raise not_found()

    # -- lookups -------------------------------------------------------------

    def _user(self, raw: str) -> User:
        user = self.world.users.get(_snowflake(raw))
        if user is None:
            raise unknown_user()
        return user

    def _guild(self, raw: str) -> Guild:
        guild = self.world.guilds.get(_snowflake(raw))
        if guild is None:
            raise missing_access()
        return guild

    def _channel(self, ctx: RequestContext) -> Channel:
        channel = self.world.channels.get(_snowflake(ctx.params["channel_id"]))
        if channel is None:
            raise unknown_channel()
        return channel

    def _channel_message(self, ctx: RequestContext) -> Message:
        """A message reachable through the channel endpoints: never an ephemeral one."""
        channel = self._channel(ctx)
        message = self.world.messages.get(_snowflake(ctx.params["message_id"]))
        if (
            message is None
            or message.channel is not channel
            or message.deleted
            or message.ephemeral
        ):
            raise unknown_message()
        return message


def _nonce(body: dict[str, Any], errors: FormErrors) -> str | int | None:
    """A message's ``nonce``: an integer or a string of at most 25 characters."""
    nonce = body.get("nonce")
    if nonce is None:
        return None
    if isinstance(nonce, bool) or not isinstance(nonce, str | int):
        errors.add(("nonce",), "BASE_TYPE_STRING", "Must be a string or an integer.")
        return None
    if isinstance(nonce, str) and len(nonce) > NONCE_MAX:
        errors.add(("nonce",), "BASE_TYPE_BAD_LENGTH", f"Must be {NONCE_MAX} or fewer in length.")
        return None
    return nonce


def _snowflake(raw: str) -> int:
    return int(raw) if raw.isdigit() else -1
