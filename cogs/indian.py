"""``/indian``: Indian 13-card Rummy lobbies and moves, and its buttons (20-indian.md, UX.md).

Moves: ``draw source``, ``discard card``, ``check [groups]``, ``declare finish [groups]``,
``drop``. The turn message carries *Draw closed*, *Take <card>* and *Drop*; the
*My hand* panel adds *Discard selected*, *Declare…* and *Check show*.

Two moves cost a lot when made by mistake, so they ask first, privately:

- **Declare** (a wrong show costs 80, IND-25): ``/indian declare`` and the *Declare…*
  button answer with the bot's reading of the show (valid, or the one-line reason
  it is wrong) and the buttons *Declare* and *Cancel*. A valid ``/indian check``
  after drawing offers *Declare with <card>* at once: the check was the preview.
- **Drop** from a button (20 or 40 points, IND-21): the public turn message is
  easy to misclick, so the button asks *Drop (20)* / *Cancel*. The typed
  ``/indian drop`` drops at once: typing the command is the confirmation.

A confirmation button carries the declaration in its ``custom_id`` as positions
in the engine's hand order (``t<turn>~<finish>~1-2-3|4-5=8H-6…``), stamped with
the turn, so nothing secret is in it and a stale one is refused. Cancel
replaces the question with one line; nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.adapters import Panel, Reply
from bot.engine.cards import Card, Face, Piece
from bot.engine.errors import IllegalMove
from bot.engine.game import Game, Move
from bot.engine.moves import Discard, Draw, Placed
from bot.engine.notation import parse_ref
from bot.engine.variants.indian import Declare, Drop, IndianGame, ShowVerdict
from bot.panels import encode_positions
from bot.ui import CUSTOM_ID_LIMIT, ButtonSpec

from .base import VariantCog

Groups = tuple[tuple[Placed, ...], ...]

ARG_LIMIT = CUSTOM_ID_LIMIT - len("rm::confirm:") - 19
"""Room for a confirmation's argument beside the longest game id (19 digits)."""
STALE = "that question is out of date (the turn has moved on): nothing changed"


# -- declarations in a custom_id -----------------------------------------------------------


def encode_declaration(game: IndianGame, seat: int, finish: Piece,
                       groups: Groups | None) -> tuple[str, bool]:
    """``t<turn>~<finish>~<groups>`` as 1-based positions in ``game.hand(seat)``.

    Returns the argument and whether joker annotations had to be left out to fit
    (they are optional: a grouping valid with them is valid without, IND-15).
    """
    hand = list(game.hand(seat))
    used: set[int] = set()

    def position(piece: Piece) -> int:
        index = next(i for i, held in enumerate(hand) if held == piece and i not in used)
        used.add(index)
        return index + 1

    head = f"t{game.turn_serial}~{position(finish)}"
    if groups is None:
        return head, False
    slots = [[(position(p), face) for p, face in group] for group in groups]

    def text(faces: bool) -> str:
        return head + "~" + "|".join("-".join(
            f"{pos}={face.label()}" if faces and face is not None else str(pos)
            for pos, face in group) for group in slots)

    full = text(True)
    if len(full) <= ARG_LIMIT:
        return full, False
    return text(False), True


def decode_declaration(game: IndianGame, seat: int, arg: str) -> tuple[Card, Groups | None]:
    """The finish card and grouping a confirmation button carries; refuses stale ones."""
    turn, _, rest = arg.partition("~")
    if turn != f"t{game.turn_serial}" or game.to_move != seat:
        raise IllegalMove(STALE)
    hand = list(game.hand(seat))

    def piece(token: str) -> Card:
        if not token.isdigit() or not 1 <= int(token) <= len(hand):
            raise IllegalMove(STALE)
        return hand[int(token) - 1]

    finish_text, _, groups_text = rest.partition("~")
    finish = piece(finish_text)
    if not groups_text:
        return finish, None
    groups = []
    for group in groups_text.split("|"):
        items: list[Placed] = []
        for token in group.split("-"):
            pos, _, label = token.partition("=")
            face: Face | None = parse_ref(f"JK={label}").stands_for if label else None
            items.append((piece(pos), face))
        groups.append(tuple(items))
    return finish, tuple(groups)


def _verdict_line(verdict: ShowVerdict) -> str:
    return verdict.text[:1500]


