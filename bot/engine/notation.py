"""Reading what players type: card and tile codes, lists, melds and positions.

Implements NOT-1 … NOT-10. Parsing is separate from the rules: a list is first
read into :class:`PieceRef` tokens (a code or a ``#n`` position, optionally
annotated ``=face`` per NOT-8), then :func:`take_from_hand` turns the tokens
into pieces the player actually holds, checking copies (NOT-5) and positions
(NOT-7). Every failure is a :class:`ParseError` or :class:`IllegalMove` with a
one-line reason (NOT-13).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, TILE_JOKER, Card, Colour, Face, Piece, PieceT, Suit, Tile
from .errors import IllegalMove, ParseError
from .i18n import tr

MAX_TOKENS = 120
"""No command ever needs more pieces than this; longer input is refused early."""

MAX_INPUT_CHARS = 2000

_SUIT_SYMBOLS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D",
                               "♣": "C", "♧": "C"})
_CARD_RE = re.compile(r"^(10|[2-9]|[AJQKT])([SHDC])$")
_RANK_RE = re.compile(r"^(10|[2-9]|[AJQKT])$")
_RANK_VALUE = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13,
               **{str(n): n for n in range(2, 10)}}
_CARD_JOKERS = {"JK", "JOKER", "JKR", "*"}
_TILE_JOKERS = {"J", "JK", "JOKER", "*"}
_COLOUR_WORDS = {"RED": Colour.R, "BLUE": Colour.B, "BLACK": Colour.K, "ORANGE": Colour.O,
                 "YELLOW": Colour.O, "R": Colour.R, "B": Colour.B, "K": Colour.K,
                 "O": Colour.O, "Y": Colour.O}
_TILE_RE = re.compile(r"^(RED|BLUE|BLACK|ORANGE|YELLOW|[RBKOY])(\d{1,2})$")
_POSITION_RE = re.compile(r"^#(\d{1,4})$")
_SPLIT_RE = re.compile(r"[\s,]+")


def _quote(token: str) -> str:
    shown = token if len(token) <= 24 else token[:21] + "…"
    return f'"{shown}"'


@dataclass(frozen=True, slots=True)
class Notation:
    """How one family of pieces is written: cards (NOT-1 … NOT-4) or tiles (NOT-9)."""

    noun: str
    tiles: bool

    @property
    def nouns(self) -> str:
        """The pieces, plural, in a message."""
        return tr("tiles") if self.tiles else tr("cards")

    @property
    def joker(self) -> Piece:
        return TILE_JOKER if self.tiles else JOKER

    def parse_piece(self, token: str) -> Piece:
        """One code, in any accepted form, to its interned piece."""
        return _parse_tile(token) if self.tiles else _parse_card(token)

    def parse_face(self, token: str) -> Face:
        """What a joker stands for: a full code, or a rank/number alone (suit left open)."""
        return _parse_tile_face(token) if self.tiles else _parse_card_face(token)


CARDS = Notation(tr("card"), tiles=False)
TILES = Notation(tr("tile"), tiles=True)


def _parse_card(token: str) -> Card:
    text = token.strip().translate(_SUIT_SYMBOLS).upper()
    if text in _CARD_JOKERS:
        return JOKER
    match = _CARD_RE.match(text)
    if not match:
        raise ParseError(tr("{quote} is not a card", quote=_quote(token)))
    rank_text, suit_text = match.groups()
    return Card(_RANK_VALUE[rank_text], Suit[suit_text])


def _parse_card_face(token: str) -> Face:
    text = token.strip().translate(_SUIT_SYMBOLS).upper()
    if _RANK_RE.match(text):
        return Face.make(_RANK_VALUE[text])
    card = _parse_card(token)
    if card.is_joker:
        raise ParseError(tr("a joker must stand for a card, not for another joker"))
    return Face.of(card)


def _parse_tile(token: str) -> Tile:
    text = token.strip().upper()
    if text in _TILE_JOKERS:
        return TILE_JOKER
    match = _TILE_RE.match(text)
    if not match or not 1 <= int(match.group(2)) <= 13 or match.group(2).startswith("0"):
        raise ParseError(tr("{quote} is not a tile", quote=_quote(token)))
    return Tile(int(match.group(2)), _COLOUR_WORDS[match.group(1)])


def _parse_tile_face(token: str) -> Face:
    text = token.strip()
    if text.isdigit():
        if not 1 <= int(text) <= 13 or text.startswith("0"):
            raise ParseError(tr("{quote} is not a tile number", quote=_quote(token)))
        return Face.make(int(text))
    tile = _parse_tile(text)
    if tile.is_joker:
        raise ParseError(tr("a joker must stand for a tile, not for another joker"))
    return Face.of(tile)


@dataclass(frozen=True, slots=True)
class PieceRef:
    """One token of a list: a code or a ``#n`` position, maybe annotated ``=face``."""

    text: str
    piece: Piece | None = None
    position: int | None = None
    stands_for: Face | None = None


