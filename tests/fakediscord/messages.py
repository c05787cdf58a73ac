"""Creating, editing and deleting messages from request bodies.

Shared by the channel endpoints and the interaction endpoints, so that every
way a bot can put text on screen meets the same limits, stores attachments
the same way and emits the same gateway events.
"""

from __future__ import annotations

import mimetypes
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import payloads
from .errors import FormErrors, empty_message, entity_too_large
from .models import Attachment, Channel, Message, MessageFlag, User
from .recorder import UploadedFile
from .validation import FILES_MAX, check_message
from .world import DIRECT_MESSAGES, GUILD_MESSAGES, World

if TYPE_CHECKING:
    from .interactions import InteractionRecord

AttachmentUrl = Callable[[Channel, int, str], str]

#: Flags a message keeps across edits (the rest come from the edit).
STICKY_FLAGS = MessageFlag.EPHEMERAL | MessageFlag.SUPPRESS_NOTIFICATIONS


class Messages:
    """Message operations with Discord's checks and gateway side effects."""

    def __init__(self, world: World, attachment_url: AttachmentUrl, size_limit: int) -> None:
        self.world = world
        self.attachment_url = attachment_url
        self.size_limit = size_limit

    def create(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        allowed_flags: int,
        errors: FormErrors,
        author: User | None = None,
        visible_to: User | None = None,
        loading: bool = False,
        message_type: int = 0,
        reference_id: int | None = None,
        interaction: InteractionRecord | None = None,
    ) -> Message:
        """Validate and store a new message; ``loading`` is a deferred "thinking" one."""
        check_message(payload, errors, allowed_flags=allowed_flags)
        ephemeral = bool((payload.get("flags") or 0) & MessageFlag.EPHEMERAL)
        attachments = self._attachments(channel, payload, files, [], errors, ephemeral=ephemeral)
        errors.raise_if_any()
        message = Message(
            id=self.world.ids.next(),
            channel=channel,
            author=author or self.world.bot,
            created_at=self.world.clock.now(),
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            components=payload.get("components") or [],
            attachments=attachments,
            flags=(payload.get("flags") or 0) | (MessageFlag.LOADING if loading else 0),
            type=message_type,
            visible_to=visible_to if ephemeral else None,
            reference_id=reference_id,
            interaction=interaction,
        )
        if not loading and not _has_body(
            message.content, message.embeds, message.components, attachments
        ):
            raise empty_message()
        self.world.messages[message.id] = message
        self.world.touch(message)
        self._emit("MESSAGE_CREATE", message)
        return message

    def edit(
        self,
        message: Message,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        errors: FormErrors,
        allowed_flags: int = MessageFlag.SUPPRESS_EMBEDS,
    ) -> Message:
        """Apply an edit: fields present replace, ``null`` clears, attachments are kept by id."""
        check_message(payload, errors, allowed_flags=allowed_flags | STICKY_FLAGS)
        attachments = self._attachments(
            message.channel,
            payload,
            files,
            message.attachments,
            errors,
            ephemeral=message.ephemeral,
        )
        errors.raise_if_any()
        content = _replaced(payload, "content", message.content, "")
        embeds = _replaced(payload, "embeds", message.embeds, [])
        components = _replaced(payload, "components", message.components, [])
        if not _has_body(content, embeds, components, attachments):
            raise empty_message()
        requested = _replaced(payload, "flags", message.flags, 0)
        now = self.world.clock.now()
        message.history.append(message.snapshot(now))
        if not message.loading:
            message.edited_at = now
        message.content, message.embeds, message.components = content, embeds, components
        message.attachments = attachments
        message.flags = (message.flags & STICKY_FLAGS) | (requested & allowed_flags)
        self.world.touch(message)
        self._emit("MESSAGE_UPDATE", message)
        return message

    def delete(self, message: Message) -> None:
        message.deleted = True
        self.world.touch(message)
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if message.channel.guild is not None:
            data["guild_id"] = str(message.channel.guild.id)
        self.world.emit("MESSAGE_DELETE", data, _intent(message.channel))

    def _emit(self, event: str, message: Message) -> None:
        """Discord sends no gateway events for ephemeral messages."""
        if not message.ephemeral:
            data = payloads.message(message, self.world.clock, gateway=True)
            self.world.emit(event, data, _intent(message.channel))

    def _attachments(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[UploadedFile],
        existing: list[Attachment],
        errors: FormErrors,
        *,
        ephemeral: bool,
    ) -> list[Attachment]:
        """The message's attachments after this request.

        ``payload["attachments"]`` lists what to keep (existing ids) and
        describes new uploads (``id`` = the n of ``files[n]``). Without it,
        existing attachments stay and uploads are appended.
        """
        for upload in files:
            if len(upload.data) > self.size_limit:
                raise entity_too_large()
        uploads = {_file_index(f.field): f for f in files}
        specs = payload.get("attachments")
        if specs is None:
            specs = [{"id": a.id} for a in existing] + [{"id": n} for n in uploads]
        elif not isinstance(specs, list) or not all(isinstance(x, dict) for x in specs):
            errors.add(("attachments",), "BASE_TYPE_LIST", "Must be an array of objects.")
            return []
        kept = {a.id: a for a in existing}
        result: list[Attachment] = []
        for k, spec in enumerate(specs):
            ref = _snowflake(spec.get("id"))
            if ref in kept:
                result.append(kept[ref])
            elif ref in uploads:
                upload = uploads[ref]
                name = spec.get("filename") or upload.filename
                result.append(
                    self._store(channel, upload, name, spec.get("description"), ephemeral)
                )
            else:
                errors.add(
                    ("attachments", k, "id"), "ATTACHMENT_NOT_FOUND", f"Unknown attachment {ref}"
                )
        errors.max_items(("attachments",), result, FILES_MAX)
        return result

    def _store(
        self,
        channel: Channel,
        upload: UploadedFile,
        filename: str,
        description: str | None,
        ephemeral: bool,
    ) -> Attachment:
        attachment_id = self.world.ids.next()
        width, height = _png_size(upload.data)
        return Attachment(
            id=attachment_id,
            filename=filename,
            data=upload.data,
            content_type=mimetypes.guess_type(filename)[0] or "application/octet-stream",
            url=self.attachment_url(channel, attachment_id, filename),
            description=description,
            ephemeral=ephemeral,
            width=width,
            height=height,
        )


def _has_body(
    content: str, embeds: list[Any], components: list[Any], attachments: list[Any]
) -> bool:
    """Discord refuses messages without content, embeds, components or files (50006)."""
    return bool(content.strip() or embeds or components or attachments)


def _replaced(payload: dict[str, Any], key: str, current: Any, cleared: Any) -> Any:
    """An edit's new value: absent keeps ``current``, ``null`` means ``cleared``."""
    if key not in payload:
        return current
    return cleared if payload[key] is None else payload[key]


def _snowflake(value: Any) -> int:
    """Attachment ids come as ints (upload indexes) or strings (kept snowflakes)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _intent(channel: Channel) -> int:
    return DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES


def _file_index(field: str) -> int:
    """``files[3]`` → 3 (discord.py names upload fields this way)."""
    return int(field.removeprefix("files[").removesuffix("]"))


def _png_size(data: bytes) -> tuple[int | None, int | None]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return None, None
