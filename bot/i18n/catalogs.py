"""Managing the catalogs with Babel: extract the template, update each language, compile.

``python -m bot.i18n update`` after changing any marked string: it extracts every
``_``/``_n``/``_label``/``_option``/``tr``/``trn`` call in ``bot``, ``cogs`` and ``cardart``
plus every slash command and option description and choice name (read from the cogs), writes
``bot/locale/rummy.pot`` and merges it into each language's ``.po``. ``compile`` writes the
``.mo`` files (optional: the bot compiles a ``.po`` in memory when its ``.mo`` is missing or
older). The tests check that the template is up to date and every catalog is sound.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import inspect
import io
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

from . import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE, catalog_path, translated

ROOT = LOCALE_DIR.parent.parent
"""The project: the packages whose strings are extracted are below it."""
PACKAGES = ("bot", "cogs", "cardart")
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

HEADER = ("# Every message of the rummy bot. Made by `python -m bot.i18n update`: do not edit\n"
          "# the template; translate in bot/locale/<lang>/LC_MESSAGES/rummy.po (how:\n"
          "# bot/locale/TRANSLATING.md). Keep each {placeholder} as it is.")

LANGUAGE_HEADER = ("# The rummy bot's messages in one language. `python -m bot.i18n update` adds\n"
                   "# new messages from the template; translate each msgstr, keeping each\n"
                   "# {placeholder} as it is (how: bot/locale/TRANSLATING.md).")

KEYWORDS: dict[str, Any] = {
    "_": None, "_n": (1, 2), "_label": None, "_option": None, "tr": None, "trn": (1, 2),
}
"""The marking functions (:mod:`bot.i18n`, :mod:`bot.engine.i18n`) and their msgid arguments."""

LIMITS = {"_label": 80, "_option": 100, "command": 100}
"""Discord's length limits by kind of text (anything else is a message: 2,000)."""
MESSAGE_LIMIT = 2000
LIMIT_NOTE = "Discord limit: {limit} characters ({what})"
"""The extracted comment that tells translators (and the tests) a message's limit."""
_WHAT = {"_label": "button label", "_option": "select option",
         "command": "command description or choice"}


def _version() -> str:
    try:
        return importlib.metadata.version("rummy-bot")
    except importlib.metadata.PackageNotFoundError:
        return "0"


def limit_of(auto_comments: Iterable[str]) -> int:
    """A catalog entry's length limit, read from its extracted comment."""
    for comment in auto_comments:
        for kind, limit in LIMITS.items():
            if comment == LIMIT_NOTE.format(limit=limit, what=_WHAT[kind]):
                return limit
    return MESSAGE_LIMIT


