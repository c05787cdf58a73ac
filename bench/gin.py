"""Bench: Gin Rummy against OpenSpiel (``gin_rummy`` and its SimpleGinRummyBot).

Usage (from the project root; needs the ``bench`` extra, which brings ``open_spiel``)::

    .venv/bin/python bench/gin.py [--hands 10000] [--games 1000] [--seed 0]

(a) Deadwood: our exact best deadwood (GIN-11) against OpenSpiel's
``GinRummyUtils.min_deadwood`` on ``--hands`` random 10-card hands; the
agreement count is printed.

(b) Play: each computer level against ``SimpleGinRummyBot`` in games to 100
points, seats alternating. Every hand is played on OpenSpiel's own game in
lockstep with ours, both with OpenSpiel's rules (``preset`` = ``openspiel``
plus ``hands`` none, GIN-38): OpenSpiel's player 0 is our non-dealer, the deal
and every stock draw are fed to OpenSpiel's chance nodes from our shuffle, and
each action of either player must be legal in both games. At a knock the hand
is scored by our engine (GIN-39b: SimpleGinRummyBot never lays off as
defender; ours lays off optimally for whoever defends). A knock we allow
and OpenSpiel's 11-card shortcut does not (GIN-39c, GIN-E16) is counted apart
and played as the same card's discard instead. Win rates come with 95% Wilson
intervals, and our move times with their median and p99. The last line starts
with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average, wilson
from bot.ai import gin as gin_ai
from bot.engine.cards import Card, Suit, card_deck
from bot.engine.game import Move
from bot.engine.moves import Discard, Draw
from bot.engine.variants.gin import GinGame, GinOptions, Knock, Pass, deadwood_count

Chooser = Callable[[GinGame, int, random.Random], Move]
LEVELS: dict[str, Chooser] = {"easy": gin_ai.choose_easy, "standard": gin_ai.choose_move}
"""Every level of the registry; the cheap one first, the strongest (standard) last."""
TARGET_RATE = 0.55
TARGET_MOVE_SECONDS = 1.0
PROGRESS = 25
"""Games between the running tallies a long run prints."""

# -- GIN-38: OpenSpiel's cards and actions --------------------------------------------------

OS_SUIT = {Suit.S: 0, Suit.C: 1, Suit.D: 2, Suit.H: 3}
"""OpenSpiel's suit order ``scdh``."""
TAKE_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
MAX_RUN_PIECE = 5


def os_id(card: Card) -> int:
    """OpenSpiel's card index: suit (S C D H) × 13 + rank (A = 0 … K = 12)."""
    return OS_SUIT[Suit(card.suit)] * 13 + card.rank - 1


_BY_ID = {os_id(c): c for c in card_deck(1)}


def from_os(index: int) -> Card:
    return _BY_ID[index]


def os_parameters(options: GinOptions) -> dict[str, Any]:
    """GIN-38: our options as ``gin_rummy`` parameters (spades never double there)."""
    return {"knock_card": options.knock_limit, "gin_bonus": options.gin_bonus,
            "undercut_bonus": options.undercut_bonus, "oklahoma": options.oklahoma}


