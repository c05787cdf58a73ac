"""The private hand panel: a player's hand, a select menu of its cards, and move buttons.

A phone player never types a code (UX.md): they pick cards in the select
menu and press Meld, Lay off or Discard. The picked positions travel in the
buttons' ``custom_id``; positions mean the order of the image last shown to
that player (NOT-7), which is saved so they survive a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from cardart import hand_order

from .controls.base import Reply
from .customids import Click, encode_positions
from .engine.cards import Piece
from .engine.errors import IllegalMove
from .engine.game import Game
from .engine.serial import piece_from_code
from .engine.views import HandView
from .interactions import reply
from .render import Renderer, as_file
from .sessions import Session
from .store import Settings, Store
from .tasks import Tasks
from .texts import clip, hand_text, hand_word, wild_text
from .ui import SELECT_LIMIT, ButtonSpec, SelectSpec, make_view

log = logging.getLogger(__name__)


def hand_key(pieces: Sequence[Piece]) -> str:
    """Identifies a hand's contents whatever their order (positions go stale when it changes)."""
    return " ".join(sorted(p.code for p in pieces))


def pick_menus(order: Sequence[Piece], selected: Sequence[int],
                noun: str = "card") -> list[SelectSpec]:
    """Select menus of the hand's pieces, at most 25 options each (Discord's limit).

    A hand of more than 25 (Penang's 25 cards, a Tile Rummy rack) is split into
    equal runs of positions. Each menu carries its number (so no two share a
    custom_id, which Discord refuses) and the selection made in the others, so
    picking in one keeps the rest.
    """
    if not order:
        return []
    menus = -(-len(order) // SELECT_LIMIT)
    size = -(-len(order) // menus)
    chosen = set(selected)
    result = []
    for number, start in enumerate(range(0, len(order), size), start=1):
        positions = range(start + 1, min(start + size, len(order)) + 1)
        others = f"{number}{encode_positions(sorted(p for p in chosen if p not in positions))}"
        span = "" if menus == 1 else f" {positions[0]}–{positions[-1]}"
        result.append(SelectSpec(
            "pick", f"Pick {noun}s{span}…",
            tuple((f"#{p} {order[p - 1].code}", str(p)) for p in positions), others,
            min_values=0, max_values=len(positions),
            chosen=frozenset(str(p) for p in positions if p in chosen)))
    return result


def hint_button(session: Session, game: Game, seat: int) -> list[ButtonSpec]:
    """*Hint* on the panel: on the player's turn, in a game that allows hints."""
    if not session.hints or game.is_over or game.to_move != seat:
        return []
    return [ButtonSpec("Hint", "hint", emoji="💡")]


class HandPanels:
    def __init__(self, store: Store, renderer: Renderer, tasks: Tasks) -> None:
        self.store = store
        self.renderer = renderer
        self.tasks = tasks

    # -- what was shown ------------------------------------------------------

    async def ensure_shown(self, session: Session, user_id: int) -> None:
        """Load the saved order of the hand last shown to ``user_id`` (after a restart)."""
        if user_id not in session.shown:
            saved = await self.store.shown_hand(session.game_id, user_id)
            if saved is not None:
                session.shown[user_id] = (list(saved[0]), saved[1])

    def shown_order(self, session: Session, user_id: int, game: Game,
                    seat: int) -> list[Piece] | None:
        """The pieces in the order last shown, or None if the hand has changed since."""
        saved = session.shown.get(user_id)
        if saved is None or saved[1] != hand_key(game.hand(seat)):
            return None
        return [piece_from_code(code) for code in saved[0]]

    def picked(self, session: Session, user_id: int, positions: Sequence[int]) -> list[Piece]:
        """The pieces at the positions a panel button carries; refuses stale ones."""
        if not positions:
            return []
        game = session.game
        seat = session.seat_of(user_id)
        assert game is not None and seat is not None
        order = self.shown_order(session, user_id, game, seat)
        if order is None:
            raise IllegalMove("your hand changed since that panel was shown: open My hand again")
        if any(not 1 <= p <= len(order) for p in positions):
            raise IllegalMove("that selection is out of date: open My hand again")
        return [order[p - 1] for p in positions]

    async def remember(self, session: Session, user_id: int, order: Sequence[Piece],
                       pieces: Sequence[Piece]) -> None:
        codes = [p.code for p in order]
        key = hand_key(pieces)
        session.shown[user_id] = (codes, key)
        await self.store.save_shown_hand(session.game_id, user_id, codes, key)

    # -- showing the panel ---------------------------------------------------

    async def open(self, interaction: discord.Interaction, session: Session) -> None:
        """The My hand button and /rummy hand."""
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not playing in this game.")
            return
        if session.game is None:
            await reply(interaction, "The game has not started yet.")
            return
        await self.show(interaction, session, seat, refresh=True)

    async def show(self, interaction: discord.Interaction, session: Session, seat: int,
                   note: str = "", refresh: bool = False) -> None:
        """Answer with the panel (ephemeral: only its owner sees it), its picture just after.

        The answer goes out at once with the hand as text, so drawing never
        delays it (Discord's 3 seconds); the picture is attached by an edit as
        soon as it is drawn.
        """
        game = session.game
        assert game is not None
        user_id = interaction.user.id
        settings = await self.store.get_settings(user_id)
        hand = game.hand_view(seat)
        order = hand_order(hand.pieces, settings.hand_sort)
        await self.remember(session, user_id, order, game.hand(seat))
        content, view = self.compose(session, game, seat, order, [], note)
        in_panel = interaction.message is not None and interaction.message.flags.ephemeral
        try:
            if interaction.response.is_done():
                await interaction.followup.send(content, ephemeral=True,
                                                view=view or discord.utils.MISSING)
            elif refresh and in_panel:
                await interaction.response.edit_message(content=content, attachments=[],
                                                        view=view)
            else:
                await interaction.response.send_message(content, ephemeral=True,
                                                        view=view or discord.utils.MISSING)
        except discord.HTTPException:
            log.warning("could not show a hand panel in game %s", session.game_id, exc_info=True)
            return
        self.tasks.spawn(self.attach_picture(interaction, session, hand, settings),
                              f"panel-picture-{session.game_id}")

    async def attach_picture(self, interaction: discord.Interaction, session: Session,
                             hand: HandView, settings: Settings) -> None:
        """Add the hand's picture to the panel just sent, unless the hand changed meanwhile."""
        rendered = await self.renderer.hand(hand, settings.hand_sort,
                                                       settings.card_style)
        shown = session.shown.get(interaction.user.id)
        if shown is None or shown[1] != hand_key(hand.pieces):
            return
        try:
            await interaction.edit_original_response(
                attachments=[as_file(rendered.png, "hand.png")])
        except discord.HTTPException:
            log.info("could not attach a hand picture in game %s", session.game_id)

    def compose(self, session: Session, game: Game, seat: int, order: Sequence[Piece],
                selected: Sequence[int], note: str = "") -> tuple[str, discord.ui.View | None]:
        panel = session.variant.controls.panel(game, seat, selected, order)
        lines = [note] if note else []
        lines.append(f"**Your {hand_word(game.tiles)}** ({len(order)}): {hand_text(order)}")
        wild = wild_text(game.hand_view(seat).wild_rank)
        if wild:
            lines.append(wild)
        if selected:
            lines.append("Selected: " + " ".join(order[p - 1].code for p in selected
                                                 if 0 < p <= len(order)))
        lines.append(panel.hint)
        selects = [*pick_menus(order, selected, game.notation.noun), *panel.selects]
        buttons = [*panel.buttons, *hint_button(session, game, seat), ButtonSpec("Refresh", "hand")]
        return clip("\n".join(lines)), make_view(session.game_id, buttons, selects)

    async def pick(self, interaction: discord.Interaction, session: Session,
                   click: Click) -> None:
        """The player changed their selection in one pick menu: the buttons now carry it.

        ``click.selection`` holds what is selected in the panel's other pick menus (a hand
        of more than 25 cards is split over several), so their selection is kept.
        """
        seat = session.seat_of(interaction.user.id)
        game = session.game
        if seat is None or game is None:
            await reply(interaction, "You are not playing in this game.")
            return
        await self.ensure_shown(session, interaction.user.id)
        order = self.shown_order(session, interaction.user.id, game, seat)
        if order is None:
            await self.show(interaction, session, seat, note=f"Your {hand_word(game.tiles)} "
                            "changed: here it is now.", refresh=True)
            return
        selected = sorted({int(v) for v in click.values} | set(click.selection))
        if selected and selected[-1] > len(order):
            await reply(interaction, "That selection is out of date: open My hand again.")
            return
        content, view = self.compose(session, game, seat, order, selected)
        try:
            await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException:
            log.warning("could not update a hand panel", exc_info=True)

    async def answer(self, interaction: discord.Interaction, session: Session, seat: int,
                     answer: Reply) -> None:
        """A private answer that is not a move (a check, a question)."""
        view = make_view(session.game_id, answer.buttons)
        text = clip(answer.text)
        message = interaction.message
        if (answer.update and message is not None and message.flags.ephemeral
                and not interaction.response.is_done()):
            try:
                await interaction.response.edit_message(content=text, embed=None,
                                                        attachments=[], view=view)
            except discord.HTTPException:
                log.warning("could not update a private message", exc_info=True)
            return
        await reply(interaction, text, view=view or discord.utils.MISSING)
