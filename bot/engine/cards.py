"""Cards and tiles: the pieces every variant plays with (rules NOT-1 … NOT-4, NOT-9).

A *piece* is either a :class:`Card` (rank then suit, ``10H``) or a :class:`Tile`
(colour then number, ``R7``). Both expose the same small interface the meld
code relies on: ``rank`` (1–13, 0 for a joker), ``suit`` (0–3, -1 for a
joker), ``is_joker`` and ``code``. Tiles are structurally cards whose "suits"
are colours, so one meld implementation serves both.

Pieces are interned: ``Card.of(7, Suit.H) is Card.of(7, Suit.H)``. Copies from
several packs are interchangeable (NOT-5), so a hand is a multiset and equality
is by value.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import ClassVar, NamedTuple, TypeVar

from .i18n import tr


class Suit(IntEnum):
    """Suits in the order S, H, D, C, which is also every spec's tie-break order."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def noun(self) -> str:
        return (tr("spade"), tr("heart"), tr("diamond"), tr("club"))[self]

    @property
    def plural(self) -> str:
        return (tr("spades"), tr("hearts"), tr("diamonds"), tr("clubs"))[self]


class Colour(IntEnum):
    """Tile colours (NOT-9): red, blue, black, orange."""

    R = 0
    B = 1
    K = 2
    O = 3  # noqa: E741 - the letter is the notation

    @property
    def noun(self) -> str:
        return (tr("red"), tr("blue"), tr("black"), tr("orange"))[self]


