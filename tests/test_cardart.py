"""cardart compositions: they decode, grow with content, are deterministic, show the view."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import (
    JOKER,
    Card,
    Suit,
    Tile,
    card_deck,
    sort_by_rank,
    sort_by_suit,
)
from bot.engine.views import (
    HandView,
    Placing,
    PlayerPanel,
    ResultView,
    ScoreSeries,
    TableView,
)
from cardart import palette, render_hand, render_results, render_score_chart, render_table, sprites
from cardart.demo import (
    DEMOS,
    NAMES,
    sample_hand,
    sample_melds,
    sample_rack,
    sample_remi_table,
    sample_results,
    sample_series,
    sample_table,
)
from cardart.layout import MARGIN, SPACING, WIDTH

ROOT = Path(__file__).resolve().parent.parent


def decode(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG"
    picture.load()
    return picture.convert("RGB")


def colour_mask(picture: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """255 where ``picture`` is exactly ``colour``, 0 elsewhere."""
    solid = Image.new("RGB", picture.size, colour)
    channels = [band.point(lambda v: 255 if v == 0 else 0)
                for band in ImageChops.difference(picture, solid).split()]
    return ImageChops.multiply(ImageChops.multiply(channels[0], channels[1]), channels[2])


def runs_of(picture: Image.Image, y: int, colour: tuple[int, int, int]) -> int:
    """How many separate stretches of exactly ``colour`` cross row ``y``."""
    row = colour_mask(picture.crop((0, y, picture.width, y + 1)), colour).tobytes()
    return row.count(b"\x00\xff") + (row[0] == 255)


def chip_rows(picture: Image.Image) -> list[int]:
    """The top of every row of label chips: where felt turns into the first chip, going down."""
    x = MARGIN + 12
    column = [picture.getpixel((x, y)) for y in range(picture.height)]
    return [y for y, pixel in enumerate(column)
            if pixel == palette.CHIP and column[y - 1] != palette.CHIP
            and column[y - 4] == palette.FELT]


def pieces_shown(png: bytes) -> list[int]:
    """Labelled pieces per row of a hand picture, counted by their label chips."""
    picture = decode(png)
    return [runs_of(picture, top + 3, palette.CHIP) for top in chip_rows(picture)]


# ---------------------------------------------------------------------------
# Every composition
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_every_composition_decodes_full_width(name: str) -> None:
    picture = decode(DEMOS[name]())
    assert picture.width == WIDTH
    assert 150 < picture.height < 2000


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_same_input_gives_identical_bytes(name: str) -> None:
    assert DEMOS[name]() == DEMOS[name]()


def test_bytes_are_identical_in_a_fresh_process() -> None:
    """No hidden state (cache order, fonts loaded) changes the output."""
    script = ("import hashlib; from cardart.demo import DEMOS\n"
              "for name in sorted(DEMOS): print(name, hashlib.sha256(DEMOS[name]()).hexdigest())")
    fresh = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    here = [f"{name} {hashlib.sha256(DEMOS[name]()).hexdigest()}" for name in sorted(DEMOS)]
    assert fresh[:-1] == here


def test_demo_command_writes_every_composition(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cardart", "demo", str(tmp_path / "out")],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    written = {Path(line).stem for line in result.stdout.split()}
    assert {"hand7", "hand13", "hand20", "hand25", "rack14", "table20", "chart",
            "results"} <= written
    for stem in written:
        decode((tmp_path / "out" / f"{stem}.png").read_bytes())


# ---------------------------------------------------------------------------
# Hands and racks
# ---------------------------------------------------------------------------


def test_hand_rows_one_up_to_thirteen_then_two() -> None:
    assert pieces_shown(render_hand(sample_hand(7)).png) == [7]
    assert pieces_shown(render_hand(sample_hand(13)).png) == [13]
    assert pieces_shown(render_hand(sample_hand(20)).png) == [10, 10]
    assert pieces_shown(render_hand(sample_hand(25)).png) == [13, 12]


def test_rack_rows() -> None:
    assert pieces_shown(render_hand(sample_rack(14)).png) == [14]
    assert pieces_shown(render_hand(sample_rack(22)).png) == [11, 11]


def test_hand_height_grows_with_rows_not_with_cards_in_a_row() -> None:
    heights = {n: decode(render_hand(sample_hand(n)).png).height for n in (1, 7, 13, 20, 25)}
    assert heights[1] == heights[7] == heights[13]
    assert heights[20] == heights[25] > heights[13]
    assert decode(render_hand(sample_rack(22)).png).height > decode(
        render_hand(sample_rack(14)).png).height


@pytest.mark.parametrize(("sort", "order"), [("suit", sort_by_suit), ("rank", sort_by_rank)])
def test_order_is_the_sorted_hand(sort: str, order) -> None:
    view = sample_hand(20)
    assert list(render_hand(view, sort=sort).order) == order(view.pieces)


def test_no_sort_keeps_the_engine_order() -> None:
    view = sample_rack(14)
    assert render_hand(view).order == view.pieces


def test_unknown_sort_is_refused() -> None:
    with pytest.raises(ValueError, match="sort"):
        render_hand(sample_hand(7), sort="colour")  # type: ignore[arg-type]


def test_empty_hand_renders() -> None:
    rendered = render_hand(HandView(seat=0, pieces=()))
    assert rendered.order == ()
    decode(rendered.png)


def test_newest_card_is_outlined_once_among_copies() -> None:
    seven = Card(7, Suit.H)
    view = HandView(seat=0, pieces=(seven, Card(2, Suit.S), seven), newest=seven)
    picture = decode(render_hand(view, sort="suit").png)
    # The outline's top edge runs just above the cards, which stand above their chips.
    top = chip_rows(picture)[0] - SPACING - sprites.CARD_LARGE.height - 3
    assert runs_of(picture, top, palette.GOLD) == 1


def test_badges_and_style_change_the_picture() -> None:
    pieces = (Card(7, Suit.D), Card(7, Suit.C), JOKER, Card(9, Suit.D))
    plain = render_hand(HandView(0, pieces)).png
    assert render_hand(HandView(0, pieces, wild_rank=7)).png != plain
    assert render_hand(HandView(0, pieces, newest=JOKER)).png != plain
    assert render_hand(HandView(0, pieces), style="classic").png != plain


def test_title_can_be_replaced() -> None:
    view = sample_hand(7)
    assert render_hand(view, title="Ana's hand").png != render_hand(view).png


# ---------------------------------------------------------------------------
# Label legibility
# ---------------------------------------------------------------------------


def _ink_height(mask: Image.Image) -> int:
    bounds = mask.getbbox()
    assert bounds is not None
    return bounds[3] - bounds[1]


@pytest.mark.parametrize("tiles", [False, True])
def test_labels_are_at_least_24_px_tall(tiles: bool) -> None:
    """The code and the ``#n`` under a piece, measured in the picture itself."""
    piece = Tile(10, 0) if tiles else Card(10, Suit.H)  # red either way: R10 / 10H
    picture = decode(render_hand(HandView(0, (piece,), tiles=tiles)).png)
    top = chip_rows(picture)[0]
    red, green, blue = picture.crop((MARGIN, top, MARGIN + 160, top + 75)).split()
    # The code is red; "#n" is grey: channels close together, and dark.
    code = ImageChops.subtract(red, green).point(lambda v: 255 if v > 90 else 0)
    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    darkest = ImageChops.darker(ImageChops.darker(red, green), blue)
    position = ImageChops.multiply(
        ImageChops.subtract(brightest, darkest).point(lambda v: 255 if v < 12 else 0),
        brightest.point(lambda v: 255 if v < 170 else 0))
    assert _ink_height(code) >= 24
    assert _ink_height(position) >= 24


