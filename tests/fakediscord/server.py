"""``FakeDiscord``: the server, its setup API and the story helpers for tests.

See the package docstring (``tests/fakediscord/__init__.py``) for a guided
tour. This class is a facade: the rules live in ``validation``, ``commands``,
``interactions`` and ``messages``; the wire in ``rest``, ``endpoints`` and
``gateway``.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from aiohttp import web

from .clock import Clock
from .commands import CommandRegistry
from .endpoints import Endpoints
from .gateway import Gateway
from .interactions import Choice, InteractionProtocol, InteractionRecord, InteractionType
from .invocations import Invocations
from .messages import Messages
from .models import Channel, Guild, Member, Message, User
from .recorder import Problem, Recorder, RequestRecord
from .rest import Injection, Rest, Stall
from .world import World

DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024
MessagePredicate = Callable[[Message], bool]


class FakeDiscord:
    """A strict Discord on 127.0.0.1 for the real discord.py client.

    Build the world (users, guilds, channels) before the bot connects; then
    drive the bot as its users would and read what it did.
    """

    started: ClassVar[weakref.WeakSet[FakeDiscord]] = weakref.WeakSet()
    """Every fake that was started (the plugin checks each test's answer times)."""

    def __init__(
        self,
        *,
        token: str = "RmFrZUJvdA.RmFrZQ.ZmFrZS1ib3QtdG9rZW4",
        bot_name: str = "Rummy Bot",
        attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        privileged_intents: int = 0,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.host = host
        self.port: int | None = None
        self.clock = Clock()
        self.world = World(self.clock, bot_name=bot_name)
        self.owner = self.world.add_user("Bot Owner")
        self.recorder = Recorder(on_problem=self.world.notifier.notify)
        self._commands = CommandRegistry(self.world.ids, self.application_id)
        self._messages = Messages(self.world, self._attachment_url, attachment_size_limit)
        self._protocol = InteractionProtocol(self.world, self._messages, self.recorder)
        self._invocations = Invocations(
            self.world, self._commands, self.application_id, attachment_size_limit
        )
        self.gateway = Gateway(
            self.world,
            self.recorder,
            token=token,
            application_id=self.application_id,
            resume_url=lambda: self.gateway_url,
            privileged_intents=privileged_intents,
        )
        self.world.emit = self.gateway.dispatch
        endpoints = Endpoints(
            self.world,
            self._commands,
            self._messages,
            self._protocol,
            application_id=self.application_id,
            owner=self.owner,
        )
        self._rest = Rest(self.recorder, self.clock, token, endpoints.routes())
        self._runner: web.AppRunner | None = None

    # -- lifecycle -----------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, 0).start()
        self.port = self._runner.addresses[0][1]
        FakeDiscord.started.add(self)
        return self

    async def stop(self) -> None:
        self._rest.release_all()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be (no trailing slash)."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be (as a ``yarl.URL``)."""
        return self.url.replace("http://", "ws://", 1) + "/gateway"

    def bot_env(self, *, dev_guild: Guild | None = None) -> dict[str, str]:
        """Environment for a bot process (``python -m bot``) to use this fake."""
        env = {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }
        if dev_guild is not None:
            env["DEV_GUILD_ID"] = str(dev_guild.id)
        return env

    async def wait_until_ready(self, *, commands: bool = True, timeout: float = 10.0) -> None:
        """Wait until the bot IDENTIFYed (READY and GUILD_CREATEs sent) and, if
        ``commands``, synced its application commands at least once."""

        def ready() -> bool:
            if self.recorder.unexpected():
                raise AssertionError(
                    f"bot hit problems while starting: {self.recorder.unexpected()}"
                )
            return self.gateway.connected and (not commands or self._commands.syncs > 0)

        await self.world.notifier.wait_for(ready, timeout, "the bot to connect")

    # -- world ---------------------------------------------------------------

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        """Modern applications share their bot user's id."""
        return self.world.bot.id

    def add_user(self, name: str, *, dms_open: bool = True) -> User:
        return self.world.add_user(name, dms_open=dms_open)

    def add_guild(self, name: str, *, owner: User | None = None) -> Guild:
        return self.world.add_guild(name, owner=owner)

    def user(self, name: str) -> User:
        return _named(self.world.users.values(), name, "user")

    def guild(self, name: str) -> Guild:
        return _named(self.world.guilds.values(), name, "guild")

    def channel(self, name: str) -> Channel:
        guild_channels = [c for c in self.world.channels.values() if not c.is_dm]
        return _named(guild_channels, name, "channel")

    @property
    def default_channel(self) -> Channel:
        """The first text channel created: where story helpers act by default."""
        for guild in self.world.guilds.values():
            if guild.text_channels:
                return guild.text_channels[0]
        raise LookupError("no text channel yet: guild.add_text_channel(...)")

    def dm_channel(self, user: User | Member) -> Channel:
        """The bot's DM channel with ``user`` (to run commands in DMs)."""
        return self.world.dm_channel(_as_user(user))

    def close_dms(self, user: User | Member) -> None:
        """From now on the bot gets 403 / 50007 when it DMs ``user``."""
        _as_user(user).dms_open = False

    def open_dms(self, user: User | Member) -> None:
        _as_user(user).dms_open = True

    def synced_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        return self._commands.list(guild.id if guild else None)

    # -- acting as users -----------------------------------------------------

    async def slash(
        self,
        user: User | Member,
        command: str,
        /,
        *,
        channel: Channel | None = None,
        options: Mapping[str, Any] | None = None,
        **values: Any,
    ) -> InteractionRecord:
        """Run ``/group sub …`` as ``user`` with typed option values.

        Option names that clash with this method's own keywords go in
        ``options={...}``. Returns at once; await ``.response()``/``.reply()``.
        """
        where = channel or self.default_channel
        who = _as_user(user)
        data, _ = self._invocations.command_data(who, where, command, {**(options or {}), **values})
        return self._dispatch(
            self._invocations.record(
                InteractionType.APPLICATION_COMMAND, who, where, data, action=command
            )
        )

    async def autocomplete(
        self,
        user: User | Member,
        command: str,
        option: str,
        typed: str,
        /,
        *,
        channel: Channel | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[Choice]:
        """Type ``typed`` into ``option`` of ``command`` and return the bot's choices."""
        record = await self.autocomplete_interaction(
            user, command, option, typed, channel=channel, **values
        )
        await record.response(timeout)
        return record.choices or []

    async def autocomplete_interaction(
        self,
        user: User | Member,
        command: str,
        option: str,
        typed: str,
        /,
        *,
        channel: Channel | None = None,
        **values: Any,
    ) -> InteractionRecord:
        """Like ``autocomplete``, but return the interaction at once, unanswered."""
        where = channel or self.default_channel
        who = _as_user(user)
        data, focused_type = self._invocations.command_data(
            who, where, command, values, focus=(option, typed)
        )
        return self._dispatch(
            self._invocations.record(
                InteractionType.AUTOCOMPLETE,
                who,
                where,
                data,
                action=command,
                focused_type=focused_type,
            )
        )

    async def click(
        self, user: User | Member, message: Message, button: str, /
    ) -> InteractionRecord:
        """Click the button labelled (or custom_id'd) ``button`` on ``message``."""
        who = _as_user(user)
        data = self._invocations.click_data(who, message, button)
        return self._dispatch(
            self._invocations.record(
                InteractionType.MESSAGE_COMPONENT,
                who,
                message.channel,
                data,
                message=message,
                action=f"click {button!r}",
            )
        )

    async def select(
        self,
        user: User | Member,
        message: Message,
        values: Sequence[str],
        /,
        *,
        custom_id: str | None = None,
    ) -> InteractionRecord:
        """Choose ``values`` (option values or labels) in a select on ``message``."""
        who = _as_user(user)
        data = self._invocations.select_data(who, message, values, custom_id)
        return self._dispatch(
            self._invocations.record(
                InteractionType.MESSAGE_COMPONENT,
                who,
                message.channel,
                data,
                message=message,
                action=f"select {list(values)}",
            )
        )

    async def forge(
        self,
        user: User | Member,
        message: Message,
        custom_id: str,
        values: Sequence[str] | None = None,
        /,
        *,
        offer: bool = True,
    ) -> InteractionRecord:
        """A component interaction no Discord client can send, for hardening tests.

        A button press (``values`` None) or a selection of ``values`` with the
        given ``custom_id``, as a tampered client would send it: the message in
        the payload carries the forged component in place of its first one of
        that type, and (``offer``) a forged select offers the forged values too,
        so the bot's library routes it like any other and only the bot's own
        checks stand in the way.
        """
        who = _as_user(user)
        data, components = self._invocations.forged_data(who, message, custom_id, values, offer)
        record = self._invocations.record(
            InteractionType.MESSAGE_COMPONENT,
            who,
            message.channel,
            data,
            message=message,
            action=f"forged {custom_id!r} {list(values or [])}",
        )
        record.payload["message"]["components"] = components
        return self._dispatch(record)

    async def submit_modal(
        self, user: User | Member, opened_by: InteractionRecord, values: Mapping[str, Any], /
    ) -> InteractionRecord:
        """Fill the modal the bot answered ``opened_by`` with, and submit it."""
        who = _as_user(user)
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"the bot did not answer {opened_by} with a modal")
        if who.id != opened_by.user.id:
            raise PermissionError(f"only {opened_by.user.name} sees that modal")
        data = self._invocations.modal_data(modal, values)
        return self._dispatch(
            self._invocations.record(
                InteractionType.MODAL_SUBMIT,
                who,
                opened_by.channel,
                data,
                message=opened_by.message,
                action=f"submit modal {modal['custom_id']!r}",
                opened_by=opened_by,
            )
        )

    def _dispatch(self, record: InteractionRecord) -> InteractionRecord:
        if self.gateway.session is None:
            raise RuntimeError("no bot session: start the bot and await fake.wait_until_ready()")
        self._protocol.register(record)
        self.gateway.dispatch("INTERACTION_CREATE", record.payload)
        return record

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions.values())

    # -- reading what the bot did --------------------------------------------

    def message(self, message_id: int | str) -> Message:
        """A message the bot created, by id."""
        return self.world.messages[int(message_id)]

    @property
    def messages(self) -> list[Message]:
        """Every message the bot created, deleted ones included, oldest first."""
        return list(self.world.messages.values())

    def find_messages(
        self,
        predicate: MessagePredicate | None = None,
        *,
        channel: Channel | None = None,
        visible_to: User | Member | None = None,
        ephemeral: bool | None = None,
        contains: str | None = None,
        include_deleted: bool = False,
    ) -> list[Message]:
        """Messages matching every given filter, oldest first."""
        return [
            m
            for m in self.world.messages.values()
            if (include_deleted or not m.deleted)
            and (channel is None or m.channel is channel)
            and (visible_to is None or m.is_visible_to(visible_to))
            and (ephemeral is None or m.ephemeral == ephemeral)
            and (contains is None or contains in m.text)
            and (predicate is None or predicate(m))
        ]

    def find_message(
        self, predicate: MessagePredicate | None = None, **filters: Any
    ) -> Message | None:
        """The newest message matching, or ``None``."""
        found = self.find_messages(predicate, **filters)
        return found[-1] if found else None

    def channel_messages(self, channel: Channel | None = None) -> list[Message]:
        """Public messages in a channel or thread (default: the default channel)."""
        return self.find_messages(channel=channel or self.default_channel, ephemeral=False)

    def last_message(self, channel: Channel | None = None) -> Message | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dms(self, user: User | Member) -> list[Message]:
        """Messages in the bot's DM channel with ``user``."""
        return self.find_messages(channel=self.world.dm_channel(_as_user(user)))

    def ephemerals(self, user: User | Member) -> list[Message]:
        return self.find_messages(visible_to=user, ephemeral=True)

    def last_ephemeral(self, user: User | Member) -> Message | None:
        messages = self.ephemerals(user)
        return messages[-1] if messages else None

    def mark(self) -> int:
        """A point in time for ``wait_for_message(after=...)``."""
        return self.world.change

    async def wait_for_message(
        self,
        predicate: MessagePredicate | None = None,
        *,
        after: int | InteractionRecord | None = None,
        timeout: float = 5.0,
        **filters: Any,
    ) -> Message:
        """The newest matching message created or edited after ``after``.

        ``after`` is a ``mark()`` or an interaction (meaning: since it was
        dispatched); by default existing messages count too.
        """
        since = after.mark if isinstance(after, InteractionRecord) else (after or 0)

        def check() -> Message | None:
            found = [m for m in self.find_messages(predicate, **filters) if m.changed > since]
            return found[-1] if found else None

        return await self.world.notifier.wait_for(check, timeout, "a matching message")

    # -- time, failures, problems --------------------------------------------

    def advance_time(self, seconds: float) -> None:
        """Move the fake's clock (3-second and 15-minute interaction rules)."""
        self.clock.advance(seconds)

    def fail_next(
        self,
        route: str,
        *,
        status: int = 500,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int | None = None,
        times: int = 1,
    ) -> Injection:
        """Answer the next ``times`` requests to ``route`` with an error.

        ``route`` is a route name such as ``"POST /channels/{channel_id}/messages"``.
        429 carries ``retry_after``/``global`` and the headers discord.py reads
        (it sleeps and retries); 5xx makes discord.py retry after 1 s, 3 s, …;
        any other status answers ``{"code": code}`` (e.g. 403 with 50013).
        Injected failures are never problems.
        """
        return self._rest.inject(
            route,
            status=status,
            retry_after=retry_after,
            is_global=is_global,
            times=times,
            code=code,
        )

    def stall(self, route: str, *, times: int = 1) -> Stall:
        """Carry out the next ``times`` requests to ``route`` but hold their answers
        until ``stall.release()`` (``await stall.reached()`` waits for one): Discord has
        acted and the bot does not know yet. Stopping the fake releases them."""
        return self._rest.stall(route, times=times)

    async def drop_connection(self, *, wait_resumed: bool = True, timeout: float = 10.0) -> None:
        """Cut the gateway connection; by default wait until the bot RESUMEd."""
        resumes = self.gateway.resumes
        await self.gateway.drop()
        if wait_resumed:
            await self.world.notifier.wait_for(
                lambda: self.gateway.resumes > resumes and self.gateway.connected,
                timeout,
                "the bot to resume",
            )

    @property
    def requests(self) -> list[RequestRecord]:
        return self.recorder.requests

    def requests_to(self, route: str) -> list[RequestRecord]:
        """Requests that matched a route name, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return [r for r in self.recorder.requests if r.route == route]

    @property
    def problems(self) -> list[Problem]:
        return self.recorder.problems

    def allow_errors(self, *codes: int, kinds: tuple[str, ...] = ()) -> None:
        """Expect these Discord error codes (or problem kinds) in this test."""
        self.recorder.allow(*codes, kinds=kinds)

    def take_problems(self, *, kind: str | None = None, code: int | None = None) -> list[Problem]:
        """Remove and return matching problems, for tests that provoke them."""
        return self.recorder.take(kind=kind, code=code)

    async def wait_for_problem(
        self, *, kind: str | None = None, code: int | None = None, timeout: float = 5.0
    ) -> Problem:
        def check() -> Problem | None:
            return next(
                (
                    p
                    for p in self.recorder.problems
                    if (kind is None or p.kind == kind) and (code is None or p.code == code)
                ),
                None,
            )

        return await self.world.notifier.wait_for(
            check, timeout, f"a problem kind={kind} code={code}"
        )

    async def settle(self, timeout: float = 3.0) -> None:
        """Give the bot up to ``timeout`` s to answer pending interactions.

        Then every interaction still unanswered (or deferred and never
        completed) becomes a problem: a player would see "This interaction
        failed" or an endless "thinking…".
        """

        def pending() -> list[InteractionRecord]:
            return [i for i in self.world.interactions.values() if i.pending]

        if pending():
            with contextlib.suppress(TimeoutError):
                await self.world.notifier.wait_for(lambda: not pending(), timeout, "answers")
        for record in pending():
            state = "never answered" if record.callback is None else "deferred and never completed"
            self.recorder.add(Problem("unanswered", f"{record} was {state}", interaction=record))
            record.settled = True

    async def wait_until(
        self, condition: Callable[[], Any], *, timeout: float = 5.0, what: str = "a condition"
    ) -> Any:
        """Wait until ``condition()`` is truthy (re-checked on every change and
        every 50 ms, so it may look at the bot or its database too)."""
        return await self.world.notifier.wait_for(condition, timeout, what)

    def late_answers(self) -> list[InteractionRecord]:
        """Interactions first answered after Discord's 3 s (and not declared late)."""
        return [i for i in self.world.interactions.values() if i.late and not i.late_expected]

    def assert_clean(self) -> None:
        """Fail if the bot did anything Discord refuses (see ``problems``)."""
        self.recorder.assert_clean()

    def _attachment_url(self, channel: Channel, attachment_id: int, filename: str) -> str:
        return f"{self.url}/attachments/{channel.id}/{attachment_id}/{filename}"


def _as_user(who: User | Member) -> User:
    return who.user if isinstance(who, Member) else who


def _named(items: Any, name: str, what: str) -> Any:
    found = [item for item in items if item.name == name]
    if len(found) != 1:
        raise LookupError(f"{len(found)} {what}s named {name!r}")
    return found[0]


__all__ = ["FakeDiscord"]
