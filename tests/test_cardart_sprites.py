"""cardart building blocks: sprites, fonts, the memo, the PNG encoder."""

from __future__ import annotations

import hashlib
import io
import random

import pytest
from PIL import Image

from bot.engine.cards import JOKER, TILE_JOKER, Card, Tile, card_deck, standard_pack, tile_set
from cardart import encode, hand, results, sprites, table
from cardart.cache import drawn_once
from cardart.chart import nice_ticks
from cardart.demo import (
    NAMES,
    sample_hand,
    sample_rack,
    sample_remi_table,
    sample_results,
    sample_table,
)
from cardart.fonts import FONT_DIR, Typeface, fitted, text
from cardart.layout import LABEL_SIZE
from cardart.raster import LEVELS, Sprite


def fingerprint(sprite: Sprite) -> str:
    return hashlib.sha256(sprite.image.tobytes()).hexdigest()


@pytest.mark.parametrize("size", [sprites.CARD_LARGE, sprites.CARD_SMALL])
def test_54_distinct_card_sprites(size: sprites.PieceSize) -> None:
    """52 faces, the printed joker and the back."""
    faces = [sprites.card_sprite(card, size) for card in [*standard_pack(), JOKER]]
    faces.append(sprites.card_back(size))
    assert len({fingerprint(face) for face in faces}) == 54
    assert all((face.width, face.height) == (size.width, size.height) for face in faces)


def test_classic_style_recolours_diamonds_and_clubs_only() -> None:
    size = sprites.CARD_LARGE
    for card in standard_pack():
        same = fingerprint(sprites.card_sprite(card, size, "four")) == fingerprint(
            sprites.card_sprite(card, size, "classic"))
        assert same == (card.suit_letter in "SH")


@pytest.mark.parametrize("size", [sprites.TILE_LARGE, sprites.TILE_SMALL])
def test_every_one_of_the_106_tiles_has_its_face(size: sprites.PieceSize) -> None:
    """Copies share a sprite; the 53 different faces (52 numbers and the joker) all differ."""
    tiles = tile_set()
    assert len(tiles) == 106
    faces = {tile: sprites.tile_sprite(tile, size) for tile in tiles}
    assert len(faces) == 53
    assert len({fingerprint(face) for face in faces.values()}) == 53
    assert sprites.tile_sprite(TILE_JOKER, size) is faces[tiles[-1]]
    assert fingerprint(sprites.tile_back(size)) not in {fingerprint(f) for f in faces.values()}


def test_sprites_are_drawn_once() -> None:
    card = Card(7, 1)
    assert sprites.card_sprite(card, sprites.CARD_LARGE) is sprites.card_sprite(
        card, sprites.CARD_LARGE)
    assert sprites.piece_sprite(Tile(3, 2), sprites.TILE_LARGE) is sprites.tile_sprite(
        Tile(3, 2), sprites.TILE_LARGE)


def test_badges_exist_for_every_variant_need() -> None:
    for label in ("NEW", "WILD", "=7H", "=7", "=R10", "1", "2", "3", "20"):
        badge = sprites.badge(label, (255, 255, 255), (122, 40, 160), 22)
        assert badge.width >= badge.height > 0