def extract_marked(fileobj: Any, keywords: Mapping[str, Any], comment_tags: Collection[str],
                   options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's Python extractor, noting the limit of a ``label`` or ``option`` message."""
    python: Any = extract_python
    for lineno, funcname, messages, comments in python(fileobj, keywords, comment_tags,
                                                       options):
        if funcname in LIMITS:
            comments = [*comments, LIMIT_NOTE.format(limit=LIMITS[funcname],
                                                     what=_WHAT[funcname])]
        yield lineno, funcname, messages, list(comments)


def command_texts() -> Iterator[tuple[str, str]]:
    """``(text, where)`` for every command group, command and option description and
    choice name of the bot's cogs (Discord shows them translated: ``CommandTranslator``)."""
    from discord import app_commands
    from discord.ext import commands

    from bot.app import COGS

    def walk(item: Any, where: str) -> Iterator[tuple[str, str]]:
        if isinstance(item, app_commands.Group | app_commands.Command):
            name = f"{where}/{item.name}".strip("/")
            yield str(item.description), f"/{name}"
            if isinstance(item, app_commands.Group):
                for child in item.commands:
                    yield from walk(child, name)
                return
            for param in item.parameters:
                yield str(param.description), f"/{name}/{param.name}"
                for choice in param.choices:
                    yield str(choice.name), f"/{name}/{param.name}"

    for module_name in COGS:
        module = importlib.import_module(module_name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, commands.Cog) or cls.__module__ != module_name:
                continue
            group = getattr(cls, "__cog_group_name__", None)
            if cls.__cog_is_app_commands_group__:
                yield str(cls.__cog_group_description__), f"/{group}"
            for command in cls.__cog_app_commands__:
                yield from walk(command, group or "")


class ExtractionError(Exception):
    """A marked string Babel cannot extract (an f-string or a variable as the msgid)."""


def extract() -> Catalog:
    """The template: every marked string and every command text.

    Raises :class:`ExtractionError` where Babel skipped a marked call: its text would never
    reach the catalogs (write ``_("Hello {name}", name=name)``, never an f-string)."""
    template = Catalog(project="rummy-bot", version=_version(), domain=DOMAIN, charset="utf-8",
                       header_comment=HEADER, msgid_bugs_address="", copyright_holder="",
                       fuzzy=False)
    template.locale = None
    warnings = io.StringIO()
    with contextlib.redirect_stderr(warnings):
        for package in PACKAGES:
            methods: Any = [("**.py", extract_marked)]
            found = extract_from_dir(ROOT / package, methods,
                                     keywords=KEYWORDS, comment_tags=("i18n:",),
                                     strip_comment_tags=True)
            for filename, lineno, message, comments, context in found:
                where = f"{package}/{filename}"
                template.add(message, locations=[(where, lineno)], auto_comments=comments,
                             context=context)
    if "warning" in warnings.getvalue():
        raise ExtractionError(warnings.getvalue().strip())
    note = LIMIT_NOTE.format(limit=LIMITS["command"], what=_WHAT["command"])
    for text, where in command_texts():
        if text and text != "…" and text not in LANGUAGES.values():  # names: never translated
            template.add(text, locations=[(where, 0)], auto_comments=[note])
    return template


_DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\n', re.MULTILINE)


def _write(catalog: Catalog, path: Path) -> None:
    """Write a catalog, unless only its dates would change (no churn between branches)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, omit_header=False,
             include_lineno=False)
    text = buffer.getvalue()
    if path.exists() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", text):
        return
    path.write_bytes(text)


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def update() -> list[Path]:
    """Write the template and merge it into each language's catalog (made when missing)."""
    template = extract()
    _write(template, TEMPLATE)
    written = [TEMPLATE]
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        path = catalog_path(language)
        if path.exists():
            catalog = read(path, language)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project="rummy-bot",
                              header_comment=LANGUAGE_HEADER,
                              fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        _write(catalog, path)
        written.append(path)
    return written


def compile_all() -> list[Path]:
    """Compile every language's ``.po`` to its ``.mo`` (the bot reads either)."""
    written = []
    for language in LANGUAGES:
        path = catalog_path(language)
        if language == SOURCE or not path.exists():
            continue
        buffer = io.BytesIO()
        write_mo(buffer, translated(read(path, language)))
        mo = path.with_suffix(".mo")
        mo.write_bytes(buffer.getvalue())
        written.append(mo)
    return written


_ACCENTED = str.maketrans(
    "AaCcEeIiNnOoSsUuYyZzGgKkLlRrTtDdHhWwBbFfJjMmPpQqVvXx",
    "ÅåÇçÉéÎîÑñÖöŠšÜüÝýŽžĜĝĶķĻļŘřŢţĎďĤĥŴŵƁɓƑƒĴĵḾḿƤƥǪǫṼṽẊẋ")


def pseudo_text(text: str, brackets: str = "⟦⟧") -> str:
    """``⟦Ŵĥöšé ţûŕñ⟧``: a translation that is visibly not English, keeping what must not
    change ({placeholders}, `code`, <mentions>, URLs). ``brackets`` tell pseudo-locales
    apart."""
    out = []
    keep_until = ""
    for index, char in enumerate(text):
        if keep_until:
            out.append(char)
            if char == keep_until:
                keep_until = ""
            continue
        if char in "{`<":
            keep_until = {"{": "}", "`": "`", "<": ">"}[char]
            out.append(char)
        elif text.startswith("http", index):
            keep_until = " "
            out.append(char)
        else:
            out.append(char.translate(_ACCENTED))
    return f"{brackets[0]}{''.join(out)}{brackets[1]}"


def pseudo_translations(brackets: str = "⟦⟧", template: Catalog | None = None) -> Translations:
    """A pseudo-locale compiled from the template (tests only; never shipped): every
    message accented and in ``brackets``, so English left over stands out."""
    template = template or read(TEMPLATE)
    pseudo = Catalog(locale="en", domain=DOMAIN, fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            pseudo.add(message.id, tuple(pseudo_text(part, brackets) for part in message.id),
                       context=message.context)
        else:
            pseudo.add(message.id, pseudo_text(message.id, brackets), context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, pseudo)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)
