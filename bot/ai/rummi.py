"""A computer player for Rummi (RMI), playing the way the seed's good players do.

Nobody draws in Rummi: every play spends cards for good, a player with no play
at the start of a turn is out and scored on the cards left, and emptying the
hand (a Hu) collects ``hu_chips`` from everyone. Unplayed Aces and jokers cost
chips at the end (RMI-27) and an Ace is also the dearest card on points. So:

The hand is split once per turn into melds of natural cards (the exact search
of :mod:`bot.engine.arrange`, dearest cards melded first) and *loose* cards;
jokers stay loose. Every legal play is then ranked by its kind
(:data:`WEIGHTS`), then by the value of the cards it sheds:

* **go for Hu**: a play that empties the hand is made at once;
* **passport early**: the first turn lays the dearest 3-card sequence of the plan;
* **keep cards that can still be added**: a loose card that fits a sequence end
  is played first (somebody else may take that end), while one that fits a
  table *kill* waits, since a kill takes its rank at any later turn (no size
  limit); melds of the hand are sure plays, laid one per turn; a joker fits
  almost anywhere, so it is saved for melds of loose cards and lean turns; no
  play leaves the hand with nothing to play next turn when another play keeps one;
* **Aces and jokers before they cost adjustments**: within a kind, cards are
  shed dearest first, an Ace or a joker counting its RMI-27 worth
  (:data:`WORTH_POINTS`) on top of its points.

With ``plays_per_turn`` = ``many`` it plays on while plays that spend no
reserve remain, then says ``done``.

``choose_move`` is pure and deterministic (the ``rng`` is part of the common
signature and unused); every move it returns is one of ``legal_moves``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..engine.arrange import Arrangement, best_arrangement
from ..engine.cards import Piece
from ..engine.game import Move
from ..engine.melds import Meld, extend_meld, read_meld
from ..engine.moves import Done, LayOff, MeldDown
from ..engine.notation import remove_pieces
from ..engine.rummi_chips import card_points
from ..engine.rummi_rules import RUMMI_RULES
from ..engine.table import TableMeld, find_meld
from ..engine.variants.rummi import RummiGame, has_play

WORTH_POINTS = 8
"""An Ace's or a joker's RMI-27 worth (0.5 chip), in points for ranking what to shed."""
WEIGHTS = {
    "loose_run": 3000,  # a loose card onto a sequence end: that end may be gone later
    "spare_run": 2500,  # the spare card of a longer meld of the hand, onto a sequence end
    "meld_run": 2000,  # a new sequence from a meld of the hand: three cards, one sure play
    "meld_kill": 1900,  # a new kill: gives everybody a target for its rank
    "loose_kill": 1000,  # a loose card a table kill takes: it fits at any later turn too
    "spare_kill": 900,
    "joker_meld": 2200,  # a new meld of loose cards and a joker
    "joker": 800,  # a joker added: it fits almost any turn, so it waits
    "breaking": 0,  # a play that breaks a meld of the hand
}
"""What each kind of play is worth before its cards' value (see the module docstring)."""
KEEP_JOKERS = True
"""Plan melds from natural cards; jokers are kept for melds of loose cards and lean turns."""
DEAD_END = 5000
"""A play after which the hand has nothing left to play next turn."""
PLAY_ON = WEIGHTS["spare_run"]
"""With ``many``, further plays in the same turn are made only from this score up."""


def choose_move(game: RummiGame, seat: int, rng: random.Random | None = None) -> Move:
    """The computer's next move for ``seat`` (whose turn it must be)."""
    moves = game.legal_moves(seat)
    plays = [m for m in moves if not isinstance(m, Done)]
    if not plays:
        return moves[0]  # Done (with ``many``, after a play)
    plan = _Plan.of(tuple(game.hands[seat]))
    scored = sorted(((plan.rate(game, seat, m).score(), -i) for i, m in enumerate(plays)),
                    reverse=True)
    best, index = scored[0]
    if game.actions and best < PLAY_ON:
        return Done(seat)  # ``many``: keep the sure plays for the next turns
    return plays[-index]


