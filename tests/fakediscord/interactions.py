"""Interactions: what the fake sent, how the bot answered, and Discord's rules.

:class:`InteractionRecord` is what story helpers return: tests await the
bot's answer on it. :class:`InteractionProtocol` enforces the rules of the
interaction endpoints: one initial response within 3 seconds, only the
callback types valid for the interaction, webhook (followup/``@original``)
calls for 15 minutes, and the way a deferred response turns the first
followup into the deferred message itself — taking the *defer's*
ephemerality, whatever the followup asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from . import payloads
from .errors import (
    FormErrors,
    already_acknowledged,
    invalid_webhook_token,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from .models import Channel, Guild, Message, MessageFlag, User
from .recorder import Problem, Recorder, UploadedFile
from .validation import INTERACTION_FLAGS, check_choices, check_modal

if TYPE_CHECKING:
    from .messages import Messages
    from .world import World

RESPONSE_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0


class InteractionType(IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


MESSAGE_CALLBACKS = {CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE}
UPDATE_CALLBACKS = {CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE}
ALLOWED_CALLBACKS: dict[InteractionType, set[CallbackType]] = {
    InteractionType.APPLICATION_COMMAND: MESSAGE_CALLBACKS | {CallbackType.MODAL},
    InteractionType.MESSAGE_COMPONENT: MESSAGE_CALLBACKS | UPDATE_CALLBACKS | {CallbackType.MODAL},
    InteractionType.AUTOCOMPLETE: {CallbackType.AUTOCOMPLETE_RESULT},
    InteractionType.MODAL_SUBMIT: MESSAGE_CALLBACKS | UPDATE_CALLBACKS,
}


class Choice(NamedTuple):
    """One autocomplete suggestion."""

    name: str
    value: str | int | float


@dataclass
class Callback:
    """The bot's accepted initial response to an interaction."""

    type: CallbackType
    data: dict[str, Any] | None
    at: float
    mark: int
    message: Message | None = None

    @property
    def ephemeral(self) -> bool:
        return bool((self.data or {}).get("flags", 0) & MessageFlag.EPHEMERAL)


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the fake dispatched, and everything the bot did with it.

    ``original`` is the ``@original`` message: the response message for
    types 4/5, the clicked message for 6/7. ``followups`` are the messages the
    followup webhook returned, in order (after a deferral the first one *is*
    the original). ``problems`` are refusals of this interaction's requests.
    """

    id: int
    token: str
    type: InteractionType
    application_id: int
    user: User
    channel: Channel
    guild: Guild | None
    payload: dict[str, Any] = field(repr=False)
    created_at: float
    mark: int
    world: World = field(repr=False)
    message: Message | None = None
    action: str | None = None
    focused_type: int | None = None
    opened_by: InteractionRecord | None = field(default=None, repr=False)
    callback: Callback | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list, repr=False)
    unanswered_expected: bool = False
    late_expected: bool = False
    settled: bool = False
    answered_at: float | None = None
    """When the bot first tried to respond (accepted or refused), on the fake's clock."""

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened in response, if it did."""
        if self.callback and self.callback.type is CallbackType.MODAL:
            return self.callback.data
        return None

    @property
    def choices(self) -> list[Choice] | None:
        """The autocomplete suggestions the bot answered with, if it did."""
        if self.callback and self.callback.type is CallbackType.AUTOCOMPLETE_RESULT:
            return [Choice(c["name"], c["value"]) for c in (self.callback.data or {})["choices"]]
        return None

    @property
    def pending(self) -> bool:
        """Still owed something: no response yet, or a deferred reply still thinking."""
        if self.unanswered_expected or self.settled:
            return False
        return self.callback is None or bool(self.original and self.original.loading)

    def expect_unanswered(self) -> None:
        """Declare that the bot is meant to ignore this interaction."""
        self.unanswered_expected = True

    def expect_late(self) -> None:
        """Declare that this interaction is meant to be answered after Discord's 3 s."""
        self.late_expected = True

    @property
    def answer_time(self) -> float | None:
        """Seconds from dispatch to the bot's first response (``None``: none yet)."""
        return None if self.answered_at is None else self.answered_at - self.created_at

    @property
    def late(self) -> bool:
        """Answered after Discord's 3 s, when the player sees "This interaction failed"."""
        time = self.answer_time
        return time is not None and time > RESPONSE_WINDOW

    async def response(self, timeout: float = 5.0) -> Callback:
        """Wait for the bot's accepted initial response (any callback type)."""
        return await self.world.notifier.wait_for(
            lambda: self._or_fail(self.callback), timeout, f"a response to {self}"
        )

    async def reply(self, timeout: float = 5.0) -> Message:
        """Wait for the message that answers this interaction, in its final form.

        Type 4: the new message. Type 5: the deferred message once an edit or
        followup filled it. Type 7: the updated message. Type 6: the clicked
        message after its next edit.
        """
        return await self.world.notifier.wait_for(
            lambda: self._or_fail(self._answer()), timeout, f"the reply to {self}"
        )

    async def followup(self, index: int = 0, timeout: float = 5.0) -> Message:
        """Wait for the ``index``-th followup message."""
        return await self.world.notifier.wait_for(
            lambda: self._or_fail(self.followups[index] if len(self.followups) > index else None),
            timeout,
            f"followup #{index} to {self}",
        )

    def _answer(self) -> Message | None:
        callback = self.callback
        if callback is None:
            return None
        if callback.type in (CallbackType.MODAL, CallbackType.AUTOCOMPLETE_RESULT):
            raise AssertionError(
                f"the bot answered {self} with {callback.type.name}, not a message"
            )
        message = self.original
        if message is None or message.loading:
            return None
        if (
            callback.type is CallbackType.DEFERRED_UPDATE_MESSAGE
            and message.changed <= callback.mark
        ):
            return None
        return message

    def _or_fail(self, result: Any) -> Any:
        if not result:
            refused = [p for p in self.problems if p.kind == "refused" and not p.expected]
            if refused:
                raise AssertionError(f"Discord refused the bot's answer to {self}: {refused[0]}")
        return result

    def __repr__(self) -> str:
        what = self.action or self.type.name.lower()
        return f"<Interaction {self.id} {what} by {self.user.name}>"


