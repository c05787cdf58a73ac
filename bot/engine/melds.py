"""Meld validation for every variant: runs (sequences) and sets (groups, kills).

One implementation, parameterised by :class:`MeldRules`:

* which rank orders a run may follow (:class:`RunShape`: aces low, high, both,
  around the corner, Penang's A…A span, Remi's numerals-or-pictures, tiles);
* whether a set may repeat suits, its size limits;
* whether jokers exist, whether a rank is wild (Indian), how many natural
  cards a meld needs.

A run is a contiguous window of one of the shape's *lines* (a tuple of ranks
in order, possibly cyclic) in one suit. Every joker in an accepted meld stands
for a definite face (NOT-8), recorded in :class:`Meld.faces` so later rules can
read it (Penang swaps, Tile Rummy retrieval, the table image).

Refusals raise :class:`IllegalMove` whose text names the offending part
(``3H 4H 6H is not a run: 5H is missing``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import product

from .cards import NO_SUIT, Card, Colour, Face, Piece, Suit, Tile
from .errors import IllegalMove

RUN = "run"
SET = "set"


# ---------------------------------------------------------------------------
# Run shapes
# ---------------------------------------------------------------------------

_A_TO_K = tuple(range(1, 14))
_TWO_TO_ACE = (*range(2, 14), 1)


@dataclass(frozen=True, slots=True)
class RunShape:
    """The rank orders a run may follow: contiguous windows of ``lines``.

    ``cyclic`` lines wrap (``around``: K-A-2). ``ace_note`` is the reason given
    when the ranks would be consecutive around the corner but no line allows it
    ("aces are low"). ``refuse`` lists (ranks, reason) pairs checked first, for
    shapes whose limits are easier to say directly (Remi: "an ace cannot be in
    a sequence").
    """

    name: str
    lines: tuple[tuple[int, ...], ...]
    ace_note: str
    cyclic: bool = False
    refuse: tuple[tuple[frozenset[int], str], ...] = ()
    unfit: str = ""
    """Reason for ranks that fit no line at all; empty for the generic one."""

    @property
    def max_length(self) -> int:
        return max(len(line) for line in self.lines)

    def windows(self, length: int) -> Iterable[tuple[int, ...]]:
        """Every rank window of ``length`` (ranks in run order)."""
        for line in self.lines:
            n = len(line)
            if self.cyclic:
                if length > n:
                    continue
                for start in range(n):
                    yield tuple(line[(start + i) % n] for i in range(length))
            else:
                for start in range(n - length + 1):
                    yield line[start:start + length]


ACES_LOW = RunShape("low", (_A_TO_K,), "aces are low")
ACES_HIGH = RunShape("high", (_TWO_TO_ACE,), "aces are high")
ACES_BOTH = RunShape("both", (_A_TO_K, _TWO_TO_ACE), "an ace cannot sit between K and 2")
ACES_AROUND = RunShape("around", (_A_TO_K,), "", cyclic=True)
ACES_SPAN = RunShape("span", ((1, *range(2, 14), 1),), "it cannot wrap from K through A to 2")
"""Penang and Rummi: A-2-3 and Q-K-A, even the 14-card A…A, but never K-A-2 (PEN-8, RMI-10)."""
ACES_HIGH_ONLY = RunShape("high_only", (_TWO_TO_ACE,), "an Ace is high only")
"""Penang with ``ace_low`` = false (PEN-8)."""
TILE_NUMBERS = RunShape("tiles", (_A_TO_K,), "1 can only come before 2")
"""Tile Rummy: 1 only before 2, 13 only last (TIL-7)."""
REMI_SEQUENCES = RunShape(
    "remi", (tuple(range(2, 11)), (11, 12, 13)), "",
    refuse=((frozenset({1}), "an ace cannot be in a sequence"),
            (frozenset({10, 11}), "10 and J are not adjacent")),
    unfit="a sequence is 2 to 10 of one suit, or exactly J Q K",
)
"""Remi: numerals 2–10, or exactly J Q K (REM-9)."""

STRAIGHT_ACES = {"low": ACES_LOW, "high": ACES_HIGH, "both": ACES_BOTH, "around": ACES_AROUND}


# ---------------------------------------------------------------------------
# Rules and melds
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MeldRules:
    """What makes a valid meld in one variant (and, for Indian, one deal)."""

    runs: RunShape = ACES_LOW
    run_min: int = 3
    set_min: int = 3
    set_max: int | None = 4
    """Most pieces in a set, jokers included; ``None`` for no limit."""
    distinct_suits: bool = True
    joker_suits_free: bool = False
    """A joker in a set may name a suit an ordinary card already has (Indian IND-13, IND-15):
    only ordinary cards must differ in suit."""
    jokers: bool = False
    """Printed jokers may be used."""
    wild_rank: int | None = None
    """Cards of this rank are jokers too (Indian IND-7)."""
    run_min_naturals: int = 1
    set_min_naturals: int = 1
    run_word: str = "run"
    set_word: str = "set"
    tiles: bool = False
    no_jokers_reason: str = "there are no jokers in this game"

    @property
    def piece_noun(self) -> str:
        return "tile" if self.tiles else "card"

    def is_joker(self, piece: Piece) -> bool:
        """Printed joker, or a card of the wild rank."""
        return piece.is_joker or (self.wild_rank is not None and piece.rank == self.wild_rank)

    def face_label(self, face: Face) -> str:
        return face.label(tiles=self.tiles)

    def suit_noun(self, suit: int) -> str:
        return Colour(suit).noun if self.tiles else Suit(suit).noun + "s"

    def rank_plural(self, rank: int) -> str:
        label = str(rank) if self.tiles else Face(rank, NO_SUIT).label()
        return label + "s"


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld: its pieces in display order and what each stands for (NOT-8).

    For a natural card the face is the card itself. In a set a joker's face has
    the set's rank and, unless a player named one, an open suit.
    """

    kind: str
    pieces: tuple[Piece, ...]
    faces: tuple[Face, ...]
    pure: bool = True
    """No piece acts as a joker (Indian IND-12)."""

    def __post_init__(self) -> None:
        if len(self.pieces) != len(self.faces):
            raise ValueError("one face per piece")

    @property
    def is_run(self) -> bool:
        return self.kind == RUN

    @property
    def rank(self) -> int:
        """The rank of a set (0 for a set of jokers only)."""
        return next((f.rank for f in self.faces if f.rank), 0)

    @property
    def suit(self) -> int:
        """The suit of a run."""
        return next(f.suit for f in self.faces if not f.suit_open)

    def __len__(self) -> int:
        return len(self.pieces)

    @property
    def codes(self) -> str:
        return " ".join(p.code for p in self.pieces)

    def joker_slots(self, rules: MeldRules) -> list[int]:
        """Positions holding a piece that acts as a joker."""
        return [i for i, (p, f) in enumerate(zip(self.pieces, self.faces, strict=True))
                if p.is_joker or (rules.is_joker(p) and (p.rank, p.suit) != tuple(f))]

    def annotated(self, rules: MeldRules) -> list[tuple[Piece, Face | None]]:
        """The pieces with every joker pinned to its face, as input to a re-read."""
        slots = set(self.joker_slots(rules))
        return [(p, self.faces[i] if i in slots else None) for i, p in enumerate(self.pieces)]


@dataclass(slots=True)
class _Split:
    """The pieces of a candidate meld, sorted by role."""

    naturals: list[Piece] = field(default_factory=list)
    pinned: list[tuple[Piece, Face]] = field(default_factory=list)
    """Jokers (or wild cards) a player or the table fixed to a face."""
    free_jokers: list[Piece] = field(default_factory=list)
    flexible: list[Piece] = field(default_factory=list)
    """Wild-rank cards without a face: natural in place, or a joker (Indian)."""


def _split(items: Sequence[tuple[Piece, Face | None]], rules: MeldRules) -> _Split:
    split = _Split()
    for piece, face in items:
        if piece.is_joker and not rules.jokers:
            raise IllegalMove(rules.no_jokers_reason)
        if face is not None:
            if not rules.is_joker(piece):
                raise IllegalMove(f"{piece.code} is not a joker, so it cannot stand for "
                                  f"{rules.face_label(face)}")
            if (face.rank, face.suit) == (piece.rank, piece.suit):
                split.naturals.append(piece)
            else:
                split.pinned.append((piece, face))
        elif piece.is_joker:
            split.free_jokers.append(piece)
        elif rules.is_joker(piece):
            split.flexible.append(piece)
        else:
            split.naturals.append(piece)
    return split


def _codes(items: Iterable[Piece]) -> str:
    return " ".join(p.code for p in items)


def _and_list(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---------------------------------------------------------------------------
# Reading a run
# ---------------------------------------------------------------------------

def _read_run(split: _Split, rules: MeldRules) -> Meld | None:
    """The preferred run reading, or ``None`` when the pieces form no run.

    Preference (NOT-8): a pure reading first (Indian wild cards in their own
    place); then jokers after the last natural card (extending upward), then
    the highest window, which also sends an ace that fits both ends of a 2–K
    run to the high end (PEN-13).
    """
    best: tuple[tuple[int, int, int], Meld] | None = None
    options = [(False, True)] * len(split.flexible)
    for choice in product(*options) if split.flexible else [()]:
        naturals = list(split.naturals)
        jokers: list[Piece] = list(split.free_jokers)
        for card, as_natural in zip(split.flexible, choice, strict=True):
            (naturals if as_natural else jokers).append(card)
        reading = _place_run(naturals, split.pinned, jokers, rules)
        if reading is None:
            continue
        key, meld = reading
        impure = bool(split.pinned or jokers)
        rank_key = (0 if impure else 1, *key)
        if best is None or rank_key > best[0]:
            best = (rank_key, replace(meld, pure=not impure))
    return None if best is None else best[1]


def _place_run(naturals: list[Piece], pinned: list[tuple[Piece, Face]], jokers: list[Piece],
               rules: MeldRules) -> tuple[tuple[int, int], Meld] | None:
    # Wild-rank cards in their own place are natural but not *ordinary* (IND-11, IND-14).
    if sum(1 for p in naturals if not rules.is_joker(p)) < rules.run_min_naturals:
        return None
    suits = {p.suit for p in naturals} | {f.suit for _, f in pinned if not f.suit_open}
    if len(suits) > 1:
        return None
    suit = next(iter(suits)) if suits else None
    length = len(naturals) + len(pinned) + len(jokers)
    if length < rules.run_min or suit is None:
        return None
    best: tuple[tuple[int, int], Meld] | None = None
    for window in rules.runs.windows(length):
        slots: list[Piece | None] = [None] * length
        faces: list[Face | None] = [None] * length
        if not _fill(slots, faces, window, naturals, pinned, suit):
            continue
        last_placed = max((i for i, p in enumerate(slots) if p is not None), default=-1)
        spare = iter(jokers)
        pieces: list[Piece] = []
        run_faces: list[Face] = []
        for i, (piece, face) in enumerate(zip(slots, faces, strict=True)):
            if piece is None or face is None:  # _fill sets both or neither
                piece, face = next(spare), Face(window[i], suit)
            pieces.append(piece)
            run_faces.append(face)
        key = (length - 1 - last_placed, _top_value(window))
        meld = Meld(RUN, tuple(pieces), tuple(run_faces))
        if best is None or key > best[0]:
            best = (key, meld)
    return best


def _top_value(window: tuple[int, ...]) -> int:
    """How high a window reaches; an ace after a king counts as 14."""
    top = window[-1]
    return 14 if top == 1 and len(window) > 1 and window[-2] == 13 else top


def _fill(slots: list[Piece | None], faces: list[Face | None], window: tuple[int, ...],
          naturals: list[Piece], pinned: list[tuple[Piece, Face]], suit: int) -> bool:
    """Place naturals and pinned jokers into the window's slots; False if any does not fit."""
    free: dict[int, list[int]] = {}
    for i, rank in enumerate(window):
        free.setdefault(rank, []).append(i)
    for piece in sorted(naturals, key=lambda p: p.rank):
        places = free.get(piece.rank)
        if not places:
            return False
        i = places.pop(0)
        slots[i], faces[i] = piece, Face(piece.rank, piece.suit)
    for piece, face in pinned:
        places = free.get(face.rank)
        if not places:
            return False
        i = places.pop(0)
        slots[i], faces[i] = piece, Face(face.rank, suit)
    return True


# ---------------------------------------------------------------------------
# Reading a set
# ---------------------------------------------------------------------------

def _read_set(split: _Split, rules: MeldRules) -> Meld | None:
    # In a set every wild-rank card is a joker (IND-13), so flexible cards join the jokers.
    jokers = split.free_jokers + split.flexible
    naturals = split.naturals
    size = len(naturals) + len(split.pinned) + len(jokers)
    if size < rules.set_min or (rules.set_max is not None and size > rules.set_max):
        return None
    if len(naturals) < rules.set_min_naturals:
        return None
    ranks = {p.rank for p in naturals} | {f.rank for _, f in split.pinned}
    if len(ranks) > 1:
        return None
    suits = [p.suit for p in naturals]
    if not rules.joker_suits_free:
        suits += [f.suit for _, f in split.pinned if not f.suit_open]
    if rules.distinct_suits and len(set(suits)) != len(suits):
        return None
    rank = next(iter(ranks)) if ranks else 0
    ordered = sorted(naturals, key=lambda p: (p.suit, p.rank))
    pieces = [*ordered, *(p for p, _ in split.pinned), *jokers]
    faces = ([Face(p.rank, p.suit) for p in ordered]
             + [Face(rank, f.suit) for _, f in split.pinned]
             + [Face(rank, NO_SUIT) if rank else Face(p.rank, p.suit) for p in jokers])
    if rules.tiles and rank:
        faces = missing_colours(faces)
    return Meld(SET, tuple(pieces), tuple(faces), pure=not (split.pinned or jokers))


def missing_colours(faces: list[Face]) -> list[Face]:
    """TIL-9: in a set holding every colour but the jokers' ones (a set of four), each
    joker left open stands for a missing colour (in colour order); in a smaller set its
    colour stays open (either missing colour)."""
    taken = {f.suit for f in faces if not f.suit_open}
    missing = [c for c in range(len(Colour)) if c not in taken]
    if len(missing) != sum(1 for f in faces if f.suit_open):
        return faces
    colours = iter(missing)
    return [Face(f.rank, next(colours)) if f.suit_open else f for f in faces]


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

def read_meld(items: Sequence[Piece | tuple[Piece, Face | None]], rules: MeldRules,
              prefer: str | None = None) -> Meld:
    """Validate pieces as one meld and return its reading, or raise why not.

    ``items`` are pieces, or (piece, face) pairs where a face pins a joker
    (NOT-8 ``JK=7H``). When both readings are valid the run wins (IND-14,
    PEN-11, TIL-9) unless ``prefer`` = ``"set"``.
    """
    pairs = [(i, None) if isinstance(i, Card | Tile) else i for i in items]
    split = _split(pairs, rules)
    run = _read_run(split, rules)
    if run is not None and prefer != SET:
        return run
    group = _read_set(split, rules)
    if group is not None:
        return group
    if run is not None:
        return run
    raise IllegalMove(meld_refusal([p for p, _ in pairs], split, rules))


def is_meld(pieces: Sequence[Piece], rules: MeldRules) -> bool:
    try:
        read_meld(pieces, rules)
    except IllegalMove:
        return False
    return True


def extend_meld(meld: Meld, added: Sequence[Piece | tuple[Piece, Face | None]],
                rules: MeldRules, number: int) -> Meld:
    """Lay pieces off onto ``meld`` (table meld ``number``); its jokers keep their faces.

    Raises ``"9S does not fit meld 2: 8S is missing"`` and the like.
    """
    new = [(i, None) if isinstance(i, Card | Tile) else i for i in added]
    combined = meld.annotated(rules) + new
    shown = _codes(p for p, _ in new)
    try:
        split = _split(combined, rules)
    except IllegalMove as error:
        raise IllegalMove(f"{shown} does not fit meld {number}: {error}") from None
    result = _read_run(split, rules) if meld.is_run else _read_set(split, rules)
    if result is not None:
        return result
    reason = _layoff_reason(meld, [p for p, _ in new], split, rules)
    raise IllegalMove(f"{shown} does not fit meld {number}: {reason}")


def _layoff_reason(meld: Meld, added: list[Piece], split: _Split, rules: MeldRules) -> str:
    naturals = [p for p in added if not rules.is_joker(p)]
    if not meld.is_run:
        rank = meld.rank
        wrong = [p for p in naturals if p.rank != rank]
        if wrong and rank:
            return f"it takes only {rules.rank_plural(rank)}"
        return _set_reason(split, rules, len(meld) + len(added)) or "it is full"
    suit = meld.suit
    wrong = [p for p in naturals if p.suit != suit]
    if wrong:
        return f"it takes only {rules.suit_noun(suit)}"
    taken = {f for p, f in zip(meld.pieces, meld.faces, strict=True) if rules.is_joker(p)}
    for piece in naturals:
        if Face(piece.rank, piece.suit) in taken:
            joker = next(p for p, f in zip(meld.pieces, meld.faces, strict=True)
                         if f == Face(piece.rank, piece.suit))
            return f"{joker.code} holds its place"
    return _run_reason(split, rules)


def meld_refusal(pieces: Sequence[Piece], split: _Split, rules: MeldRules) -> str:
    """Why ``pieces`` are no meld, naming the offending part (NOT-13)."""
    shown = _codes(pieces)
    noun = rules.piece_noun
    naturals = split.naturals + split.flexible
    if len(pieces) < min(rules.run_min, rules.set_min):
        return f"{shown} is not a valid meld: {rules.run_min} {noun}s needed"
    if not naturals and not (rules.set_min_naturals == 0 and len(pieces) >= rules.set_min):
        return "a meld needs at least one natural card" if not rules.tiles else \
            "a meld needs at least one numbered tile"
    ranks = Counter(p.rank for p in split.naturals)
    suits = Counter(p.suit for p in split.naturals)
    if len(ranks) <= 1 and split.naturals:
        reason = _set_reason(split, rules, len(pieces))
        return f"{shown} is not a {rules.set_word}: {reason or 'it does not fit'}"
    if len(suits) == 1:
        return f"{shown} is not a {rules.run_word}: {_run_reason(split, rules)}"
    top_rank, rank_count = ranks.most_common(1)[0]
    top_suit, suit_count = suits.most_common(1)[0]
    if rank_count > suit_count:
        odd = next(p for p in split.naturals if p.rank != top_rank)
        label = str(top_rank) if rules.tiles else Face(top_rank, NO_SUIT).label()
        return f"{shown} is not a {rules.set_word}: {odd.code} is not a {label}"
    odd = next(p for p in split.naturals if p.suit != top_suit)
    noun_suit = Colour(top_suit).noun if rules.tiles else Suit(top_suit).noun
    return f"{shown} is not a {rules.run_word}: {odd.code} is not {_article(noun_suit)}"


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _set_reason(split: _Split, rules: MeldRules, size: int) -> str | None:
    seen: Counter[int] = Counter()
    for piece in split.naturals:
        seen[piece.suit] += 1
        if rules.distinct_suits and seen[piece.suit] == 2:
            if rules.tiles:
                return f"{Colour(piece.suit).noun} appears twice"
            return f"two {piece.code} in a {rules.set_word}"
    for piece, face in split.pinned:
        rank = next((p.rank for p in split.naturals), face.rank)
        if face.rank != rank:
            return f"{piece.code}={rules.face_label(face)} does not fit a set of " \
                   f"{rules.rank_plural(rank)}"
    limit = rules.set_max
    if limit is not None and size > limit:
        return f"a {rules.set_word} has at most {limit} {rules.piece_noun}s"
    if size < rules.set_min:
        return f"{rules.set_min} {rules.piece_noun}s needed"
    return None


def _run_reason(split: _Split, rules: MeldRules) -> str:
    naturals = split.naturals + split.flexible
    suit = naturals[0].suit if naturals else NO_SUIT
    ranks = [p.rank for p in naturals] + [f.rank for _, f in split.pinned]
    for forbidden, reason in rules.runs.refuse:
        if forbidden <= set(ranks):
            return reason
    for rank, count in Counter(ranks).items():
        if count > max(line.count(rank) for line in rules.runs.lines):
            dup = next((p for p in naturals if p.rank == rank), None)
            if dup is None:  # only jokers named to stand for the same place
                return f"two jokers stand for {rank} in a {rules.run_word}"
            return f"two {dup.code} in a {rules.run_word}"
    jokers = len(split.free_jokers)
    best_gaps = _missing_on_lines(set(ranks), rules.runs)
    circle_gaps = _missing_on_circle(set(ranks))
    if rules.runs.ace_note and (best_gaps is None or len(circle_gaps) < len(best_gaps)):
        return rules.runs.ace_note
    if best_gaps is None:
        return rules.runs.unfit or f"it does not fit any {rules.run_word}"
    missing = [rules.face_label(Face(r, suit)) for r in best_gaps]
    verb = "is" if len(missing) == 1 else "are"
    text = f"{_and_list(missing)} {verb} missing"
    if jokers:
        text += f" ({jokers} joker{'s' if jokers > 1 else ''} for {len(missing)} gaps)"
    if len(ranks) + jokers + len(missing) > rules.runs.max_length:
        return f"it would be longer than {rules.runs.max_length} {rules.piece_noun}s"
    return text


def _missing_on_lines(ranks: set[int], shape: RunShape) -> list[int] | None:
    """The fewest ranks that would complete a window holding ``ranks``, on the allowed lines."""
    best: list[int] | None = None
    for length in range(max(len(ranks), 1), shape.max_length + 1):
        for window in shape.windows(length):
            if ranks <= set(window) and window[0] in ranks and window[-1] in ranks:
                gaps = [r for r in window if r not in ranks]
                if best is None or len(gaps) < len(best):
                    best = gaps
        if best is not None:
            return best
    return best


def _missing_on_circle(ranks: set[int]) -> list[int]:
    return _missing_on_lines(ranks, ACES_AROUND) or []


def describe(meld: Meld, rules: MeldRules) -> str:
    """Codes with joker stand-ins, as the bot prints a meld: ``9C JK(=10C) JC``."""
    slots = {i for i in meld.joker_slots(rules) if meld.faces[i].rank}
    return " ".join(f"{p.code}(={rules.face_label(meld.faces[i])})" if i in slots else p.code
                    for i, p in enumerate(meld.pieces))
