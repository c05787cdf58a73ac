"""Small helpers shared by the bench scripts: percentiles, Wilson intervals, formatting,
other processes' CPU and memory (Linux ``/proc``), py-spy profiles, a PostgreSQL database
of a bench's own.

Scripts run both as ``python bench/<name>.py`` and ``python -m bench.<name>``;
each one puts the repository root on ``sys.path`` itself (before importing
this module), because that has to happen before any ``bench.`` import.
"""

from __future__ import annotations

import contextlib
import glob
import linecache
import math
import os
import resource
import secrets
import statistics
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
"""The server the benches use unless ``TEST_DATABASE_URL`` names another (as the tests do)."""


@contextlib.asynccontextmanager
async def postgres_database(prefix: str = "bench") -> AsyncIterator[str]:
    """The URL of a new database ``<prefix>_<random>`` on ``TEST_DATABASE_URL``'s server,
    dropped afterwards (with whatever is still connected to it)."""
    import asyncpg  # only the benches that measure PostgreSQL need it

    server = os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_POSTGRES
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


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


# -- other processes (Linux /proc) ---------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy (not idle or waiting for
    I/O) since boot, from ``/proc/stat``: with each process's own CPU, it tells how
    much of a window went to processes outside the bench (other people's work)."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds so far of each of ``pids`` still running."""
    seconds = {}
    for pid in pids:
        try:
            seconds[pid] = process_cpu_seconds(pid)
        except OSError:
            continue
    return seconds


def process_cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads), or of one of its
    threads (``thread``: its id; the main thread's is ``pid``), from ``/proc``.

    Raises ``OSError`` if the process is gone (or there is no ``/proc``).
    """
    where = f"/proc/{pid}" if thread is None else f"/proc/{pid}/task/{thread}"
    with open(f"{where}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # the command name may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_rss(pid: int) -> int:
    """Resident set size of process ``pid`` in bytes (``VmRSS`` of ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no VmRSS for process {pid}")


def descendants(pid: int) -> list[int]:
    """Child processes of ``pid``, their children and so on (``/proc/<pid>/task/*/children``)."""
    found: list[int] = []
    stack = [pid]
    while stack:
        parent = stack.pop()
        for task in glob.glob(f"/proc/{parent}/task/*/children"):
            with contextlib.suppress(OSError), open(task) as children:
                for child in map(int, children.read().split()):
                    if child not in found:
                        found.append(child)
                        stack.append(child)
    return found


def process_label(pid: int) -> str:
    """What a Python child process is: a multiprocessing worker, the resource tracker, or else."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"process {pid}"
    return command_kind(command) or f"process {pid}"


def command_kind(command: str) -> str:
    """``bot``, ``launcher``, ``render worker``, ``resource tracker``, or the command
    line's start."""
    if "resource_tracker" in command:
        return "resource tracker"
    if "spawn_main" in command or "forkserver" in command:
        return "render worker"
    if "-m bot.cluster" in command:
        return "launcher"
    if "-m bot" in command:
        return "bot"
    return command.strip()[:40]


# -- py-spy profiles -----------------------------------------------------------------


@dataclass
class Stack:
    process: str
    """``command_kind`` of the innermost process frame py-spy adds with ``--subprocesses``."""
    thread: str
    """``main`` or the function a thread runs (its first frame outside threading.py)."""
    frames: list[str]
    """Outermost first, ``"function (path/file.py)"``, line numbers dropped."""
    count: int
    waiting: bool = False
    """The innermost line blocks (``select``, a queue's ``get()``, a lock, a pipe read):
    py-spy's idle detection misses those when the process is short of CPU."""


WAIT_CALLS = (".select(", ".poll(", ".get()", ".wait(", ".acquire(", "sleep(", "read(handle")
"""Source text of a line that waits rather than works."""


@dataclass
class Profile:
    """A ``py-spy record -f raw`` file (collapsed stacks), with a few ways to total it."""

    stacks: list[Stack]

    @classmethod
    def read(cls, path: str) -> Profile:
        stacks = []
        with open(path) as raw:
            for line in raw:
                text, _, count = line.rstrip("\n").rpartition(" ")
                if not text or not count.isdigit():
                    continue
                parts = _split(text)
                processes = [f for f in parts if f.startswith("process ")]
                parts = [f for f in parts[len(processes):] if not f.startswith("thread ")]
                frames = [_frame(f) for f in parts]
                process = command_kind(processes[-1].partition(":")[2]) if processes else ""
                leaf = parts[-1].rpartition(" (")[2].rstrip(")") if parts else ""
                waiting = any(call in _source(leaf) for call in WAIT_CALLS)
                stacks.append(Stack(process, _thread(frames), frames, int(count), waiting))
        return cls(stacks)

    def working(self) -> Profile:
        """Without the stacks that wait."""
        return Profile([s for s in self.stacks if not s.waiting])

    def samples(self, process: str | None = None) -> Counter[str]:
        """Samples per process, or per thread of ``process``."""
        if process is None:
            return Counter(_total((s.process, s.count) for s in self.stacks))
        return Counter(_total((s.thread, s.count) for s in self.stacks if s.process == process))

    def self_time(self, process: str, packages: bool = False) -> Counter[str]:
        """Samples by innermost function (or its package) in ``process``."""
        return Counter(_total(((_package(s.frames[-1]) if packages else s.frames[-1]), s.count)
                              for s in self.stacks if s.process == process and s.frames))

    def inclusive(self, process: str, packages: Sequence[str],
                  skip: Sequence[str] = ()) -> Counter[str]:
        """Samples with a function of ``packages`` anywhere in the stack (each counted once);
        functions whose text contains one of ``skip`` left out (entry points)."""
        counts: Counter[str] = Counter()
        for stack in self.stacks:
            if stack.process != process:
                continue
            for name in {f for f in stack.frames if _package(f) in packages
                         and not any(part in f for part in skip)}:
                counts[name] += stack.count
        return counts


def _split(stack: str) -> list[str]:
    """Frames of a collapsed stack: split at ";", except inside a quoted process command."""
    frames: list[str] = []
    for part in stack.split(";"):
        if frames and frames[-1].startswith("process ") and frames[-1].count('"') % 2:
            frames[-1] += ";" + part
        else:
            frames.append(part)
    return frames


def _source(where: str) -> str:
    """The source line of ``"path/file.py:12"`` (a path relative to ``sys.path`` works)."""
    filename, _, line = where.rpartition(":")
    return linecache.getline(filename, int(line)) if line.isdigit() else ""


def _total(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for key, count in pairs:
        totals[key] = totals.get(key, 0) + count
    return totals


def _thread(frames: Sequence[str]) -> str:
    if not any(f.startswith("Thread._bootstrap ") for f in frames[:2]):
        return "main"
    for frame in frames:
        if "threading.py" not in frame:
            return frame
    return "thread"


def _frame(frame: str) -> str:
    """``"function (path/file.py:12)"`` → ``"function (path/file.py)"``."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit(':', 1)[0]})" if where else name


def _package(frame: str) -> str:
    """The top-level package (or stdlib module) of a frame: ``bot``, ``discord``, ``asyncio``."""
    where = frame.partition(" (")[2].rstrip(")")
    if not where:
        return frame
    parts = where.replace("\\", "/").split("/")
    if "site-packages" in parts:
        parts = parts[parts.index("site-packages") + 1:]
    elif any(p.startswith("python3") for p in parts):
        index = max(i for i, p in enumerate(parts) if p.startswith("python3"))
        parts = parts[index + 1:]
    for root in ("bot", "cogs", "cardart", "bench", "tests"):
        if root in parts[:-1]:
            return root
    return parts[0].removesuffix(".py") if parts else where