class InteractionProtocol:
    """Discord's rules for interaction callbacks, followups and ``@original``."""

    def __init__(self, world: World, messages: Messages, recorder: Recorder) -> None:
        self.world = world
        self.messages = messages
        self.recorder = recorder
        self._by_token: dict[str, InteractionRecord] = {}

    def register(self, record: InteractionRecord) -> None:
        self.world.interactions[record.id] = record
        self._by_token[record.token] = record

    def for_callback(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or str(record.id) != interaction_id:
            raise unknown_interaction()
        return record

    def for_webhook(self, application_id: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or str(record.application_id) != application_id:
            raise unknown_webhook()
        if self.world.clock.now() - record.created_at > TOKEN_LIFETIME:
            raise invalid_webhook_token()
        return record

    def respond(
        self, record: InteractionRecord, payload: dict[str, Any], files: list[UploadedFile]
    ) -> Callback:
        """The initial response (``POST /interactions/{id}/{token}/callback``)."""
        if record.callback is not None:
            raise already_acknowledged()
        if record.answered_at is None:
            record.answered_at = self.world.clock.now()
        if self.world.clock.now() - record.created_at > RESPONSE_WINDOW:
            raise unknown_interaction()
        errors = FormErrors()
        kind = payload.get("type")
        allowed = ALLOWED_CALLBACKS[record.type]
        if record.type is InteractionType.MODAL_SUBMIT and record.message is None:
            allowed = allowed - UPDATE_CALLBACKS
        if kind not in allowed:
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Callback type {kind} is not valid for a {record.type.name} interaction",
            )
            errors.raise_if_any()
        callback_type = CallbackType(kind)
        data = payload.get("data")
        message = self._apply(record, callback_type, data or {}, files)
        record.callback = Callback(
            callback_type, data, self.world.clock.now(), self.world.change, message
        )
        self.world.touch()
        return record.callback

    def _apply(
        self,
        record: InteractionRecord,
        kind: CallbackType,
        data: dict[str, Any],
        files: list[UploadedFile],
    ) -> Message | None:
        errors = FormErrors(("data",))
        if kind is CallbackType.CHANNEL_MESSAGE:
            record.original = self._new_message(record, data, files, errors)
        elif kind is CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = (data.get("flags") or 0) & MessageFlag.EPHEMERAL
            record.original = self._new_message(record, {"flags": flags}, [], errors, loading=True)
        elif kind in UPDATE_CALLBACKS:
            assert record.message is not None
            if record.message.deleted:
                raise unknown_message()
            record.original = record.message
            if kind is CallbackType.UPDATE_MESSAGE:
                self.messages.edit(record.message, data, files, errors=errors)
        elif kind is CallbackType.AUTOCOMPLETE_RESULT:
            assert record.focused_type is not None
            check_choices(data.get("choices"), record.focused_type, errors)
            errors.raise_if_any()
        elif kind is CallbackType.MODAL:
            check_modal(data, errors, ())
            errors.raise_if_any()
        return record.original

    def _new_message(
        self,
        record: InteractionRecord,
        data: dict[str, Any],
        files: list[UploadedFile],
        errors: FormErrors,
        *,
        loading: bool = False,
    ) -> Message:
        command_response = record.type is InteractionType.APPLICATION_COMMAND
        return self.messages.create(
            record.channel,
            data,
            files,
            allowed_flags=INTERACTION_FLAGS,
            errors=errors,
            visible_to=record.user,
            loading=loading,
            message_type=20 if command_response else 0,
            interaction=record,
        )

    def send_followup(
        self, record: InteractionRecord, payload: dict[str, Any], files: list[UploadedFile]
    ) -> Message:
        """``POST /webhooks/{app}/{token}``: a followup, or the filling of a deferral."""
        callback = record.callback
        if callback is None or callback.type is CallbackType.AUTOCOMPLETE_RESULT:
            raise unknown_webhook()
        original = record.original
        if callback.type is CallbackType.DEFERRED_CHANNEL_MESSAGE and original and original.loading:
            wants_private = bool((payload.get("flags") or 0) & MessageFlag.EPHEMERAL)
            if wants_private and not original.ephemeral:
                self.recorder.add(
                    Problem(
                        "ephemeral_ignored",
                        f"followup to {record} asked for ephemeral=True, but the response was "
                        "deferred publicly, so Discord shows it to everyone "
                        "(defer with ephemeral=True)",
                        interaction=record,
                    )
                )
            filled = {k: v for k, v in payload.items() if k != "flags"}
            message = self.messages.edit(original, filled, files, errors=FormErrors())
        else:
            message = self._new_message(record, payload, files, FormErrors())
        record.followups.append(message)
        self.world.touch()
        return message

    def webhook_message(self, record: InteractionRecord, message_id: str) -> Message:
        """The message ``/webhooks/{app}/{token}/messages/{message_id}`` refers to."""
        if message_id == "@original":
            message = record.original
        else:
            wanted = int(message_id) if message_id.isdigit() else -1
            candidates = [record.original, *record.followups]
            message = next((m for m in candidates if m is not None and m.id == wanted), None)
        if message is None or message.deleted:
            raise unknown_message()
        return message

    def response_body(self, record: InteractionRecord, callback: Callback) -> dict[str, Any]:
        """The ``?with_response=1`` body discord.py 2.7 parses (``InteractionCallbackResponse``)."""
        interaction: dict[str, Any] = {"id": str(record.id), "type": int(record.type)}
        resource: dict[str, Any] = {"type": int(callback.type)}
        message = callback.message
        if message is not None and callback.type is not CallbackType.DEFERRED_UPDATE_MESSAGE:
            interaction.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            resource["message"] = payloads.message(message, self.world.clock)
        return {"interaction": interaction, "resource": resource}
