"""Benchmark: median compose + encode time and PNG size of the pictures the bot sends most.

Run from the repository root: ``python bench/cardart.py [--runs N]``.
Targets: a 20-card hand in at most 9 ms and 80 KB (issue #13; 15 ms in issue
#3), a 20-meld table in at most 40 ms and 250 KB.

Hands and racks are drawn on an indexed canvas (:mod:`cardart.indexed`); the
same pictures drawn on RGB and quantised (``render_hand_rgb``, the path
before) are timed in the same run, alternating call by call so both see the
same machine load, and printed beside them (``old``), with how far the two
pictures are apart (PSNR of the old one against the new, exact one).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This file is called cardart.py: keep its folder off the path so that
# ``import cardart`` finds the package, not this script.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import io  # noqa: E402

from PIL import Image  # noqa: E402

from cardart import render_hand, render_table  # noqa: E402
from cardart.demo import NAMES, sample_hand, sample_rack, sample_table  # noqa: E402
from cardart.encode import psnr  # noqa: E402
from cardart.hand import render_hand_rgb  # noqa: E402

TARGETS = {"hand20": (9.0, 80_000), "table20": (40.0, 250_000)}
"""Milliseconds and bytes each case must stay within."""

CASES: dict[str, Callable[[], bytes]] = {
    "hand20": lambda: render_hand(sample_hand(20), sort="suit").png,
    "hand25": lambda: render_hand(sample_hand(25), sort="suit").png,
    "rack14": lambda: render_hand(sample_rack(14), sort="suit").png,
    "table20": lambda: render_table(sample_table(20), NAMES),
}

OLD: dict[str, Callable[[], bytes]] = {
    "hand20": lambda: render_hand_rgb(sample_hand(20), sort="suit"),
    "hand25": lambda: render_hand_rgb(sample_hand(25), sort="suit"),
    "rack14": lambda: render_hand_rgb(sample_rack(14), sort="suit"),
}
"""The same pictures drawn on RGB and quantised, as before the indexed canvas."""


def measure(draws: list[Callable[[], bytes]], runs: int, warmup: int = 3
            ) -> list[tuple[float, float, int]]:
    """Per drawing: median wall and CPU milliseconds over ``runs`` calls, and the PNG size.

    The drawings are called in turn, run after run, so each sees the same load.
    The targets are on wall time; CPU time shows the cost alone when other
    processes compete for the machine.
    """
    sizes = [0] * len(draws)
    for _ in range(warmup):
        sizes = [len(draw()) for draw in draws]
    wall: list[list[float]] = [[] for _ in draws]
    cpu: list[list[float]] = [[] for _ in draws]
    for _ in range(runs):
        for i, draw in enumerate(draws):
            start, start_cpu = time.perf_counter(), time.process_time()
            draw()
            wall[i].append((time.perf_counter() - start) * 1000)
            cpu[i].append((time.process_time() - start_cpu) * 1000)
    return [(statistics.median(w), statistics.median(c), size)
            for w, c, size in zip(wall, cpu, sizes, strict=True)]


def distance(new: bytes, old: bytes) -> float:
    """PSNR (dB) of the old picture against the new one (infinite when identical)."""
    decoded = [Image.open(io.BytesIO(png)).convert("RGB") for png in (new, old)]
    return psnr(decoded[0], decoded[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    summary, ok = [], True
    for name, draw in CASES.items():
        old = OLD.get(name)
        timed = measure([draw] if old is None else [draw, old], args.runs)
        ms, cpu_ms, size = timed[0]
        verdict = ""
        if name in TARGETS:
            max_ms, max_bytes = TARGETS[name]
            passed = ms <= max_ms and size <= max_bytes
            ok &= passed
            verdict = f"  (target ≤ {max_ms:g} ms, ≤ {max_bytes // 1000} KB: " \
                      f"{'ok' if passed else 'MISSED'})"
        print(f"{name:8} {ms:7.2f} ms (cpu {cpu_ms:6.2f} ms) {size / 1000:7.1f} KB{verdict}")
        text = f"{name} {ms:.1f}ms/{size / 1000:.0f}KB"
        if old is not None:
            old_ms, old_cpu, old_size = timed[1]
            print(f"{'  old':8} {old_ms:7.2f} ms (cpu {old_cpu:6.2f} ms) {old_size / 1000:7.1f} KB"
                  f"  (RGB + quantise; {old_ms / ms:.2f}x the time; PSNR of old vs new "
                  f"{distance(draw(), old()):.1f} dB)")
            text += f" (old {old_ms:.1f}ms/{old_size / 1000:.0f}KB)"
        summary.append(text)
    # Timings depend on the machine and its load, so a miss is reported, not raised.
    print(f"SUMMARY {'PASS' if ok else 'FAIL'}: " + ", ".join(summary))


if __name__ == "__main__":
    main()
