"""Multiplayer skill ratings: openskill's Bradley-Terry (full pairing) model, pure functions.

A rating is a belief about skill, ``mu`` ± ``sigma``, per server, variant and
player. One finished game updates everybody at the table at once from their
places; a shared place is a tie.

Why not openskill's default, Plackett-Luce? In openskill 6.x its tie handling
is wrong (openskill.py issues #155 and #173, fix pending in PR #176): with
places 1, 1, 1, 2 the second place can gain more than the winners. Ties are
common at a rummy table, so we use Bradley-Terry with full pairing, which
scores every pair of seats like a two-player game: equal places get equal
updates and a better place never gets a smaller one (``tests/test_ratings.py``).

Computer players take part in every update, so beating two computers and
losing to a friend counts as exactly that. All computer seats of a variant in
a server share one rating (kept by the store under :data:`COMPUTER_USER_ID`),
which is learned like anybody's: if the computers are weak, beating them soon
earns little. When several computer seats play in one game, the shared rating
becomes the mean of their updated ratings (see :func:`rate`).

The number players see is :func:`display`: openskill's *ordinal*
(``mu - 3·sigma``, a skill the player very probably has) scaled so that a
newcomer shows 1000 and one unit of ``mu`` is 40 points. Being conservative it
rises while a player proves themselves, which is what a leaderboard wants.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import NamedTuple

from openskill.models import BradleyTerryFull

COMPUTER_USER_ID = 0
"""Ratings key of the computer players (Discord never issues id 0)."""

DISPLAY_Z = 3.0
DISPLAY_SCALE = 40.0
DISPLAY_BASE = 1000.0

_MODEL = BradleyTerryFull()


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill belief: mean and standard deviation, in openskill units."""

    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


DEFAULT = Rating(_MODEL.mu, _MODEL.sigma)
"""Everybody's rating before their first game (displays as 1000)."""


class Entrant(NamedTuple):
    """One seat in a finished game: who (``key``), their rating before, their place (1 = best)."""

    key: Hashable
    rating: Rating
    place: int


def display(mu: float, sigma: float) -> int:
    """The rating shown to players (openskill ordinal, scaled: newcomers show 1000)."""
    ordinal = _MODEL.rating(mu, sigma).ordinal(z=DISPLAY_Z, alpha=DISPLAY_SCALE,
                                               target=DISPLAY_BASE)
    return round(ordinal)


def rate(entrants: Sequence[Entrant]) -> dict[Hashable, Rating]:
    """New ratings after a game, by key.

    Equal places are ties. Seats sharing a key (the computer players) must
    enter with the same rating and get the mean of their seats' new ratings,
    so the result does not depend on the order of the seats.
    """
    if len(entrants) < 2:
        raise ValueError("a rated game needs at least two seats")
    before: dict[Hashable, Rating] = {}
    for entrant in entrants:
        if entrant.place < 1:
            raise ValueError(f"place must be 1 or more, not {entrant.place}")
        if before.setdefault(entrant.key, entrant.rating) != entrant.rating:
            raise ValueError(f"seats of {entrant.key!r} entered with different ratings")
    teams = [[_MODEL.rating(e.rating.mu, e.rating.sigma)] for e in entrants]
    rated = _MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    after: dict[Hashable, list[Rating]] = {}
    for entrant, (new,) in zip(entrants, rated, strict=True):
        after.setdefault(entrant.key, []).append(Rating(new.mu, new.sigma))
    return {key: Rating(fmean(r.mu for r in new), fmean(r.sigma for r in new))
            for key, new in after.items()}