# ---------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------


def test_table_grows_with_melds() -> None:
    heights = [decode(render_table(sample_table(n), NAMES)).height for n in (0, 1, 5, 20, 40)]
    assert heights == sorted(heights)
    assert heights[0] < heights[1] < heights[3] < heights[4]


def test_table_shows_every_meld_number() -> None:
    """Count the meld number chips: bands of chip-coloured pills, one band per row of melds."""
    players = (PlayerPanel(0, 5, "0", to_move=True), PlayerPanel(1, 4, "3"))
    for count in (1, 7, 20):
        picture = decode(render_table(TableView("rummi", False, players,
                                                melds=sample_melds(count)), NAMES))
        mask = colour_mask(picture, palette.CHIP)
        rows = [mask.crop((0, y, WIDTH, y + 1)).tobytes() for y in range(picture.height)]
        tops = [y for y in range(1, picture.height) if rows[y].count(255) and
                not rows[y - 1].count(255)]
        assert sum(runs_of(picture, y + 3, palette.CHIP) for y in tops) == count


def test_remi_spread_pile_takes_room_the_top_card_does_not() -> None:
    spread = sample_remi_table()
    top_only = TableView(variant=spread.variant, tiles=False, players=spread.players,
                         melds=spread.melds, discard=spread.discard[-1:], stock=spread.stock)
    assert decode(render_table(spread, NAMES)).height > decode(
        render_table(top_only, NAMES)).height


