"""Story helpers for end-to-end tests (and the load bench): a person playing through Discord."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import RummyBot
from bot.engine.game import Game, Move
from bot.engine.moves import Discard, Draw, LayOff, MeldDown
from bot.sessions import Session
from cardart import fonts
from tests.fakediscord import Channel, FakeDiscord, Message, User

PANEL_BUTTONS = {"My hand", "My rack"}
"""The turn message's button that opens the private panel (a rack of tiles in Tile Rummy)."""


def slash_command(variant: str, move: Move) -> tuple[str, dict[str, Any]]:
    """The slash command a person would type for an engine move."""
    if isinstance(move, Draw):
        return f"/{variant} draw", {"source": move.source}
    if isinstance(move, Discard):
        return f"/{variant} discard", {"card": move.card.code}
    if isinstance(move, MeldDown):
        return f"/{variant} meld", {"cards": " | ".join(" ".join(p.code for p, _ in meld)
                                                         for meld in move.melds)}
    if isinstance(move, LayOff):
        return f"/{variant} layoff", {"cards": " ".join(p.code for p, _ in move.cards),
                                      "meld": move.meld}
    if move.kind == "declare":
        return f"/{variant} declare", {"finish": move.finish.code}  # type: ignore[attr-defined]
    if move.kind == "drop":
        return f"/{variant} drop", {}
    raise ValueError(f"no command for {move!r}")


async def text_of(inter) -> str:
    return (await inter.reply()).text


async def start_game(fake: FakeDiscord, bot: RummyBot, host: User, *, variant: str = "straight",
                     joiners=(), channel: Channel | None = None, **options) -> Session:
    """Open a lobby, seat the joiners, start it, and wait for the first turn message."""
    channel = channel or fake.channel("games")
    options.setdefault("seed", 11)
    options.setdefault("turn_seconds", 0)
    lobby = await (await fake.slash(host, f"/{variant} new", channel=channel,
                                     **options)).reply()
    for user in joiners:
        await (await fake.click(user, lobby, "Join")).response()
    await (await fake.click(host, lobby, "Start")).response()
    session = bot.controller.sessions.in_channel(channel.id)
    assert session is not None and session.status == "running"
    await turn_message(fake, channel)
    return session


async def turn_message(fake: FakeDiscord, channel: Channel | None = None) -> Message:
    """The current turn message, once the bot has posted it."""
    channel = channel or fake.channel("games")

    def current() -> Message | None:
        return fake.find_message(lambda m: bool(PANEL_BUTTONS & set(m.button_labels)),
                                 channel=channel)

    await fake.wait_until(lambda: current() is not None)
    return current()


def assert_no_hand_in_channel(fake: FakeDiscord, channel: Channel) -> None:
    """UX.md: a hand is only ever in a DM or an ephemeral message."""
    for message in fake.channel_messages(channel):
        assert "Your hand" not in message.text and "Your rack" not in message.text
        assert all(a.filename != "hand.png" for a in message.attachments)


async def play_out(fake: FakeDiscord, session: Session, user: User,
                   choose: Callable[[Game, int, random.Random], Move]) -> None:
    """Play ``user``'s turns with a computer player's choices, typed as slash commands."""
    seat = session.seat_of(user.id)
    rng = random.Random(seat)
    for _ in range(2000):
        await fake.wait_until(lambda: session.game.is_over or session.game.to_move == seat,
                              timeout=10)
        if session.game.is_over:
            return
        name, options = slash_command(session.variant.key, choose(session.game, seat, rng))
        await (await fake.slash(user, name, **options)).response()
    raise AssertionError("the game did not end")


async def published(fake: FakeDiscord, bot: RummyBot) -> None:
    """Wait until the bot has published everything and Discord has seen it."""
    await bot.controller.publisher.idle()
    await fake.settle()


async def saved_moves(bot: RummyBot, session: Session) -> int:
    return len(await bot.store.moves(session.game_id))


# -- the private hand panel, as a phone player uses it ----------------------------------------


async def open_panel(fake: FakeDiscord, user: User) -> Message:
    """*My hand* (Tile Rummy: *My rack*) on the current turn message: the private panel."""
    turn = await turn_message(fake)
    label = next(label for label in turn.button_labels if label in PANEL_BUTTONS)
    return await (await fake.click(user, turn, label)).reply()


def shown_codes(panel: Message) -> dict[int, str]:
    """Position → code of the hand as the panel lists it (`` `#3` 7H`` …)."""
    return {int(n): code for n, code in re.findall(r"`#(\d+)` (\S+)", panel.text)}


async def pick(fake: FakeDiscord, user: User, panel: Message, pieces) -> None:
    """Select ``pieces`` in the panel's pick menus, menu by menu (hands over 25 have two)."""
    free = shown_codes(panel)
    wanted: list[int] = []
    for piece in pieces:
        position = next(p for p, code in sorted(free.items()) if code == piece.code)
        wanted.append(position)
        del free[position]
    for menu in [s for s in panel.selects if ":pick:" in s["custom_id"]]:
        values = {o["value"] for o in menu["options"]}
        mine = [str(p) for p in wanted if str(p) in values]
        if mine:  # the menu as it is now: picking in one menu updates the others
            current = next(s for s in panel.selects if s["placeholder"] == menu["placeholder"])
            await (await fake.select(user, panel, mine, custom_id=current["custom_id"])).response()


async def choose_in(fake: FakeDiscord, user: User, panel: Message, action: str,
                    value: str) -> str:
    """Choose ``value`` in the panel's ``action`` menu (lay off, add, take…); the answer."""
    menu = next(s for s in panel.selects if f":{action}:" in s["custom_id"])
    assert value in {o["value"] for o in menu["options"]}, menu["options"]
    return (await (await fake.select(user, panel, [value],
                                     custom_id=menu["custom_id"])).reply()).text


def pictured(bot: RummyBot, kind: str) -> list[Any]:
    """Every view the bot draws as a ``kind`` picture ("table", "results") from now on."""
    renderer = bot.controller.renderer
    draw = getattr(renderer, kind)
    views: list[Any] = []

    async def recording(view: Any, *args: Any, **kwargs: Any) -> bytes:
        views.append(view)
        png: bytes = await draw(view, *args, **kwargs)
        return png

    setattr(renderer, kind, recording)
    return views


def cut_words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text a picture drawn from now on had to cut short with an ellipsis.

    Wraps ``fitted`` where the card art modules use it (pictures drawn in the
    bot's threads, as ``render_processes=0`` runs them, are seen too).
    """
    cut: list[str] = []
    original = fonts.fitted

    def watching(content: str, face: fonts.Typeface, size: int, max_width: int) -> fonts.Text:
        if fonts.text(content, face, size).width > max_width:
            cut.append(content)
        return original(content, face, size, max_width)

    for module in list(sys.modules.values()):
        if (module is not None and module.__name__.startswith("cardart.")
                and getattr(module, "fitted", None) is original):
            monkeypatch.setattr(module, "fitted", watching)
    return cut
