"""The things that live in the fake Discord: users, guilds, channels, messages.

Model objects are *live*: a :class:`Message` a test holds shows the message's
current state, and ``history`` keeps every earlier revision. Setup methods
(``guild.add_text_channel``…) go through the :class:`~.world.World` so that a
connected bot hears about additions over the gateway.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

    from .interactions import InteractionRecord
    from .world import World


class Permission:
    """Permission bits the fake computes with."""

    ADD_REACTIONS = 1 << 6
    ADMINISTRATOR = 1 << 3
    MANAGE_GUILD = 1 << 5
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT = EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS


class MessageFlag:
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    """The user's Discord client language (``interaction.locale``)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None


@dataclass(eq=False)
class Member:
    guild: Guild
    user: User
    roles: list[Role]
    joined_at: float
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def permissions(self) -> int:
        """Guild-wide permissions (the fake has no channel overwrites)."""
        bits = self.guild.everyone.permissions
        for role in self.roles:
            bits |= role.permissions
        if bits & Permission.ADMINISTRATOR or self.guild.owner_id == self.user.id:
            return Permission.ALL
        return bits

    def __repr__(self) -> str:
        return f"<Member {self.user.name} of {self.guild.name}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    world: World = field(repr=False)
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels if c.type is ChannelType.GUILD_TEXT]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread]

    def add_text_channel(self, name: str) -> Channel:
        return self.world.add_text_channel(self, name)

    def add_member(
        self,
        user: User,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
    ) -> Member:
        return self.world.add_member(
            self, user, manage_guild=manage_guild, administrator=administrator, nick=nick
        )

    def member(self, user: User | Member) -> Member | None:
        return self.members.get(user.id)

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Channel:
    id: int
    type: ChannelType
    name: str
    world: World = field(repr=False)
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    owner_id: int | None = None
    position: int = 0
    thread_member_ids: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type is ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def add_thread(self, name: str, *, private: bool = False) -> Channel:
        return self.world.add_thread(self, name, private=private, owner_id=self.world.bot.id)

    def delete(self) -> None:
        """Delete this channel (a CHANNEL_DELETE or THREAD_DELETE reaches the bot)."""
        self.world.delete_channel(self)

    def __repr__(self) -> str:
        return f"<Channel {self.name} {self.type.name} {self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    ephemeral: bool = False
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def image(self) -> Image.Image:
        """The attachment decoded by Pillow."""
        from PIL import Image

        return Image.open(io.BytesIO(self.data))

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size} bytes>"


@dataclass(frozen=True)
class Revision:
    """A message as it was before one of its edits."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: float


@dataclass(eq=False)
class Message:
    """A message the bot created, with its current state and its history.

    ``visible_to`` is set for ephemeral messages: only that user sees them.
    ``interaction`` is the interaction whose response or followup it is.
    """

    id: int
    channel: Channel
    author: User
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    visible_to: User | None = None
    interaction: InteractionRecord | None = field(default=None, repr=False)
    reference_id: int | None = None
    nonce: str | int | None = None
    thread: Channel | None = None
    edited_at: float | None = None
    deleted: bool = False
    history: list[Revision] = field(default_factory=list)
    changed: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "<bot> is thinking…"."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def visibility(self) -> str:
        """``"ephemeral"``, ``"dm"`` or ``"channel"``."""
        if self.ephemeral:
            return "ephemeral"
        return "dm" if self.channel.is_dm else "channel"

    def is_visible_to(self, user: User | Member) -> bool:
        if self.ephemeral:
            return self.visible_to is not None and self.visible_to.id == user.id
        if self.channel.is_dm:
            return self.channel.recipient is not None and self.channel.recipient.id == user.id
        return self.channel.guild is not None and user.id in self.channel.guild.members

    @property
    def text(self) -> str:
        """Content plus all embed text: what a screen reader would say."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts += [
                embed.get("footer", {}).get("text", ""),
                embed.get("author", {}).get("name", ""),
            ]
        return "\n".join(p for p in parts if p)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    @property
    def button_labels(self) -> list[str]:
        return [b.get("label", "") for b in self.buttons]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 3]

    def button(self, key: str) -> dict[str, Any]:
        """The button whose label (or, failing that, custom_id) is ``key``."""
        for attr in ("label", "custom_id"):
            for button in self.buttons:
                if button.get(attr) == key:
                    return button
        raise LookupError(f"no button {key!r} on message {self.id}; buttons: {self.button_labels}")

    def select(self, custom_id: str | None = None) -> dict[str, Any]:
        """The select with ``custom_id``, or the only select on the message."""
        selects = self.selects
        if custom_id is not None:
            selects = [s for s in selects if s.get("custom_id") == custom_id]
        if len(selects) != 1:
            ids = [s.get("custom_id") for s in self.selects]
            raise LookupError(f"need exactly one select (custom_id={custom_id!r}); found {ids}")
        return selects[0]

    def snapshot(self, at: float) -> Revision:
        return Revision(
            self.content, self.embeds, self.components, list(self.attachments), self.flags, at
        )

    def __repr__(self) -> str:
        return (
            f"<Message {self.id} {self.visibility} in {self.channel.name}: {self.content[:40]!r}>"
        )


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through rows, labels and containers."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from iter_components([component[key]])