def test_fonts_are_shipped_with_their_licence() -> None:
    for face in Typeface:
        assert all((FONT_DIR / font).is_file() for font in face.chain)
    licence = (FONT_DIR / "LICENSE").read_text()
    assert "Bitstream" in licence and "DejaVu" in licence
    ofl = (FONT_DIR / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in ofl
    noto = {font for face in Typeface for font in face.chain if font.startswith("Noto")}
    assert noto == {path.name for path in FONT_DIR.glob("Noto*")}
    assert all(f"- {font} (" in ofl for font in noto)


def test_label_font_is_at_least_24_px_tall() -> None:
    """Glyph boxes of the tallest and the shortest codes at the label size."""
    for code in ("10H", "AS", "R13", "#1", "#25", "JK", "J"):
        mask = text(code, Typeface.BOLD, LABEL_SIZE).mask
        bounds = mask.getbbox()
        assert bounds is not None and bounds[3] - bounds[1] >= 24, code


def test_text_masks_are_posterised() -> None:
    mask = text("Bartholomew", Typeface.REGULAR, 30).mask
    assert len(mask.getcolors()) <= LEVELS


def test_fitted_text_is_cut_with_an_ellipsis() -> None:
    whole = text("Bartholomew the Magnificent", Typeface.BOLD, 30)
    cut = fitted("Bartholomew the Magnificent", Typeface.BOLD, 30, whole.width // 2)
    assert cut.width <= whole.width // 2
    assert fitted("Ana", Typeface.BOLD, 30, 500) is text("Ana", Typeface.BOLD, 30)
    assert fitted("Ana", Typeface.BOLD, 30, 1).width <= text("…", Typeface.BOLD, 30).width


def test_memo_builds_once_and_bounds_its_size() -> None:
    calls = []

    @drawn_once(maxsize=2)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert [square(2), square(2), square(3), square(4), square(2)] == [4, 4, 9, 16, 4]
    assert calls == [2, 3, 4, 2]  # 2 was evicted by 4, the least recently used
    with pytest.raises(TypeError):
        square(n=2)


def test_nice_ticks_cover_the_range() -> None:
    assert nice_ticks(-58, 64) == [-75, -50, -25, 0, 25, 50, 75]
    assert nice_ticks(0, 0) == [-1, -0.5, 0, 0.5, 1]
    ticks = nice_ticks(0, 1234)
    assert ticks[0] <= 0 and ticks[-1] >= 1234 and len(ticks) <= 8


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


def _composed(monkeypatch: pytest.MonkeyPatch, module, draw) -> Image.Image:
    """The picture a renderer hands to the encoder."""
    seen = []
    monkeypatch.setattr(module, "png_bytes", lambda picture: seen.append(picture) or b"")
    draw()
    return seen[0]


@pytest.mark.parametrize("case", ["hand20", "rack14", "table20", "remi", "results"])
def test_palette_png_is_smaller_and_looks_the_same(monkeypatch: pytest.MonkeyPatch,
                                                   case: str) -> None:
    module, draw = {
        # Hands are drawn indexed (tests/test_cardart_indexed.py); their RGB path is checked here.
        "hand20": (hand, lambda: hand.render_hand_rgb(sample_hand(20), sort="suit")),
        "rack14": (hand, lambda: hand.render_hand_rgb(sample_rack(14))),
        "table20": (table, lambda: table.render_table(sample_table(20), NAMES)),
        "remi": (table, lambda: table.render_table(sample_remi_table(), NAMES)),
        "results": (results, lambda: results.render_results(sample_results(), NAMES)),
    }[case]
    picture = _composed(monkeypatch, module, draw)
    assert picture.getcolors(256) is not None, "the design keeps pictures within 256 colours"
    png = encode.png_bytes(picture)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    assert encode.psnr(picture, decoded.convert("RGB")) >= 45
    rgb = io.BytesIO()
    picture.save(rgb, "PNG", compress_level=encode.COMPRESS_LEVEL)
    assert len(png) < 0.75 * len(rgb.getvalue())


def test_many_colours_keep_rgb_unless_a_palette_is_faithful() -> None:
    rng = random.Random(1)
    noise = Image.frombytes("RGB", (64, 64), bytes(rng.randrange(256) for _ in range(64 * 64 * 3)))
    assert Image.open(io.BytesIO(encode.png_bytes(noise))).mode == "RGB"
    gradient = Image.linear_gradient("L").resize((256, 64)).convert("RGB")
    tinted = Image.merge("RGB", (gradient.getchannel(0), gradient.getchannel(0).point(
        lambda v: v // 2), gradient.getchannel(0).point(lambda v: 255 - v)))
    tinted.paste((10, 200, 30), (0, 0, 8, 8))
    decoded = Image.open(io.BytesIO(encode.png_bytes(tinted)))
    assert encode.psnr(tinted, decoded.convert("RGB")) >= encode.MIN_PSNR


def test_png_has_no_varying_metadata() -> None:
    png = hand.render_hand(sample_hand(7)).png
    chunks, offset = [], 8
    while offset < len(png):
        length = int.from_bytes(png[offset:offset + 4], "big")
        chunks.append(png[offset + 4:offset + 8].decode())
        offset += 12 + length
    assert set(chunks) <= {"IHDR", "PLTE", "IDAT", "IEND"}


def test_every_piece_of_a_big_deck_renders() -> None:
    deck = card_deck(3, 8)
    for piece in deck:
        assert sprites.piece_sprite(piece, sprites.CARD_SMALL).width == sprites.CARD_SMALL.width
