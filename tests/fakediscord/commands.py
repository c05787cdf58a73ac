"""Application commands: Discord's rules for definitions, and the synced set.

``PUT /applications/{id}/commands`` (and the guild variant) is a bulk
overwrite: the fake validates the whole list like Discord, keeps ids of
commands that survive by name, and remembers what was synced so that
``FakeDiscord.slash`` can build interactions only for commands that exist.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .clock import Snowflakes
from .errors import FormErrors, Path
from .validation import CHOICES_MAX, check_choice_value

CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
SUBS = (SUB_COMMAND, SUB_COMMAND_GROUP)

NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHAT_INPUT_COMMANDS_MAX = 100
COMBINED_CHARACTERS_MAX = 8000
STRING_LENGTH_MAX = 6000
#: Devanagari and Thai blocks, which the name regex admits as ``\p{sc=Deva}``/``\p{sc=Thai}``.
EXTRA_SCRIPTS = (range(0x0900, 0x0980), range(0x0E00, 0x0E80))


def is_valid_name(name: Any, *, chat_input: bool = True) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a letter has case.

    User and message (context menu) command names may have spaces and capitals.
    """
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return False
    if not chat_input:
        return True
    for ch in name:
        if ch in "-_'" or any(ord(ch) in block for block in EXTRA_SCRIPTS):
            continue
        if unicodedata.category(ch)[0] not in "LN" or ch != ch.lower():
            return False
    return True


def check_commands(definitions: Any, errors: FormErrors) -> None:
    """A bulk-overwrite body: a list of command definitions."""
    if not isinstance(definitions, list):
        errors.add((), "BASE_TYPE_LIST", "Must be an array.")
        return
    if (
        sum(1 for d in definitions if d.get("type", CHAT_INPUT) == CHAT_INPUT)
        > CHAT_INPUT_COMMANDS_MAX
    ):
        errors.add(
            (), "BASE_TYPE_MAX_LENGTH", f"Must be {CHAT_INPUT_COMMANDS_MAX} or fewer in length."
        )
    seen: set[tuple[int, str]] = set()
    for i, definition in enumerate(definitions):
        check_command((i,), definition, errors)
        key = (definition.get("type", CHAT_INPUT), definition.get("name"))
        if key in seen:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({key[1]!r})",
            )
        seen.add(key)


def check_command(path: Path, command: dict[str, Any], errors: FormErrors) -> None:
    kind = command.get("type", CHAT_INPUT)
    if kind not in (CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND):
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3).")
        return
    chat = kind == CHAT_INPUT
    if not is_valid_name(command.get("name"), chat_input=chat):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = command.get("description") or ""
    options = command.get("options") or []
    if chat:
        errors.length_between((*path, "description"), description, 1, DESCRIPTION_MAX)
        check_options((*path, "options"), options, errors, depth=0)
    else:
        if description:
            errors.add(
                (*path, "description"),
                "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                "Context menu commands cannot have a description",
            )
        if options:
            errors.add(
                (*path, "options"),
                "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS",
                "Context menu commands cannot have options",
            )
    if combined_length(command) > COMBINED_CHARACTERS_MAX:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMBINED_CHARACTERS_MAX})",
        )


