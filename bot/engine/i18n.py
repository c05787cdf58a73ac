"""Translatable messages: the engine speaks English, the bot translates at the edge.

The engine stays pure (no Babel, nothing from the bot), so it cannot translate. Instead
every sentence a player may read is made with :func:`tr` (or :func:`trn` when it counts
something): an English *msgid* with named ``{placeholders}`` and the values that fill
them. The result is a :class:`Msg`: a ``str`` holding the English sentence (so logs,
records and tests read as before) that also remembers its msgid and values, which the bot
(:mod:`bot.i18n`) looks up in the player's language::

    raise IllegalMove(tr("you do not hold {card}", card=piece.code))
    trn("{n} card left", "{n} cards left", count)

Babel's extractor finds every ``tr``/``trn`` call by name, so the msgid must be a string
literal (never an f-string). Values are plain: numbers (formatted per language by the
bot), card codes and names as ``str``, or another :class:`Msg` (translated too). Seat
placeholders ``{p0}``…``{p5}`` are left for the bot to fill with players' names.

:func:`tr` is also the marker for English kept in constants (module-level tables): the
message is made once and translated whenever it is shown.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

Value = str | int | float

_FORMATTER = string.Formatter()


class _Keep(dict[str, object]):
    """Placeholders without a value (seats ``{p0}``) stay as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with its ``{name}`` placeholders filled; unknown ones are kept."""
    return text.format_map(_Keep(params))


def placeholders(text: str) -> set[str]:
    """The ``{names}`` in a msgid or translation (to check a translation keeps them)."""
    return {field for _, field, _, _ in _FORMATTER.parse(text) if field is not None}


def english(value: object) -> str:
    """A value as the English sentence shows it (``33.5``, ``12``, a card code)."""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class Msg(str):
    """An English sentence that also knows how it was made, for translating it."""

    msgid: str
    plural: str | None
    quantity: int | float | None
    params: dict[str, object]
    capital: bool

    def __new__(cls, msgid: str, params: Mapping[str, object] | None = None, *,
                plural: str | None = None, count: int | float | None = None,
                capital: bool = False) -> Msg:
        values = dict(params or {})
        if plural is not None:
            values.setdefault("n", count)
        shown = fill(msgid if plural is None or count == 1 else plural,
                     {k: english(v) for k, v in values.items()})
        self = super().__new__(cls, shown[:1].upper() + shown[1:] if capital else shown)
        self.msgid = msgid
        self.plural = plural
        self.quantity = count
        self.params = values
        self.capital = capital
        return self

    def __reduce__(self) -> tuple:  # pickled to the renderer's processes
        return (_rebuild, (self.msgid, self.params, self.plural, self.quantity, self.capital))


def _rebuild(msgid: str, params: dict[str, object], plural: str | None,
             count: int | float | None, capital: bool) -> Msg:
    return Msg(msgid, params, plural=plural, count=count, capital=capital)


def capitalized(text: str) -> str:
    """``text`` starting with a capital letter, in every language (``Deal``, ``Hand``)."""
    if isinstance(text, Msg):
        return Msg(text.msgid, text.params, plural=text.plural, count=text.quantity,
                   capital=True)
    return text[:1].upper() + text[1:]


def tr(msgid: str, /, **params: object) -> str:
    """A translatable sentence: English ``msgid`` with ``{name}`` placeholders."""
    return Msg(msgid, params)


def trn(singular: str, plural: str, count: int | float, /, **params: object) -> str:
    """A sentence that counts: ``{n}`` is ``count``; each language picks its plural form."""
    return Msg(singular, params, plural=plural, count=count)


def who(seat: int) -> str:
    """The placeholder for a seat's name (``{p2}``), as a value of a message: the bot puts
    the player's name in after translating (``tr("{player} deals", player=who(seat))``)."""
    return f"{{p{seat}}}"


def and_list(items: Sequence[str]) -> str:
    """``a, b and c`` (names, codes) as a translatable phrase."""
    if len(items) <= 1:
        return "".join(items)
    return tr("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def or_list(items: Sequence[str]) -> str:
    """``a, b or c`` as a translatable phrase."""
    if len(items) <= 1:
        return "".join(items)
    return tr("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])


def joined(*parts: str, sep: str = "") -> str:
    """Messages (and plain text) put side by side, each translated: ``joined(event, note,
    sep=" ")``. Never ``+`` a message: the sum is plain English."""
    names = [f"part{index}" for index in range(len(parts))]
    return Msg(sep.join("{" + name + "}" for name in names), dict(zip(names, parts, strict=True)))


def figure(value: float, signed: bool = False) -> str:
    """A number shown on its own (a results column: ``+2.5``), written as each language
    writes numbers (``+2,5`` in Indonesian)."""
    sign = "+" if signed and value > 0 else "-" if value < 0 else ""
    return Msg(sign + "{value}", {"value": abs(value)})


def with_value(message: str, name: str, value: object) -> str:
    """``message`` with its value ``name`` replaced (``meld 5 (R1 R2)`` for the cards it
    named); a message without that value is returned as it is."""
    if not isinstance(message, Msg) or name not in message.params:
        return message
    return Msg(message.msgid, {**message.params, name: value}, plural=message.plural,
               count=message.quantity, capital=message.capital)