def shed_value(piece: Piece) -> int:
    """Points (RMI-24) plus the RMI-27 worth of an Ace or a joker, in points."""
    if piece.is_joker or piece.rank == 1:
        return card_points(piece) + WORTH_POINTS
    return card_points(piece)


@lru_cache(maxsize=4096)
def _arrangement(hand: tuple[Piece, ...]) -> Arrangement | None:
    return best_arrangement(hand, RUMMI_RULES, shed_value)


@dataclass(frozen=True)
class _Plan:
    """The hand split into melds (sure plays, kept for later turns) and loose cards."""

    melds: tuple[Meld, ...]
    loose: Counter[Piece]

    @classmethod
    def of(cls, hand: tuple[Piece, ...]) -> _Plan:
        naturals = tuple(sorted((p for p in hand if not p.is_joker), key=lambda p: p.index))
        found = _arrangement(naturals) if KEEP_JOKERS else \
            _arrangement(tuple(sorted(hand, key=lambda p: p.index)))
        if found is None:
            return cls((), Counter(hand))
        loose = Counter(found.deadwood)
        if KEEP_JOKERS:
            loose.update(p for p in hand if p.is_joker)
        return cls(found.melds, loose)

    def rate(self, game: RummiGame, seat: int, move: Move) -> _Rated:
        """What ``move`` spends and whether it keeps the hand alive."""
        hand = game.hands[seat]
        if isinstance(move, MeldDown):
            pieces = [p for p, _ in move.melds[0]]
            meld = read_meld(list(move.melds[0]), RUMMI_RULES)
            table = [*game.table, TableMeld(len(game.table) + 1, seat, meld)]
            on_kill = False
        else:
            assert isinstance(move, LayOff)
            pieces = [p for p, _ in move.cards]
            target = find_meld(game.table, move.meld)
            grown = extend_meld(target.meld, list(move.cards), RUMMI_RULES, move.meld)
            table = [TableMeld(m.number, m.owner, grown) if m.number == move.meld else m
                     for m in game.table]
            on_kill = not target.meld.is_run
        rest = remove_pieces(hand, pieces)
        value = sum(shed_value(p) for p in pieces)
        if not rest:
            return _Rated("breaking", value, hu=True)
        return _Rated(self._kind(pieces, move, on_kill), value,
                      dead_end=not has_play(rest, table, True))

    def _kind(self, pieces: list[Piece], move: Move, on_kill: bool) -> str:
        """Which part of the plan ``pieces`` come from, and where they go (a WEIGHTS key)."""
        where = "kill" if on_kill else "run"
        if KEEP_JOKERS and isinstance(move, LayOff) and pieces[0].is_joker:
            return "joker"
        if not Counter(pieces) - self.loose:
            if isinstance(move, MeldDown):
                return "joker_meld"
            return f"loose_{where}"
        for meld in self.melds:
            if Counter(pieces) - Counter(meld.pieces):
                continue
            if isinstance(move, MeldDown):
                return "meld_run" if read_meld(list(pieces), RUMMI_RULES).is_run \
                    else "meld_kill"
            if len(meld) > 3 and _keeps_meld(meld, pieces[0]):
                return f"spare_{where}"
            break
        return "breaking"


@dataclass(frozen=True)
class _Rated:
    kind: str
    value: int
    dead_end: bool = False
    hu: bool = False

    def score(self) -> float:
        if self.hu:
            return float("inf")  # Hu (RMI-20)
        return WEIGHTS[self.kind] + self.value - (DEAD_END if self.dead_end else 0)


def _keeps_meld(meld: Meld, piece: Piece) -> bool:
    """``meld`` without ``piece`` is still a meld (a kill card, or a sequence end)."""
    if not meld.is_run:
        return True
    return piece in (meld.pieces[0], meld.pieces[-1])
