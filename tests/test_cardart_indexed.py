"""Hand and rack pictures drawn on an indexed canvas: exactly the RGB drawing, fewer steps."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import Card, Suit
from bot.engine.views import HandView
from cardart import hand, indexed
from cardart.demo import sample_hand, sample_rack

VIEWS = {
    "hand20": (sample_hand(20), {"sort": "suit"}),
    "hand13-classic-rank": (sample_hand(13), {"sort": "rank", "style": "classic"}),
    "hand13-wild-newest": (HandView(seat=0, pieces=sample_hand(13).pieces, wild_rank=7,
                                    newest=Card(7, Suit.H)), {}),
    "rack14": (sample_rack(14), {"sort": "suit"}),
    "rack22": (sample_rack(22), {"sort": "rank"}),
    "empty": (HandView(seat=0, pieces=()), {}),
}


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def composed_rgb(monkeypatch: pytest.MonkeyPatch, view: HandView, options: dict) -> Image.Image:
    """The RGB picture the old path draws before quantising it."""
    seen: list[Image.Image] = []
    with monkeypatch.context() as patch:
        patch.setattr(hand, "png_bytes", lambda picture: seen.append(picture) or b"")
        hand.render_hand_rgb(view, **options)
    return seen[0]


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_indexed_picture_is_exactly_the_rgb_drawing(monkeypatch: pytest.MonkeyPatch,
                                                    name: str) -> None:
    """Every pixel has the colour the RGB canvas gives it (no quantiser in between)."""
    view, options = VIEWS[name]
    png = hand.render_hand(view, **options).png
    picture = decode(png)
    assert picture.mode == "P"
    expected = composed_rgb(monkeypatch, view, options)
    assert ImageChops.difference(picture.convert("RGB"), expected).getbbox() is None
    palette = picture.getpalette() or []
    shown = {tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)}
    assert {colour for _, colour in expected.getcolors(256) or ()} <= shown
    assert len(shown) == len(palette) // 3 <= 256  # each colour once


def test_bytes_do_not_depend_on_what_was_drawn_before() -> None:
    view, options = VIEWS["hand20"]
    first = hand.render_hand(view, **options).png
    for other, other_options in VIEWS.values():
        hand.render_hand(other, **other_options)
    again = hand.render_hand(view, **options).png
    indexed._forget()  # a fresh process: an empty colour table, no blends kept
    fresh = hand.render_hand(view, **options).png
    assert first == again == fresh


def test_a_full_colour_table_is_emptied_and_the_picture_drawn_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {name: hand.render_hand(view, **options).png
                for name, (view, options) in VIEWS.items()}
    indexed._forget()
    monkeypatch.setattr(indexed, "CAPACITY", 160)  # a few pictures fill it
    for _ in range(2):
        for name, (view, options) in VIEWS.items():
            assert hand.render_hand(view, **options).png == expected[name]


def test_a_picture_with_too_many_colours_is_drawn_on_rgb(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    view, options = VIEWS["hand20"]
    indexed._forget()
    monkeypatch.setattr(indexed, "CAPACITY", 16)
    assert hand.render_hand(view, **options).png == hand.render_hand_rgb(view, **options)
    indexed._forget()