RANK_LABELS = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Printed label of each rank (index 0 is the joker)."""

RANK_NAMES = (tr("joker"), tr("ace"), "2", "3", "4", "5", "6", "7", "8", "9", "10", tr("jack"),
              tr("queen"), tr("king"))

JOKER_RANK = 0
NO_SUIT = -1


class Card:
    """A playing card: ``rank`` 1 (ace) … 13 (king) and a :class:`Suit`, or the printed joker."""

    __slots__ = ("code", "index", "rank", "suit")
    _interned: ClassVar[dict[tuple[int, int], Card]] = {}
    rank: int
    suit: int
    code: str
    index: int

    def __new__(cls, rank: int, suit: int = NO_SUIT) -> Card:
        key = (rank, suit) = (int(rank), int(suit))
        card = cls._interned.get(key)
        if card is None:
            if rank == JOKER_RANK:
                if suit != NO_SUIT:
                    raise ValueError("a joker has no suit")
            elif not (1 <= rank <= 13 and 0 <= suit <= 3):
                raise ValueError(f"no card with rank {rank} and suit {suit}")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "index", 52 if rank == JOKER_RANK else suit * 13 + rank - 1)
            code = "JK" if rank == JOKER_RANK else RANK_LABELS[rank] + Suit(suit).name
            object.__setattr__(card, "code", code)
            cls._interned[key] = card
        return card

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        return cls(rank, suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def label(self) -> str:
        """The rank as printed on the card (``10``, ``Q``; ``JK`` for the joker)."""
        return RANK_LABELS[self.rank]

    @property
    def suit_letter(self) -> str:
        return "" if self.is_joker else Suit(self.suit).name

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    # Identity is value thanks to interning; pickling and copying go through __new__.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self


class Tile:
    """A Tile Rummy tile: a :class:`Colour` and a number 1–13, or the joker ``J``.

    ``rank``/``suit`` alias ``number``/``colour`` so meld code treats tiles like cards.
    """

    __slots__ = ("code", "index", "rank", "suit")
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}
    rank: int
    suit: int
    code: str
    index: int

    def __new__(cls, number: int, colour: int = NO_SUIT) -> Tile:
        key = (number, colour) = (int(number), int(colour))
        tile = cls._interned.get(key)
        if tile is None:
            if number == JOKER_RANK:
                if colour != NO_SUIT:
                    raise ValueError("a joker has no colour")
            elif not (1 <= number <= 13 and 0 <= colour <= 3):
                raise ValueError(f"no tile with number {number} and colour {colour}")
            tile = object.__new__(cls)
            object.__setattr__(tile, "rank", number)
            object.__setattr__(tile, "suit", colour)
            object.__setattr__(tile, "index", 52 if number == JOKER_RANK
                               else colour * 13 + number - 1)
            code = "J" if number == JOKER_RANK else Colour(colour).name + str(number)
            object.__setattr__(tile, "code", code)
            cls._interned[key] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.rank, self.suit))

    @property
    def number(self) -> int:
        return self.rank

    @property
    def colour(self) -> int:
        return self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def label(self) -> str:
        return "J" if self.is_joker else str(self.rank)

    def __repr__(self) -> str:
        return f"Tile({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict) -> Tile:
        return self


Piece = Card | Tile
"""Anything a hand or rack holds."""

PieceT = TypeVar("PieceT", bound=Piece)
"""Whatever kind of piece a function is given, it hands back (cards stay cards)."""

JOKER = Card(JOKER_RANK)
"""The printed joker (NOT-4)."""
TILE_JOKER = Tile(JOKER_RANK)


class Face(NamedTuple):
    """What a joker in a meld stands for (NOT-8): a rank, and a suit or colour.

    ``suit`` is -1 when it is left open, as for a joker in a set ("a card of
    the set's rank").
    """

    rank: int
    suit: int

    @property
    def suit_open(self) -> bool:
        return self.suit == NO_SUIT

    def label(self, tiles: bool = False) -> str:
        """``7H``, or ``7`` when the suit is open; tiles: ``R7`` or ``7``."""
        if tiles:
            return str(self.rank) if self.suit_open else Colour(self.suit).name + str(self.rank)
        suffix = "" if self.suit_open else Suit(self.suit).name
        return RANK_LABELS[self.rank] + suffix

    @classmethod
    def of(cls, piece: Card | Tile) -> Face:
        return cls(piece.rank, piece.suit)

    @classmethod
    def make(cls, rank: int, suit: int = NO_SUIT) -> Face:
        """A face with plain ints (so JSON and equality never see enum members)."""
        return cls(int(rank), int(suit))


# ---------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------

def standard_pack() -> list[Card]:
    """One 52-card pack in a fixed order (suits S H D C, ranks A … K)."""
    return [Card(rank, suit) for suit in Suit for rank in range(1, 14)]


def card_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """``packs`` standard packs plus ``jokers`` printed jokers, in a fixed order.

    Every variant builds its deck here: Straight and Remi ``(1, 0)``, Indian
    ``(1, 1)`` or ``(2, 2)``, Penang ``(2, 6|8)`` or ``(3, 6|8)``, Rummi ``(2, 8)``.
    """
    if packs < 1 or jokers < 0:
        raise ValueError("a deck needs at least one pack and no negative jokers")
    return standard_pack() * packs + [JOKER] * jokers


def tile_set(copies: int = 2, jokers: int = 2) -> list[Tile]:
    """The 106 tiles of Tile Rummy (TIL-1) in a fixed order."""
    numbered = [Tile(number, colour) for colour in Colour for number in range(1, 14)]
    return numbered * copies + [TILE_JOKER] * jokers


def sort_by_suit(pieces: Iterable[PieceT]) -> list[PieceT]:
    """Suit (or colour) first, then rank; jokers last."""
    return sorted(pieces, key=lambda p: p.index)


def sort_by_rank(pieces: Iterable[PieceT]) -> list[PieceT]:
    """Rank first (A … K, or 1 … 13), then suit; jokers last."""
    return sorted(pieces, key=lambda p: (p.rank == JOKER_RANK, p.rank, p.suit))


def codes(pieces: Iterable[Piece]) -> str:
    """Canonical codes separated by spaces (NOT-3): ``7H 8H 9H``."""
    return " ".join(p.code for p in pieces)
