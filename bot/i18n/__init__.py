"""Every word a player reads, in their language: gettext catalogs managed with Babel.

The catalogs are ``bot/locale/<lang>/LC_MESSAGES/rummy.po`` (made from ``rummy.pot`` by
``python -m bot.i18n update``). English is the msgid itself, so an empty or missing
translation reads in English.

*Which* language is a context variable: whoever answers an interaction or builds a public
message sets it (:func:`speaking`), and everything below it just calls :func:`_`,
:func:`_n`, :func:`_label`, :func:`_option` or :func:`say`. Ephemeral answers are in the
clicker's language, public messages and DMs in the server's (:mod:`bot.languages`).

The engine cannot import this (it is pure): it makes :class:`~bot.engine.i18n.Msg` values
with ``tr``/``trn``, which :func:`say` translates here (``_`` translates a message's values
too).
"""

from __future__ import annotations

import contextlib
import gettext
import io
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations

from bot.engine.i18n import Msg, fill

log = logging.getLogger(__name__)

DOMAIN = "rummy"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""``bot/locale``: the template ``rummy.pot`` and one ``<lang>/LC_MESSAGES/rummy.po`` each."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "id": "Bahasa Indonesia",
    "ms": "Bahasa Melayu",
    "hi": "हिन्दी",
    "zh_Hans": "简体中文",
}
"""The languages the bot speaks: Babel code → its own name (what the settings offer)."""
SOURCE = "en"
SHIPPED: tuple[str, ...] = ("en", "zh_Hans")
"""Languages whose catalogs are complete (every message translated, checked by the tests).
A translator adds their language here when its catalog is done."""

DISCORD_LOCALES: dict[str, str] = {
    "en-US": "en", "en-GB": "en", "id": "id", "hi": "hi", "zh-CN": "zh_Hans",
}
"""Discord's client locales the bot answers in (Discord has no Malay: players choose it
with ``/rummy settings language``)."""

_current: ContextVar[str] = ContextVar("language", default=SOURCE)
_catalogs: dict[str, gettext.NullTranslations] = {}
_number_locales: dict[str, Locale] = {}


def from_discord(locale: str | None) -> str | None:
    """The language for a Discord locale (``zh-CN`` → ``zh_Hans``), or None if not spoken."""
    if locale is None:
        return None
    return DISCORD_LOCALES.get(str(locale))


def current() -> str:
    """The language of the text being built now."""
    return _current.get()


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Build text in ``language`` inside this block (public messages, DMs)."""
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def use(language: str) -> None:
    """Speak ``language`` for the rest of this task (an interaction's handler)."""
    _current.set(language)


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_po(po_path: Path) -> Translations:
    """A catalog compiled in memory from its ``.po`` (fuzzy entries left out)."""
    with po_path.open("rb") as source:
        catalog = read_po(source, locale=po_path.parent.parent.name, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, translated(catalog))
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def translated(catalog: Catalog) -> Catalog:
    """``catalog`` without its untranslated plural messages: Babel would compile one as the
    English singular in a one-form language; left out, gettext falls back to English."""
    for message in list(catalog):
        if message.id and isinstance(message.string, tuple) and not all(message.string):
            catalog.delete(message.id, context=message.context)
    return catalog


def _load(language: str) -> gettext.NullTranslations:
    """A language's catalog: its compiled ``.mo`` when it is newer than the ``.po``, else
    the ``.po`` compiled now (a fresh checkout needs no build step)."""
    po = catalog_path(language)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as compiled:
            return Translations(compiled, domain=DOMAIN)
    if po.exists():
        return compile_po(po)
    return gettext.NullTranslations()


def catalog(language: str) -> gettext.NullTranslations:
    found = _catalogs.get(language)
    if found is None:
        found = _catalogs[language] = (gettext.NullTranslations() if language == SOURCE
                                       else _load(language))
    return found


def number_locale(language: str) -> Locale:
    found = _number_locales.get(language)
    if found is None:
        try:
            found = Locale.parse(language)
        except (UnknownLocaleError, ValueError):
            found = Locale.parse(SOURCE)
        _number_locales[language] = found
    return found


def number(value: float, language: str | None = None) -> str:
    """``33.5`` as the language writes it (``33,5`` in Indonesian)."""
    return format_decimal(value, locale=number_locale(language or current()))


def percent(value: float, language: str | None = None) -> str:
    """``67%`` as the language writes it."""
    return format_percent(value, locale=number_locale(language or current()))


def _shown(value: object, language: str) -> str:
    if isinstance(value, bool | int):
        return str(value)  # counts, ids, timestamps, seeds: plain digits in every language
    if isinstance(value, float):
        return number(value, language)
    if isinstance(value, Msg):
        return say(value, language)
    return str(value)


def _format(text: str, params: dict[str, object], language: str) -> str:
    if not params:
        return text
    return fill(text, {key: _shown(value, language) for key, value in params.items()})


def _plural_count(count: float) -> int:
    """gettext plural formulas take integers; a fraction (1.5 chips) reads as plural."""
    return int(count) if float(count).is_integer() else 2


def say(value: str, language: str | None = None) -> str:
    """A :class:`Msg` (from the engine or a table of ``tr``) in the current language; any
    other string as it is (names, codes, text already translated)."""
    if not isinstance(value, Msg):
        return value
    language = language or current()
    book = catalog(language)
    if value.plural is None:
        text = book.gettext(value.msgid)
    else:
        assert value.quantity is not None
        text = book.ngettext(value.msgid, value.plural, _plural_count(value.quantity))
    text = _format(text, value.params, language)
    return text[:1].upper() + text[1:] if value.capital else text


def say_known(text: str, language: str | None = None) -> str:
    """A word the catalogs hold without a marker of its own (an option's choice, which the
    command tree puts in the catalog), translated if it is there."""
    if isinstance(text, Msg):
        return say(text, language)
    return catalog(language or current()).gettext(text)


def say_error(error: BaseException) -> str:
    """An exception's one-line reason in the current language (its first argument, which
    may be a message made with ``tr``)."""
    reason = error.args[0] if error.args else None
    return say(reason) if isinstance(reason, str) else str(error)


def _(msgid: str, /, **params: object) -> str:
    """``msgid`` (English, a literal) translated now, its ``{placeholders}`` filled."""
    language = current()
    return _format(catalog(language).gettext(msgid), params, language)


def _n(singular: str, plural: str, count: float, /, **params: object) -> str:
    """A counted sentence: ``{n}`` is ``count``; the language picks the plural form."""
    language = current()
    text = catalog(language).ngettext(singular, plural, _plural_count(count))
    return _format(text, {"n": count, **params}, language)


def _label(msgid: str, /, **params: object) -> str:
    """A button's label (Discord: at most 80 characters; the tests check translations)."""
    return _(msgid, **params)


def _option(msgid: str, /, **params: object) -> str:
    """A select menu option's label or description (at most 100 characters)."""
    return _(msgid, **params)


__all__ = [
    "DISCORD_LOCALES",
    "LANGUAGES",
    "SHIPPED",
    "SOURCE",
    "_",
    "_label",
    "_n",
    "_option",
    "catalog",
    "current",
    "from_discord",
    "number",
    "say",
    "say_error",
    "speaking",
    "use",
]
