"""Replays of finished games: a private stepper, and the game record as a text file.

``/rummy replay [game]`` and the *Replay* button on the final results open an
ephemeral message that only the clicker sees: the step in words, the table with
every hand open (the game is over: nothing is secret any more) or the results,
buttons to step (⏮ ◀ ▶ ⏭) and a menu to jump to a hand. The game record
(:mod:`bot.engine.record`) rides along as a text file.

A replay is rebuilt from what every game stores: the seed, the options, the
seats and the move log (:class:`bot.engine.replay.Timeline`), so games finished
before replays existed replay too. A game is replayed once per load and kept in a
small cache; a step costs at most a checkpoint's worth of moves. The stepper's
buttons are :class:`discord.ui.DynamicItem` whose ``custom_id`` carries the game
and the step, so they work after a restart. Steps are drawn off the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from .customids import decode_replay
from .engine.errors import RummyError
from .engine.game import Event, Game
from .engine.record import GameRecord, RecordPlayer, final_totals, unique_names, write_record
from .engine.replay import Frame, OpenHand, OpenTableView, Timeline, open_view
from .engine.views import ResultView
from .interactions import reply
from .registry import TITLES, UnknownVariant, variant
from .render import Renderer, as_file
from .store import GameRow, HistoryRow, MoveRow, Store
from .texts import EMBED_LIMIT, clip, codes, result_text, table_text, with_names, with_names_in
from .ui import answered

log = logging.getLogger(__name__)

CACHE_SIZE = 8
"""Replayed games kept in memory (each holds its moves and a few dozen checkpoints)."""
CLICKS_REMEMBERED = 512
"""Steppers whose latest click is remembered, so a slow step never overwrites a newer one."""
AUTOCOMPLETE_SCAN = 100
"""Recent finished games of the server searched by the autocomplete."""
CHOICES = 25
SELECT_HANDS = 24
"""Hands offered in the jump menu (Discord allows 25 options; the last is the results)."""
COLOUR = discord.Colour.from_rgb(0x1B, 0x5E, 0x3B)
BUTTONS = (("first", "⏮", "Start"), ("prev", "◀", "Back"), ("next", "▶", "Next"),
           ("last", "⏭", "End"))


class ReplayRefused(Exception):
    """Why a replay cannot be shown, in one line for the person who asked."""


# ---------------------------------------------------------------------------
# A loaded replay
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Replay:
    """A finished game, replayed and ready to step through."""

    game_id: int
    guild_id: int
    title: str
    names: tuple[str, ...]
    timeline: Timeline
    record: str
    """The game record's text (the file offered with the stepper)."""
    hand_label: str = "hand"
    """What one round of the match is called (hand, deal, game), for the jump menu."""

    @property
    def filename(self) -> str:
        return f"rummy-game-{self.game_id}.txt"