class IndianCog(VariantCog, group_name="indian",
                group_description="Indian Rummy: draw, discard, check, declare, drop"):
    key = "indian"

    @app_commands.command(name="new", description="Open an Indian Rummy lobby in this channel")
    @app_commands.describe(
        format="points = one deal; pool101/pool201 = until one is left; deals = fixed deals",
        deals="Number of deals with format deals",
        decks="Packs: 1 = 53 cards, 2 = 106 cards (default: by player count)",
        wild_joker="Cut a wild joker (off = printed jokers only)",
        turn_seconds="Turn timer in seconds (0 = none, else 10–600)",
        misses_to_drop="Missed turns in a row that drop a player (1–10)",
        first_open_joker_pickup="The deal's first open card may be taken even if a joker",
        computers="Computer players to seat now", seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  format: Literal["points", "pool101", "pool201", "deals"] | None = None,
                  deals: Literal[2, 3, 6] | None = None,
                  decks: Literal["1", "2"] | None = None,
                  wild_joker: bool | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  misses_to_drop: app_commands.Range[int, 1, 10] | None = None,
                  first_open_joker_pickup: bool | None = None,
                  computers: app_commands.Range[int, 0, 5] | None = None,
                  seed: int | None = None) -> None:
        values = dict(format=format, deals=deals, decks=decks, wild_joker=wild_joker,
                      turn_seconds=turn_seconds, misses_to_drop=misses_to_drop,
                      first_open_joker_pickup=first_open_joker_pickup)
        await self.open_lobby(interaction, values, computers, seed)

    @app_commands.command(name="draw", description="Draw from the closed deck or take the open "
                                                   "card")
    @app_commands.describe(source="closed (face down) or open (the face-up card)")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["closed", "open"]) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, source))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card to discard (a code like 7H, or #3)")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, lambda game, seat, read: Discard(seat, read.card(card)))

    @app_commands.command(name="check", description="Privately: would your hand be a valid "
                                                    "show? Changes nothing")
    @app_commands.describe(groups="Your groups, e.g. AD 2D 3D | 5S 6S 7S | … (left out: the "
                                  "bot searches)")
    async def check(self, interaction: discord.Interaction, groups: str | None = None) -> None:
        await self.play(interaction, lambda game, seat, read: self.check_reply(
            game, seat, groups=read.groups(groups) if groups else None))

    @app_commands.command(name="declare", description="Show your hand: name the finish card "
                                                      "(asks to confirm)")
    @app_commands.describe(finish="The card that goes on the open deck",
                           groups="The other 13 cards grouped, e.g. AD 2D 3D | … (left out: "
                                  "the bot finds them)")
    async def declare(self, interaction: discord.Interaction, finish: str,
                      groups: str | None = None) -> None:
        await self.play(interaction, lambda game, seat, read: self.confirm_declare(
            game, seat, read.card(finish), read.groups(groups) if groups else None))

    @app_commands.command(name="drop", description="Leave this deal before drawing (first drop "
                                                   "20, middle drop 40)")
    async def drop(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Drop(seat))

    @discard.autocomplete("card")
    @declare.autocomplete("finish")
    async def _card(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)

    @check.autocomplete("groups")
    @declare.autocomplete("groups")
    async def _groups(self, interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)

    # -- answers that are not moves ------------------------------------------------------

    def check_reply(self, game: Game, seat: int, *, finish: Piece | None = None,
                    groups: Groups | None = None) -> Reply:
        """``/indian check`` and *Check show*: the verdict, privately; nothing changes."""
        assert isinstance(game, IndianGame)
        can_declare = (game.to_move == seat and game.phase == "discard"
                       and game.active[seat])
        if finish is not None and groups is None and can_declare:
            verdict = game.declare_verdict(seat, finish, None)
        else:
            verdict = game.check_show(seat, groups)
        text = f"**Check** (only you see this; nothing changed): {_verdict_line(verdict)}."
        if not (verdict.valid and can_declare and verdict.finish is not None):
            return Reply(text)
        arg, _ = encode_declaration(game, seat, verdict.finish, groups)
        return Reply(f"{text}\nDeclare now with **{verdict.finish.code}**?", (
            ButtonSpec(f"Declare with {verdict.finish.code}", "confirm", arg,
                       discord.ButtonStyle.success),))

    def confirm_declare(self, game: Game, seat: int, finish: Piece,
                        groups: Groups | None) -> Reply:
        """A declaration previewed: the bot's reading and *Declare* / *Cancel*."""
        assert isinstance(game, IndianGame) and isinstance(finish, Card)
        verdict = game.declare_verdict(seat, finish, groups)  # refuses as the move would
        arg, bare = encode_declaration(game, seat, finish, groups)
        if bare:  # the stand-ins did not fit in the button: judge what the button declares
            verdict = game.declare_verdict(seat, finish, decode_declaration(game, seat, arg)[1])
        lines = [f"**Declare with {finish.code}?**"]
        if verdict.valid:
            lines.append(f"The bot reads your show as: {_verdict_line(verdict)}.")
        else:
            lines.append(f"⚠️ This would be a **wrong show**: {_verdict_line(verdict)}.")
            lines.append("A wrong show costs 80 points and takes you out of this deal.")
        if bare:
            lines.append("(Your joker stand-ins are left for the bot to choose.)")
        style = discord.ButtonStyle.success if verdict.valid else discord.ButtonStyle.danger
        return Reply("\n".join(lines), (ButtonSpec("Declare", "confirm", arg, style),
                                        ButtonSpec("Cancel", "dismiss", "declare")))

    def confirm_drop(self, game: IndianGame, seat: int) -> Reply:
        """The Drop button asks first (IND-21 costs), unless the drop would be refused."""
        if Drop(seat) not in game.legal_moves(seat):
            game.apply(Drop(seat))  # raises the refusal's one line ("draw first"…)
        first = not game.has_drawn[seat]
        cost = game.options.drop_costs[0 if first else 1]
        what = "first drop" if first else "middle drop"
        return Reply(f"**Drop this deal?** A {what} costs {cost} points; you sit out until the "
                     "next deal.", (
                         ButtonSpec(f"Drop ({cost})", "dropok", f"t{game.turn_serial}",
                                    discord.ButtonStyle.danger),
                         ButtonSpec("Cancel", "dismiss", "drop")))

    # -- buttons (VariantAdapter) ---------------------------------------------------------

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, IndianGame)
        seat = game.to_move
        if seat is None or game.phase != "draw":
            return []
        legal = game.legal_moves(seat)
        buttons = [ButtonSpec("Draw closed", "draw", "closed", discord.ButtonStyle.success,
                              disabled=Draw(seat, "closed") not in legal)]
        if game.open:  # a joker on the open deck cannot be taken (IND-18)
            buttons.append(ButtonSpec(f"Take {game.open[-1].code}", "draw", "open",
                                      disabled=Draw(seat, "open") not in legal))
        buttons.append(ButtonSpec("Drop", "drop", style=discord.ButtonStyle.danger))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, IndianGame)
        if game.is_over:
            return Panel("The game is over.")
        if game.eliminated[seat]:
            return Panel("You are out of this pool.")
        if not game.active[seat]:
            return Panel("You are out of this deal; you are dealt in again at the next one.")
        arg = encode_positions(selected)
        check = ButtonSpec("Check show", "check", arg if game.phase == "discard" else "",
                           emoji="🔍")
        if game.to_move != seat:
            return Panel("It is not your turn yet. Check show asks the bot, privately, whether "
                         "your hand would be a valid show.", (check,))
        if game.phase == "draw":
            return Panel("Draw a card first (or drop this deal).",
                         (*self.turn_buttons(game), check))
        one = len(selected) == 1
        buttons = (
            ButtonSpec("Discard selected", "discard", arg, discord.ButtonStyle.primary,
                       disabled=not one),
            ButtonSpec("Declare…", "declare", arg, discord.ButtonStyle.success,
                       disabled=not one),
            check,
        )
        hint = ("Pick one card: Discard it to end your turn, or Declare with it as your "
                "finish card. Check show tells you, privately, whether you can show." if not one
                else "")
        return Panel(hint, buttons)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, IndianGame)
        if action == "draw":
            return Draw(seat, arg)
        if action == "drop":
            return self.confirm_drop(game, seat)
        if action == "dropok":
            if arg != f"t{game.turn_serial}":
                raise IllegalMove(STALE)
            return Drop(seat)
        if action == "dismiss":
            what = "Not declared" if arg == "declare" else "Not dropped"
            return Reply(f"{what}: nothing changed.", update=True)
        if action == "check":
            return self.check_reply(game, seat, finish=picked[0] if len(picked) == 1 else None)
        if action == "confirm":
            finish, groups = decode_declaration(game, seat, arg)
            return Declare(seat, finish, groups)
        if action in ("discard", "declare"):
            if len(picked) != 1:
                what = "discard" if action == "discard" else "finish with"
                raise IllegalMove(f"pick exactly one card to {what} in the menu first")
            if action == "discard":
                return Discard(seat, picked[0])
            return self.confirm_declare(game, seat, picked[0], None)
        raise IllegalMove("that button is not part of Indian Rummy")


async def setup(bot) -> None:
    await bot.add_cog(IndianCog(bot))
