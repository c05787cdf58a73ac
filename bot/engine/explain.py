"""Why a move is good, in one or two plain sentences (``/rummy hint``).

One explanation for every variant, written from what the engine knows: the
move's kind (the shared moves of :mod:`bot.engine.moves` and the few a variant
adds), the public table (:class:`~bot.engine.views.TableView`) and the best
arrangement of the player's hand before and after (:mod:`bot.engine.arrange`).
A variant needs its own words only where it has its own move (Indian's drop and
show, Remi's close, Tile Rummy's table rearrangement, Penang's joker swap).

A game offers what the explanation reads through plain attributes, so a new
draw-and-discard variant (Gin, Rummy 500) is explained with no extra work:
``rules`` (its :class:`~bot.engine.melds.MeldRules`) and ``value(piece)`` (what
an unmelded piece costs). Without ``value`` pieces are counted instead of
valued (Rummi); without ``rules`` hands are not arranged (Tile Rummy, whose
explanation reads the staged table instead).

Nothing hidden is read: only the seat's own hand, the table and the pile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .arrange import Arrangement, best_arrangement
from .cards import Piece, codes
from .errors import IllegalMove
from .game import Game, Move
from .melds import RUN, Meld, MeldRules, extend_meld
from .notation import remove_pieces
from .record import format_move
from .variants.indian import show_arrangement
from .views import MeldView

Value = Callable[[Piece], int]


# -- what the explanation reads of a game --------------------------------------------------


def _rules(game: Game) -> MeldRules | None:
    rules = getattr(game, "rules", None)
    return rules if isinstance(rules, MeldRules) else None


def _value(game: Game) -> Value | None:
    value = getattr(game, "value", None)
    return value if callable(value) else None


def _cost(game: Game, pieces: Sequence[Piece]) -> str:
    """``10 points`` (what the pieces count), or ``2 cards`` where pieces are not valued."""
    value = _value(game)
    if value is None:
        return _plural(len(pieces), _noun(game))
    return _plural(sum(value(p) for p in pieces), "point")


def _arranged(game: Game, pieces: Sequence[Piece]) -> Arrangement | None:
    """The best arrangement of ``pieces`` (least unmelded value), if the game has melds."""
    rules = _rules(game)
    if rules is None:
        return None
    value = _value(game) or (lambda _: 1)
    return best_arrangement(list(pieces), rules, value)


def _noun(game: Game) -> str:
    return "tile" if game.tiles else "card"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _and(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _meld_with(arrangement: Arrangement | None, piece: Piece) -> Meld | None:
    if arrangement is None:
        return None
    return next((m for m in arrangement.melds if piece in m.pieces), None)


def _meld_word(meld: Meld | MeldView) -> str:
    return "run" if meld.kind == RUN else "set"


def _table_meld(game: Game, number: int) -> MeldView | None:
    return next((m for m in game.table_view().melds if m.number == number), None)


def _fits_table(game: Game, piece: Piece) -> MeldView | None:
    """A table meld that ``piece`` could be laid off on (the first by number)."""
    rules = _rules(game)
    if rules is None:
        return None
    for view in game.table_view().melds:
        meld = Meld(view.kind, view.pieces, view.faces, view.pure)
        try:
            extend_meld(meld, [piece], rules, view.number)
        except IllegalMove:
            continue
        return view
    return None


def _partners(piece: Piece, hand: Sequence[Piece]) -> list[Piece]:
    """Pieces that could share a meld with ``piece``: same rank, or same suit close by."""
    return [other for other in hand if other is not piece and other != piece and (
        other.is_joker or other.rank == piece.rank
        or (other.suit == piece.suit and abs(other.rank - piece.rank) <= 2))]


def _deadwood(game: Game, pieces: Sequence[Piece]) -> int | None:
    arrangement = _arranged(game, pieces)
    return None if arrangement is None else arrangement.value


def _melds_text(melds: Sequence[Meld]) -> str:
    return " | ".join(m.codes for m in melds)


# -- one move ---------------------------------------------------------------------------------


HIDDEN = "hidden"
"""The turn goes on after the plan, past an outcome hidden from the player (a stock draw)."""
LATER = "later"
"""The turn goes on after the plan, which was not asked further (for time)."""
REST = {HIDDEN: "Then ask again: what to keep depends on what you draw.",
        LATER: "Then ask again for the rest of your turn."}


def explain(game: Game, seat: int, plan: Sequence[Move], rest: str = "") -> str:
    """Two sentences at most: what the first move of ``plan`` is and why it is good, then
    the rest of the seat's turn (``plan``: the turn as the player would play it from here).

    A closing discard is explained too ("Then discard KC: it fits nothing…"); other later
    moves are named. ``rest``: why the turn goes on after the plan (:data:`HIDDEN`,
    :data:`LATER`), so what follows is for the player to ask again.
    """
    text = _sentence(game, seat, plan[0])
    states = [game]
    for move in plan[:-1]:
        try:
            states.append(states[-1].apply(move)[0])
        except IllegalMove:  # a plan the engine refuses is told no further than it goes
            plan = plan[:len(states)]
            break
    later = list(plan[1:])
    if later:
        last = later[-1]
        named = [brief(m) for m in later[:-1]]
        if last.kind == "discard":
            tail = _sentence(states[len(plan) - 1], seat, last)
            named.append(tail[:1].lower() + tail[1:])
            text += " Then " + _and(named)
        else:
            text += " Then " + _and([*named, brief(last)]) + "."
    if rest:
        text += " " + REST[rest]
    return text


def brief(move: Move) -> str:
    """A move named in a few words (``lay off 10S on meld 2``), for the rest of a turn."""
    m: Any = move
    kind = move.kind
    if kind == "meld":
        return "meld " + " | ".join(codes([p for p, _ in g]) for g in m.melds)
    if kind == "layoff":
        return f"lay off {codes([p for p, _ in m.cards])} on meld {m.meld}"
    if kind == "discard":
        return f"discard {m.card.code}"
    if kind == "done":
        return "press Done"
    if kind == "swap":
        return f"swap {m.card.code} for the joker in meld {m.meld}"
    if kind == "arrange":
        return f"place {codes(m.tiles)} (Arrange)"
    if kind == "play":
        where = f"into meld {m.meld}" if m.meld is not None else "as a new meld"
        return f"play {codes([p for p, _ in m.tiles])} {where}"
    if kind == "move":
        where = f"meld {m.to_meld}" if m.to_meld is not None else "a new meld"
        return f"move {m.tile.code} from meld {m.from_meld} to {where}"
    if kind == "split":
        return f"split meld {m.meld} after its {_ordinal(m.at)} tile"
    if kind == "release":
        return f"release the joker of meld {m.meld} with {m.tile.code}"
    if kind in ("declare", "close"):
        card = m.finish if kind == "declare" else m.card
        return f"{kind} with {card.code}"
    if kind == "undo":
        return "undo your changes"
    return kind


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _sentence(game: Game, seat: int, move: Move) -> str:
    explainer = _EXPLAINERS.get(move.kind)
    if explainer is None:  # a move of a variant's own with no words here yet
        return (f"Play `{format_move(move, game.notation)}`: it is what the strongest computer "
                "player would do now.")
    return explainer(game, seat, move)


def _draw(game: Game, seat: int, move: Any) -> str:
    if game.tiles:
        return _tiles_draw(game, seat)
    view = game.table_view()
    pile = view.discard
    if not _from_pile(game, move):
        where = f"Draw from the {view.stock_label}"
        if not pile:
            return f"{where}: the {view.discard_label} is empty."
        top = pile[-1]
        return f"{where}: {top.code} on the {view.discard_label} would not improve your hand."
    top = pile[-1]
    hand = list(game.hand(seat))
    after = _arranged(game, [*hand, top])
    meld = _meld_with(after, top)
    take = f"Take {top.code}"
    if meld is not None:
        return f"{take}: it completes {meld.codes}."
    fits = _fits_table(game, top)
    if fits is not None:
        return f"{take}: it can be laid off on meld {fits.number} ({codes(fits.pieces)})."
    now = _deadwood(game, hand)
    later = _least_after_discard(game, [*hand, top], keep=top)
    if now is not None and later is not None and later < now:
        return (f"{take}: after your discard, your unmelded cards cost "
                f"{_cost_of_value(game, later)} instead of {_cost_of_value(game, now)}.")
    partners = _partners(top, hand)
    if partners:
        return f"{take}: it goes with {codes(partners[:2])} towards a meld."
    return f"{take}: it is the better card to hold."


def _least_after_discard(game: Game, pieces: Sequence[Piece], keep: Piece) -> int | None:
    """The least unmelded value left after discarding one piece other than ``keep``."""
    values = [_deadwood(game, remove_pieces(pieces, [p])) for p in set(pieces) if p != keep]
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _tiles_draw(game: Game, seat: int) -> str:
    opened = getattr(game, "initial", None)
    if isinstance(opened, list) and seat < len(opened) and not opened[seat]:
        return ("Draw a tile: your rack holds no initial meld that reaches the minimum yet, "
                "so nothing can be placed this turn.")
    return "Draw a tile: no tile of your rack fits the table or a new meld this turn."


def _discard(game: Game, seat: int, move: Any) -> str:
    card = move.card
    hand = list(game.hand(seat))
    rest = remove_pieces(hand, [card])
    if not rest:
        return f"Discard {card.code} and go out: it is your last card."
    before = _arranged(game, hand)
    after = _arranged(game, rest)
    cost = _cost(game, [card])
    if after is not None and after.value == 0:
        return (f"Discard {card.code}: every other card is then in a meld "
                f"({_melds_text(after.melds)}).")
    if before is not None and _meld_with(before, card) is None:
        partners = _partners(card, rest)
        if not partners:
            return f"Discard {card.code}: it fits nothing and costs {cost}."
        value = _value(game)
        loose = [p for p in before.deadwood if p != card]
        if value is not None and all(value(p) <= value(card) for p in loose):
            return f"Discard {card.code}: it is in no meld, and no loose card costs more " \
                   f"({cost})."
        if all(len(_partners(p, remove_pieces(hand, [p]))) >= len(partners) for p in loose):
            return (f"Discard {card.code}: it is in no meld ({cost}), and it has the fewest "
                    f"cards that could join it in one.")
        return f"Discard {card.code}: it is in no meld and costs {cost}."
    left = "" if after is None else f" ({_cost_of_value(game, after.value)} unmelded)"
    return f"Discard {card.code}: giving it up leaves your hand the cheapest{left}."


def _cost_of_value(game: Game, value: int) -> str:
    return _plural(value, "point" if _value(game) is not None else _noun(game))


def _meld(game: Game, seat: int, move: Any) -> str:
    melds = [[p for p, _ in group] for group in move.melds]
    laid = [p for group in melds for p in group]
    shown = " | ".join(codes(g) for g in melds)
    rest = remove_pieces(list(game.hand(seat)), laid)
    verb = "Meld" if not game.tiles else "Play"
    if not rest:
        return f"{verb} {shown}: it empties your hand and you go out."
    words = "a complete meld" if len(melds) == 1 else "complete melds"
    return (f"{verb} {shown}: {words}, and laying {'it' if len(melds) == 1 else 'them'} "
            f"down takes {_cost(game, laid)} out of your hand.")


def _layoff(game: Game, seat: int, move: Any) -> str:
    pieces = [p for p, _ in move.cards]
    meld = _table_meld(game, move.meld)
    target = f"meld {move.meld}" + (f" ({codes(meld.pieces)})" if meld else "")
    rest = remove_pieces(list(game.hand(seat)), pieces)
    if not rest:
        return f"Lay off {codes(pieces)} on {target}: it empties your hand and you go out."
    grows = f"it extends that {_meld_word(meld)}" if meld else "it fits there"
    return f"Lay off {codes(pieces)} on {target}: {grows} and sheds {_cost(game, pieces)}."


def _take(game: Game, seat: int, move: Any) -> str:
    """A spread pile's take (Remi REM-16, Rummy 500 FHR-18); Tile Rummy's take back."""
    if game.tiles:
        return (f"Take {move.tile.code} back to your rack: the best play this turn does not "
                "use it there.")
    card = move.card
    pile = list(game.table_view().discard)
    above = 0
    if card in pile:
        above = len(pile) - 1 - max(i for i, p in enumerate(pile) if p == card)
    comes = ""
    if above:
        comes = (", and the card above it comes to your hand" if above == 1 else
                 f", and the {above} cards above it come to your hand")
    if move.with_cards:
        combination = codes([card, *move.with_cards])
        return f"Take {card.code} with {codes(move.with_cards)}: together they make " \
               f"{combination}{comes}."
    if move.meld is not None:
        return f"Take {card.code} and lay it off on meld {move.meld}{comes}."
    return f"Take {card.code}{comes}."


def _done(game: Game, seat: int, move: Any) -> str:
    if game.tiles:
        return "End your turn (Done): the tiles you placed stay on the table."
    return "End your turn (Done): no further meld or lay-off is worth playing now."


def _swap(game: Game, seat: int, move: Any) -> str:
    meld = _table_meld(game, move.meld)
    shown = f" ({codes(meld.pieces)})" if meld else ""
    return (f"Swap {move.card.code} for the joker in meld {move.meld}{shown}: the joker "
            "comes to your hand, where it can complete a meld of yours.")


def _declare(game: Game, seat: int, move: Any) -> str:
    """Indian's show (IND-23): the finish card goes, the rest makes two sequences (one pure)
    and sets: the grouping the move names, else the engine's search for one."""
    finish = move.finish
    rules = _rules(game)
    groups = getattr(move, "groups", None)
    if groups:
        melds = " | ".join(codes([p for p, _ in group]) for group in groups)
    else:
        rest = remove_pieces(list(game.hand(seat)), [finish])
        arrangement = show_arrangement(game.own_all(rest), rules) if rules else None
        melds = _melds_text(arrangement.melds) if arrangement is not None else ""
    shown = f": {melds}" if melds else ""
    return (f"Declare, finishing with {finish.code}: the other cards make a valid show"
            f"{shown}.")