def hints_about(row: GameRow, names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The record's ``Hints:`` line: off, or how many each player used (when any did)."""
    if not row.hints:
        return (("Hints", "off"),)
    used = [f"{name} {seat.hints}" for name, seat in zip(names, row.seats, strict=True)
            if seat.hints]
    return (("Hints", ", ".join(used)),) if used else ()


def build_replay(row: GameRow, moves: Sequence[MoveRow]) -> Replay:
    """Replay a finished game from its stored seed, options, seats and moves (pure CPU work:
    run it in a thread). Refuses a game whose moves no longer lead where they did."""
    try:
        kind = variant(row.variant)
    except UnknownVariant as error:
        raise ReplayRefused(f"Game #{row.id} cannot be replayed: {error}.") from None
    game = kind.game
    names = unique_names(s.name for s in row.seats)
    default_level = next(iter(kind.computers), None)
    players = tuple(RecordPlayer(name, seat.is_computer, None if seat.left else
                                 seat.level or default_level, seat.left)
                    for name, seat in zip(names, row.seats, strict=True))
    try:
        record = GameRecord(game, row.variant, game.options_type.build(**row.options),
                            int(row.seed), players,
                            tuple(game.move_from_json(m.move) for m in moves),
                            about=(("Game", f"#{row.id}"), ("Finished", _when(row.finished_at)),
                                   *hints_about(row, names)))
        timeline = Timeline(record)
    except (RummyError, KeyError, TypeError, ValueError) as error:
        reason = error.message if isinstance(error, RummyError) else "its stored moves are " \
            "not readable by this version of the bot"
        raise ReplayRefused(f"Game #{row.id} cannot be replayed: {reason}.") from None
    final = timeline.final
    if row.state is not None and _as_stored(final) != row.state:
        raise ReplayRefused(f"Game #{row.id} cannot be replayed: its moves no longer lead to "
                            "the game that was played (the rules code changed since).")
    results = _plain(result_text(final.result_view(), names)).splitlines()
    record = dataclasses.replace(record, results=tuple(results), totals=final_totals(final))
    return Replay(row.id, row.guild_id, game.title, tuple(names), timeline,
                  write_record(record), final.table_view().hand_label)


def _as_stored(game: Game) -> Any:
    """A state as the store gives it back (JSON text read again: lists, string keys)."""
    return json.loads(json.dumps(game.to_json()))


def _plain(text: str) -> str:
    """Discord markdown left out, for the text file."""
    return text.replace("**", "").replace("`", "")


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "unknown"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


# ---------------------------------------------------------------------------
# One step in words and in a picture
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """What a step shows: its words and the view its picture is drawn from."""

    text: str
    picture: OpenTableView | ResultView


def show_step(replay: Replay, index: int) -> Shown:
    """Step ``index`` of ``replay`` in words and as a view to draw (pure; run in a thread)."""
    timeline, names = replay.timeline, replay.names
    frame = timeline.frame(index)
    step = frame.step
    table = frame.after.table_view()
    label = table.hand_label.capitalize()
    total = len(timeline.record.moves)
    lines = []
    if step.kind == "end":
        final = frame.after.is_over and index == len(timeline) - 1
        heading = "The game is over" if final else f"{label} {step.hand} is over"
    elif step.kind == "deal":
        heading = f"{label} {step.hand} · the deal"
    else:
        heading = f"{label} {step.hand} · move {step.moves} of {total}"
    lines.append(f"**{heading}**")
    caption = ""
    if frame.move is not None and step.kind != "deal":
        caption = timeline.record.move_line(step.moves)
        lines.append(f"`{caption}`")
    lines += [with_names(e.text, names) for e in _events_of(frame)]
    if step.kind == "end":
        view = frame.after.result_view()
        lines.append(result_text(view, names))
        return Shown(clip("\n".join(lines), EMBED_LIMIT), with_names_in(view, names))
    open_table = open_view(frame.after, frame.before if step.kind == "move" else None,
                           heading=heading, caption=caption)
    lines.append(table_text(table, names))
    lines.append("**Every hand, open** (the game is over)")
    lines += [_hand_line(hand, names, open_table) for hand in open_table.hands]
    return Shown(clip("\n".join(lines), EMBED_LIMIT), open_table)


def _events_of(frame: Frame) -> list[Event]:
    """The step's events in words: an end step tells the hand's end, the deal that follows
    (same move) the new deal; whose turn it is goes without saying."""
    events = [e for e in frame.events if e.kind != "turn"]
    start = next((i for i, e in enumerate(events) if e.kind.endswith("_started")), len(events))
    if frame.step.kind == "end":
        return events[:start]
    if frame.step.kind == "deal":
        return events[start:]
    return events


def _hand_line(hand: OpenHand, names: Sequence[str], view: OpenTableView) -> str:
    """``▶ **alice** (8): 2H 3H … KD (+KD −7H)``: a hand in words, with the step's changes."""
    mover = any(p.seat == hand.seat and p.to_move for p in view.table.players)
    changes = hand.changes()
    changed = f" ({changes})" if changes else ""
    return (f"{'▶ ' if mover else ''}**{names[hand.seat]}** ({len(hand.pieces)}): "
            f"{codes(hand.pieces) or 'nothing'}{changed}")


# ---------------------------------------------------------------------------
# The stepper's components
# ---------------------------------------------------------------------------


def _replays(interaction: discord.Interaction) -> Replays:
    found: Replays = interaction.client.controller.replays  # type: ignore[attr-defined]
    return found


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?s)rpb:.*"):
    """⏮ ◀ ▶ ⏭ on a stepper; the ``custom_id`` (``rpb:<game>:<step>:<way>``) names the step
    the button goes to. Any ``rpb:`` id is taken and read strictly (``decode_replay``)."""

    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    def make(cls, game_id: int, step: int, action: str, *, emoji: str | None = None,
             label: str | None = None, disabled: bool = False) -> ReplayButton:
        return cls(discord.ui.Button(label=label, emoji=emoji, disabled=disabled,
                                     style=discord.ButtonStyle.secondary,
                                     custom_id=f"rpb:{game_id}:{step}:{action}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReplayButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        custom_id = self.item.custom_id or ""
        await answered(interaction, custom_id, None,
                       lambda: decode_replay(custom_id, None, ()), _step)


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select], template=r"(?s)rps:.*"):
    """Jump to a hand's deal, or to the results: the values are step numbers, read strictly
    against the options the menu offered (``decode_replay``)."""

    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)

    @classmethod
    def make(cls, game_id: int, step: int,
             options: Sequence[discord.SelectOption] = ()) -> ReplaySelect:
        return cls(discord.ui.Select(custom_id=f"rps:{game_id}:{step}", placeholder="Jump to…",
                                     options=list(options)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReplaySelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        custom_id, values = self.item.custom_id, list(self.item.values)
        offered = [option.value for option in self.item.options]
        await answered(interaction, custom_id, values,
                       lambda: decode_replay(custom_id, values, offered), _step)


async def _step(interaction: discord.Interaction, target: tuple[int, int]) -> None:
    """A stepper's click, read (``decode_replay``): show that game at that step."""
    game_id, step = target
    await _replays(interaction).step(interaction, game_id, step)


REPLAY_ITEMS = (ReplayButton, ReplaySelect)


def stepper_view(replay: Replay, index: int) -> discord.ui.View:
    """The jump menu, then ⏮ ◀ ▶ ⏭ (each names its target step; those that go nowhere
    are disabled). Returned stopped: DynamicItems need no live view."""
    last = len(replay.timeline) - 1
    view = discord.ui.View(timeout=None)
    menu = ReplaySelect.make(replay.game_id, index, jump_options(replay, index))
    menu.item.row = 0
    view.add_item(menu)
    targets = {"first": 0, "prev": max(index - 1, 0), "next": min(index + 1, last),
               "last": last}
    for action, emoji, label in BUTTONS:
        target = targets[action]
        button = ReplayButton.make(replay.game_id, target, action, emoji=emoji, label=label,
                                   disabled=target == index)
        button.item.row = 1
        view.add_item(button)
    view.stop()
    return view


def jump_options(replay: Replay, index: int) -> list[discord.SelectOption]:
    """Each hand's deal (a window of hands round the current one in a long match), and the
    results."""
    timeline = replay.timeline
    hands = timeline.hands()
    current = timeline.hand_at(index)
    first = max(0, min(current - SELECT_HANDS // 2, len(hands) - SELECT_HANDS))
    label = replay.hand_label.capitalize()
    total = len(timeline.record.moves)
    last = len(timeline) - 1
    options = []
    for position in range(first, min(first + SELECT_HANDS, len(hands))):
        span = hands[position]
        start = timeline.steps[span.deal].moves + 1
        end = timeline.steps[span.end].moves if span.end is not None else total
        moves = f"moves {start}–{end}" if end >= start else "no moves"
        options.append(discord.SelectOption(
            label=f"{label} {span.number} · {moves}"[:100], value=str(span.deal),
            default=position == current and index != last))
    options.append(discord.SelectOption(label="Results", value=str(last),
                                        default=index == last))
    return options


# ---------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------


class Replays:
    """Opens steppers, answers their clicks, and keeps recently replayed games."""

    def __init__(self, store: Store, renderer: Renderer) -> None:
        self.store = store
        self.renderer = renderer
        self._cache: OrderedDict[int, Replay] = OrderedDict()
        self._building: dict[int, asyncio.Future[Replay]] = {}
        self._latest: OrderedDict[int, int] = OrderedDict()

    # -- finding the game ------------------------------------------------------

    async def load(self, game_id: int, guild_id: int | None) -> Replay:
        """The replay of game ``game_id``, if it is a finished game of ``guild_id``."""
        if guild_id is None:
            raise ReplayRefused("Replays belong to a server: ask in the server where the game "
                                "was played.")
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            if cached.guild_id != guild_id:
                raise ReplayRefused(f"Game #{game_id} was not played in this server.")
            return cached
        row = await self.store.get_game(game_id)
        if row is None:
            raise ReplayRefused(f"There is no game #{game_id}.")
        if row.guild_id != guild_id:
            raise ReplayRefused(f"Game #{game_id} was not played in this server.")
        if row.status == "running":
            raise ReplayRefused(f"Game #{game_id} is still being played: replay it once it "
                                "is over.")
        if row.status == "lobby":
            raise ReplayRefused(f"Game #{game_id} has not started yet.")
        if row.status != "finished":
            raise ReplayRefused(f"Game #{game_id} was cancelled before it ended: there is "
                                "nothing to replay.")
        building = self._building.get(game_id)
        if building is None:
            building = asyncio.ensure_future(self._build(row))
            self._building[game_id] = building
            building.add_done_callback(lambda _: self._building.pop(game_id, None))
        replay = await asyncio.shield(building)
        self._cache[game_id] = replay
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return replay

    async def _build(self, row: GameRow) -> Replay:
        moves = await self.store.moves(row.id)
        return await asyncio.to_thread(build_replay, row, moves)

    async def default_game(self, interaction: discord.Interaction) -> int:
        """The invoker's last finished game in this server."""
        if interaction.guild_id is None:
            raise ReplayRefused("Replays belong to a server: ask in the server where the game "
                                "was played.")
        game_id = await self.store.last_finished_game(interaction.guild_id,
                                                      interaction.user.id)
        if game_id is None:
            raise ReplayRefused("You have no finished game in this server yet: pick one with "
                                "the game option.")
        return game_id

    async def complete(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        """This server's recent finished games whose label holds every word typed."""
        if interaction.guild_id is None:
            return []
        rows = await self.store.history(interaction.guild_id, None, AUTOCOMPLETE_SCAN)
        words = current.lower().replace("#", " ").split()
        choices = []
        for row in rows:
            label = game_label(row)
            if all(word in label.lower() for word in words):
                choices.append(app_commands.Choice(name=label, value=str(row.game_id)))
        return choices[:CHOICES]

    # -- answering -------------------------------------------------------------

    async def command(self, interaction: discord.Interaction, game: str | None) -> None:
        """``/rummy replay [game]``."""
        game_id = None
        if game is not None:
            found = re.match(r"\s*#?(\d{1,18})\b", game)
            if found is None:
                await reply(interaction, "Pick a game from the list (start typing a player, "
                                         "a variant or a seed).")
                return
            game_id = int(found[1])
        await self.open(interaction, game_id)

    async def open(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """A new private stepper at the deal, with the game record (command and Replay)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if game_id is None:
                game_id = await self.default_game(interaction)
            replay = await self.load(game_id, interaction.guild_id)
            embed, picture, view = await self.compose(interaction, replay, 0)
            record = discord.File(io.BytesIO(replay.record.encode("utf-8")),
                                  filename=replay.filename)
            await interaction.followup.send(embed=embed, files=[picture, record], view=view,
                                            ephemeral=True)
        except ReplayRefused as refusal:
            await reply(interaction, str(refusal))

    async def step(self, interaction: discord.Interaction, game_id: int, index: int) -> None:
        """A stepper button or the jump menu: the stepper shows step ``index``."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await self.open(interaction, game_id)  # never step on a public message
            return
        await interaction.response.defer()
        self._latest[message.id] = interaction.id
        self._latest.move_to_end(message.id)
        while len(self._latest) > CLICKS_REMEMBERED:
            self._latest.popitem(last=False)
        try:
            replay = await self.load(game_id, interaction.guild_id)
            embed, picture, view = await self.compose(interaction, replay, index)
        except ReplayRefused as refusal:
            await reply(interaction, str(refusal))
            return
        if self._latest.get(message.id) != interaction.id:
            return  # a later click on this stepper answers instead
        kept = [a for a in message.attachments if a.filename == replay.filename]
        try:
            await interaction.edit_original_response(embed=embed, attachments=[*kept, picture],
                                                      view=view)
        except discord.HTTPException:
            log.warning("could not show step %s of game %s", index, game_id, exc_info=True)

    async def compose(self, interaction: discord.Interaction, replay: Replay,
                      index: int) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        """The stepper at step ``index`` (clamped to the game): embed, picture, components."""
        index = max(0, min(index, len(replay.timeline) - 1))
        shown = await asyncio.to_thread(show_step, replay, index)
        if isinstance(shown.picture, OpenTableView):
            settings = await self.store.get_settings(interaction.user.id)
            png = await self.renderer.open_table(shown.picture, replay.names,
                                                 settings.card_style)
        else:
            png = await self.renderer.results(shown.picture, replay.names)
        embed = discord.Embed(title=f"Replay · {replay.title} · game #{replay.game_id}",
                              description=shown.text, colour=COLOUR)
        embed.set_image(url="attachment://replay.png")
        embed.set_footer(text=f"Step {index + 1} of {len(replay.timeline)} · only you see this "
                              f"replay · the game record is {replay.filename}")
        return embed, as_file(png, "replay.png"), stepper_view(replay, index)


def game_label(row: HistoryRow) -> str:
    """``#42 · Straight Rummy · alice, bob, Ada (bot) · 2025-06-03 · seed 11`` (≤ 100)."""
    when = datetime.fromtimestamp(row.finished_at, UTC).strftime("%Y-%m-%d")
    tail = f" · {when} · seed {row.seed}"
    head = f"#{row.game_id} · {TITLES.get(row.variant, row.variant)} · "
    players = ", ".join(p.name for p in sorted(row.players, key=lambda p: p.seat))
    room = 100 - len(head) - len(tail)
    if len(players) > room:
        players = players[:max(room - 1, 0)] + "…"
    return (head + players + tail)[:100]

