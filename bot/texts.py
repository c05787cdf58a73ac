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
from .engine.views import HandView, MeldView, Placing, ResultView, SeatState, TableView

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
FIELD_LIMIT = 1024
"""Discord's limit on an embed field's value."""
_SEAT = re.compile(r"\{p(\d+)\}")


def with_names(text: str, names: Sequence[str]) -> str:
    """Put names in the engine's ``{p0}`` placeholders."""
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
        return " (invalid)"
    return " (changed)" if meld.changed else ""


def table_text(view: TableView, names: Sequence[str]) -> str:
    """The table in words: piles, players, melds (public information only)."""
    lines = []
    piles = []
    if view.wild is not None:
        piles.append(f"wild joker **{view.wild.code}**")
    if view.discard and not view.discard_marked:
        piles.append(f"{view.discard_label} **{view.discard[-1].code}**")
    if view.stock is not None:
        piles.append(f"{view.stock_label} {view.stock}")
    if piles:
        lines.append(" · ".join(piles))
    if view.discard_marked and view.discard:
        top = list(reversed(view.discard))[:view.discard_marked]
        marked = ", ".join(f"{i + 1}: {p.code}" for i, p in enumerate(top))
        lines.append(f"{view.discard_label}: {codes(view.discard)} (top {marked})")
    for panel in view.players:
        name = names[panel.seat] if panel.seat < len(names) else f"seat {panel.seat + 1}"
        marks = " ▶" if panel.to_move else ""
        dealer = " (dealer)" if panel.dealer else ""
        state = "" if panel.state.value == "playing" else f" — {panel.state.value}"
        note = f" ({panel.note})" if panel.note and panel.note not in state else ""
        pieces = plural(panel.pieces_left, "tile" if view.tiles else "card")
        lines.append(f"{marks}{' ' if marks else ''}**{name}**{dealer}: {pieces}, "
                     f"score {panel.score}{state}{note}")
    if view.melds:
        lines.append("Melds: " + " · ".join(
            f"**{m.number}** {meld_text(m, view.tiles)}{meld_mark(m)}" for m in view.melds))
    if view.status:
        lines.append(view.status)
    return "\n".join(lines)


def hand_word(tiles: bool) -> str:
    """What a player's pieces are called: a hand of cards, a rack of tiles (UX.md)."""
    return "rack" if tiles else "hand"


def hand_text(order: Sequence[Piece]) -> str:
    """Codes with their positions, for copying and for screen readers (NOT-7)."""
    return " ".join(f"`#{i}` {p.code}" for i, p in enumerate(order, start=1))


def wild_text(rank: int | None) -> str:
    """``Wild rank: 7 — every 7 is a joker.`` for a hand with a wild rank (Indian IND-7)."""
    if rank is None:
        return ""
    name = RANK_NAMES[rank]
    return f"Wild rank: **{RANK_LABELS[rank]}** — every {name} is a joker."


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
        name = names[placing.seat] if placing.seat < len(names) else f"seat {placing.seat + 1}"
        if placing.grouped:
            held = f" — {grouping_text(placing, view)}"
        else:
            held = f" — held {codes(placing.held)}" if placing.held else ""
        if placing.finish is not None:
            held += f"{',' if not placing.grouped else ' ·'} finished with {placing.finish.code}"
        note = f" ({with_names(placing.note, names)})" if placing.note else ""
        total = f", total {placing.total}" if placing.total else ""
        lines.append(f"{placing.place}. **{name}** {placing.points}{total}{note}{held}")
    if view.seed is not None:
        lines.append(f"Seed: `{view.seed}`")
    return "\n".join(lines)


def group_text(meld: MeldView, view: ResultView) -> str:
    """``Pure sequence 5H 6H 7H`` or ``Set 9C 9D JK(=9)``: what a group is, in the variant's
    words (Rummi: ``Kill``), and its pieces."""
    return f"{view.group_title(meld)} {meld_text(meld, view.tiles)}"


def grouping_text(placing: Placing, view: ResultView) -> str:
    """A grouped hand in words: ``Pure sequence … · Set … · Deadwood: KD 2C (12)``."""
    parts = [group_text(meld, view) for meld in placing.groups]
    if placing.grouping_note:
        parts.insert(0, placing.grouping_note[:1].upper() + placing.grouping_note[1:])
    if placing.deadwood:
        parts.append(f"Deadwood: {codes(placing.deadwood)} ({placing.deadwood_value})")
    elif placing.groups and not placing.winner:
        parts.append("no deadwood")
    return " · ".join(parts)


