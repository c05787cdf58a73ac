"""Names and words in every shipped script draw as letters, shaped, and stay in their boxes.

The checks read each font's character map with fontTools on their own (not through
:mod:`cardart.fonts`) and compare drawn clusters with the font's missing-glyph box.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import regex
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from bot.engine.views import Placing, ResultView
from cardart import palette, render_results, render_score_chart, render_table, sprites
from cardart.chart import LEGEND_SIZE, LEGEND_WIDTH
from cardart.demo import sample_scripts_table, sample_series
from cardart.fontbuild import big5_level1_hanzi, cjk_charset, gb2312_hanzi
from cardart.fonts import (
    ELLIPSIS,
    FONT_DIR,
    IGNORED,
    Typeface,
    fitted,
    runs,
    shortened,
    text,
)
from cardart.layout import MARGIN, TEXT_SIZE, WIDTH
from cardart.panel import COLUMNS as PANEL_COLUMNS
from cardart.raster import posterise
from cardart.results import NAME_X, _column_starts

ROOT = Path(__file__).resolve().parent.parent

NAMES = ("张伟 (you)", "Priya प्रिया 🎉", "பிரியா", "สมชาย ใจดี", "Sam 🎲",
         "क्षत्रिय श्री 👨‍👩‍👧")
"""Chinese, Hindi, Tamil, Thai and emoji, mixed with Latin: one name per seat."""
LONG = {"chinese": "张伟" * 40, "hindi": "प्रिया क्षत्रिय " * 12, "tamil": "பிரியா கொ " * 15,
        "thai": "สมชาย ใจดี " * 15, "emoji": "Sam 🎲 👨‍👩‍👧 " * 15,
        "latin": "Bartholomew the Magnificent " * 6}
"""Names far too long for any box, one per script."""
RAQM = features.check_feature("raqm")


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@functools.cache
def cmap(font: str) -> frozenset[int]:
    with TTFont(FONT_DIR / font, lazy=True) as face:
        return frozenset(face.getBestCmap())


@functools.cache
def pillow_font(font: str) -> ImageFont.FreeTypeFont:
    engine = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / font), 30, layout_engine=engine)


def ink(font: str, content: str) -> bytes:
    """The pixels ``font`` draws for ``content``, cropped to its ink."""
    canvas = Image.new("L", (60 * len(content) + 120, 120), 0)
    ImageDraw.Draw(canvas).text((40, 80), content, font=pillow_font(font), fill=255,
                                anchor="ls")
    box = canvas.getbbox()
    return canvas.crop(box).tobytes() if box else b""


def missing(font: str, content: str) -> list[str]:
    """The clusters of ``content`` that ``font`` cannot draw: a character outside its
    character map, or ink identical to its missing-glyph box (U+FFFF maps to nothing)."""
    tofu = ink(font, "\uffff")
    found = []
    for cluster in graphemes(content):
        if cluster.isspace():
            continue
        unmapped = [c for c in cluster if ord(c) not in IGNORED and ord(c) not in cmap(font)]
        if unmapped or ink(font, cluster) == tofu:
            found.append(cluster)
    return found


# ---------------------------------------------------------------------------
# The fonts
# ---------------------------------------------------------------------------


def test_cjk_subset_holds_every_hanzi_it_documents_and_no_more() -> None:
    hanzi = gb2312_hanzi() | big5_level1_hanzi()
    assert (len(gb2312_hanzi()), len(big5_level1_hanzi()), len(hanzi)) == (6763, 5401, 8836)
    wanted = {ord(c) for c in cjk_charset()}
    for face in Typeface:
        mapped = cmap(face.chain[-2])
        assert {ord(c) for c in hanzi} <= mapped
        assert mapped <= wanted


def test_the_chain_covers_the_scripts_of_the_issue() -> None:
    samples = "张伟觀察あ प्रिया பிரியா สมชาย 🎲🎉👑❤️ Zoë Ωж"
    for face in Typeface:
        assert all(not missing(run.font, run.content) for run in runs(samples, face))


@pytest.mark.parametrize("face", list(Typeface))
@pytest.mark.parametrize("name", NAMES)
def test_every_cluster_is_set_in_a_font_that_draws_it(name: str, face: Typeface) -> None:
    pieces = runs(name, face)
    assert "".join(run.content for run in pieces) == unicodedata.normalize("NFC", name)
    for run in pieces:
        assert not missing(run.font, run.content), (run, name)


def test_the_tofu_check_finds_a_missing_glyph() -> None:
    """Hangul is in no shipped font: it falls to the first font's missing-glyph box, and the
    check above sees it (by character map and by pixels)."""
    (run,) = runs("김", Typeface.BOLD)
    assert run.font == Typeface.BOLD.chain[0]
    assert missing(run.font, "김") == ["김"]
    assert ink(run.font, "김") == ink(run.font, "\uffff")


def test_emoji_go_to_the_emoji_font_even_where_dejavu_has_a_face() -> None:
    for emoji in ("😀", "❤️", "👍🏽", "🇮🇳", "👨‍👩‍👧"):
        (run,) = runs(emoji, Typeface.REGULAR)
        assert run.font == "NotoEmoji-Regular.ttf", emoji
    assert runs("♥", Typeface.REGULAR)[0].font == "DejaVuSans.ttf"  # a card suit stays text


def test_latin_sets_exactly_as_with_dejavu_alone() -> None:
    """Plain Latin text needs no fallback and no shaping: the same pixels as before the chain."""
    for face in Typeface:
        font = ImageFont.truetype(str(FONT_DIR / face.chain[0]), 30,
                                  layout_engine=ImageFont.Layout.BASIC)
        content = "Bartholomew the Magnificent · 10H"
        canvas = Image.new("L", (800, 80), 0)
        ImageDraw.Draw(canvas).text((10, 60), content, font=font, fill=255, anchor="ls")
        left, top, right, bottom = (int(v) for v in font.getbbox(content, anchor="ls"))
        box = (10 + left, 60 + top, 10 + right, 60 + bottom)
        # The chain posterises its masks; Pillow's plain drawing is not posterised.
        assert text(content, face, 30).mask.tobytes() == posterise(canvas.crop(box)).tobytes()


@pytest.mark.skipif(not RAQM, reason="Pillow without libraqm sets complex scripts unshaped")
def test_devanagari_and_tamil_are_shaped() -> None:
    for face in Typeface:
        # A conjunct is one glyph, narrower than its consonants side by side.
        assert text("क्ष", face, 30).width < text("क्", face, 30).width + text("ष", face, 30).width
        assert text("प्रि", face, 30).width < sum(text(c, face, 30).width for c in "प्रि")
        # Tamil's two-part vowel sign: its left part is drawn before the consonant.
        tamil = face.chain[2]
        basic = ImageFont.truetype(str(FONT_DIR / tamil), 30, layout_engine=ImageFont.Layout.BASIC)
        canvas = Image.new("L", (200, 80), 0)
        ImageDraw.Draw(canvas).text((10, 60), "\u0bc6\u0b95\u0bbe", font=basic, fill=255,
                                    anchor="ls")
        assert ink(tamil, "கொ") == canvas.crop(canvas.getbbox()).tobytes()


def test_mixed_runs_share_one_baseline() -> None:
    """The Latin letters of a mixed name sit where they sit alone: the same cap box."""
    for face in Typeface:
        alone, mixed = text("Priya", face, 30), text("Priya प्रिया 🎉", face, 30)
        assert mixed.cap == alone.cap
        x_height = mixed.mask.crop((0, -mixed.top, alone.width, -mixed.top + alone.cap))
        assert x_height.tobytes() == alone.mask.crop((0, -alone.top, alone.width,
                                                      -alone.top + alone.cap)).tobytes()


# ---------------------------------------------------------------------------
# Cutting to a width
# ---------------------------------------------------------------------------


def graphemes(content: str) -> list[str]:
    """Unicode's extended grapheme clusters, found here independently of cardart."""
    return regex.findall(r"\X", unicodedata.normalize("NFC", content))


