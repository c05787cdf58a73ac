"""The words of every message: each picture has the same information as text (UX.md).

Nothing here shows a hand except :func:`hand_text`, which only ever goes to
its owner (DM or ephemeral).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from .engine.cards import RANK_LABELS, RANK_NAMES, Piece
from .engine.game import HandResult
from .engine.i18n import capitalized, tr
from .engine.views import HandView, MeldView, Placing, ResultView, SeatState, TableView
from .i18n import _, _n, number, percent, say

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
FIELD_LIMIT = 1024
"""Discord's limit on an embed field's value."""
_SEAT = re.compile(r"\{p(\d+)\}")


def with_names(text: str, names: Sequence[str]) -> str:
    """An engine message in the current language with names in its ``{p0}`` placeholders."""
    text = say(text)
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                     else m.group(0), text)


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """At most ``limit`` characters (a message's content by default), cut at a line end."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 2)
    return text[:cut if cut > limit // 2 else limit - 2] + "\n…"


def codes(pieces: Sequence[Piece]) -> str:
    return " ".join(p.code for p in pieces)


def meld_text(meld: MeldView, tiles: bool) -> str:
    parts = []
    for piece, face in zip(meld.pieces, meld.faces, strict=True):
        if piece.is_joker or (piece.rank, piece.suit) != (face.rank, face.suit):
            label = face.label(tiles=tiles) if face.rank else ""
            parts.append(f"{piece.code}(={label})" if label else piece.code)
        else:
            parts.append(piece.code)
    return " ".join(parts)


def meld_mark(meld: MeldView) -> str:
    """`` (changed)`` or `` (invalid)`` for a meld on a staged table (Tile Rummy)."""
    if meld.kind == "invalid":
        return " " + _("(invalid)")
    return " " + _("(changed)") if meld.changed else ""


def table_text(view: TableView, names: Sequence[str]) -> str:
    """The table in words: piles, players, melds (public information only)."""
    lines = []
    piles = []
    if view.wild is not None:
        piles.append(_("wild joker **{card}**", card=view.wild.code))
    if view.discard and not view.discard_marked:
        piles.append(f"{say(view.discard_label)} **{view.discard[-1].code}**")
    if view.stock is not None:
        piles.append(f"{say(view.stock_label)} {number(view.stock)}")
    if piles:
        lines.append(" · ".join(piles))
    if view.discard_marked and view.discard:
        top = list(reversed(view.discard))[:view.discard_marked]
        marked = ", ".join(f"{i + 1}: {p.code}" for i, p in enumerate(top))
        lines.append(_("{pile}: {cards} (top {marked})",
                       pile=view.discard_label, cards=codes(view.discard), marked=marked))
    for panel in view.players:
        name = seat_name(panel.seat, names)
        marks = "▶ " if panel.to_move else ""
        dealer = " " + _("(dealer)") if panel.dealer else ""
        state_word = say(panel.state.word)
        state = "" if panel.state == SeatState.PLAYING else f" — {state_word}"
        note = f" ({say(panel.note)})" if panel.note and panel.note not in panel.state.value \
            else ""
        pieces = (_n("{n} tile", "{n} tiles", panel.pieces_left) if view.tiles
                  else _n("{n} card", "{n} cards", panel.pieces_left))
        lines.append(marks + _("**{name}**{dealer}: {pieces}, score {score}",
                               name=name, dealer=dealer, pieces=pieces, score=panel.score)
                     + state + note)
    if view.melds:
        lines.append(_("Melds: {melds}", melds=" · ".join(
            f"**{m.number}** {meld_text(m, view.tiles)}{meld_mark(m)}" for m in view.melds)))
    if view.status:
        lines.append(say(view.status))
    return "\n".join(lines)


def seat_name(seat: int, names: Sequence[str]) -> str:
    """A seat's player, or ``seat 3`` for a seat without a name."""
    return names[seat] if seat < len(names) else _("seat {number}", number=seat + 1)


def hand_word(tiles: bool) -> str:
    """What a player's pieces are called: a hand of cards, a rack of tiles (UX.md)."""
    return _("rack") if tiles else _("hand")


def hand_text(order: Sequence[Piece]) -> str:
    """Codes with their positions, for copying and for screen readers (NOT-7)."""
    return " ".join(f"`#{i}` {p.code}" for i, p in enumerate(order, start=1))


def wild_text(rank: int | None) -> str:
    """``Wild rank: 7 — every 7 is a joker.`` for a hand with a wild rank (Indian IND-7)."""
    if rank is None:
        return ""
    return _("Wild rank: **{rank}** — every {name} is a joker.",
             rank=RANK_LABELS[rank], name=RANK_NAMES[rank])


def with_names_in(view: ResultView, names: Sequence[str]) -> ResultView:
    """The view with names in its notes' ``{p0}`` placeholders (for its picture)."""
    placings = tuple(replace(p, note=with_names(p.note, names)) for p in view.placings)
    return replace(view, placings=placings)


def result_text(view: ResultView, names: Sequence[str]) -> str:
    """One line per player: place, points, total, note, and the hand as it ended.

    A grouped hand (IND-23, IND-27) names each group and its cards, then the
    deadwood and what it counts; any other hand is listed as held.
    """
    lines = []
    for placing in view.placings:
        name = seat_name(placing.seat, names)
        if placing.grouped:
            held = f" — {grouping_text(placing, view)}"
        else:
            held = " — " + _("held {cards}", cards=codes(placing.held)) if placing.held else ""
        if placing.finish is not None:
            held += (", " if not placing.grouped else " · ") + _(
                "finished with {card}", card=placing.finish.code)
        note = f" ({with_names(placing.note, names)})" if placing.note else ""
        total = ", " + _("total {total}", total=say(placing.total)) if placing.total else ""
        lines.append(f"{placing.place}. **{name}** {say(placing.points)}{total}{note}{held}")
    if view.seed is not None:
        lines.append(_("Seed: `{seed}`", seed=view.seed))
    return "\n".join(lines)


def group_text(meld: MeldView, view: ResultView) -> str:
    """``Pure sequence 5H 6H 7H`` or ``Set 9C 9D JK(=9)``: what a group is, in the variant's
    words (Rummi: ``Kill``), and its pieces."""
    return f"{say(view.group_title(meld))} {meld_text(meld, view.tiles)}"


def grouping_text(placing: Placing, view: ResultView) -> str:
    """A grouped hand in words: ``Pure sequence … · Set … · Deadwood: KD 2C (12)``."""
    parts = [group_text(meld, view) for meld in placing.groups]
    if placing.grouping_note:
        parts.insert(0, say(capitalized(placing.grouping_note)))
    if placing.deadwood:
        parts.append(_("Deadwood: {cards} ({value})",
                       cards=codes(placing.deadwood), value=placing.deadwood_value))
    elif placing.groups and not placing.winner:
        parts.append(_("no deadwood"))
    return " · ".join(parts)


def amount(count: float, unit: str = "point") -> str:
    """``1 point``, ``33.5 chips``: a number in a variant's unit (its ``points_unit``)."""
    if unit == "chip":
        return _n("{n} chip", "{n} chips", count)
    return _n("{n} point", "{n} points", count)


def record_text(games: int, wins: int, win_rate: float, avg_points: float | None,
                unit: str = "point", scale: int = 1) -> str:
    """``1 game, 1 win (100%), avg 12 points``: a player's record for stats and leaderboards.

    ``avg_points`` is in stored units, ``scale`` of them to one ``unit`` (a variant's
    ``points_unit`` and ``points_scale``: Rummi reads ``avg 16.5 chips``); None leaves the
    average out (results of different variants do not add up).
    """
    text = _("{games}, {wins} ({rate})", games=_n("{n} game", "{n} games", games),
             wins=_n("{n} win", "{n} wins", wins), rate=percent(win_rate))
    if avg_points is None:
        return text
    return _("{record}, avg {amount}", record=text,
             amount=amount(round(avg_points / scale, 1), unit))


LEVEL_WORDS: dict[str, str] = {
    "standard": tr("standard"), "easy": tr("easy"), "strong": tr("strong"),
}
"""The computer levels (the keys of a variant's ``computers``) as players read them."""


def level_word(level: str) -> str:
    """A computer level in words (a message), or the key itself if it has none yet."""
    return LEVEL_WORDS.get(level, level)


def beaten_text(beaten: Mapping[str, int]) -> str:
    """``beat 2 strong computers, 1 easy one``: computers finished ahead of, strongest first."""
    order = {"strong": 0, "standard": 1, "easy": 2}
    parts = [_n("{n} {level} computer", "{n} {level} computers", count,
                level=say(level_word(level)))
             for level, count in sorted(beaten.items(), key=lambda kv: order.get(kv[0], 3))
             if count]
    return _("beat {computers}", computers=", ".join(parts)) if parts else ""


def result_number(points: int, scale: int = 1) -> str:
    """One stored result as players read it: ``12``, ``33.5`` (half-chips 67, scale 2)."""
    return number(points / scale)


def scores_text(result: HandResult, names: Sequence[str], unit: str = "point",
                scale: int = 1) -> str:
    """A hand told in two lines, in the variant's unit (``Chips: alice 15, bob -5.5 …``)
    then the totals: for hands that ended before the latest one, told without a picture."""
    scores = ", ".join(f"{name} {result_number(value, scale)}"
                       + (f" ({with_names(note, names)})" if note else "")
                       for name, value, note in zip(names, result.points, result.notes,
                                                    strict=False))
    totals = ", ".join(f"{name} {result_number(total, scale)}"
                       for name, total in zip(names, result.totals, strict=False))
    heading = _("Chips: {scores}", scores=scores) if unit == "chip" else \
        _("Points: {scores}", scores=scores)
    return heading + "\n" + _("Totals: {totals}", totals=totals)


def not_your_turn_text(to_move: int | None, names: Sequence[str]) -> str:
    """The refusal for a move out of turn, saying whose turn it is (``NotYourTurn``)."""
    if to_move is None:
        return _("It is nobody's turn now.")
    return _("It is not your turn: it is {name}'s turn.", name=seat_name(to_move, names))


def drawn_text(view: HandView) -> str:
    """``You drew **7H**.`` for the card just drawn this turn (HandView.newest), else ``""``.

    For the DM and ephemeral hand messages, beside the picture's NEW badge.
    """
    if view.newest is None:
        return ""
    return _("You drew **{card}**.", card=view.newest.code)


LEFT_AS = {
    SeatState.DEAD: tr("you are Dead: you make no more plays, and the cards you hold count "
                       "against you at the end"),
    SeatState.DROPPED: tr("you are dropped from this deal, and at the start of every later "
                          "one, each time at a drop's cost"),
    SeatState.OUT: tr("you are out: you make no more plays, and the cards you hold are scored "
                      "at the end"),
    SeatState.ELIMINATED: tr("you are out of the game"),
}
"""What leaving made of a seat, by the state the variant's own way out left it in."""


def left_text(state: SeatState | None) -> str:
    """The answer to ``/rummy leave`` mid-game: what actually happens to the seat.

    ``state``: the seat's state after the variant's own way out (Penang: Dead, Indian:
    dropped, Rummi: out); ``None`` when the variant has none and a computer takes over.
    """
    if state is None:
        return _("You left the game. A computer plays your seat and you are recorded last.")
    what = LEFT_AS.get(state, tr("you make no more plays"))
    return _("You left the game, so {what}. You are recorded last.", what=what)
