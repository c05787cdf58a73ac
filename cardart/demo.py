"""Sample views for every composition: the demo pictures, the benchmark and the tests.

Everything is fixed by seeds, so the samples (and the pictures) never change.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.engine.cards import (
    JOKER,
    TILE_JOKER,
    Card,
    Face,
    Piece,
    Suit,
    Tile,
    card_deck,
    tile_set,
)
from bot.engine.views import (
    HandView,
    MeldView,
    Placing,
    PlayerPanel,
    ResultView,
    ScoreSeries,
    SeatState,
    TableView,
)

from .chart import render_score_chart
from .hand import render_hand
from .results import render_results
from .table import render_table

NAMES = ("Ana", "Bartholomew the Magnificent", "Chen", "Dewi", "Emeka", "Fatima")
SCRIPT_NAMES = ("张伟", "प्रिया शर्मा", "பிரியா 🎉", "สมชาย ใจดี", "Sam 🎲",
                "Siti Nurhaliza binti Tarudin, queen of every table from Kuala Lumpur to "
                "Penang 👑")
"""Players named in Chinese, Hindi, Tamil, Thai, with emoji, and one name too long for
any box (cut with an ellipsis)."""


def sample_hand(count: int, seed: int = 7) -> HandView:
    """A hand of ``count`` cards from two packs with jokers; the last one was just drawn."""
    deck = card_deck(2, 4)
    random.Random(seed).shuffle(deck)
    return HandView(seat=0, pieces=tuple(deck[:count]), newest=deck[count - 1])


def sample_rack(count: int, seed: int = 7) -> HandView:
    """A rack of ``count`` tiles; the last one was just drawn."""
    tiles = tile_set()
    random.Random(seed).shuffle(tiles)
    return HandView(seat=0, pieces=tuple(tiles[:count]), tiles=True, newest=tiles[count - 1])


def sample_melds(count: int, tiles: bool = False, players: int = 4) -> tuple[MeldView, ...]:
    """``count`` melds, runs and sets alternating, some with a joker standing in."""
    make = Tile if tiles else Card
    joker = TILE_JOKER if tiles else JOKER
    melds = []
    for number in range(1, count + 1):
        suit = number % 4
        if number % 2:  # a run of 3 to 5
            length, start = 3 + number % 3, 1 + (number * 7) % 9
            faces = [Face.make(start + i, suit) for i in range(length)]
            kind = "run"
        else:  # a set of 3 or 4
            rank = 1 + (number * 5) % 13
            faces = [Face.make(rank, (suit + i) % 4) for i in range(3 + number % 4 // 2)]
            kind = "set"
        pieces: list[Piece] = [make(face.rank, face.suit) for face in faces]
        if number % 3 == 0:  # a joker: a definite card in a run, an open suit in a set
            position = 1 if kind == "run" else len(faces) - 1
            pieces[position] = joker
            if kind == "set":
                faces[position] = Face.make(faces[0].rank)
        melds.append(MeldView(number, tuple(pieces), tuple(faces), kind,
                               owner=number % players))
    return tuple(melds)


def sample_players(count: int, *, tiles: bool = False, mover: int = 1) -> tuple[PlayerPanel, ...]:
    """A players panel in every state, ``mover`` to move, seat 0 dealing."""
    states = (SeatState.PLAYING, SeatState.PLAYING, SeatState.DROPPED, SeatState.PLAYING,
              SeatState.DEAD, SeatState.OUT)
    return tuple(PlayerPanel(seat=seat, pieces_left=(14 if tiles else 9) - seat,
                             score=str(40 * seat - 25), state=states[seat],
                             to_move=seat == mover, dealer=seat == 0,
                             note="drop 20" if states[seat] is SeatState.DROPPED else "")
                 for seat in range(count))


def sample_table(melds: int = 20) -> TableView:
    """A busy table: ``melds`` melds, a discard pile, a stock."""
    return TableView(variant="straight", tiles=False, players=sample_players(4),
                     melds=sample_melds(melds), discard=(Card(9, Suit.C), Card(12, Suit.H)),
                     stock=23, to_move=1, hand_number=3,
                     status="Bartholomew drew from the stock · 0:42 left")


def sample_remi_table() -> TableView:
    deck = card_deck(1, 0)
    random.Random(11).shuffle(deck)
    return TableView(variant="remi", tiles=False, players=sample_players(3, mover=2),
                     melds=sample_melds(5, players=3), discard=tuple(deck[:17]),
                     discard_marked=3, melds_by_owner=True, hand_label="deal",
                     stock=18, to_move=2, hand_number=2)


def sample_indian_table() -> TableView:
    return TableView(variant="indian", tiles=False, players=sample_players(6, mover=3),
                     discard=(Card(4, Suit.D),), discard_label="open deck", stock=31,
                     stock_label="closed deck", wild=Card(7, Suit.S), to_move=3,
                     hand_label="deal")


def sample_tile_table() -> TableView:
    return TableView(variant="tiles", tiles=True, players=sample_players(4, tiles=True),
                     melds=sample_melds(12, tiles=True), stock=42, stock_label="pool",
                     to_move=1, hand_number=1, status="Chen placed 5 tiles")


def sample_series(hands: int = 8, players: int = 4) -> ScoreSeries:
    """Running totals of a match of ``hands`` hands."""
    rng = random.Random(5)
    totals, running = [], [0.0] * players
    for _ in range(hands):
        winner = rng.randrange(players)
        for seat in range(players):
            running[seat] += rng.randint(20, 60) if seat == winner else -rng.randint(0, 25)
        totals.append(tuple(running))
    per_seat = tuple(tuple(hand[seat] for hand in totals) for seat in range(players))
    return ScoreSeries(variant="straight", totals=per_seat)


def sample_results() -> ResultView:
    deck = card_deck(1, 0)
    random.Random(3).shuffle(deck)
    return ResultView(variant="straight", title="Hand 8 · Ana goes out and wins the match",
                      placings=(
                          Placing(0, 1, "+61", "212"),
                          Placing(2, 2, "-14", "97", held=tuple(deck[:3])),
                          Placing(1, 3, "-27", "88", held=tuple(deck[3:9]),
                                  note="removed for inactivity"),
                          Placing(3, 4, "-43", "41", held=tuple(deck[9:20])),
                      ),
                      seed=424242, match_over=True)


def sample_indian_results() -> ResultView:
    """A deal won by a valid show: the declarer's 13 cards and the finish card in its slot."""
    shown = (Card(1, Suit.D), Card(2, Suit.D), Card(3, Suit.D), Card(4, Suit.D),
             Card(5, Suit.S), Card(6, Suit.S), Card(7, Suit.S), Card(9, Suit.D), Card(9, Suit.S),
             Card(9, Suit.C), Card(12, Suit.S), Card(12, Suit.D), Card(12, Suit.C))
    deck = card_deck(2, 2)
    random.Random(5).shuffle(deck)
    return ResultView(variant="indian", title="Deal 3 result", placings=(
        Placing(0, 1, "0", "35", held=shown, finish=Card(8, Suit.H), note="valid show, wins 120"),
        Placing(1, 2, "40", "95", held=tuple(deck[:13]), note="counted 40"),
        Placing(2, 3, "80", "180", held=tuple(deck[13:26]), note="wrong show, eliminated"),
    ), seed=77)