def check_options(path: Path, options: Any, errors: FormErrors, *, depth: int) -> None:
    """Options at ``depth`` 0 (command), 1 (inside a group) or 2 (inside a subcommand)."""
    if not isinstance(options, list):
        errors.add(path, "BASE_TYPE_LIST", "Must be an array.")
        return
    errors.max_items(path, options, OPTIONS_MAX)
    kinds = [o.get("type") for o in options]
    if any(k in SUBS for k in kinds) and any(k not in SUBS for k in kinds):
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )
    names: set[str] = set()
    optional_seen = False
    for j, option in enumerate(options):
        at = (*path, j)
        kind = option.get("type")
        if not is_valid_name(option.get("name")):
            errors.add((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if option.get("name") in names:
            errors.add(
                (*at, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(option.get("name"))
        errors.length_between((*at, "description"), option.get("description"), 1, DESCRIPTION_MAX)
        if kind == SUB_COMMAND_GROUP:
            if depth != 0:
                errors.add(
                    (*at, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups can only be top-level options",
                )
            children = option.get("options") or []
            if not children or any(c.get("type") != SUB_COMMAND for c in children):
                errors.add(
                    (*at, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group holds one or more sub-commands only",
                )
            check_options((*at, "options"), children, errors, depth=1)
        elif kind == SUB_COMMAND:
            if depth == 2:
                errors.add(
                    (*at, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands cannot be nested in sub-commands",
                )
            check_options((*at, "options"), option.get("options") or [], errors, depth=2)
        elif kind in range(STRING, ATTACHMENT + 1):
            if depth == 1:
                errors.add(
                    (*at, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group holds one or more sub-commands only",
                )
            if option.get("required"):
                if optional_seen:
                    errors.add(
                        (*at, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            check_value_option(at, option, errors)
        else:
            errors.add((*at, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1, ..., 11).")


def check_value_option(path: Path, option: dict[str, Any], errors: FormErrors) -> None:
    kind = option["type"]
    choices = option.get("choices") or []
    if choices:
        errors.max_items((*path, "choices"), choices, CHOICES_MAX)
        for k, choice in enumerate(choices):
            errors.length_between((*path, "choices", k, "name"), choice.get("name"), 1, 100)
            check_choice_value((*path, "choices", k, "value"), choice.get("value"), kind, errors)
    if option.get("autocomplete"):
        if choices:
            errors.add(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete and choices are mutually exclusive",
            )
        if kind not in (STRING, INTEGER, NUMBER):
            errors.add(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID",
                "Only string, integer and number options can autocomplete",
            )
    for key in ("min_value", "max_value"):
        if key in option and kind not in (INTEGER, NUMBER):
            errors.add((*path, key), "BASE_TYPE_BAD_VALUE", f"{key} is only valid for numbers")
    for key, low in (("min_length", 0), ("max_length", 1)):
        if key in option:
            if kind != STRING:
                errors.add((*path, key), "BASE_TYPE_BAD_VALUE", f"{key} is only valid for strings")
            elif not low <= option[key] <= STRING_LENGTH_MAX:
                errors.add((*path, key), "NUMBER_TYPE_MAX", f"{key} must be between {low} and 6000")
    if "channel_types" in option and kind != CHANNEL:
        errors.add(
            (*path, "channel_types"), "BASE_TYPE_BAD_VALUE", "channel_types is only for channels"
        )


def combined_length(item: dict[str, Any]) -> int:
    """Characters of names, descriptions and choice values, which Discord caps together."""
    total = len(item.get("name") or "") + len(item.get("description") or "")
    total += sum(
        len(c.get("name", "")) + len(str(c.get("value", ""))) for c in item.get("choices") or []
    )
    return total + sum(combined_length(o) for o in item.get("options") or [])


class CommandRegistry:
    """The commands the bot has synced, globally and per guild."""

    def __init__(self, ids: Snowflakes, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self._scopes: dict[int | None, list[dict[str, Any]]] = {}
        self.syncs = 0

    def overwrite(
        self, guild_id: int | None, definitions: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Replace a scope's commands (after validation); ids survive by name and type."""
        previous = {(c["type"], c["name"]): c for c in self._scopes.get(guild_id, [])}
        stored = []
        for definition in definitions:
            kind = definition.get("type", CHAT_INPUT)
            old = previous.get((kind, definition["name"]))
            command = dict(definition, type=kind)
            command.setdefault("description", "")
            command["default_member_permissions"] = _permissions(definition)
            command.update(
                id=old["id"] if old else str(self._ids.next()),
                application_id=str(self._application_id),
                version=str(self._ids.next()),
            )
            if guild_id is not None:
                command["guild_id"] = str(guild_id)
            stored.append(command)
        self._scopes[guild_id] = stored
        self.syncs += 1
        return stored

    def list(self, guild_id: int | None) -> list[dict[str, Any]]:
        return list(self._scopes.get(guild_id, []))

    def find(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        """A chat-input command by name: the guild's own first, then global."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self._scopes.get(scope, []):
                if command["type"] == CHAT_INPUT and command["name"] == name:
                    return command
        return None


def _permissions(definition: dict[str, Any]) -> str | None:
    value = definition.get("default_member_permissions")
    return None if value is None else str(value)
