"""Pictures of rummy games, drawn with Pillow from the engine's plain views.

Every renderer is a pure function of its arguments and returns PNG bytes (a
hand also returns the order of its pieces, so ``#n`` can be resolved). They are
safe to call from worker threads (``asyncio.to_thread``) and never touch the
network or system fonts. Engine views hold seats; renderers that show players
take ``names`` indexed by seat.
"""

from bot.engine.cards import card_deck
from bot.engine.views import HandView

from .chart import render_score_chart
from .fonts import Typeface, text
from .hand import RenderedHand, Sort, hand_order, render_hand
from .layout import TEXT_SIZE
from .palette import Style
from .results import render_results
from .table import render_table

__all__ = ["RenderedHand", "Sort", "Style", "hand_order", "render_hand", "render_results",
           "render_score_chart", "render_table", "warm_up"]


def warm_up() -> None:
    """Load the fonts, every one of each chain, and draw a pack's sprites (e.g. in a fresh
    worker process), so that no player's first picture waits for them."""
    render_hand(HandView(seat=0, pieces=tuple(card_deck(1, 1))))
    for face in Typeface:
        text("Aa 张 प த ส 🎲", face, TEXT_SIZE)
