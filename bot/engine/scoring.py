"""Placings and standings shared by the variants."""

from __future__ import annotations

from collections.abc import Sequence


def places(scores: Sequence[float], lower_is_better: bool) -> list[int]:
    """Competition ranking: tied players share a place and the next place is skipped.

    ``places([0, 27, 39, 47], lower_is_better=True) == [1, 2, 3, 4]`` and
    ``places([23, 23, 9], True) == [2, 2, 1]`` (PEN-25).
    """
    sign = 1 if lower_is_better else -1
    return [1 + sum(1 for other in scores if sign * other < sign * mine) for mine in scores]


def best_seats(scores: Sequence[float], lower_is_better: bool) -> tuple[int, ...]:
    """Every seat tied for the best score (they share the win)."""
    best = min(scores) if lower_is_better else max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)
