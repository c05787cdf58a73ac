"""The game controller: every path from a Discord interaction to a saved move and back.

One controller per bot. It keeps the live sessions, applies moves one at a
time per game (``Session.lock``), writes each move to the store *before*
answering (nothing acknowledged is lost), and then lets the publisher update
the channel and the players' DMs. Timers and computer players are tasks that
go through the same path as a click.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from .adapters import Reply, VariantAdapter
from .engine.errors import RummyError
from .engine.game import Event, Game, Move, Timeout
from .lobby import LobbyFlow
from .panels import HandPanels
from .publisher import Publisher
from .render import Renderer
from .sessions import Session, SessionRegistry
from .store import ResultRow, Store, StoreError
from .texts import with_names

if TYPE_CHECKING:
    from .app import RummyBot

log = logging.getLogger(__name__)

DEFER_AFTER = 1.0
"""Seconds to wait for a busy game before deferring an interaction (Discord allows 3)."""


class Controller:
    def __init__(self, bot: RummyBot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.config = bot.config
        self.sessions = SessionRegistry()
        self.adapters: dict[str, VariantAdapter] = {}
        self.renderer = Renderer(self.config.render_processes)
        self.publisher = Publisher(self)
        self.panels = HandPanels(self)
        self.lobby = LobbyFlow(self)
        self.closing = False
        self._background: set[asyncio.Task] = set()

    # -- helpers ------------------------------------------------------------

    def spawn(self, coro, name: str) -> asyncio.Task:
        """A background task that is logged if it fails and awaited at shutdown."""
        task = asyncio.create_task(coro, name=name)
        self._background.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("task %s failed", task.get_name(), exc_info=task.exception())

    @staticmethod
    async def reply(interaction: discord.Interaction, text: str, **kwargs) -> None:
        """A private answer, whatever has already been sent for this interaction."""
        kwargs.setdefault("ephemeral", True)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)

    def session_for(self, interaction: discord.Interaction) -> Session | None:
        channel_id = interaction.channel_id
        return self.sessions.in_channel(channel_id) if channel_id is not None else None

    def adapter(self, session: Session) -> VariantAdapter:
        return self.adapters[session.variant.key]

    @contextlib.asynccontextmanager
    async def locked(self, session: Session, interaction: discord.Interaction | None = None,
                     *, ephemeral: bool = True):
        """The game's lock; an interaction kept waiting is deferred before Discord gives up."""
        if interaction is not None and session.lock.locked():
            acquiring = asyncio.ensure_future(session.lock.acquire())
            try:
                await asyncio.wait_for(asyncio.shield(acquiring), DEFER_AFTER)
            except TimeoutError:
                if not interaction.response.is_done():
                    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                await acquiring
        else:
            await session.lock.acquire()
        try:
            yield
        finally:
            session.lock.release()

    # -- moves --------------------------------------------------------------

    async def submit(self, interaction: discord.Interaction, session: Session,
                     make_move: Callable[[Game, int], Move | Reply], *,
                     panel: bool = True) -> None:
        """Apply a player's move: check, save, answer, then publish.

        ``make_move`` builds the move from the current game and the player's
        seat; it may raise a :class:`RummyError` (bad input) or return a
        :class:`Reply` (an answer that changes nothing).
        """
        if session.status != "running" or session.game is None:
            await self.reply(interaction, "The game has not started yet: the host presses "
                                          "Start in the lobby.")
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await self.reply(interaction, "You are not playing in this game.")
            return
        async with self.locked(session, interaction):
            game = session.game
            if game is None or game.is_over:
                await self.reply(interaction, "This game is over.")
                return
            try:
                outcome = make_move(game, seat)
                if isinstance(outcome, Reply):
                    await self.panels.answer(interaction, session, seat, outcome)
                    return
                new, events = game.apply(outcome)
            except RummyError as error:
                await self.reply(interaction, error.message)
                return
            try:
                await self.commit(session, outcome, new, events, interaction.user.id)
            except StoreError:
                log.exception("could not save a move in game %s", session.game_id)
                await self.reply(interaction, "The move could not be saved, so it did not "
                                              "happen; please try again.")
                return
            note = self.private_note(session, events, seat)
            if panel and not new.is_over:
                await self.panels.show(interaction, session, seat, note=note, refresh=True)
            else:
                await self.reply(interaction, note)
        self.schedule(session)

    def private_note(self, session: Session, events: Sequence[Event], seat: int) -> str:
        """What the mover reads: private texts for them, public ones otherwise."""
        lines = [e.private if e.seat == seat and e.private else with_names(e.text, session.names)
                 for e in events if e.kind not in ("turn",)]
        return "\n".join(lines[:8]) or "Done."

    async def commit(self, session: Session, move: Move, new: Game, events: Sequence[Event],
                     user_id: int | None) -> None:
        """Save the move and the new state (one transaction), then adopt it."""
        old = session.game
        deadline = self.deadline_for(session, old, new)
        await self.store.record_move(session.game_id, move.seat, user_id, move.to_json(),
                                     new.to_json(), deadline)
        session.game = new
        session.moves += 1
        session.deadline = deadline
        session.log.extend(with_names(e.text, session.names) for e in events
                           if e.kind != "turn")
        if new.is_over:
            await self.finish(session)
        self.publisher.wake(session)

    def deadline_for(self, session: Session, old: Game | None, new: Game) -> float | None:
        """A fresh timer when a person's turn starts; the same one while it lasts."""
        seat = new.to_move
        if new.is_over or seat is None or not new.turn_seconds or session.seats[seat].is_computer:
            return None
        if old is not None and old.turn_serial == new.turn_serial and session.deadline:
            return session.deadline
        return time.time() + new.turn_seconds

    def after_change(self, session: Session) -> None:
        """After a change that is not a move (start, leave, restart): publish and schedule.

        A move wakes the publisher itself as soon as it is saved (``commit``).
        """
        self.publisher.wake(session)
        self.schedule(session)

    # -- timers and computer players ------------------------------------------

    def schedule(self, session: Session) -> None:
        """Arm the turn timer, or wake the computer, for whoever moves next."""
        old = session.tasks.pop("turn", None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        game = session.game
        if self.closing or game is None or game.is_over or session.status != "running":
            return
        seat = game.to_move
        if seat is None:
            return
        if session.seats[seat].is_computer:
            session.tasks["turn"] = self.spawn(self.computer_turn(session, game),
                                               f"computer-{session.game_id}")
        elif session.deadline is not None:
            session.tasks["turn"] = self.spawn(self.expire_turn(session, game.turn_serial,
                                                                session.deadline),
                                               f"timer-{session.game_id}")

    async def computer_turn(self, session: Session, seen: Game) -> None:
        await asyncio.sleep(self.config.computer_delay)
        async with session.lock:
            game = session.game
            if game is not seen or game is None or game.is_over:
                return
            seat = game.to_move
            if seat is None or not session.seats[seat].is_computer:
                return
            # Deterministic from the seed and the move count: replays reproduce bot play.
            rng = random.Random(f"{game.seed}:{session.moves}")
            move = session.variant.choose_move(game, seat, rng)
            new, events = game.apply(move)
            await self.commit(session, move, new, events, None)
        self.schedule(session)

    async def expire_turn(self, session: Session, serial: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with session.lock:
            game = session.game
            if game is None or game.is_over or game.turn_serial != serial:
                return
            seat = game.to_move
            if seat is None:
                return
            try:
                new, events = game.apply(Timeout(seat))
            except RummyError:
                log.exception("timeout refused in game %s", session.game_id)
                return
            await self.commit(session, Timeout(seat), new, events, None)
        self.schedule(session)

    async def leave_game(self, interaction: discord.Interaction, session: Session,
                         seat: int) -> None:
        """``/rummy leave`` mid-game (called with the lock held).

        The variant's own way out where it has one (Indian drop, Penang Dead…);
        otherwise a computer takes the seat. Either way the leaver is recorded last.
        """
        game = session.game
        assert game is not None
        name = session.seats[seat].name
        move = game.forfeit_move(seat)
        if move is not None:
            try:
                new, events = game.apply(move)
            except RummyError as error:
                await self.reply(interaction, error.message)
                return
            await self.commit(session, move, new, events, interaction.user.id)
        session.seats[seat].left = True
        session.seats[seat].is_computer = True
        await self.store.mark_left(session.game_id, seat, computer=True)
        session.log.append(f"{name} left the game; a computer plays their seat.")
        await self.reply(interaction, "You left the game. A computer plays your seat and you "
                                      "are recorded last.")
        self.after_change(session)

    # -- the end --------------------------------------------------------------

    async def finish(self, session: Session) -> None:
        """Record results and ratings (leavers last), and close the session."""
        game = session.game
        assert game is not None and game.is_over
        view = game.result_view()
        places = {p.seat: p.place for p in view.placings}
        n = len(session.seats)
        leavers = [i for i, s in enumerate(session.seats) if s.left]
        stayers = sorted((i for i in range(n) if i not in leavers), key=lambda i: places[i])
        final_place = {}
        for i in stayers:
            final_place[i] = places[i]
        for i in leavers:
            final_place[i] = n  # UX.md: the leaver is recorded last
        totals = game.history()[-1].totals if game.history() else (0,) * n
        rows = [ResultRow(seat=i, user_id=seat.user_id, is_computer=seat.is_computer,
                          place=final_place[i], points=int(totals[i]),
                          won=final_place[i] == 1)
                for i, seat in enumerate(session.seats)]
        await self.store.finish_game(session.game_id, game.to_json(), rows)
        session.status = "finished"

    def close_session(self, session: Session) -> None:
        session.cancel_tasks()
        self.sessions.remove(session)

    # -- components -----------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str,
                        arg: str) -> None:
        if action == "rematch":
            await self.lobby.rematch(interaction, game_id)
            return
        session = self.sessions.by_id(game_id)
        if session is None:
            await self.reply(interaction, "This game is no longer running.")
            return
        if action in LobbyFlow.ACTIONS:
            await self.lobby.on_button(interaction, session, action)
        elif action == "hand":
            await self.panels.open(interaction, session)
        else:
            await self.variant_action(interaction, session, action, arg, [])

    async def on_select(self, interaction: discord.Interaction, game_id: int, action: str,
                        arg: str, values: list[str]) -> None:
        session = self.sessions.by_id(game_id)
        if session is None:
            await self.reply(interaction, "This game is no longer running.")
            return
        if action == "pick":
            await self.panels.pick(interaction, session, values)
        else:
            await self.variant_action(interaction, session, action, arg, values)

    async def variant_action(self, interaction: discord.Interaction, session: Session,
                             action: str, arg: str, values: list[str]) -> None:
        adapter = self.adapter(session)

        def make(game: Game, seat: int) -> Move | Reply:
            picked = self.panels.picked(session, interaction.user.id, arg)
            return adapter.action(game, seat, action, arg, picked, values)

        await self.panels.ensure_shown(session, interaction.user.id)
        await self.submit(interaction, session, make)

    # -- start and stop -------------------------------------------------------

    async def restore(self) -> None:
        """Bring back every lobby and running game after a start (UX.md §5)."""
        for row in await self.store.unfinished_games():
            try:
                session = Session.from_row(row)
            except (KeyError, ValueError, TypeError):
                log.exception("cannot restore game %s", row.id)
                continue
            self.sessions.add(session)
            if session.status != "running" or session.game is None:
                continue
            game = session.game
            if game.is_over:
                await self.finish(session)
                self.publisher.wake(session)
                continue
            if session.deadline is not None:
                grace = time.time() + max(self.config.restart_grace, 0)
                session.deadline = max(session.deadline, grace)
                await self.store.set_deadline(session.game_id, session.deadline)
            session.log.append("The bot restarted; the game carries on where it was.")
            self.after_change(session)
        log.info("restored %d game(s)", len(self.sessions))

    async def shutdown(self) -> None:
        """Let moves in progress finish, stop timers and computers, stop publishing."""
        self.closing = True
        for session in self.sessions.all():
            session.cancel_tasks()
            async with session.lock:
                pass
        self.publisher.stop()
        pending = [t for t in self._background if not t.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        self.renderer.close()