def _prefix_of_whole_clusters(cut: str, content: str) -> bool:
    parts = graphemes(content)
    return any("".join(parts[:k]).rstrip() == cut for k in range(len(parts) + 1))


@pytest.mark.parametrize("script", sorted(LONG))
def test_long_names_are_cut_at_clusters_with_an_ellipsis(script: str) -> None:
    content = LONG[script]
    for face in Typeface:
        for width in (40, 97, 180, 333, 600):
            cut = shortened(content, face, TEXT_SIZE, width)
            assert cut.endswith(ELLIPSIS) and (len(cut) > 1 or width < 60), (width, cut)
            assert _prefix_of_whole_clusters(cut[:-1], content), (width, cut)
            assert fitted(content, face, TEXT_SIZE, width).width <= width
            assert text(cut, face, TEXT_SIZE).width <= width


def test_a_conjunct_or_an_emoji_sequence_is_never_split() -> None:
    assert graphemes("क्षत्रिय") == ["क्ष", "त्रि", "य"]  # Unicode 15.1: conjuncts are whole
    for content in ("क्षत्रिय", "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", "பிரியா", "🇮🇳🇮🇳🇮🇳"):
        whole = text(content, Typeface.BOLD, TEXT_SIZE).width
        for width in range(1, whole):
            cut = shortened(content, Typeface.BOLD, TEXT_SIZE, width)
            assert cut == "" or _prefix_of_whole_clusters(cut[:-1], content), (width, cut)


