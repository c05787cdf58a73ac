"""The results picture shows a grouped hand (IND-23, IND-27): groups side by side with small
gaps, captioned, jokers badged with what they stand for, the deadwood apart."""

from __future__ import annotations

from PIL import Image

from bot.engine.cards import Face
from bot.engine.views import MeldView, Placing, ResultView
from cardart import palette, render_results, sprites
from cardart.demo import NAMES
from tests.engine_helpers import cards
from tests.test_cardart import colour_mask, decode


def group(text: str, kind: str, faces: str | None = None) -> MeldView:
    pieces = tuple(cards(text))
    stood = cards(faces) if faces else pieces
    return MeldView(1, pieces, tuple(Face.of(c) for c in stood), kind)


GROUPS = (group("4S 5S 6S", "run"), group("9H 10H JH", "run"),
          group("KD KC 7D", "set", "KD KC KS"))
DEADWOOD = tuple(cards("5H 2D 3C 8C"))
HELD = tuple(c for g in GROUPS for c in g.pieces) + DEADWOOD


def loser(**grouping) -> ResultView:
    return ResultView("indian", "Deal 1 result", (Placing(1, 2, "18", "18", held=HELD,
                                                          note="counted 18", **grouping),),
                      run_word="sequence")


def band_gaps(picture: Image.Image, band: tuple[int, int, int] = palette.FELT_DARK
              ) -> list[int]:
    """Widths of the stretches of ``band`` between the cards, across the middle of the cards."""
    box = colour_mask(picture, palette.CARD).getbbox()
    assert box is not None
    y = (box[1] + box[3]) // 2
    row = colour_mask(picture.crop((box[0], y, box[2], y + 1)), band).tobytes()
    return [len(run) for run in row.split(b"\x00") if run]


def test_a_flat_hand_is_one_stretch_of_cards() -> None:
    assert band_gaps(decode(render_results(loser(), NAMES))) == []


def test_groups_stand_side_by_side_and_the_deadwood_apart() -> None:
    grouped = decode(render_results(loser(groups=GROUPS, deadwood=DEADWOOD, deadwood_value=18),
                                    NAMES))
    gaps = band_gaps(grouped)
    assert len(gaps) == 3  # three groups, then the deadwood
    assert gaps[0] == gaps[1] < gaps[2]  # small gaps between groups, a wider one before it


def test_a_joker_in_a_group_is_badged_with_its_stand_in() -> None:
    plain = (group("KD KC KS", "set"),)
    badged = (GROUPS[2],)
    rest = tuple(c for c in HELD if c not in GROUPS[2].pieces)
    purple = [colour_mask(decode(render_results(loser(groups=g, deadwood=rest,
                                                      deadwood_value=40), NAMES)),
                          palette.JOKER_PURPLE).getbbox() for g in (plain, badged)]
    assert purple[0] is None and purple[1] is not None


def test_a_grouped_row_is_taller_only_by_its_captions() -> None:
    flat = decode(render_results(loser(), NAMES))
    grouped = decode(render_results(loser(groups=GROUPS, deadwood=DEADWOOD, deadwood_value=18),
                                    NAMES))
    assert 0 < grouped.height - flat.height < 40 and grouped.width == flat.width


def test_many_groups_wrap_onto_a_second_row() -> None:
    runs = tuple(group(f"{a} {b} {c}", "run") for a, b, c in (
        ("AS", "2S", "3S"), ("5S", "6S", "7S"), ("9S", "10S", "JS"), ("AH", "2H", "3H"),
        ("5H", "6H", "7H"), ("9H", "10H", "JH"), ("AD", "2D", "3D"), ("5D", "6D", "7D")))
    held = tuple(c for g in runs for c in g.pieces)
    view = ResultView("rummi", "Hand 1 result", (Placing(0, 2, "0", "0", held=held,
                                                         groups=runs, deadwood_value=0),))
    picture = decode(render_results(view, NAMES))
    one_row = decode(render_results(loser(groups=GROUPS, deadwood=DEADWOOD, deadwood_value=18),
                                    NAMES))
    assert picture.height - one_row.height > sprites.CARD_SMALL.height
    assert picture.width == 1200


def test_a_grouped_show_ends_with_the_finish_card_in_its_slot() -> None:
    def winner(**extra) -> ResultView:
        return ResultView("indian", "Deal 1 result",
                          (Placing(0, 1, "0", "0", held=HELD[:9], groups=GROUPS,
                                   deadwood_value=0, **extra),), run_word="sequence")

    plain = decode(render_results(winner(), NAMES))
    slotted = decode(render_results(winner(finish=cards("8H")[0]), NAMES))
    assert slotted.size == plain.size  # the slot joins the groups' row
    assert len(band_gaps(slotted, palette.WINNER_BAND)) == len(
        band_gaps(plain, palette.WINNER_BAND)) + 1
    right = colour_mask(slotted, palette.CARD).getbbox()[2]
    assert colour_mask(slotted, palette.FELT).crop((right + 1, 0, right + 4,
                                                    slotted.height)).getbbox() is not None