def parse_ref(token: str, notation: Notation = CARDS) -> PieceRef:
    """Read one token: ``7H``, ``#3``, ``JK=7H``, ``#13=7``, ``J=R6``."""
    left, sep, right = token.partition("=")
    if sep and not right:
        raise ParseError(tr("{quote}: say what the joker stands for after =",
                            quote=_quote(token)))
    face = notation.parse_face(right) if sep else None
    position_match = _POSITION_RE.match(left.strip())
    if position_match:
        position = int(position_match.group(1))
        if position < 1:
            raise ParseError(tr("{quote} is not a position: positions start at #1",
                                quote=_quote(left)))
        return PieceRef(token, position=position, stands_for=face)
    if left.strip().startswith("#"):
        raise ParseError(tr("{quote} is not a position: write # and a number, like #3",
                            quote=_quote(left)))
    return PieceRef(token, piece=notation.parse_piece(left), stands_for=face)


def _check_size(text: str) -> None:
    if len(text) > MAX_INPUT_CHARS:
        raise ParseError(tr("that input is too long (at most {max_input_chars} characters)",
                            max_input_chars=MAX_INPUT_CHARS))


def parse_list(text: str, notation: Notation = CARDS) -> list[PieceRef]:
    """A list of codes separated by spaces and/or commas (NOT-6)."""
    _check_size(text)
    if "|" in text:
        for part in text.split("|"):  # a wrong code in any group is the first thing to fix
            if part.strip():
                parse_list(part, notation)
        raise ParseError(tr("one group only here: remove the |"))
    tokens = [t for t in _SPLIT_RE.split(text.strip()) if t]
    if not tokens:
        raise ParseError(tr("name at least one {noun}", noun=notation.noun))
    if len(tokens) > MAX_TOKENS:
        raise ParseError(tr("too many {pieces} in one command (at most {max_tokens})",
                            pieces=notation.nouns, max_tokens=MAX_TOKENS))
    return [parse_ref(t, notation) for t in tokens]


def parse_groups(text: str, notation: Notation = CARDS) -> list[list[PieceRef]]:
    """Several lists separated by ``|`` (NOT-6): ``AS 2S 3S | 7D 7C 7H``."""
    _check_size(text)
    parts = text.split("|")
    groups = []
    for number, part in enumerate(parts, start=1):
        if not part.strip():
            raise ParseError(tr("group {number} is empty: put {pieces} between the |",
                                number=number, pieces=notation.nouns))
        groups.append(parse_list(part, notation))
    if sum(len(g) for g in groups) > MAX_TOKENS:
        raise ParseError(tr("too many {pieces} in one command (at most {max_tokens})",
                            pieces=notation.nouns, max_tokens=MAX_TOKENS))
    return groups


def parse_single(text: str, notation: Notation = CARDS) -> PieceRef:
    """Exactly one code or position (for options like ``card`` or ``finish``)."""
    refs = parse_list(text, notation)
    if len(refs) != 1:
        raise ParseError(tr("name one {noun}, not {count}", noun=notation.noun, count=len(refs)))
    return refs[0]


# i18n: how many copies: "you hold {have} {card}, not {named}"
_COUNT_WORDS = (tr("no"), tr("one"), tr("two"), tr("three"), tr("four"), tr("five"),
                tr("six"), tr("seven"), tr("eight"))


def _count_word(n: int) -> str:
    return _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)


def take_from_hand(refs: Sequence[PieceRef], hand: Sequence[Piece],
                   shown: Sequence[Piece] | None = None) -> list[Piece]:
    """Resolve tokens to pieces the player holds, one copy per token (NOT-5, NOT-7).

    ``shown`` is the hand in the order of the image most recently shown to the
    player, or ``None`` when positions cannot be used (never shown, or the hand
    changed since). Raises :class:`IllegalMove` naming the first problem.
    """
    pieces: list[Piece] = []
    seen_positions: set[int] = set()
    for ref in refs:
        if ref.position is None:
            assert ref.piece is not None
            pieces.append(ref.piece)
            continue
        if shown is None:
            raise IllegalMove(tr("{partition} is out of date: your hand changed, look at your "
                                 "new hand and use its positions",
                                 partition=ref.text.partition('=')[0]))
        if ref.position > len(shown):
            raise IllegalMove(tr("#{position} is not in your hand: positions go from #1 to "
                                 "#{count}", position=ref.position, count=len(shown)))
        if ref.position in seen_positions:
            raise IllegalMove(tr("you named #{position} twice", position=ref.position))
        seen_positions.add(ref.position)
        pieces.append(shown[ref.position - 1])
    check_held(pieces, hand)
    return pieces


def check_held(pieces: Sequence[Piece], hand: Sequence[Piece]) -> None:
    """Refuse pieces the hand does not hold, copies counted (NOT-5)."""
    held = Counter(hand)
    for piece, count in Counter(pieces).items():
        have = held.get(piece, 0)
        if have == 0:
            raise IllegalMove(tr("you do not hold {card}", card=piece.code))
        if count > have:
            raise IllegalMove(tr("you hold {have} {card}, not {named}", have=_count_word(have),
                                 card=piece.code, named=_count_word(count)))


def remove_pieces(hand: Sequence[PieceT], pieces: Sequence[PieceT]) -> list[PieceT]:
    """The hand minus one copy of each piece (the caller has checked they are held)."""
    rest = list(hand)
    for piece in pieces:
        rest.remove(piece)
    return rest
