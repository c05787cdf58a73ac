"""The bot's database: one SQLite file behind a small async API.

One aiosqlite connection serves the whole bot. aiosqlite runs one statement
at a time on its own thread, but a transaction spans several awaits, so an
``asyncio.Lock`` keeps every operation whole: nobody's statements land inside
somebody else's transaction. Transactions start with ``BEGIN IMMEDIATE`` so a
second process on the same file waits (busy timeout) instead of failing
half-way.

The durability point of a move is :meth:`Store.record_move`: when it returns,
the move and the state after it are committed together.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import EllipsisType, TracebackType
from typing import Any, NoReturn, Self, get_args

import aiosqlite

from . import records
from .errors import ChannelBusy, GameNotFound, WrongStatus
from .results import record_results
from .rows import (
    CardStyle,
    GameRow,
    GameStatus,
    HandSort,
    HistoryRow,
    JSONObject,
    MoveRow,
    PlayerStatsRow,
    ResultRow,
    SeatRow,
    Settings,
    StandingRow,
)
from .schema import BUSY_TIMEOUT, configure, migrate

Clock = Callable[[], float]

_GAME_COLUMNS = (
    "id, guild_id, channel_id, variant, options, seed, status, host_id, state,"
    " lobby_message_id, table_message_id, turn_message_id, turn_deadline, move_count,"
    " created_at, updated_at, finished_at, published")
_SEAT_COLUMNS = "game_id, seat, user_id, name, is_computer, has_left, level"
_OPEN = "status IN ('lobby', 'running')"


def _dump(value: Any) -> str:
    """Compact JSON; refuses NaN/infinity, which would not read back as JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Store:
    """Open with ``await Store.open(path)`` (or ``async with await Store.open(path)``)."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, clock: Clock = time.time) -> Self:
        """Connect, configure, and bring the schema up to date.

        ``clock`` gives UTC epoch seconds for created/updated/finished times.
        Raises :class:`SchemaTooNew` for a database from a newer bot.
        """
        db = await aiosqlite.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            await configure(db)
            await migrate(db, clock())
            await records.register_functions(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    async def close(self) -> None:
        """Fold the WAL back into the database file and close."""
        async with self._lock:
            await self._db.execute("PRAGMA optimize")
            await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """All or nothing: commits when the block ends, rolls back if it raises."""
        async with self._lock:
            try:
                # Inside the try: a task cancelled while BEGIN is on its way (a shutdown)
                # must still roll back, or the open transaction blocks the final checkpoint.
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._db
            except BaseException:
                # aiosqlite runs statements in order, so this follows BEGIN even when the
                # await above was cancelled; when BEGIN itself failed there is nothing to undo.
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    # -- games ------------------------------------------------------------

    async def create_game(self, guild_id: int, channel_id: int, variant: str,
                          options: JSONObject, seed: int, host_id: int,
                          seats: Sequence[SeatRow] = ()) -> int:
        """Open a lobby (with its first ``seats``); raises :class:`ChannelBusy`.

        The partial unique index on open games decides races, even between
        two processes: the losing insert does nothing and returns no id.
        """
        options_json = _dump(options)
        now = self._clock()
        async with self._transaction() as db:
            rows = await _fetchall(db,
                "INSERT INTO games (guild_id, channel_id, variant, options, seed, host_id,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING id",
                (guild_id, channel_id, variant, options_json, str(seed), host_id, now, now))
            if not rows:
                raise ChannelBusy(channel_id)
            game_id: int = rows[0][0]
            await _insert_seats(db, game_id, seats)
        return game_id

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._games(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return games[0] if games else None

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game."""
        games = await self._games(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_OPEN}", (channel_id,))
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        """Every lobby and running game, oldest first: what to restore at start."""
        return await self._games(f"SELECT {_GAME_COLUMNS} FROM games WHERE {_OPEN} ORDER BY id")

    async def lobbies_idle_since(self, since: float) -> list[GameRow]:
        """Lobbies not updated (or touched) since ``since``, longest idle first."""
        return await self._games(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ?"
            " ORDER BY updated_at", (since,))

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace the lobby's seats (join, leave, add computer)."""
        async with self._transaction() as db:
            await _update_in(db, game_id, GameStatus.LOBBY,
                             "UPDATE games SET updated_at = ? WHERE id = ? AND status = 'lobby'",
                             (self._clock(), game_id))
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await _insert_seats(db, game_id, seats)

    async def set_messages(self, game_id: int, *, lobby: int | EllipsisType | None = ...,
                           table: int | EllipsisType | None = ...,
                           turn: int | EllipsisType | None = ...) -> None:
        """Remember message ids; an argument left out keeps its value, ``None`` clears it."""
        async with self._lock:
            cursor = await self._db.execute(
                "UPDATE games SET"
                " lobby_message_id = CASE WHEN :set_lobby THEN :lobby ELSE lobby_message_id END,"
                " table_message_id = CASE WHEN :set_table THEN :table ELSE table_message_id END,"
                " turn_message_id = CASE WHEN :set_turn THEN :turn ELSE turn_message_id END,"
                " updated_at = :now WHERE id = :id",
                {"set_lobby": lobby is not ..., "lobby": None if lobby is ... else lobby,
                 "set_table": table is not ..., "table": None if table is ... else table,
                 "set_turn": turn is not ..., "turn": None if turn is ... else turn,
                 "now": self._clock(), "id": game_id})
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)

    async def set_published(self, game_id: int, published: JSONObject, *,
                            turn: int | EllipsisType | None = ...) -> None:
        """Remember what the channel and DMs show for a game, and with it the turn message
        when ``turn`` is given (one write). Any status: the final results are posted
        after the game is finished."""
        async with self._lock:
            cursor = await self._db.execute(
                "UPDATE games SET published = :published,"
                " turn_message_id = CASE WHEN :set_turn THEN :turn ELSE turn_message_id END"
                " WHERE id = :id",
                {"published": _dump(published), "set_turn": turn is not ...,
                 "turn": None if turn is ... else turn, "id": game_id})
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)

    async def touch(self, game_id: int) -> None:
        """Note activity without a change (keeps a lobby from expiring)."""
        async with self._lock:
            cursor = await self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                                            (self._clock(), game_id))
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)

    async def start_game(self, game_id: int, state: JSONObject, seats: Sequence[SeatRow],
                         deadline: float | None) -> None:
        """Lobby → running, with the dealt state and the final seats, at once."""
        state_json = _dump(state)
        async with self._transaction() as db:
            await _update_in(db, game_id, GameStatus.LOBBY,
                             "UPDATE games SET status = 'running', state = ?, turn_deadline = ?,"
                             " updated_at = ? WHERE id = ? AND status = 'lobby'",
                             (state_json, deadline, self._clock(), game_id))
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await _insert_seats(db, game_id, seats)

    async def record_move(self, game_id: int, seat: int, user_id: int | None, move: JSONObject,
                          state: JSONObject, deadline: float | None) -> int:
        """Append a move and save the state after it, in one transaction; return its seq.

        Only a running game takes moves. This is the durability point: reply
        to the player only after it returns.
        """
        move_json, state_json = _dump(move), _dump(state)
        now = self._clock()
        async with self._transaction() as db:
            rows = await _fetchall(db,
                "UPDATE games SET state = ?, turn_deadline = ?, move_count = move_count + 1,"
                " updated_at = ? WHERE id = ? AND status = 'running' RETURNING move_count",
                (state_json, deadline, now, game_id))
            if not rows:
                await _refuse(db, game_id, GameStatus.RUNNING)
            seq: int = rows[0][0]
            await db.execute(
                "INSERT INTO moves (game_id, seq, seat, user_id, move, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)", (game_id, seq, seat, user_id, move_json, now))
        return seq

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """Move the turn deadline (e.g. a grace period after a restart)."""
        async with self._transaction() as db:
            await _update_in(db, game_id, GameStatus.RUNNING,
                             "UPDATE games SET turn_deadline = ?, updated_at = ?"
                             " WHERE id = ? AND status = 'running'",
                             (deadline, self._clock(), game_id))

    async def mark_left(self, game_id: int, seat: int, *, computer: bool) -> None:
        """A player left a running game; ``computer``: a computer plays the seat from now on."""
        async with self._transaction() as db:
            await _update_in(db, game_id, GameStatus.RUNNING,
                             "UPDATE games SET updated_at = ? WHERE id = ? AND status = 'running'",
                             (self._clock(), game_id))
            cursor = await db.execute(
                "UPDATE seats SET has_left = 1, is_computer = is_computer OR ?"
                " WHERE game_id = ? AND seat = ?", (computer, game_id, seat))
            if cursor.rowcount == 0:
                raise ValueError(f"game {game_id} has no seat {seat}")

    async def finish_game(self, game_id: int, state: JSONObject,
                          results: Sequence[ResultRow]) -> list[ResultRow]:
        """Running → finished: final state, results and rating updates in one transaction.

        Returns the results with the ratings before and after filled in.
        """
        state_json = _dump(state)
        now = self._clock()
        async with self._transaction() as db:
            rows = await _fetchall(db,
                "UPDATE games SET status = 'finished', state = ?, turn_deadline = NULL,"
                " finished_at = ?, updated_at = ? WHERE id = ? AND status = 'running'"
                " RETURNING guild_id, variant", (state_json, now, now, game_id))
            if not rows:
                await _refuse(db, game_id, GameStatus.RUNNING)
            guild_id, variant = rows[0]
            rated = await record_results(db, game_id, guild_id, variant, results, now)
            await db.execute("DELETE FROM shown_hands WHERE game_id = ?", (game_id,))
        return rated

    async def cancel_game(self, game_id: int) -> bool:
        """Close a lobby or abandon a running game; ``False`` if it was already closed."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'cancelled', turn_deadline = NULL, updated_at = ?"
                f" WHERE id = ? AND {_OPEN}", (self._clock(), game_id))
            if cursor.rowcount == 0:
                await _game_status(db, game_id)  # raises GameNotFound for an unknown id
                return False
            await db.execute("DELETE FROM shown_hands WHERE game_id = ?", (game_id,))
        return True

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The move log, in order."""
        rows = await self._read("SELECT seq, seat, user_id, move, created_at FROM moves"
                                " WHERE game_id = ? ORDER BY seq", (game_id,))
        return [MoveRow(seq, seat, user_id, json.loads(move), created_at)
                for seq, seat, user_id, move, created_at in rows]

    async def _games(self, sql: str, params: Sequence[Any] = ()) -> list[GameRow]:
        """Games from a ``SELECT {_GAME_COLUMNS}`` query, with their seats."""
        async with self._lock:
            rows = await self._db.execute_fetchall(sql, params)
            ids = [row[0] for row in rows]
            seat_rows = await self._db.execute_fetchall(
                f"SELECT {_SEAT_COLUMNS} FROM seats"
                " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat",
                (json.dumps(ids),)) if ids else []
        seats: dict[int, list[SeatRow]] = {}
        for game_id, seat, user_id, name, is_computer, left, level in seat_rows:
            seats.setdefault(game_id, []).append(
                SeatRow(seat, user_id, name, bool(is_computer), bool(left), level))
        return [_game_row(row, seats.get(row[0], [])) for row in rows]

    # -- user settings ----------------------------------------------------

    async def get_settings(self, user_id: int) -> Settings:
        rows = await self._read("SELECT hand_sort, card_style, extra FROM user_settings"
                                " WHERE user_id = ?", (user_id,))
        if not rows:
            return Settings()
        hand_sort, card_style, extra = rows[0]
        return Settings(hand_sort, card_style, json.loads(extra))

    async def set_settings(self, user_id: int, *, hand_sort: HandSort | None = None,
                           card_style: CardStyle | None = None,
                           extra: JSONObject | None = None) -> Settings:
        """Change some settings, keep the rest; return them all.

        ``extra`` is merged into the stored object (JSON merge patch: a key
        set to ``None`` is removed).
        """
        _check_choice("hand_sort", hand_sort, HandSort)
        _check_choice("card_style", card_style, CardStyle)
        defaults = Settings()
        async with self._lock:
            rows = await _fetchall(self._db,
                "INSERT INTO user_settings (user_id, hand_sort, card_style, extra, updated_at)"
                " VALUES (:user, COALESCE(:hand_sort, :default_sort),"
                "  COALESCE(:card_style, :default_style), json_patch('{}', :extra), :now)"
                " ON CONFLICT (user_id) DO UPDATE SET"
                "  hand_sort = COALESCE(:hand_sort, hand_sort),"
                "  card_style = COALESCE(:card_style, card_style),"
                "  extra = json_patch(extra, :extra), updated_at = :now"
                " RETURNING hand_sort, card_style, extra",
                {"user": user_id, "hand_sort": hand_sort, "card_style": card_style,
                 "default_sort": defaults.hand_sort, "default_style": defaults.card_style,
                 "extra": _dump(extra or {}), "now": self._clock()})
        hand_sort_now, card_style_now, extra_now = rows[0]
        return Settings(hand_sort_now, card_style_now, json.loads(extra_now))

    # -- shown hands (NOT-7) ----------------------------------------------

    async def save_shown_hand(self, game_id: int, user_id: int, order: Sequence[str],
                              hand_key: str) -> None:
        """Remember the order of the hand image just shown to a player."""
        async with self._lock:
            await self._db.execute(
                "INSERT INTO shown_hands (game_id, user_id, hand_order, hand_key, shown_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " hand_order = excluded.hand_order, hand_key = excluded.hand_key,"
                " shown_at = excluded.shown_at",
                (game_id, user_id, _dump(list(order)), hand_key, self._clock()))

    async def shown_hand(self, game_id: int, user_id: int) -> tuple[list[str], str] | None:
        """``(order, hand_key)`` of the image last shown, or ``None``."""
        rows = await self._read("SELECT hand_order, hand_key FROM shown_hands"
                                " WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        if not rows:
            return None
        order, hand_key = rows[0]
        return json.loads(order), hand_key

    # -- records ----------------------------------------------------------

    async def leaderboard(self, guild_id: int, variant: str | None = None,
                          since: float | None = None, limit: int = 10) -> list[StandingRow]:
        """This server's standings; see :mod:`bot.store.records` for the rules."""
        async with self._lock:
            return await records.leaderboard(self._db, guild_id, variant, since, limit)

    async def player_stats(self, guild_id: int, user_id: int) -> list[PlayerStatsRow]:
        async with self._lock:
            return await records.player_stats(self._db, guild_id, user_id)

    async def history(self, guild_id: int, user_id: int | None = None,
                      limit: int = 10) -> list[HistoryRow]:
        async with self._lock:
            return await records.history(self._db, guild_id, user_id, limit)

    async def last_finished_game(self, guild_id: int, user_id: int) -> int | None:
        """The id of the game ``user_id`` finished last in this server, or ``None``.

        Games they left count too (their result stays theirs, played by a computer).
        """
        rows = await self._read("SELECT game_id FROM results WHERE guild_id = ? AND user_id = ?"
                                " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
                                (guild_id, user_id))
        return int(rows[0][0]) if rows else None


def _game_row(row: Sequence[Any], seats: Iterable[SeatRow]) -> GameRow:
    (game_id, guild_id, channel_id, variant, options, seed, status, host_id, state,
     lobby_message_id, table_message_id, turn_message_id, turn_deadline, move_count,
     created_at, updated_at, finished_at, published) = row
    return GameRow(
        id=game_id, guild_id=guild_id, channel_id=channel_id, variant=variant,
        options=json.loads(options), seed=int(seed), status=GameStatus(status),
        host_id=host_id, state=None if state is None else json.loads(state),
        lobby_message_id=lobby_message_id, table_message_id=table_message_id,
        turn_message_id=turn_message_id, turn_deadline=turn_deadline, move_count=move_count,
        created_at=created_at, updated_at=updated_at, finished_at=finished_at,
        seats=tuple(seats), published=json.loads(published))


async def _fetchall(db: aiosqlite.Connection, sql: str,
                    parameters: Iterable[Any] | dict[str, Any]) -> list[aiosqlite.Row]:
    """All the rows of ``sql``, as a list to index (aiosqlite types them as an iterable)."""
    return list(await db.execute_fetchall(sql, parameters))


async def _insert_seats(db: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, is_computer, has_left, level)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.name, s.is_computer, s.left, s.level) for s in seats])


async def _update_in(db: aiosqlite.Connection, game_id: int, expected: GameStatus, sql: str,
                     params: Sequence[Any]) -> None:
    """Run an ``UPDATE games … WHERE id = ? AND status = <expected>``; refuse if no row changed."""
    cursor = await db.execute(sql, params)
    if cursor.rowcount == 0:
        await _refuse(db, game_id, expected)


async def _refuse(db: aiosqlite.Connection, game_id: int, expected: GameStatus) -> NoReturn:
    raise WrongStatus(game_id, await _game_status(db, game_id), expected)


async def _game_status(db: aiosqlite.Connection, game_id: int) -> str:
    rows = await _fetchall(db, "SELECT status FROM games WHERE id = ?", (game_id,))
    if not rows:
        raise GameNotFound(game_id)
    status: str = rows[0][0]
    return status


def _check_choice(name: str, value: str | None, allowed: Any) -> None:
    if value is not None and value not in get_args(allowed):
        raise ValueError(f"{name} must be one of {', '.join(get_args(allowed))}, not {value!r}")