def test_nothing_is_drawn_where_not_even_the_ellipsis_fits() -> None:
    assert shortened("张伟", Typeface.BOLD, TEXT_SIZE, 3) == ""
    assert fitted("张伟", Typeface.BOLD, TEXT_SIZE, 3).width == 0
    assert shortened("张伟", Typeface.BOLD, TEXT_SIZE, 500) == "张伟"


ALPHABET = ["a", "W", " ", "张", "伟", "प्रि", "क्ष", "या", "பி", "கொ", "ส", "ที่", "🎲",
            "👍🏽", "👨‍👩‍👧", "é", "Ω"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=30),
       st.integers(min_value=1, max_value=700), st.sampled_from(list(Typeface)))
def test_any_mixed_text_fits_any_width(parts: list[str], width: int, face: Typeface) -> None:
    content = "".join(parts)
    cut = shortened(content, face, TEXT_SIZE, width)
    assert text(cut, face, TEXT_SIZE).width <= width
    assert cut in ("", content) or _prefix_of_whole_clusters(cut[:-1], content)


# ---------------------------------------------------------------------------
# The pictures
# ---------------------------------------------------------------------------

RECORD = """
import json, sys
from pathlib import Path
from PIL import ImageDraw

drawn = []
original = ImageDraw.ImageDraw.text


def recording(self, xy, text, *args, **kwargs):
    drawn.append((text, Path(kwargs["font"].path).name))
    return original(self, xy, text, *args, **kwargs)


ImageDraw.ImageDraw.text = recording
from cardart import render_results, render_score_chart, render_table
from cardart.demo import sample_scripts_results, sample_scripts_table, sample_series

names = json.loads(sys.argv[1])
render_table(sample_scripts_table(), names)
render_results(sample_scripts_results(), names)
render_score_chart(sample_series(players=6), names)
print(json.dumps(drawn))
"""


