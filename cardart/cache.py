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
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def drawn_once(maxsize: int | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Memoise a pure function of hashable positional arguments.

    ``maxsize`` bounds the memo (least recently used entries go first); ``None``
    keeps everything, which suits finite families such as the sprites of a pack.
    """

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        memo: OrderedDict[Hashable, R] = OrderedDict()
        # Re-entrant: a builder may call itself for a part (e.g. a smaller size).
        lock = threading.RLock()

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if kwargs:
                raise TypeError(f"{fn.__name__} takes positional arguments only")
            with lock:
                try:
                    value = memo[args]
                except KeyError:
                    value = memo[args] = fn(*args, **kwargs)  # kwargs is empty
                    if maxsize is not None and len(memo) > maxsize:
                        memo.popitem(last=False)
                else:
                    if maxsize is not None:
                        memo.move_to_end(args)
                return value

        return wrapper

    return decorate
