"""A thread-safe memo for pure drawing functions.

Sprites, shape masks and text masks are drawn once and then shared by every
composition, possibly from several worker threads at once. The memo builds a
missing entry under a lock, so concurrent callers never draw the same sprite
twice or see a half-built one. Cached images are shared: callers must treat
them as read-only (paste them, never draw on them).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Memo(Generic[P, R]):
    """A pure function of hashable positional arguments and the values it has returned."""

    def __init__(self, fn: Callable[P, R], maxsize: int | None) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._maxsize = maxsize
        self._memo: OrderedDict[Hashable, R] = OrderedDict()
        # Re-entrant: a builder may call itself for a part (e.g. a smaller size).
        self._lock = threading.RLock()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise TypeError(f"{self._fn.__name__} takes positional arguments only")
        with self._lock:
            try:
                value = self._memo[args]
            except KeyError:
                value = self._memo[args] = self._fn(*args, **kwargs)  # kwargs is empty
                if self._maxsize is not None and len(self._memo) > self._maxsize:
                    self._memo.popitem(last=False)
            else:
                if self._maxsize is not None:
                    self._memo.move_to_end(args)
            return value

    def cache_clear(self) -> None:
        """Forget every value (the benchmark draws text cold with it)."""
        with self._lock:
            self._memo.clear()


def drawn_once(maxsize: int | None = None) -> Callable[[Callable[P, R]], Memo[P, R]]:
    """Memoise a pure function of hashable positional arguments.

    ``maxsize`` bounds the memo (least recently used entries go first); ``None``
    keeps everything, which suits finite families such as the sprites of a pack.
    """

    def decorate(fn: Callable[P, R]) -> Memo[P, R]:
        return Memo(fn, maxsize)

    return decorate
