"""Small helpers shared by the bench scripts: percentiles, Wilson intervals, formatting.

Scripts run both as ``python bench/<name>.py`` and ``python -m bench.<name>``;
each one puts the repository root on ``sys.path`` itself (before importing
this module), because that has to happen before any ``bench.`` import.
"""

from __future__ import annotations

import math
import resource
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0–100) of ``values``; no interpolation.

    p99 of 1,000 values is the 990th smallest: one sample in a hundred is slower.
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True, slots=True)
class Spread:
    """Median, p99 and max of a sample (same unit as the sample)."""

    n: int
    median: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(0, math.nan, math.nan, math.nan)
        return cls(len(values), statistics.median(values), percentile(values, 99), max(values))

    def text(self, unit: str = "ms", digits: int = 2) -> str:
        return (f"median {self.median:.{digits}f} {unit}, p99 {self.p99:.{digits}f} {unit}, "
                f"max {self.max:.{digits}f} {unit} (n={self.n})")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% with the default ``z``)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def rss_bytes() -> int:
    """Resident set size of this process now (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def load_average() -> str:
    """The 1-minute load average, to judge how noisy the machine was."""
    try:
        with open("/proc/loadavg") as loadavg:
            return loadavg.read().split()[0]
    except OSError:
        return "?"
