"""Discord's limits on what a bot may send, checked the way Discord checks them.

Each ``check_*`` function adds field errors to a :class:`FormErrors`; the
caller raises them as one ``50035 Invalid Form Body``. Limits come from
Discord's API reference (messages, embeds, message components, modals,
autocomplete); discord.py checks few of them, which is why the fake must.
"""

from __future__ import annotations

from typing import Any

from .errors import DiscordError, FormErrors, Path
from .models import MessageFlag

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_WIDTH_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
URL_MAX = 512
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_TEXT_MAX = 100
FILES_MAX = 10
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_LENGTH_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
LABEL_DESCRIPTION_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_MAX = 100
SAFE_INTEGER = 2**53

BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, LABEL = 2, 3, 4, 10, 18
AUTO_SELECTS = (5, 6, 7, 8)  # user, role, mentionable, channel selects
LINK_STYLE, PREMIUM_STYLE = 5, 6

#: Flags a bot may set on a message it creates (EPHEMERAL only via interactions).
CREATE_FLAGS = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS
INTERACTION_FLAGS = CREATE_FLAGS | MessageFlag.EPHEMERAL


def unsupported(feature: str) -> DiscordError:
    """A valid Discord feature the fake does not model: fail loudly, not silently."""
    return DiscordError(400, 0, f"fake Discord does not model {feature}; extend tests/fakediscord")