def plural(count: float, noun: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 wins``, ``1.5 points``: a number and its noun, agreeing.

    ``many`` is the plural where adding an ``s`` is wrong (``plural(2, "match", "matches")``).
    """
    word = noun if count == 1 else many or f"{noun}s"
    return f"{count:g} {word}"


def record_text(games: int, wins: int, win_rate: float, avg_points: float | None,
                unit: str = "point", scale: int = 1) -> str:
    """``1 game, 1 win (100%), avg 12 points``: a player's record for stats and leaderboards.

    ``avg_points`` is in stored units, ``scale`` of them to one ``unit`` (a variant's
    ``points_unit`` and ``points_scale``: Rummi reads ``avg 16.5 chips``); None leaves the
    average out (results of different variants do not add up).
    """
    text = f"{plural(games, 'game')}, {plural(wins, 'win')} ({win_rate:.0%})"
    if avg_points is None:
        return text
    return f"{text}, avg {plural(round(avg_points / scale, 1), unit)}"


def beaten_text(beaten: Mapping[str, int]) -> str:
    """``beat 2 strong computers, 1 easy one``: computers finished ahead of, strongest first."""
    order = {"strong": 0, "standard": 1, "easy": 2}
    parts = [f"{count} {level} computer{'s' if count != 1 else ''}"
             for level, count in sorted(beaten.items(), key=lambda kv: order.get(kv[0], 3))
             if count]
    return "beat " + ", ".join(parts) if parts else ""


def result_number(points: int, scale: int = 1) -> str:
    """One stored result as players read it: ``12``, ``33.5`` (half-chips 67, scale 2)."""
    return f"{points / scale:g}"


def scores_text(result: HandResult, names: Sequence[str], unit: str = "point",
                scale: int = 1) -> str:
    """A hand told in two lines, in the variant's unit (``Chips: alice 15, bob -5.5 …``)
    then the totals: for hands that ended before the latest one, told without a picture."""
    scores = ", ".join(f"{name} {result_number(value, scale)}" + (f" ({note})" if note else "")
                       for name, value, note in zip(names, result.points, result.notes,
                                                    strict=False))
    totals = ", ".join(f"{name} {result_number(total, scale)}"
                       for name, total in zip(names, result.totals, strict=False))
    return with_names(f"{unit.capitalize()}s: {scores}\nTotals: {totals}", names)


def not_your_turn_text(to_move: int | None, names: Sequence[str]) -> str:
    """The refusal for a move out of turn, saying whose turn it is (``NotYourTurn``)."""
    if to_move is None:
        return "It is nobody's turn now."
    name = names[to_move] if to_move < len(names) else f"seat {to_move + 1}"
    return f"It is not your turn: it is {name}'s turn."


def drawn_text(view: HandView) -> str:
    """``You drew **7H**.`` for the card just drawn this turn (HandView.newest), else ``""``.

    For the DM and ephemeral hand messages, beside the picture's NEW badge.
    """
    if view.newest is None:
        return ""
    return f"You drew **{view.newest.code}**."


LEFT_AS = {
    SeatState.DEAD: "you are Dead: you make no more plays, and the cards you hold count "
                    "against you at the end",
    SeatState.DROPPED: "you are dropped from this deal, and at the start of every later one, "
                       "each time at a drop's cost",
    SeatState.OUT: "you are out: you make no more plays, and the cards you hold are scored at "
                   "the end",
    SeatState.ELIMINATED: "you are out of the game",
}
"""What leaving made of a seat, by the state the variant's own way out left it in."""


def left_text(state: SeatState | None) -> str:
    """The answer to ``/rummy leave`` mid-game: what actually happens to the seat.

    ``state``: the seat's state after the variant's own way out (Penang: Dead, Indian:
    dropped, Rummi: out); ``None`` when the variant has none and a computer takes over.
    """
    if state is None:
        return "You left the game. A computer plays your seat and you are recorded last."
    what = LEFT_AS.get(state, "you make no more plays")
    return f"You left the game, so {what}. You are recorded last."
