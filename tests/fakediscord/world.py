"""The fake's state: everything that exists, and a way to wait for changes.

Setup methods here are synchronous (tests build their world in plain code);
when a bot is connected they also emit the gateway event Discord would send,
through ``World.emit`` which the gateway installs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from . import payloads
from .clock import Clock, Snowflakes
from .models import Channel, ChannelType, Guild, Member, Message, Permission, Role, User

if TYPE_CHECKING:
    from .interactions import InteractionRecord

T = TypeVar("T")

#: Gateway intent bits (https://discord.com/developers/docs/events/gateway#gateway-intents)
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12

Emit = Callable[[str, dict[str, Any], int], None]


class Notifier:
    """Lets coroutines wait until a condition over the world becomes true.

    Conditions are re-checked on every ``notify`` and, for conditions over
    state the fake does not own (the bot's caches, a database), every
    ``POLL_INTERVAL`` seconds.
    """

    POLL_INTERVAL = 0.05

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    def notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return ``check()`` as soon as it is truthy; it may raise to fail early."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, self.POLL_INTERVAL))
            except TimeoutError:
                continue


class World:
    """Users, guilds, channels, messages and interactions of one fake Discord."""

    def __init__(self, clock: Clock, *, bot_name: str) -> None:
        self.clock = clock
        self.ids = Snowflakes(clock)
        self.notifier = Notifier()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.change = 0
        self.emit: Emit = lambda event, data, intent: None
        self.bot = self.add_user(bot_name, bot=True)

    # -- setup ---------------------------------------------------------------

    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False) -> User:
        user = User(self.ids.next(), name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: User | None = None, shard: tuple[int, int] | None = None
    ) -> Guild:
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        owner_id = owner.id if owner is not None else self.ids.next()
        guild = Guild(guild_id, name, owner_id, self)
        guild.roles.append(Role(guild_id, "@everyone", Permission.EVERYONE))
        bot_role = Role(self.ids.next(), self.bot.name, Permission.BOT, 1, bot_id=self.bot.id)
        guild.roles.append(bot_role)
        self.guilds[guild_id] = guild
        guild.members[self.bot.id] = Member(guild, self.bot, [bot_role], self.clock.now())
        if owner is not None:
            self.add_member(guild, owner)
        return guild

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
    ) -> Member:
        roles = []
        if manage_guild:
            roles.append(self._role(guild, "Manage Server", Permission.MANAGE_GUILD))
        if administrator:
            roles.append(self._role(guild, "Admin", Permission.ADMINISTRATOR))
        member = Member(guild, user, roles, self.clock.now(), nick)
        guild.members[user.id] = member
        data = payloads.member(member, self.clock) | {"guild_id": str(guild.id)}
        self.emit("GUILD_MEMBER_ADD", data, GUILD_MEMBERS)
        return member

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        position = len(guild.text_channels)
        channel = Channel(
            self.ids.next(), ChannelType.GUILD_TEXT, name, self, guild, position=position
        )
        self._register(guild, channel)
        self.emit("CHANNEL_CREATE", payloads.channel(channel, self.clock), GUILDS)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        private: bool,
        owner_id: int,
        thread_id: int | None = None,
    ) -> Channel:
        if parent.type is not ChannelType.GUILD_TEXT or parent.guild is None:
            raise ValueError("threads live in guild text channels")
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = Channel(
            thread_id or self.ids.next(),
            kind,
            name,
            self,
            parent.guild,
            parent,
            owner_id=owner_id,
            thread_member_ids={owner_id},
        )
        self._register(parent.guild, thread)
        data = payloads.channel(thread, self.clock) | {"newly_created": True}
        self.emit("THREAD_CREATE", data, GUILDS)
        return thread

    def delete_channel(self, channel: Channel) -> None:
        """Delete a guild channel or thread: later requests for it answer 10003."""
        if channel.guild is None:
            raise ValueError("only guild channels and threads can be deleted")
        channel.guild.channels.remove(channel)
        del self.channels[channel.id]
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        self.emit(event, payloads.channel(channel, self.clock), GUILDS)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``, created on first use."""
        if user.id not in self.dm_channels:
            channel = Channel(self.ids.next(), ChannelType.DM, user.name, self, recipient=user)
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel
        return self.dm_channels[user.id]

    def _register(self, guild: Guild, channel: Channel) -> None:
        guild.channels.append(channel)
        self.channels[channel.id] = channel

    def _role(self, guild: Guild, name: str, permissions: int) -> Role:
        existing = guild.role(name)
        if existing is not None:
            return existing
        role = Role(self.ids.next(), name, permissions, len(guild.roles))
        guild.roles.append(role)
        self.emit(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, GUILDS
        )
        return role

    # -- changes -------------------------------------------------------------

    def touch(self, message: Message | None = None) -> None:
        """Record that something changed and wake everyone waiting."""
        self.change += 1
        if message is not None:
            message.changed = self.change
        self.notifier.notify()

    def shares_guild_with_bot(self, user: User) -> bool:
        return any(user.id in g.members for g in self.guilds.values())
