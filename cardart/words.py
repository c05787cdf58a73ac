"""The words drawn in pictures, in the language of the message they go with.

cardart draws; it does not choose languages. Its own words are messages made with the
engine's ``tr``/``trn`` (English msgids in the bot's catalogs), and so are the words in the
engine's views. Whoever renders installs the translator (:func:`use`): the bot installs its
own, which says a message in the current language; without one, messages read in English.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.i18n import tr, trn

_translate: Callable[[str], str] = str


def use(translator: Callable[[str], str]) -> None:
    """Say every message drawn from now on with ``translator`` (the bot's ``say``)."""
    global _translate
    _translate = translator


def say(text: str) -> str:
    """``text`` (a message or plain words) as it is drawn."""
    return _translate(text)


def _(msgid: str, /, **params: object) -> str:
    """One of cardart's own words, said now (extracted into the catalogs like the bot's)."""
    return _translate(tr(msgid, **params))


def _n(singular: str, plural: str, count: float, /, **params: object) -> str:
    return _translate(trn(singular, plural, count, **params))
