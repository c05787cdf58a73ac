"""The game controller: every path from a Discord interaction to a saved move and back.

One controller per bot. It keeps the live sessions, applies moves one at a
time per game (``Session.lock``), writes each move to the store *before*
answering (nothing acknowledged is lost), and then lets the publisher update
the channel and the players' DMs. Timers and computer players are tasks that
go through the same path as a click (:meth:`Controller.play`).

Data flows down: the controller builds the lobby, the hand panels and the
publisher and hands each only what it needs; none of them calls back.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence

import discord

from .config import Config
from .controls.base import Reply
from .customids import GAME_GONE, Action, Click
from .engine.errors import NotYourTurn, RummyError
from .engine.game import Event, Game, Move, Timeout
from .hints import hint
from .interactions import hold, patiently, reply
from .lobby import LobbyFlow, LobbyRefusal
from .panels import HandPanels
from .publisher import Publisher
from .render import Renderer
from .replay import Replays
from .sessions import Session, SessionRegistry, turn_deadline
from .shards import ShardSet
from .store import ResultRow, StaleGame, Store, StoreError
from .tasks import Tasks
from .texts import left_text, not_your_turn_text, with_names

log = logging.getLogger(__name__)

NEXT_ACTION_PAUSE = 0.4
"""Share of the computer's pause before a further action in the same turn (Penang, tiles)."""

MakeMove = Callable[[Game, int], Move | Reply]

RATE_HINTED = "rate_hinted_games"
"""The server setting: games in which someone used a hint count for ratings (default)."""

MOVED_ON = "This game moved on elsewhere, so your move was not played."
"""The answer when the database refused a move as stale (another process saved one first)."""