def check_message(payload: dict[str, Any], errors: FormErrors, *, allowed_flags: int) -> None:
    """Content, embeds, components and flags of a message create or edit."""
    if not isinstance(payload, dict):
        errors.add((), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for feature in ("poll", "sticker_ids"):
        if payload.get(feature):
            raise unsupported(feature)
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
    elif content is not None:
        errors.max_length(("content",), content, CONTENT_MAX)
    if payload.get("embeds") is not None:
        check_embeds(payload["embeds"], errors)
    flags = payload.get("flags") or 0
    if flags & MessageFlag.IS_COMPONENTS_V2:
        raise unsupported("components v2 (IS_COMPONENTS_V2)")
    if flags & ~allowed_flags:
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", f"Invalid flags {flags} for this message")
    if payload.get("components") is not None:
        check_components(payload["components"], errors)


def check_embeds(embeds: Any, errors: FormErrors, path: Path = ("embeds",)) -> None:
    if not isinstance(embeds, list):
        errors.add(path, "BASE_TYPE_LIST", "Must be an array.")
        return
    errors.max_items(path, embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        at = (*path, i)
        title = embed.get("title")
        description = embed.get("description")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        errors.max_length((*at, "title"), title, EMBED_TITLE_MAX)
        errors.max_length((*at, "description"), description, EMBED_DESCRIPTION_MAX)
        errors.max_length((*at, "footer", "text"), footer, EMBED_FOOTER_MAX)
        errors.max_length((*at, "author", "name"), author, EMBED_AUTHOR_MAX)
        fields = embed.get("fields") or []
        errors.max_items((*at, "fields"), fields, EMBED_FIELDS_MAX)
        for j, field in enumerate(fields):
            errors.length_between(
                (*at, "fields", j, "name"), field.get("name"), 1, EMBED_FIELD_NAME_MAX
            )
            errors.length_between(
                (*at, "fields", j, "value"), field.get("value"), 1, EMBED_FIELD_VALUE_MAX
            )
            total += len(field.get("name") or "") + len(field.get("value") or "")
        total += sum(len(text or "") for text in (title, description, footer, author))
    if total > EMBED_TOTAL_MAX:
        errors.add(
            path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"
        )


def check_components(components: Any, errors: FormErrors, path: Path = ("components",)) -> None:
    """Classic (v1) message components: up to 5 action rows of buttons or one select."""
    if not isinstance(components, list):
        errors.add(path, "BASE_TYPE_LIST", "Must be an array.")
        return
    errors.max_items(path, components, ACTION_ROWS_MAX)
    seen: set[str] = set()
    for i, row in enumerate(components):
        at = (*path, i)
        if row.get("type") != 1:
            errors.add(
                (*at, "type"), "BASE_TYPE_CHOICES", "Top-level components must be action rows (1)"
            )
            continue
        children = row.get("components") or []
        if not children:
            errors.add(
                (*at, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        selects = [c for c in children if c.get("type") in (STRING_SELECT, *AUTO_SELECTS)]
        if len(children) > ROW_WIDTH_MAX or (selects and len(children) > 1):
            errors.add(
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            check_interactive((*at, "components", j), child, errors, seen)


def check_interactive(
    path: Path, component: dict[str, Any], errors: FormErrors, seen: set[str]
) -> None:
    kind = component.get("type")
    if kind == BUTTON:
        check_button(path, component, errors)
    elif kind == STRING_SELECT or kind in AUTO_SELECTS:
        check_select(path, component, errors)
    else:
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", f"Component type {kind} is not valid here")
        return
    custom_id = component.get("custom_id")
    if custom_id is not None:
        if custom_id in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def check_button(path: Path, button: dict[str, Any], errors: FormErrors) -> None:
    style = button.get("style")
    if style not in range(1, 7):
        errors.add(
            (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
        )
        return
    if style == LINK_STYLE:
        errors.length_between((*path, "url"), button.get("url"), 1, URL_MAX)
        if "custom_id" in button:
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A link button cannot have a custom_id",
            )
    elif style == PREMIUM_STYLE:
        raise unsupported("premium buttons")
    else:
        errors.length_between((*path, "custom_id"), button.get("custom_id"), 1, CUSTOM_ID_MAX)
        if "url" in button:
            errors.add(
                (*path, "url"),
                "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                "Only link buttons can have a url",
            )
    if not button.get("label") and not button.get("emoji"):
        errors.add(
            (*path, "label"),
            "BUTTON_COMPONENT_LABEL_REQUIRED",
            "A button needs a label or an emoji",
        )
    errors.max_length((*path, "label"), button.get("label"), BUTTON_LABEL_MAX)


def check_select(path: Path, select: dict[str, Any], errors: FormErrors) -> None:
    errors.length_between((*path, "custom_id"), select.get("custom_id"), 1, CUSTOM_ID_MAX)
    errors.max_length((*path, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= SELECT_OPTIONS_MAX:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "min_values must be between 0 and 25")
    if not 1 <= high <= SELECT_OPTIONS_MAX:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "max_values must be between 1 and 25")
    if low > high:
        errors.add(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
            "min_values must be less than or equal to max_values",
        )
    if select.get("type") != STRING_SELECT:
        if "options" in select:
            errors.add(
                (*path, "options"), "BASE_TYPE_BAD_VALUE", "Only string selects have options"
            )
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        errors.add(
            (*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
        )
    if high > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values cannot exceed the number of options",
        )
    values: set[str] = set()
    for k, option in enumerate(options):
        at = (*path, "options", k)
        errors.length_between((*at, "label"), option.get("label"), 1, SELECT_OPTION_TEXT_MAX)
        errors.length_between((*at, "value"), option.get("value"), 1, SELECT_OPTION_TEXT_MAX)
        errors.max_length((*at, "description"), option.get("description"), SELECT_OPTION_TEXT_MAX)
        if option.get("value") in values:
            errors.add(
                (*at, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        values.add(option.get("value"))
    if sum(1 for o in options if o.get("default")) > high:
        errors.add(
            (*path, "options"),
            "SELECT_COMPONENT_TOO_MANY_DEFAULTS",
            "More default options than max_values",
        )


def check_modal(data: Any, errors: FormErrors, path: Path = ("data",)) -> None:
    """A MODAL callback: title, custom_id and up to 5 text inputs (rows or labels)."""
    if not isinstance(data, dict):
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    errors.length_between((*path, "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    errors.length_between((*path, "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        errors.add(
            (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    seen: set[str] = set()
    for i, top in enumerate(components):
        at = (*path, "components", i)
        kind = top.get("type")
        if kind == 1:
            children = top.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                errors.add(
                    (*at, "components"),
                    "MODAL_ROW_INVALID",
                    "A modal action row holds exactly one text input",
                )
                continue
            check_text_input((*at, "components", 0), children[0], errors, seen, labelled=False)
        elif kind == LABEL:
            errors.length_between((*at, "label"), top.get("label"), 1, TEXT_INPUT_LABEL_MAX)
            errors.max_length((*at, "description"), top.get("description"), LABEL_DESCRIPTION_MAX)
            inner = top.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                check_text_input((*at, "component"), inner, errors, seen, labelled=True)
            elif inner.get("type") == STRING_SELECT:
                check_select((*at, "component"), inner, errors)
            else:
                raise unsupported(f"modal label holding component type {inner.get('type')}")
        elif kind == TEXT_DISPLAY:
            errors.length_between((*at, "content"), top.get("content"), 1, TEXT_INPUT_LENGTH_MAX)
        else:
            errors.add(
                (*at, "type"), "BASE_TYPE_CHOICES", f"Component type {kind} is not valid in a modal"
            )


def check_text_input(
    path: Path, field: dict[str, Any], errors: FormErrors, seen: set[str], *, labelled: bool
) -> None:
    custom_id = field.get("custom_id")
    errors.length_between((*path, "custom_id"), custom_id, 1, CUSTOM_ID_MAX)
    if custom_id in seen:
        errors.add(
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)
    if field.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    if labelled:
        if field.get("label"):
            errors.add(
                (*path, "label"),
                "TEXT_INPUT_LABEL_NOT_ALLOWED",
                "A text input inside a label has no label of its own",
            )
    else:
        errors.length_between((*path, "label"), field.get("label"), 1, TEXT_INPUT_LABEL_MAX)
    low, high = field.get("min_length", 0), field.get("max_length", TEXT_INPUT_LENGTH_MAX)
    if (
        not 0 <= low <= TEXT_INPUT_LENGTH_MAX
        or not 1 <= high <= TEXT_INPUT_LENGTH_MAX
        or low > high
    ):
        errors.add(
            (*path, "max_length"),
            "BASE_TYPE_BAD_LENGTH",
            "min_length/max_length must satisfy 0 <= min <= max <= 4000, max >= 1",
        )
    errors.max_length((*path, "value"), field.get("value"), high)
    errors.max_length((*path, "placeholder"), field.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)


def check_choices(
    choices: Any, option_type: int, errors: FormErrors, path: Path = ("data", "choices")
) -> None:
    """An autocomplete result, checked against the focused option's type."""
    if not isinstance(choices, list):
        errors.add(path, "BASE_TYPE_LIST", "Must be an array.")
        return
    errors.max_items(path, choices, CHOICES_MAX)
    for i, choice in enumerate(choices):
        errors.length_between((*path, i, "name"), choice.get("name"), 1, CHOICE_NAME_MAX)
        check_choice_value((*path, i, "value"), choice.get("value"), option_type, errors)


def check_choice_value(path: Path, value: Any, option_type: int, errors: FormErrors) -> None:
    if option_type == 3:
        if not isinstance(value, str):
            errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        else:
            errors.length_between(path, value, 1, CHOICE_STRING_MAX)
    elif option_type == 4:
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > SAFE_INTEGER:
            errors.add(path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not a safe integer.")
    elif option_type == 10:
        if not isinstance(value, int | float) or isinstance(value, bool):
            errors.add(path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not a number.")
    else:
        errors.add(path, "BASE_TYPE_CHOICES", f"Option type {option_type} cannot have choices")