def meld_pieces(meld: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """GIN-38: a run over 5 cards is sent as pieces of 3 to 5 cards."""
    if len(meld) <= MAX_RUN_PIECE:
        return [meld]
    ordered = sorted(meld, key=lambda c: c.rank)
    pieces = []
    while len(ordered) > MAX_RUN_PIECE:
        cut = MAX_RUN_PIECE if len(ordered) - MAX_RUN_PIECE >= 3 else len(ordered) - 3
        pieces.append(tuple(ordered[:cut]))
        ordered = ordered[cut:]
    pieces.append(tuple(ordered))
    return pieces


# -- (a) deadwood agreement ----------------------------------------------------------------


def deadwood_agreement(hands: int, seed: int) -> tuple[int, int]:
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(seed)
    deck = card_deck(1)
    agree = 0
    for _ in range(hands):
        hand = rng.sample(deck, 10)
        if deadwood_count(hand) == utils.min_deadwood([os_id(c) for c in hand]):
            agree += 1
    return agree, hands


# -- (b) play against SimpleGinRummyBot -----------------------------------------------------


class Mismatch(Exception):
    """The two games disagree (a bug in the mapping or in one of the engines)."""


class Lockstep:
    """One hand on both engines: our :class:`GinGame` and OpenSpiel's state."""

    def __init__(self, os_game: Any, game: GinGame, make_bot: Callable[[int], Any]) -> None:
        self.game = game
        self.state = os_game.new_initial_state()
        self.dealer = game.dealer
        n, d = 1 - game.dealer, game.dealer
        for card in (*game.hands[n], *game.hands[d], game.pile[-1]):
            self.state.apply_action(os_id(card))
        self.bots = [make_bot(0), make_bot(1)]
        self.shortcut_knocks = 0

    def os_player(self, seat: int) -> int:
        return 0 if seat != self.dealer else 1

    def apply_ours(self, move: Move) -> None:
        self.game, _ = self.game.apply(move)
        if isinstance(move, Draw) and move.source == "stock":
            self._os(DRAW_STOCK)
            drawn = self.game.drawn
            assert drawn is not None
            self._os(os_id(drawn))  # the chance node: our stock's top card
        elif isinstance(move, Draw):
            self._os(TAKE_UPCARD)
        elif isinstance(move, Pass):
            self._os(PASS)
        elif isinstance(move, Discard):
            self._os(os_id(move.card))  # type: ignore[arg-type]

    def _os(self, action: int) -> None:
        legal = (self.state.legal_actions() if not self.state.is_chance_node()
                 else [a for a, _ in self.state.chance_outcomes()])
        if action not in legal:
            raise Mismatch(f"action {action} is not legal in OpenSpiel ({legal}); "
                           f"phase {self.state.current_phase()}")
        self.state.apply_action(action)

    def knock_ours(self, move: Knock) -> bool:
        """Our knock in OpenSpiel first (False: its shortcut refuses it, GIN-39c)."""
        if KNOCK not in self.state.legal_actions():
            return False
        seat = move.seat
        card = move.card
        assert card is not None
        preview = self.game.knock_preview(seat, card)
        self._os(KNOCK)
        self._os(os_id(card))
        utils = _utils()
        for meld in preview.grouping.melds:
            for piece in meld_pieces(meld):
                self._os(MELD_BASE + utils.meld_to_int([os_id(c) for c in piece]))
        self.game, _ = self.game.apply(move)
        return True

    def bot_move(self, seat: int) -> Move:
        """SimpleGinRummyBot's decision as our move (its knock with its own melds)."""
        bot = self.bots[self.os_player(seat)]
        action = bot.step(self.state)
        if action == KNOCK:
            self.state.apply_action(KNOCK)
            discard = bot.step(self.state)
            self.state.apply_action(discard)
            melds = []
            utils = _utils()
            while True:
                step = bot.step(self.state)
                if step == PASS:
                    break
                self.state.apply_action(step)
                melds.append(tuple((from_os(i), None) for i in utils.int_to_meld[step - MELD_BASE]))
            return Knock(seat, from_os(discard), tuple(melds))
        if action == TAKE_UPCARD:
            return Draw(seat, "discard")
        if action == DRAW_STOCK:
            return Draw(seat, "stock")
        if action == PASS:
            return Pass(seat)
        return Discard(seat, from_os(action))


_UTILS: list[Any] = []


def _utils() -> Any:
    if not _UTILS:
        import pyspiel

        _UTILS.append(pyspiel.gin_rummy.GinRummyUtils(13, 4, 10))
    return _UTILS[0]


class Tally:
    def __init__(self) -> None:
        self.wins = 0.0
        self.games = 0
        self.hands = 0
        self.shortcut = 0
        self.move_ms: list[float] = []


def play_game(choose: Chooser, ours: int, seed: int, tally: Tally) -> None:
    """One game to 100: our computer in seat ``ours``, SimpleGinRummyBot in the other."""
    import pyspiel

    options = GinOptions.build(preset="openspiel", hands=None)
    os_game = pyspiel.load_game("gin_rummy", os_parameters(options))

    def make_bot(player: int) -> Any:
        return pyspiel.make_simple_gin_rummy_bot(os_game.get_parameters(), player)

    game = GinGame.new(2, options, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        number = game.hand_number
        step = Lockstep(os_game, game, make_bot)
        while step.game.hand_number == number and not step.game.is_over:
            seat = step.game.to_move
            assert seat is not None
            if seat == ours:
                start = time.perf_counter()
                move = choose(step.game, seat, rng)
                tally.move_ms.append((time.perf_counter() - start) * 1000)
                if isinstance(move, Knock):
                    if not step.knock_ours(move):
                        tally.shortcut += 1
                        move = Discard(seat, move.card) if step.game.phase == "play" \
                            else Pass(seat)  # type: ignore[arg-type]
                        step.apply_ours(move)
                    continue
                step.apply_ours(move)
            else:
                move = step.bot_move(seat)
                if isinstance(move, Knock):
                    step.game, _ = step.game.apply(move)
                else:
                    step.apply_ours(move)
        game = step.game
        tally.hands += 1
    tally.games += 1
    if ours in game.winners:
        tally.wins += 1 / len(game.winners)


def bench_level(name: str, choose: Chooser, games: int, seed: int) -> tuple[Tally, float]:
    tally = Tally()
    started = time.perf_counter()
    for i in range(games):
        play_game(choose, i % 2, seed + i, tally)
        if (i + 1) % PROGRESS == 0 and i + 1 < games:  # a long run can be read as it goes
            low, high = wilson(tally.wins, tally.games)
            print(f"  {name} after {tally.games} games: {tally.wins:g} won = "
                  f"{tally.wins / tally.games:.1%} (95% CI {low:.1%}–{high:.1%}); median move "
                  f"{Spread.of(tally.move_ms).median:.2f} ms", flush=True)
    elapsed = time.perf_counter() - started
    rate = tally.wins / tally.games
    low, high = wilson(tally.wins, tally.games)
    moves = Spread.of(tally.move_ms)
    print(f"{name} vs SimpleGinRummyBot: {tally.wins:g}/{tally.games} = {rate:.1%} "
          f"(95% CI {low:.1%}–{high:.1%}); {tally.hands} hands; knocks OpenSpiel's shortcut "
          f"refused (GIN-39c): {tally.shortcut}; our move {moves.text()}; {elapsed:.0f} s",
          flush=True)
    return tally, rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--easy-games", type=int, default=None,
                        help="games for the easy level (default: --games)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average {load_average()}")
    agree, total = deadwood_agreement(args.hands, args.seed)
    print(f"deadwood: {agree}/{total} random 10-card hands agree with OpenSpiel's "
          "min_deadwood", flush=True)
    results = {}
    for name, choose in LEVELS.items():
        games = args.games if name == "standard" or args.easy_games is None else args.easy_games
        results[name] = bench_level(name, choose, games, args.seed)
    best, rate = results["standard"]
    low, high = wilson(best.wins, best.games)
    median_s = Spread.of(best.move_ms).median / 1000
    ok = rate >= TARGET_RATE and median_s <= TARGET_MOVE_SECONDS
    levels = "; ".join(f"{n} {r:.1%}" for n, (_, r) in results.items())
    print(f"SUMMARY: gin deadwood {agree}/{total} agree; standard vs SimpleGinRummyBot "
          f"{rate:.1%} [{low:.1%}, {high:.1%}] over {best.games} games to 100 "
          f"({'PASS' if ok else 'FAIL'}, target ≥ {TARGET_RATE:.0%}, median move "
          f"{median_s * 1000:.0f} ms ≤ 1 s); levels: {levels}")


if __name__ == "__main__":
    main()