class Controller:
    def __init__(self, client: discord.Client, config: Config, store: Store) -> None:
        self.config = config
        self.store = store
        self.sessions = SessionRegistry()
        self.tasks = Tasks()
        self.renderer = Renderer(config.render_processes)
        self.panels = HandPanels(store, self.renderer, self.tasks)
        self.publisher = Publisher(client, store, self.renderer, self.tasks, self.panels,
                                   self.sessions)
        self.lobby = LobbyFlow(store, self.sessions, self.publisher)
        self.replays = Replays(store, self.renderer)
        self.closing = False
        self.on_stale: Callable[[], None] = lambda: None
        """Called when the store refused a write as stale: another process may own the
        game now (the bot checks its shard claims)."""

    def session_for(self, interaction: discord.Interaction) -> Session | None:
        channel_id = interaction.channel_id
        return self.sessions.in_channel(channel_id) if channel_id is not None else None

    # -- moves --------------------------------------------------------------

    async def play(self, session: Session, move: Move, user_id: int | None) -> list[Event]:
        """Apply ``move`` and save it with the new state, in one transaction, then adopt it.

        The one place a move happens (clicks, commands, timers, computers, leaving).
        Raises :class:`RummyError` for a refused move and :class:`StoreError` when
        it could not be saved; either way nothing changed. On :class:`StaleGame` (the
        game moved on in another process) the session has adopted the saved game first.
        Call with the lock held.
        """
        game = session.game
        assert game is not None
        # Off the event loop: a move may search (Tile Rummy's Arrange), and the loop must
        # keep answering everyone else meanwhile. The engine is pure, so a thread is safe.
        new, events = await asyncio.to_thread(game.apply, move)
        deadline = turn_deadline(session, game, new)
        try:
            await self.store.record_move(session.game_id, move.seat, user_id, move.to_json(),
                                         new.to_json(), deadline, expected_moves=session.moves)
        except StaleGame:
            self.on_stale()
            await self.reload(session)
            raise
        session.game = new
        session.moves += 1
        session.deadline = deadline
        session.log.extend(with_names(e.text, session.names) for e in events
                           if e.kind != "turn")
        if new.is_over:
            await self.finish(session)
        self.publisher.wake(session)
        return events

    async def submit(self, interaction: discord.Interaction, session: Session,
                     make_move: MakeMove, *, panel: bool = True) -> None:
        """A player's move: check, save, answer, then publish.

        ``make_move`` builds the move from the current game and the player's
        seat; it may raise a :class:`RummyError` (bad input) or return a
        :class:`Reply` (an answer that changes nothing).
        """
        if session.status == "lobby" or session.game is None:
            await reply(interaction, "The game has not started yet: the host presses Start in "
                                     "the lobby.")
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not playing in this game.")
            return
        async with hold(session.lock, interaction):
            game = session.game
            if game is None or game.is_over or session.status != "running":
                await reply(interaction, "This game is over.")
                return
            try:  # a move or a preview may search: deferred in time if it takes long
                outcome = await patiently(interaction, asyncio.to_thread(make_move, game, seat))
                if isinstance(outcome, Reply):
                    await self.panels.answer(interaction, session, seat, outcome)
                    return
                events = await patiently(interaction,
                                         self.play(session, outcome, interaction.user.id))
            except NotYourTurn:
                await reply(interaction, not_your_turn_text(game.to_move, session.names))
                return
            except RummyError as error:
                await reply(interaction, error.message)
                return
            except StaleGame:
                await self.show_moved_on(interaction, session)
                self.schedule(session)
                return
            except StoreError:
                log.exception("could not save a move in game %s", session.game_id)
                await reply(interaction, "The move could not be saved, so it did not happen; "
                                         "please try again.")
                return
            note = self.private_note(session, events, seat)
            new = session.game
            if panel and not new.is_over:
                await self.panels.show(interaction, session, seat, note=note, refresh=True)
            else:
                await reply(interaction, note)
        self.schedule(session)

    async def reload(self, session: Session) -> None:
        """Adopt the game as the database has it now; one that ended there closes here."""
        row = await self.store.get_game(session.game_id)
        if session.status == "moved":  # released meanwhile (its shard is owned elsewhere)
            return
        if row is None or not row.is_open:
            session.status = "cancelled" if row is None else str(row.status)
            self.sessions.close(session)
            return
        session.adopt(row)

    async def show_moved_on(self, interaction: discord.Interaction, session: Session) -> None:
        """Tell the player their move was not played, and show the game as it is now."""
        seat = session.seat_of(interaction.user.id)
        game = session.game
        if seat is None or game is None or game.is_over or session.status != "running":
            await reply(interaction, MOVED_ON)
        else:
            await self.panels.show(interaction, session, seat,
                                   note=f"{MOVED_ON} Here is where it stands now.", refresh=True)

    @staticmethod
    def private_note(session: Session, events: Sequence[Event], seat: int) -> str:
        """What the mover reads: private texts for them, public ones otherwise."""
        lines = [e.private if e.seat == seat and e.private else with_names(e.text, session.names)
                 for e in events if e.kind not in ("turn",)]
        return "\n".join(lines[:8]) or "Done."

    def after_change(self, session: Session) -> None:
        """After a change that is not a move (start, leave, restart): publish and schedule."""
        self.publisher.wake(session)
        self.schedule(session)

    # -- hints ----------------------------------------------------------------

    async def hint(self, interaction: discord.Interaction, session: Session) -> None:
        """``/rummy hint`` and *Hint*: privately, the move the strongest computer would make
        for the clicker now, and why. Counted for the seat (saved before the answer)."""
        if session.status == "lobby" or session.game is None:
            await reply(interaction, "The game has not started yet: hints come on your turn.")
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not playing in this game, so there is no hint "
                                     "for you.")
            return
        if not session.hints:
            await reply(interaction, "Hints are off in this game (the lobby's hints option).")
            return
        async with hold(session.lock, interaction):
            game = session.game
            if game is None or game.is_over or session.status != "running":
                await reply(interaction, "This game is over: there is nothing to hint.")
                return
            if game.to_move != seat:
                await reply(interaction, f"{not_your_turn_text(game.to_move, session.names)} "
                                         "Hints come on your turn.")
                return
            try:  # a strong player may search: deferred (privately) in time if it is slow
                given = await patiently(interaction, hint(session.variant, game, seat,
                                                          session.moves))
                used = await self.store.use_hint(session.game_id, seat)
            except StoreError:
                log.exception("could not count a hint in game %s", session.game_id)
                await reply(interaction, "The hint could not be saved, so it was not given; "
                                         "please try again.")
                return
            session.seats[seat].hints = used
        await reply(interaction, f"💡 {given.text}")

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
            session.tasks["turn"] = self.tasks.spawn(self.computer_turn(session, game),
                                                     f"computer-{session.game_id}")
        elif session.deadline is not None:
            session.tasks["turn"] = self.tasks.spawn(
                self.expire_turn(session, game.turn_serial, session.deadline),
                f"timer-{session.game_id}")

    async def computer_turn(self, session: Session, seen: Game) -> None:
        """One action of a computer player; a turn of many actions comes back here.

        (A player on auto-play, Remi REM-31 and Tile Rummy TIL-30, needs nothing here:
        the engine plays their turns at once, inside the move that reaches them.)
        """
        pause = self.config.computer_delay
        if session.computer_serial == seen.turn_serial:
            pause *= NEXT_ACTION_PAUSE  # the same turn goes on: people follow it already
        await asyncio.sleep(pause)
        async with session.lock:
            game = session.game
            if game is not seen or game is None or game.is_over:
                return
            seat = game.to_move
            if seat is None or not session.seats[seat].is_computer:
                return
            # Deterministic from the seed and the move count: replays reproduce bot play.
            rng = random.Random(f"{game.seed}:{session.moves}")
            # Off the event loop: a computer may search (Tile Rummy's best play, Arrange)
            # while everyone else is still answered.
            move = await asyncio.to_thread(session.variant.choose_move, game, seat, rng,
                                           session.seats[seat].level)
            session.computer_serial = game.turn_serial
            try:
                await self.play(session, move, None)
            except StaleGame:
                log.info("game %s moved on elsewhere: the computer's move was not played",
                         session.game_id)
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
                await self.play(session, Timeout(seat), None)
            except RummyError:
                log.exception("timeout refused in game %s", session.game_id)
                return
            except StaleGame:
                log.info("game %s moved on elsewhere: its timeout was not played",
                         session.game_id)
        self.schedule(session)

    async def resume(self, interaction: discord.Interaction, session: Session) -> None:
        """``/rummy resume``: end auto-play for the player (Remi, Tile Rummy)."""
        kinds = {m.kind: m for m in session.variant.game.move_types}
        resume = kinds.get("resume")
        if resume is None:
            await reply(interaction, f"{session.variant.title} has no auto-play: there is "
                                     "nothing to resume.")
            return
        await self.submit(interaction, session, lambda game, seat: resume(seat), panel=False)

    # -- lobby actions and leaving ----------------------------------------------

    async def lobby_action(self, interaction: discord.Interaction, session: Session,
                           action: str, arg: str = "", *, from_button: bool = False) -> None:
        """Join, leave, add a computer, start or cancel: one line, or the lobby updated.

        ``leave`` in a running game is the variant's own way out (see :meth:`leave_game`).
        """
        async with hold(session.lock, interaction):
            if action == "leave" and session.status == "running":
                await self.leave_game(interaction, session)
                return
            try:
                note = await self.lobby.perform(interaction, session, action, arg)
            except LobbyRefusal as refusal:
                await reply(interaction, str(refusal))
                return
            if session.game is not None and session.game.is_over:
                await self.finish(session)  # decided in the deal (Rummi's Tien Hu, RMI-7)
        await self.lobby.show(interaction, session, note, from_button)
        if session.status in ("running", "finished"):
            self.after_change(session)

    async def leave_game(self, interaction: discord.Interaction, session: Session) -> None:
        """``/rummy leave`` mid-game (lock held).

        The variant's own way out where it has one (Indian drop, Penang Dead…);
        otherwise a computer takes the seat. Either way the leaver is recorded
        last, so the seat is marked before the way out is played: a forfeit that
        ends the game records its results with the leaver in place.
        """
        game = session.game
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not seated in this game.")
            return
        assert game is not None
        move = game.forfeit_move(seat)
        if move is not None:
            try:
                game.apply(move)  # refusals are answered before anything is marked
            except RummyError as error:
                await reply(interaction, error.message)
                return
        player = session.seats[seat]
        await self.store.mark_left(session.game_id, seat, computer=True)
        player.left = player.is_computer = True
        if move is not None:
            await self.play(session, move, interaction.user.id)
        else:
            session.log.append(f"{player.name} left the game; a computer plays their seat.")
        new = session.game
        assert new is not None
        if new.is_over:
            await reply(interaction, "You left, and that ended the game: the results are in "
                                     "the channel.")
            return
        state = new.table_view().players[seat].state if move is not None else None
        await reply(interaction, left_text(state))
        self.after_change(session)

    # -- the end --------------------------------------------------------------

    async def finish(self, session: Session) -> None:
        """Record results and ratings (leavers last), and free the channel.

        A game in which someone used a hint is rated unless the server turned that off
        (``/rummy settings rate_hinted_games``).
        """
        game = session.game
        assert game is not None and game.is_over
        final_place = {p.seat: p.place for p in session.result_view(game).placings}
        n = len(session.seats)
        totals = game.history()[-1].totals if game.history() else (0,) * n
        rows = [ResultRow(seat=i, user_id=seat.user_id, is_computer=seat.is_computer,
                          place=final_place[i], points=int(totals[i]),
                          won=final_place[i] == 1)
                for i, seat in enumerate(session.seats)]
        if session.hinted:
            settings = await self.store.get_server_settings(session.guild_id)
            session.rated = bool(settings.get(RATE_HINTED, True))
        await self.store.finish_game(session.game_id, game.to_json(), rows,
                                     rated=session.rated)
        session.status = "finished"
        # The channel is free at once: the results may take a while to draw and post
        # (or fail to post), and a new game need not wait for them. The publisher holds
        # the session until it has told the channel; Rematch finds the game by its id.
        self.sessions.remove(session)

    # -- components -----------------------------------------------------------

    def actions_of(self, game_id: int) -> Mapping[str, Action] | None:
        """A running game's own actions, for reading its components (bot.customids)."""
        session = self.sessions.by_id(game_id)
        return session.variant.controls.actions if session is not None else None

    async def on_click(self, interaction: discord.Interaction, click: Click) -> None:
        """A button or select, already read strictly (``bot.customids.decode``)."""
        if click.action == "rematch":
            await self.lobby.rematch(interaction, click.game_id)
            return
        if click.action == "replay":
            await self.replays.open(interaction, click.game_id)
            return
        session = self.sessions.by_id(click.game_id)
        if session is None:
            await reply(interaction, GAME_GONE)
            return
        if click.action in LobbyFlow.ACTIONS:
            await self.lobby_action(interaction, session, click.action, click.arg,
                                    from_button=True)
        elif click.action == "hand":
            await self.panels.open(interaction, session)
        elif click.action == "pick":
            await self.panels.pick(interaction, session, click)
        elif click.action == "hint":
            await self.hint(interaction, session)
        else:
            await self.variant_action(interaction, session, click)

    async def variant_action(self, interaction: discord.Interaction, session: Session,
                             click: Click) -> None:
        """A variant's own button or select. Only a hand selection is read as hand
        positions: any other argument (a pile position, a stamp…) never is."""
        controls = session.variant.controls

        def make(game: Game, seat: int) -> Move | Reply:
            picked = self.panels.picked(session, interaction.user.id, click.selection)
            return controls.action(game, seat, click.action, click.arg, picked, click.values)

        if click.selection:
            await self.panels.ensure_shown(session, interaction.user.id)
        await self.submit(interaction, session, make)

    # -- start and stop -------------------------------------------------------

    async def restore(self, shards: ShardSet) -> int:
        """Bring back every lobby and running game of these shards' guilds (UX.md §5).

        At start, and when a shard becomes this process's: its games' timers,
        computers and publishing carry on here. Games already here stay as they
        are, so restoring a shard twice changes nothing. Returns how many came back.
        """
        restored = 0
        for row in await self.store.unfinished_games((shards.count, shards.ids)):
            if self.sessions.by_id(row.id) is not None:
                continue
            try:
                session = Session.from_row(row)
            except (KeyError, ValueError, TypeError):
                log.exception("cannot restore game %s", row.id)
                continue
            self.sessions.add(session)
            restored += 1
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
        log.info("restored %d game(s) of %s", restored, shards)
        return restored

    def release(self, shards: ShardSet) -> int:
        """Stop playing the games of these shards' guilds: another process owns them now.

        Their timers, computer players and publishing stop and they leave the
        registry; nothing is written (the database is the new owner's). A move
        in progress finishes or is refused by the store. Returns how many went.
        """
        released = [s for s in self.sessions.all() if shards.owns(s.guild_id)]
        for session in released:
            # Not "running" any more: a click still holding the lock cannot arm a timer or
            # wake a computer for it afterwards (schedule).
            session.status = "moved"
            self.sessions.close(session)
            self.publisher.forget(session)
        return len(released)

    async def shutdown(self) -> None:
        """Let moves in progress finish, stop timers and computers, stop publishing."""
        self.closing = True
        for session in self.sessions.all():
            session.cancel_tasks()
            async with session.lock:
                pass
        self.publisher.stop()
        await self.tasks.cancel_all()
        self.renderer.close()
