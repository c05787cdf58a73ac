"""Bench: Rummi Tien Hu detection (RMI-8) on 20-card hands from the 112-card deck.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/rummi.py [--hands 1000] [--rounds 3] [--seed 0] [--profile]
    .venv/bin/python -m bench.rummi --hands 300

Times ``bot.engine.rummi_rules.tien_hu`` (the exact whole-hand division on the
shared search ``bot.engine.arrange``) per hand, on four kinds of hand:

* *dealt*: 20 cards dealt from two packs and 8 jokers (0–8 jokers, ~1.4 a hand);
* *jokers 4–8*: 20 − k naturals dealt from the two packs plus k jokers, k
  uniform in 4–8 (the slowest region: jokers multiply the candidate melds);
* *built Hu*: a random division into 3–6-card sequences and kills, then up to
  8 of its naturals turned into jokers (each meld keeps one natural): every
  hand is a Tien Hu, so the search must find and rebuild the division;
* *near miss*: a built Hu with one natural swapped for another natural: most
  are no longer Hu, and the search must prove it from very close.

The search shares process-wide caches of candidate melds, so each kind is
timed *cold* (caches emptied) and *warm* (after ``--warmup`` hands, several
rounds of ``--hands`` fresh hands; the quietest round is reported, since a
busy 2-core machine only ever adds time). Wall (``perf_counter``) and CPU
(``process_time``) are both printed; targets (median ≤ 2 ms, p99 ≤ 20 ms) are
judged on the warm wall figures. ``--profile`` adds a cProfile of the slowest
kind. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average, verdict
from bot.engine import arrange
from bot.engine.cards import JOKER, Card, Piece, card_deck
from bot.engine.rummi_rules import tien_hu

MEDIAN_MS, P99_MS = 2.0, 20.0
HAND = 20
MAX_JOKERS = 8
DECK = card_deck(2, MAX_JOKERS)
NATURALS = [c for c in DECK if not c.is_joker]

Dealer = Callable[[random.Random], list[Piece]]


def dealt(rng: random.Random) -> list[Piece]:
    return rng.sample(DECK, HAND)


def many_jokers(rng: random.Random) -> list[Piece]:
    jokers = rng.randint(4, MAX_JOKERS)
    return rng.sample(NATURALS, HAND - jokers) + [JOKER] * jokers


def built_hu(rng: random.Random) -> list[Piece]:
    """A random Tien Hu hand: melds of 3–6 cards covering 20, some naturals made jokers."""
    while True:
        melds = _random_division(rng)
        if melds is not None:
            break
    jokers = rng.randint(0, MAX_JOKERS)
    slots = [(m, i) for m, meld in enumerate(melds) for i in range(len(meld))]
    rng.shuffle(slots)
    kept = [len(meld) for meld in melds]
    for m, i in slots:
        if jokers == 0:
            break
        if kept[m] > 1:
            melds[m][i] = JOKER
            kept[m] -= 1
            jokers -= 1
    hand = [c for meld in melds for c in meld]
    rng.shuffle(hand)
    return hand


def _random_division(rng: random.Random) -> list[list[Piece]] | None:
    """Sequences and kills of 3–6 natural cards using each card at most twice, or None."""
    left = {c: 2 for c in set(NATURALS)}
    melds: list[list[Piece]] = []
    total = 0
    while total < HAND:
        room = HAND - total
        size = room if room <= 6 else rng.randint(3, min(6, room - 3))
        if rng.random() < 0.6:
            suit = rng.randrange(4)
            start = rng.randint(1, 15 - size)  # positions 1..14, 14 is the ace again
            meld = [Card(14 - 13 if p == 14 else p, suit) for p in range(start, start + size)]
        else:
            rank = rng.randint(1, 13)
            meld = [Card(rank, rng.randrange(4)) for _ in range(size)]
        need: dict[Card, int] = {}
        for card in meld:
            need[card] = need.get(card, 0) + 1
        if any(left[c] < n for c, n in need.items()):
            return None
        for c, n in need.items():
            left[c] -= n
        melds.append(list(meld))
        total += size
    return melds


def near_miss(rng: random.Random) -> list[Piece]:
    hand = built_hu(rng)
    naturals = [i for i, c in enumerate(hand) if not c.is_joker]
    i = rng.choice(naturals)
    while True:
        other = rng.choice(NATURALS)
        if other is not hand[i] and sum(c is other for c in hand) < 2:
            break
    hand[i] = other
    return hand


KINDS: dict[str, Dealer] = {"dealt": dealt, "jokers 4-8": many_jokers, "built Hu": built_hu,
                            "near miss": near_miss}


@dataclass(frozen=True)
class Timing:
    wall: Spread
    cpu: Spread
    hu: int
    hands: int
    jokers: float


def time_hands(deal: Dealer, rng: random.Random, hands: int) -> Timing:
    wall: list[float] = []
    cpu: list[float] = []
    hu = jokers = 0
    for _ in range(hands):
        hand = deal(rng)
        jokers += sum(c.is_joker for c in hand)
        w0, c0 = time.perf_counter(), time.process_time()
        found = tien_hu(hand)
        c1, w1 = time.process_time(), time.perf_counter()
        wall.append((w1 - w0) * 1000)
        cpu.append((c1 - c0) * 1000)
        hu += found is not None
    return Timing(Spread.of(wall), Spread.of(cpu), hu, hands, jokers / max(hands, 1))


def bench_kind(name: str, deal: Dealer, args: argparse.Namespace) -> Timing:
    arrange._caches.clear()  # cold: as after a bot start
    cold = time_hands(deal, random.Random(f"{args.seed}:{name}:cold"), args.cold)
    time_hands(deal, random.Random(f"{args.seed}:{name}:warmup"), args.warmup)
    rounds = [time_hands(deal, random.Random(f"{args.seed}:{name}:warm:{i}"), args.hands)
              for i in range(args.rounds)]
    warm = min(rounds, key=lambda r: r.wall.median)
    print(f"{name:12} cold  wall {cold.wall.text()}")
    print(f"{'':12} warm  wall {warm.wall.text()} (quietest of {args.rounds}; medians "
          + ", ".join(f"{r.wall.median:.2f}" for r in rounds) + ")")
    print(f"{'':12} warm  cpu  {warm.cpu.text()}")
    print(f"{'':12} Tien Hu in {warm.hu}/{warm.hands} hands; {warm.jokers:.2f} jokers/hand; "
          f"target median ≤ {MEDIAN_MS:g} ms: {verdict(warm.wall.median <= MEDIAN_MS)}, "
          f"p99 ≤ {P99_MS:g} ms: {verdict(warm.wall.p99 <= P99_MS)}")
    return warm


def profile(name: str, deal: Dealer, args: argparse.Namespace) -> None:
    rng = random.Random(f"{args.seed}:{name}:profile")
    hands = [deal(rng) for _ in range(args.hands)]
    profiler = cProfile.Profile()
    profiler.enable()
    for hand in hands:
        tien_hu(hand)
    profiler.disable()
    print(f"profile of {len(hands)} '{name}' hands (tottime, top 12):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="warm hands per round and kind")
    parser.add_argument("--cold", type=int, default=50, help="hands timed with empty caches")
    parser.add_argument("--warmup", type=int, default=200, help="untimed hands before warm")
    parser.add_argument("--rounds", type=int, default=3, help="warm rounds; quietest reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="cProfile the slowest kind")
    args = parser.parse_args()
    print(f"load average {load_average()} at start; ms per tien_hu call (20 cards)")
    warm = {name: bench_kind(name, deal, args) for name, deal in KINDS.items()}
    print(f"load average {load_average()} at end")
    if args.profile:
        slowest = max(warm, key=lambda n: warm[n].wall.median)
        profile(slowest, KINDS[slowest], args)
    ok = all(t.wall.median <= MEDIAN_MS and t.wall.p99 <= P99_MS for t in warm.values())
    print("SUMMARY: tien_hu 20c " + " · ".join(
        f"{name} median {t.wall.median:.2f} ms p99 {t.wall.p99:.1f} ms" for name, t in warm.items())
        + f" ({'targets met' if ok else 'TARGET MISSED'})")


if __name__ == "__main__":
    main()