def _close(game: Game, seat: int, move: Any) -> str:
    """Remi's close (REM-22): the last card goes face down, the rest is laid in melds."""
    card = move.card
    rest = remove_pieces(list(game.hand(seat)), [card])
    arrangement = _arranged(game, rest)
    melds = f" ({_melds_text(arrangement.melds)})" if arrangement and arrangement.melds else ""
    return (f"Close with {card.code}: the rest of your hand goes down in melds{melds} and "
            f"the closing card earns its bonus.")


def _drop(game: Game, seat: int, move: Any) -> str:
    """Indian's drop (IND-21): a fixed cost now instead of a hand that is far from a show."""
    hand = list(game.hand(seat))
    value = _deadwood(game, hand)
    costs = getattr(getattr(game, "options", None), "drop_costs", None)
    drawn = getattr(game, "has_drawn", None)
    cost = ""
    if isinstance(costs, tuple) and isinstance(drawn, list) and seat < len(drawn):
        cost = f" a drop costs {costs[1] if drawn[seat] else costs[0]} points, and"
    far = f"leaves {_plural(value, 'point')} unmelded" if value is not None else "is weak"
    return f"Drop:{cost} your hand {far}, too far from a show to play on."


def _dead(game: Game, seat: int, move: Any) -> str:
    return "Declare yourself Dead: no play of yours can help any more."


