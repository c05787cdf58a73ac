"""Rummy 500's table picture (FHR-35): the spread pile with positions, each meld card's placer."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine.moves import LayOff, placed
from cardart.melds import MeldLayout, initial
from cardart.table import render_table
from tests.rummy500_helpers import cards, rummy500


def test_FHR_35_meld_cards_carry_their_placers_initials() -> None:
    game = rummy500(3, held=["10S JS 2C", "5C 8D", "KD QC"], table=[(1, "7S 8S 9S")],
                    pile="4D 6S AC", phase="play")
    game, _ = game.apply(LayOff(0, placed(*cards("10S JS")), 1))
    (meld,) = game.table_view().melds
    names = ["alice", "bob", "Ça va"]
    layout = MeldLayout(meld, False, names)
    assert len(layout.initials) == 5
    assert layout.height > MeldLayout(meld, False).height  # room for the initials
    assert [initial(n) for n in names] == ["A", "B", "Ç"] and initial(" ") == "?"
    picture = Image.open(io.BytesIO(render_table(game.table_view(), names,
                                                 title="Rummy 500")))
    assert picture.width > 0 and picture.height > 0
