"""Building the INTERACTION_CREATE payloads a Discord client would cause.

These functions play the user's Discord client: they resolve a command path
against what the bot synced, type and check option values the way the client
would (so a test cannot send what no client could), attach ``resolved`` data
for users and channels, and describe clicks, selections and modal submits on
the bot's own messages. Mistakes here are mistakes in the *test*, so they
raise at once instead of becoming problems of the bot.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from . import payloads
from .commands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    STRING,
    SUBS,
    USER,
    CommandRegistry,
)
from .interactions import InteractionRecord, InteractionType
from .models import Channel, Member, Message, Permission, User, iter_components
from .validation import BUTTON, LINK_STYLE, STRING_SELECT, TEXT_INPUT
from .world import World

BOT_DM_CONTEXT, GUILD_CONTEXT = 1, 0


class Invocations:
    """Turns story-level actions into interaction payloads and records."""

    def __init__(
        self,
        world: World,
        commands: CommandRegistry,
        application_id: int,
        attachment_size_limit: int,
    ) -> None:
        self.world = world
        self.commands = commands
        self.application_id = application_id
        self.attachment_size_limit = attachment_size_limit

    # -- records -------------------------------------------------------------

    def record(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        action: str | None = None,
        focused_type: int | None = None,
        opened_by: InteractionRecord | None = None,
    ) -> InteractionRecord:
        """A new interaction with the full payload Discord would dispatch."""
        interaction_id = self.world.ids.next()
        token = f"fake-{secrets.token_urlsafe(24)}"
        payload = self._payload(interaction_id, token, kind, user, channel, data, message)
        return InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            application_id=self.application_id,
            user=user,
            channel=channel,
            guild=channel.guild,
            payload=payload,
            created_at=self.world.clock.now(),
            mark=self.world.change,
            world=self.world,
            message=message,
            action=action,
            focused_type=focused_type,
            opened_by=opened_by,
        )

    def _payload(
        self,
        interaction_id: int,
        token: str,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None,
    ) -> dict[str, Any]:
        clock = self.world.clock
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": int(kind),
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": payloads.channel(channel, clock),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            member = guild.members[user.id]
            bot = guild.members[self.world.bot.id]
            payload["channel"]["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=payloads.member(member, clock, permissions=True),
                app_permissions=str(bot.permissions),
                context=GUILD_CONTEXT,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(
                user=payloads.user(user),
                app_permissions=str(Permission.EVERYONE),
                context=BOT_DM_CONTEXT,
                authorizing_integration_owners={"0": "0"},
            )
        if message is not None:
            payload["message"] = payloads.message(message, clock)
        return payload

    def _check_can_act(self, user: User, channel: Channel) -> None:
        if channel.is_dm:
            if channel.recipient is None or channel.recipient.id != user.id:
                raise PermissionError(f"{user.name} is not in the DM channel {channel.name}")
        elif channel.guild is None or user.id not in channel.guild.members:
            raise PermissionError(f"{user.name} is not a member of the guild of #{channel.name}")

    # -- slash commands and autocomplete -------------------------------------

    def command_data(
        self,
        user: User,
        channel: Channel,
        path: str,
        values: Mapping[str, Any],
        *,
        focus: tuple[str, str] | None = None,
    ) -> tuple[dict[str, Any], int | None]:
        """``data`` of a slash command (or autocomplete) and the focused option's type."""
        self._check_can_act(user, channel)
        names = path.strip().lstrip("/").split()
        if not names:
            raise ValueError("empty command path")
        guild = channel.guild
        command = self.commands.find(names[0], guild.id if guild else None)
        if command is None:
            synced = [c["name"] for c in self.commands.list(guild.id if guild else None)]
            synced += [c["name"] for c in self.commands.list(None)] if guild else []
            raise LookupError(f"no command /{names[0]} synced here; synced: {sorted(set(synced))}")
        self._check_command_usable(user, channel, command)
        chain: list[dict[str, Any]] = []
        definitions = command.get("options") or []
        for name in names[1:]:
            sub = next((o for o in definitions if o["name"] == name and o["type"] in SUBS), None)
            if sub is None:
                known = [o["name"] for o in definitions if o["type"] in SUBS]
                raise LookupError(
                    f"/{' '.join(names)}: no subcommand {name!r}; choose from {known}"
                )
            chain.append(sub)
            definitions = sub.get("options") or []
        if any(o["type"] in SUBS for o in definitions):
            known = [o["name"] for o in definitions]
            raise LookupError(f"/{' '.join(names)} needs a subcommand: {known}")
        resolved: dict[str, dict[str, Any]] = {}
        options, focused_type = self._options(definitions, values, resolved, channel, focus)
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": options,
        }
        if resolved and focus is None:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return data, focused_type

    def _check_command_usable(self, user: User, channel: Channel, command: dict[str, Any]) -> None:
        name = command["name"]
        if channel.is_dm:
            contexts = command.get("contexts")
            in_dms = BOT_DM_CONTEXT in contexts if contexts else command.get("dm_permission", True)
            if "guild_id" in command or not in_dms:
                raise PermissionError(f"/{name} is not available in DMs")
            return
        needed = command.get("default_member_permissions")
        assert channel.guild is not None
        has = channel.guild.members[user.id].permissions
        if needed is not None and (has & int(needed)) != int(needed) and has != Permission.ALL:
            raise PermissionError(f"{user.name} cannot see /{name}: needs permissions {needed}")

    def _options(
        self,
        definitions: list[dict[str, Any]],
        values: Mapping[str, Any],
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
        focus: tuple[str, str] | None,
    ) -> tuple[list[dict[str, Any]], int | None]:
        by_name = {d["name"]: d for d in definitions}
        unknown = set(values) - set(by_name)
        if unknown:
            raise TypeError(
                f"unknown option(s) {sorted(unknown)}; this command takes {list(by_name)}"
            )
        focused_type = None
        if focus is not None:
            definition = by_name.get(focus[0])
            if definition is None or not definition.get("autocomplete"):
                raise ValueError(f"option {focus[0]!r} does not autocomplete")
            focused_type = definition["type"]
        else:
            missing = [
                d["name"] for d in definitions if d.get("required") and d["name"] not in values
            ]
            if missing:
                raise TypeError(f"missing required option(s) {missing}")
        options = []
        for definition in definitions:
            name = definition["name"]
            if focus is not None and name == focus[0]:
                options.append(
                    {"type": definition["type"], "name": name, "value": focus[1], "focused": True}
                )
            elif name in values:
                value = self._option_value(definition, values[name], resolved, channel)
                options.append({"type": definition["type"], "name": name, "value": value})
        return options, focused_type

    def _option_value(
        self,
        definition: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
    ) -> Any:
        """Check ``value`` like the Discord client would and put it in wire form."""
        kind, name = definition["type"], definition["name"]
        choices = definition.get("choices")
        if choices:
            by_value = {c["value"]: c["value"] for c in choices}
            by_name = {c["name"]: c["value"] for c in choices}
            if value not in by_value and value not in by_name:
                raise ValueError(f"{name}={value!r} is not one of the choices {list(by_value)}")
            return by_value.get(value, by_name.get(value))
        if kind == STRING:
            _expect(name, value, str)
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ValueError(f"{name}: length must be within {low}..{high}")
            return value
        if kind in (INTEGER, NUMBER):
            _expect(name, value, int if kind == INTEGER else (int, float))
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"{name}={value} is outside {low}..{high}")
            return value
        if kind == BOOLEAN:
            _expect(name, value, bool)
            return value
        if kind == USER:
            return self._resolve_user(name, value, resolved, channel)
        if kind == CHANNEL:
            return self._resolve_channel(definition, value, resolved)
        raise NotImplementedError(f"option type {kind} ({name}) is not modelled by the fake")

    def _resolve_user(
        self, name: str, value: Any, resolved: dict[str, dict[str, Any]], channel: Channel
    ) -> str:
        user = value.user if isinstance(value, Member) else value
        _expect(name, user, User)
        resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
        member = channel.guild.member(user) if channel.guild else None
        if member is not None:
            resolved.setdefault("members", {})[str(user.id)] = payloads.member(
                member, self.world.clock, with_user=False, permissions=True
            )
        return str(user.id)

    def _resolve_channel(
        self, definition: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> str:
        _expect(definition["name"], value, Channel)
        allowed = definition.get("channel_types")
        if allowed and int(value.type) not in allowed:
            raise ValueError(
                f"{definition['name']}: channel type {value.type.name} not in {allowed}"
            )
        data = payloads.channel(value, self.world.clock)
        data["permissions"] = str(Permission.EVERYONE)
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)

    # -- components and modals -----------------------------------------------

    def click_data(self, user: User, message: Message, key: str) -> dict[str, Any]:
        self._check_message_usable(user, message)
        button = message.button(key)
        if button.get("style") == LINK_STYLE:
            raise ValueError(f"button {key!r} is a link; clicking it opens {button.get('url')}")
        if button.get("disabled"):
            raise ValueError(f"button {key!r} is disabled")
        return {"custom_id": button["custom_id"], "component_type": 2}

    def select_data(
        self, user: User, message: Message, values: Sequence[str], custom_id: str | None
    ) -> dict[str, Any]:
        self._check_message_usable(user, message)
        select = message.select(custom_id)
        if select.get("type") != STRING_SELECT:
            raise NotImplementedError("only string selects are modelled by the fake")
        if select.get("disabled"):
            raise ValueError(f"select {select['custom_id']!r} is disabled")
        chosen = _choose(select, values)
        return {"custom_id": select["custom_id"], "component_type": STRING_SELECT, "values": chosen}

    def forged_data(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: Sequence[str] | None,
        offer: bool,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``data`` of a component interaction no Discord client can send, and the
        tampered components the message claims to carry (see ``FakeDiscord.forge``)."""
        self._check_message_usable(user, message)
        kind = BUTTON if values is None else STRING_SELECT
        components = copy.deepcopy(message.components)
        target = next(
            (c for c in iter_components(components) if c.get("type") == kind), None
        )
        if target is None:
            raise LookupError(f"message {message.id} has no component of type {kind} to forge")
        target["custom_id"] = custom_id
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None and offer:
            known = {o["value"] for o in target.get("options", [])}
            target["options"] = target.get("options", []) + [
                {"label": v or "?", "value": v} for v in values if v not in known
            ]
        if values is not None:
            data["values"] = list(values)
        return data, components

    def _check_message_usable(self, user: User, message: Message) -> None:
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        if not message.is_visible_to(user):
            raise PermissionError(
                f"{user.name} cannot see message {message.id} ({message.visibility})"
            )

    def modal_data(self, modal: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        """What the client submits for ``modal`` filled with ``values`` by custom_id."""
        components = []
        used: set[str] = set()
        for top in modal.get("components", []):
            if top.get("type") == 1:
                field = top["components"][0]
                components.append({"type": 1, "components": [_submitted(field, values)]})
            elif "component" in top:
                field = top["component"]
                components.append({"type": top["type"], "component": _submitted(field, values)})
            else:
                continue
            used.add(field["custom_id"])
        unknown = set(values) - used
        if unknown:
            raise KeyError(f"modal {modal.get('custom_id')!r} has no field(s) {sorted(unknown)}")
        return {"custom_id": modal["custom_id"], "components": components}


def _submitted(field: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    custom_id = field["custom_id"]
    if field.get("type") == TEXT_INPUT:
        value = values.get(custom_id, field.get("value") or "")
        _expect(custom_id, value, str)
        if not value and field.get("required", True):
            raise ValueError(f"modal field {custom_id!r} is required")
        low, high = field.get("min_length", 0), field.get("max_length", 4000)
        if value and not low <= len(value) <= high:
            raise ValueError(f"modal field {custom_id!r}: length must be within {low}..{high}")
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if field.get("type") == STRING_SELECT:
        return {
            "type": STRING_SELECT,
            "custom_id": custom_id,
            "values": _choose(field, values.get(custom_id, [])),
        }
    raise NotImplementedError(f"modal component type {field.get('type')} is not modelled")


def _choose(select: dict[str, Any], wanted: Sequence[str]) -> list[str]:
    """Option values for ``wanted`` given as values or labels, within min/max."""
    if isinstance(wanted, str):
        raise TypeError("select values must be a list of strings")
    by_key = {o["value"]: o["value"] for o in select.get("options", [])}
    by_key |= {
        o["label"]: o["value"] for o in select.get("options", []) if o["label"] not in by_key
    }
    missing = [w for w in wanted if w not in by_key]
    if missing:
        raise ValueError(f"select {select['custom_id']!r} has no option(s) {missing}")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(wanted) <= high:
        raise ValueError(
            f"select {select['custom_id']!r} takes {low}..{high} values, not {len(wanted)}"
        )
    return [by_key[w] for w in wanted]


def _expect(name: str, value: Any, kind: type | tuple[type, ...]) -> None:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise TypeError(f"{name}={value!r}: expected {kind}")