def _arrange(game: Game, seat: int, move: Any) -> str:
    """Tile Rummy's Arrange (TIL-20): the engine places rack tiles, rearranging the table."""
    tiles = list(move.tiles)
    try:
        after, _ = game.apply(move)
    except IllegalMove:
        return f"Place {codes(tiles)}."
    before = {m.number: m.pieces for m in game.table_view().melds}
    changed = [m.number for m in after.table_view().melds
               if m.number in before and m.pieces != before[m.number]]
    new = sum(1 for m in after.table_view().melds if m.number not in before)
    points = sum(t.rank for t in tiles if not t.is_joker)
    parts = []
    if changed:
        parts.append(f"the table is rearranged (meld{'s' if len(changed) > 1 else ''} "
                     f"{_and([str(n) for n in changed])} change)")
    if new:
        parts.append(f"{_plural(new, 'new meld')} {'goes' if new == 1 else 'go'} down")
    how = (_and(parts) + ", and ") if parts else ""
    rest = len(game.hand_view(seat).pieces) - len(tiles)
    out = " and your rack is empty" if rest == 0 else ""
    leave = "leaves" if len(tiles) == 1 else "leave"
    return (f"Place {codes(tiles)} (Arrange): {how}{_plural(len(tiles), 'tile')} worth "
            f"{points} {leave} your rack{out}.")


