"""JSON shapes of the fake's objects, as Discord sends them (API v10).

Only fields discord.py reads or that a real payload always carries are
included; ids are strings, as on the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import Attachment, Channel, ChannelType, Guild, Member, Message, Role, User

if TYPE_CHECKING:
    from .clock import Clock


def user(u: User) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def role(r: Role) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": r.bot_id is not None,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if r.bot_id is not None:
        payload["tags"] = {"bot_id": str(r.bot_id)}
    return payload


def member(
    m: Member, clock: Clock, *, with_user: bool = True, permissions: bool = False
) -> dict[str, Any]:
    """A guild member. Interactions add ``permissions``; ``resolved`` omits ``user``."""
    payload: dict[str, Any] = {
        "roles": [str(r.id) for r in m.roles],
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "joined_at": clock.iso(m.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user(m.user)
    if permissions:
        payload["permissions"] = str(m.permissions)
    return payload


def channel(c: Channel, clock: Clock, *, with_guild_id: bool = True) -> dict[str, Any]:
    if c.is_dm:
        assert c.recipient is not None
        return {
            "id": str(c.id),
            "type": int(c.type),
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(c.recipient)],
        }
    payload: dict[str, Any] = {
        "id": str(c.id),
        "type": int(c.type),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": str(c.parent.id) if c.parent else None,
        "flags": 0,
    }
    if with_guild_id and c.guild is not None:
        payload["guild_id"] = str(c.guild.id)
    if c.is_thread:
        payload.update(
            owner_id=str(c.owner_id),
            message_count=0,
            member_count=len(c.thread_member_ids),
            total_message_sent=0,
            thread_metadata={
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": clock.iso(),
                "locked": False,
                "invitable": c.type is ChannelType.PRIVATE_THREAD,
                "create_timestamp": clock.iso(),
            },
        )
    return payload


def guild_create(g: Guild, clock: Clock, *, all_members: bool) -> dict[str, Any]:
    """GUILD_CREATE. Without the members intent only the bot's own member is sent."""
    bot_id = g.world.bot.id
    members = [m for m in g.members.values() if all_members or m.id == bot_id]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": g.preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "features": [],
        "roles": [role(r) for r in g.roles],
        "emojis": [],
        "stickers": [],
        "joined_at": clock.iso(),
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "members": [member(m, clock) for m in members],
        "channels": [channel(c, clock, with_guild_id=False) for c in g.channels if not c.is_thread],
        "threads": [channel(c, clock) for c in g.threads],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "max_members": 500000,
        "max_video_channel_users": 25,
        "premium_progress_bar_enabled": False,
        "nsfw": False,
    }


def attachment(a: Attachment) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "ephemeral": a.ephemeral,
    }
    if a.description is not None:
        payload["description"] = a.description
    if a.width is not None:
        payload.update(width=a.width, height=a.height)
    return payload


def message(m: Message, clock: Clock, *, gateway: bool = False) -> dict[str, Any]:
    """A message object; ``gateway`` adds the ``guild_id``/``member`` of events."""
    guild = m.channel.guild
    payload: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": m.type,
        "author": user(m.author),
        "content": m.content,
        "timestamp": clock.iso(m.created_at),
        "edited_timestamp": clock.iso(m.edited_at) if m.edited_at is not None else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(a) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": False,
        "flags": m.flags,
    }
    if m.interaction is not None:
        inter = m.interaction
        payload["webhook_id"] = str(inter.application_id)
        payload["application_id"] = str(inter.application_id)
        payload["interaction_metadata"] = {
            "id": str(inter.id),
            "type": inter.type,
            "user": user(inter.user),
            "authorizing_integration_owners": inter.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if inter.message is not None:
            payload["interaction_metadata"]["interacted_message_id"] = str(inter.message.id)
    if m.nonce is not None:
        payload["nonce"] = m.nonce
    if m.reference_id is not None:
        payload["message_reference"] = {
            "type": 0,
            "message_id": str(m.reference_id),
            "channel_id": str(m.channel.id),
        }
    if m.thread is not None:
        payload["thread"] = channel(m.thread, clock)
    if gateway and guild is not None:
        payload["guild_id"] = str(guild.id)
        author_member = guild.member(m.author)
        if author_member is not None:
            payload["member"] = member(author_member, clock, with_user=False)
    return payload