def test_table_without_stock_or_discard_and_with_tiles() -> None:
    players = (PlayerPanel(0, 5, "0"), PlayerPanel(1, 7, "12", to_move=True))
    for view in (TableView("penang", False, players, melds=sample_melds(3)),
                 TableView("tiles", True, players, melds=sample_melds(6, tiles=True), stock=60,
                           stock_label="pool"),
                 TableView("indian", False, players, discard=(Card(3, Suit.C),), stock=40,
                           stock_label="closed deck", wild=JOKER)):
        decode(render_table(view, NAMES[:2]))


def test_table_needs_a_name_per_seat() -> None:
    with pytest.raises(ValueError, match="seat 3"):
        render_table(sample_table(2), NAMES[:3])


def test_long_names_and_status_are_cut_to_fit() -> None:
    names = ["W" * 80, "x" * 200, "Ω" * 50, "名前" * 30]
    view = sample_table(3)
    assert decode(render_table(view, names)).width == WIDTH


# ---------------------------------------------------------------------------
# Score chart and results
# ---------------------------------------------------------------------------


def test_score_chart_cases() -> None:
    for series in (sample_series(), sample_series(hands=1), sample_series(hands=40, players=6),
                   ScoreSeries("indian", ((0.0, 40.5), (12.0, 80.0)), labels=("d1", "d2"),
                           lower_is_better=True),
                   ScoreSeries("remi", ((0.0,), (0.0,)))):
        decode(render_score_chart(series, NAMES))


def test_results_grow_with_placings() -> None:
    full = sample_results()
    two = ResultView(full.variant, full.title, full.placings[:2])
    assert decode(render_results(full, NAMES)).height > decode(render_results(two, NAMES)).height


def test_results_with_tiles_and_no_seed() -> None:
    view = ResultView("tiles", "Hand 1", (Placing(0, 1, "+30", "30"),
                                          Placing(1, 2, "-30", "-30",
                                                  held=(Tile(3, 1), Tile(0)))),
                      tiles=True)
    decode(render_results(view, NAMES))


def test_held_cards_spread_to_fit() -> None:
    many = tuple(card_deck(2, 4)[:60])
    view = ResultView("penang", "Hand 1", (Placing(0, 1, "+1", held=many),))
    assert decode(render_results(view, NAMES)).width == WIDTH


def test_style_reaches_every_card_on_the_table() -> None:
    players = (PlayerPanel(0, 5, "0", to_move=True),)
    for view in (TableView("straight", False, players, discard=(Card(5, Suit.D),), stock=9),
                 TableView("indian", False, players, wild=Card(5, Suit.C), stock=9),
                 TableView("penang", False, players, melds=sample_melds(2)[1:])):
        assert render_table(view, NAMES, style="classic") != render_table(view, NAMES)


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style"):
        render_hand(sample_hand(7), style="pastel")  # type: ignore[arg-type]