def _play(game: Game, seat: int, move: Any) -> str:
    """A Tile Rummy staging step (the best play needs it done by hand, step by step)."""
    tiles = [p for p, _ in move.tiles]
    where = "as a new meld" if move.meld is None else f"into meld {move.meld}"
    return f"Play {codes(tiles)} {where}: it is the first step of your best play this turn."


def _reset(game: Game, seat: int, move: Any) -> str:
    return "Undo your changes to the table: the best play starts from the table as it was."


def _resume(game: Game, seat: int, move: Any) -> str:
    return "Resume: take your seat back from auto-play."


_EXPLAINERS: dict[str, Callable[[Game, int, Any], str]] = {
    "draw": _draw, "discard": _discard, "meld": _meld, "layoff": _layoff, "take": _take,
    "done": _done, "swap": _swap, "declare": _declare, "close": _close, "drop": _drop,
    "dead": _dead, "arrange": _arrange, "play": _play, "undo": _reset, "resume": _resume,
}
"""By move kind: the shared moves once, and each variant's own moves."""


def goes_on(game: Game, seat: int, move: Move) -> bool:
    """After ``move`` the same player still has the turn (a draw before the discard, one
    action of a turn of many: Penang, Rummi, Tile Rummy)."""
    try:
        after, _ = game.apply(move)
    except IllegalMove:
        return False
    return not after.is_over and after.to_move == seat and after.turn_serial == game.turn_serial


def hidden_result(game: Game, move: Move) -> bool:
    """The move reveals what the player cannot know yet (a stock or pool draw): nothing
    after it may be planned with that knowledge."""
    return move.kind == "draw" and not _from_pile(game, move)


def _from_pile(game: Game, move: Any) -> bool:
    """A draw of the face-up pile's top card (``pile_source``: Indian's ``open``), which the
    player sees; any other source (stock, closed deck, pool) is face down."""
    return bool(move.source == getattr(game, "pile_source", "discard"))