def test_table_results_and_chart_draw_every_name_in_fonts_that_have_its_letters() -> None:
    """In a fresh process (every text drawn, none from a cache), record every run drawn."""
    result = subprocess.run([sys.executable, "-c", RECORD, json.dumps(NAMES)], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    drawn = [tuple(item) for item in json.loads(result.stdout)]
    fonts = {font for _, font in drawn}
    assert {"NotoSansCJKsc-Bold.otf", "NotoSansDevanagari-Bold.ttf", "NotoSansTamil-Bold.ttf",
            "NotoSansThai-Bold.ttf", "NotoEmoji-Bold.ttf"} <= fonts
    shown = {cluster for content, _ in drawn for cluster in graphemes(content)}
    for name in NAMES:
        assert set(graphemes(unicodedata.normalize("NFC", name))) - {" "} <= shown, name
    for content, font in set(drawn):
        assert not missing(font, content), (content, font)


def _name_ink(picture: Image.Image, blank: Image.Image) -> tuple[int, int, int, int]:
    """Where ``picture`` differs from ``blank`` by more than the palette encoder's rounding
    (a quantised picture's palette shifts a little with the colours it holds)."""
    bands = ImageChops.difference(picture, blank).split()
    strongest = functools.reduce(ImageChops.lighter, bands)
    box = strongest.point(lambda v: 255 if v > 40 else 0).getbbox()
    assert box is not None
    return box


def _band(picture: Image.Image, x: int, y: int) -> tuple[int, int]:
    """The rows of the solid stretch of colour at column ``x`` that holds row ``y``."""
    colour = picture.getpixel((x, y))
    top = bottom = y
    while top > 0 and picture.getpixel((x, top - 1)) == colour:
        top -= 1
    while bottom < picture.height - 1 and picture.getpixel((x, bottom + 1)) == colour:
        bottom += 1
    return top, bottom + 1


@pytest.mark.parametrize("script", sorted(LONG))
def test_long_names_stay_inside_their_results_row(script: str) -> None:
    def picture(name: str) -> Image.Image:
        view = ResultView("straight", "Hand 1", (Placing(0, 1, "+10", "10"),
                                                 Placing(1, 2, "-10", "-10")))
        return decode(render_results(view, ["Ana", name]))

    left, top, right, bottom = _name_ink(picture(LONG[script]), picture(""))
    assert left >= NAME_X and right <= _column_starts()[0] - 16
    band = _band(picture(""), WIDTH - MARGIN - 20, (top + bottom) // 2)
    assert band[0] <= top and bottom <= band[1]


@pytest.mark.parametrize("script", sorted(LONG))
def test_long_names_stay_inside_their_panel_row(script: str) -> None:
    seat = 3  # neither the dealer (0), nor the player to move (1), nor one with a note (2)
    names = list(NAMES)
    long = decode(render_table(sample_scripts_table(),
                               [*names[:seat], LONG[script], *names[seat + 1:]]))
    blank = decode(render_table(sample_scripts_table(), [*names[:seat], "", *names[seat + 1:]]))
    _, top, right, bottom = _name_ink(long, blank)
    cards_column = WIDTH - MARGIN - sum(width for _, width in PANEL_COLUMNS)
    assert right <= cards_column - 12
    band = _band(blank, WIDTH - MARGIN - 15, (top + bottom) // 2)
    assert blank.getpixel((WIDTH - MARGIN - 15, top)) == palette.FELT_DARK
    assert band[0] <= top and bottom <= band[1]


@pytest.mark.parametrize("script", sorted(LONG))
def test_long_names_stay_inside_the_chart_legend(script: str) -> None:
    series = sample_series(players=6)
    names = list(NAMES)
    seat = 4
    long = decode(render_score_chart(series, [*names[:seat], LONG[script], *names[seat + 1:]]))
    blank = decode(render_score_chart(series, [*names[:seat], "", *names[seat + 1:]]))
    left, top, right, bottom = _name_ink(long, blank)
    value = text(f"{series.totals[seat][-1]:g}", Typeface.BOLD, LEGEND_SIZE)
    assert left >= WIDTH - MARGIN - LEGEND_WIDTH + 76
    assert right <= WIDTH - MARGIN - 12 - value.width - 12
    band = _band(blank, WIDTH - MARGIN - 6, (top + bottom) // 2)
    paper = blank.getpixel((WIDTH - MARGIN - 6, top))  # the legend box (quantised)
    assert isinstance(paper, tuple)
    assert max(abs(a - b) for a, b in zip(paper, palette.CHART_PAPER, strict=True)) <= 4
    assert band[0] <= top and bottom <= band[1]


def test_badges_hold_labels_in_any_script() -> None:
    """A translated NEW or WILD tag keeps its marks and strokes inside the pill."""
    for size in (18, 22, 26):
        latin = sprites.badge("NEW", palette.INK, palette.GOLD, size)
        for label in ("NEW", "新", "नया", "कुछ", "ใหม่", "புதிய", "ญี่ปุ่น"):
            tag = sprites.badge(label, palette.INK, palette.GOLD, size)
            solid = text(label, Typeface.BOLD, size).mask.histogram()[255]
            inked = dict((colour, count) for count, colour in tag.image.getcolors(1 << 16))
            # Every solid pixel of the label is in the pill, none cut off at its edges.
            assert inked[palette.INK] == solid > 0, (label, size)
            assert tag.height >= latin.height
    narrow = sprites.badge("WILD " * 10, palette.INK, palette.GOLD, 22, max_width=90)
    assert narrow.width <= 90