def sample_scripts_table() -> TableView:
    """A table whose players write their names in several scripts, the long name dealing."""
    players = sample_players(6, mover=1)
    return TableView(variant="straight", tiles=False, players=players, melds=sample_melds(6),
                     discard=(Card(9, Suit.C), Card(12, Suit.H)), stock=19, to_move=1,
                     hand_number=4, status="张伟 laid off 7♥ · 0:42 left")


def sample_scripts_results() -> ResultView:
    """A match won by 张伟 against players named in Hindi, Tamil, Thai and with emoji."""
    deck = card_deck(1, 0)
    random.Random(8).shuffle(deck)
    return ResultView(variant="straight", title="Hand 6 · 张伟 goes out and wins the match",
                      placings=(
                          Placing(0, 1, "+74", "236"),
                          Placing(1, 2, "-9", "121", held=tuple(deck[:2])),
                          Placing(4, 3, "-18", "97", held=tuple(deck[2:6])),
                          Placing(2, 4, "-31", "64", held=tuple(deck[6:13])),
                          Placing(5, 5, "-40", "40", held=tuple(deck[13:23]),
                                  note="removed for inactivity"),
                          Placing(3, 6, "-55", "12", held=tuple(deck[23:30])),
                      ),
                      seed=2211, match_over=True)


DEMOS: dict[str, Callable[[], bytes]] = {
    "hand7": lambda: render_hand(sample_hand(7), sort="suit").png,
    "hand13": lambda: render_hand(sample_hand(13), sort="suit").png,
    "hand13_classic_by_rank": lambda: render_hand(sample_hand(13), sort="rank",
                                                  style="classic").png,
    "hand13_wild": lambda: render_hand(
        HandView(0, sample_hand(13).pieces, newest=sample_hand(13).pieces[1], wild_rank=7)).png,
    "hand20": lambda: render_hand(sample_hand(20), sort="suit").png,
    "hand25": lambda: render_hand(sample_hand(25), sort="suit").png,
    "rack14": lambda: render_hand(sample_rack(14), sort="suit").png,
    "rack22": lambda: render_hand(sample_rack(22), sort="rank").png,
    "table20": lambda: render_table(sample_table(20), NAMES, title="Straight Rummy"),
    "table_remi": lambda: render_table(sample_remi_table(), NAMES, title="Indonesian Remi"),
    "table_indian": lambda: render_table(sample_indian_table(), NAMES, title="Indian Rummy"),
    "table_tiles": lambda: render_table(sample_tile_table(), NAMES, title="Tile Rummy"),
    "table_scripts": lambda: render_table(sample_scripts_table(), SCRIPT_NAMES,
                                          title="Straight Rummy"),
    "chart": lambda: render_score_chart(sample_series(), NAMES, title="Straight Rummy"),
    "results": lambda: render_results(sample_results(), NAMES, title="Straight Rummy"),
    "results_indian": lambda: render_results(sample_indian_results(), NAMES,
                                             title="Indian Rummy"),
    "results_scripts": lambda: render_results(sample_scripts_results(), SCRIPT_NAMES,
                                              title="Straight Rummy"),
    "chart_scripts": lambda: render_score_chart(sample_series(players=6), SCRIPT_NAMES,
                                                title="Straight Rummy"),
}
"""One picture per file name: every composition, some in several variants."""


def write_demos(directory: Path, names: Sequence[str] = ()) -> list[Path]:
    """Write the demo pictures ``names`` (all when empty) into ``directory``; return the files
    written."""
    unknown = [name for name in names if name not in DEMOS]
    if unknown:
        raise ValueError(f"no demo named {', '.join(unknown)}; the demos: {', '.join(DEMOS)}")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or DEMOS:
        path = directory / f"{name}.png"
        path.write_bytes(DEMOS[name]())
        written.append(path)
    return written
