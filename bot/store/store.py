"""The bot's database behind a small async API: a SQLite file, or PostgreSQL.

:meth:`Store.open` takes a SQLite file's path (the embedded default) or a
``postgresql://`` URL. Every query is written once, with bound named
parameters; what the two databases do differently lives in
:mod:`bot.store.backends`.

The durability point of a move is :meth:`Store.record_move`: when it returns,
the move and the state after it are committed together. What only records
what the bot has shown (message ids, the publisher's record, the hand order
last shown) is bookkeeping, written with ``durable=False``
(:mod:`bot.store.backends` says what that means). It also keeps one
writer per game: a move is saved only over the state its writer read (the
game's ``move_count``), so a second process holding the same game is refused
with :class:`StaleGame` and overwrites nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import EllipsisType, TracebackType
from typing import Any, NoReturn, Self, get_args

from . import records, shards
from .backends import Backend, Params, Row, Tx, connect
from .errors import ChannelBusy, ConstraintViolation, GameNotFound, StaleGame, WrongStatus
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
    ShardClaim,
    StandingRow,
)
from .schema import migrate

Clock = Callable[[], float]

_GAME_COLUMNS = (
    "id, guild_id, channel_id, variant, options, seed, status, host_id, state,"
    " lobby_message_id, table_message_id, turn_message_id, turn_deadline, move_count,"
    " created_at, updated_at, finished_at, published, hints")
_SEAT_COLUMNS = "game_id, seat, user_id, name, is_computer, has_left, level, hints_used"
_OPEN = "status IN ('lobby', 'running')"
_MOVE_UPDATE = (
    "UPDATE games SET state = :state, turn_deadline = :deadline, move_count = move_count + 1,"
    " updated_at = :now WHERE id = :id AND status = 'running' AND move_count = :expected"
    " RETURNING move_count")
"""A move's state change, guarded: only over the state its writer read."""
_MOVE_COLUMNS = "(game_id, seq, seat, user_id, move, created_at)"


def _check_flat(settings: JSONObject) -> None:
    """Settings objects are flat: the databases' JSON merges agree only on those."""
    if any(isinstance(value, dict) for value in settings.values()):
        raise ValueError("settings are flat: a value cannot be an object")


def _dump(value: Any) -> str:
    """Compact JSON; refuses NaN/infinity, which would not read back as JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Store:
    """Open with ``await Store.open(target)`` (or ``async with await Store.open(target)``)."""

    def __init__(self, backend: Backend, clock: Clock) -> None:
        self._db = backend
        self._clock = clock
        self._seats_sql = (f"SELECT {_SEAT_COLUMNS} FROM seats"
                           f" WHERE {backend.in_ids('game_id', 'ids')} ORDER BY game_id, seat")
        fresh = backend.json_merge("'{}'", ":extra")
        merged = backend.json_merge("user_settings.extra", ":extra")
        self._settings_sql = (
            "INSERT INTO user_settings (user_id, hand_sort, card_style, extra, updated_at)"
            " VALUES (:user, COALESCE(:hand_sort, :default_sort),"
            f"  COALESCE(:card_style, :default_style), {fresh}, :now)"
            " ON CONFLICT (user_id) DO UPDATE SET"
            "  hand_sort = COALESCE(:hand_sort, user_settings.hand_sort),"
            "  card_style = COALESCE(:card_style, user_settings.card_style),"
            f"  extra = {merged}, updated_at = :now"
            " RETURNING hand_sort, card_style, extra")
        self._server_settings_sql = (
            "INSERT INTO server_settings (guild_id, settings, updated_at)"
            f" VALUES (:guild, {fresh}, :now)"
            " ON CONFLICT (guild_id) DO UPDATE SET"
            f"  settings = {backend.json_merge('server_settings.settings', ':extra')},"
            "  updated_at = :now"
            " RETURNING settings")

    @classmethod
    async def open(cls, target: str | Path, *, clock: Clock = time.time) -> Self:
        """Connect to a SQLite file (a path) or PostgreSQL (a ``postgresql://`` URL), and
        bring the schema up to date.

        ``clock`` gives UTC epoch seconds for created/updated/finished times.
        Raises :class:`SchemaTooNew` for a database from a newer bot.
        """
        backend = await connect(target)
        try:
            await migrate(backend, clock())
        except BaseException:
            await backend.close()
            raise
        return cls(backend, clock)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._db.dialect

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    # -- games ------------------------------------------------------------

    async def create_game(self, guild_id: int, channel_id: int, variant: str,
                          options: JSONObject, seed: int, host_id: int,
                          seats: Sequence[SeatRow] = (), *, hints: bool = True) -> int:
        """Open a lobby (with its first ``seats``); raises :class:`ChannelBusy`.

        ``hints``: whether the game allows ``/rummy hint`` (the lobby's ``hints`` option).

        The partial unique index on open games decides races, even between
        two processes: the losing insert does nothing and returns no id.
        """
        options_json = _dump(options)
        now = self._clock()
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, variant, options, seed, host_id,"
                " hints, created_at, updated_at)"
                " VALUES (:guild, :channel, :variant, :options, :seed, :host, :hints, :now,"
                " :now) ON CONFLICT DO NOTHING RETURNING id",
                {"guild": guild_id, "channel": channel_id, "variant": variant,
                 "options": options_json, "seed": str(seed), "host": host_id,
                 "hints": hints, "now": now})
            if not rows:
                raise ChannelBusy(channel_id)
            game_id: int = rows[0][0]
            await _insert_seats(tx, game_id, seats)
        return game_id

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._games(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = :id",
                                  {"id": game_id})
        return games[0] if games else None

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game."""
        games = await self._games(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = :channel AND {_OPEN}",
            {"channel": channel_id})
        return games[0] if games else None

    async def unfinished_games(self, on_shards: ShardFilter | None = None) -> list[GameRow]:
        """Every lobby and running game, oldest first: what to restore at start.

        ``on_shards``: only those of guilds on these shards, ``(shard_count, shard_ids)``.
        """
        where, params = self._on_shards(on_shards)
        return await self._games(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {_OPEN}{where} ORDER BY id", params)

    async def lobbies_idle_since(self, since: float,
                                 on_shards: ShardFilter | None = None) -> list[GameRow]:
        """Lobbies not updated (or touched) since ``since``, longest idle first
        (``on_shards``: as for :meth:`unfinished_games`)."""
        where, params = self._on_shards(on_shards)
        return await self._games(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < :since"
            f"{where} ORDER BY updated_at", {"since": since, **params})

    def _on_shards(self, on_shards: ShardFilter | None) -> tuple[str, dict[str, Any]]:
        """An ``AND …`` clause keeping games whose guild is on the given shards."""
        if on_shards is None:
            return "", {}
        count, ids = on_shards
        shard = "((guild_id >> 22) % :shard_count)"
        return (f" AND {self._db.in_ids(shard, 'shard_ids')}",
                {"shard_count": count, "shard_ids": self._db.ids(ids)})

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace the lobby's seats (join, leave, add computer)."""
        async with self._db.transaction() as tx:
            await _update_in(tx, game_id, GameStatus.LOBBY,
                             "UPDATE games SET updated_at = :now WHERE id = :id"
                             " AND status = 'lobby'", {"now": self._clock(), "id": game_id})
            await tx.execute("DELETE FROM seats WHERE game_id = :id", {"id": game_id})
            await _insert_seats(tx, game_id, seats)

    async def set_messages(self, game_id: int, *, lobby: int | EllipsisType | None = ...,
                           table: int | EllipsisType | None = ...,
                           turn: int | EllipsisType | None = ...) -> None:
        """Remember message ids; an argument left out keeps its value, ``None`` clears it."""
        changed = await self._db.execute(
            "UPDATE games SET"
            " lobby_message_id = CASE WHEN :set_lobby THEN :lobby ELSE lobby_message_id END,"
            " table_message_id = CASE WHEN :set_table THEN :table ELSE table_message_id END,"
            " turn_message_id = CASE WHEN :set_turn THEN :turn ELSE turn_message_id END,"
            " updated_at = :now WHERE id = :id",
            {"set_lobby": lobby is not ..., "lobby": None if lobby is ... else lobby,
             "set_table": table is not ..., "table": None if table is ... else table,
             "set_turn": turn is not ..., "turn": None if turn is ... else turn,
             "now": self._clock(), "id": game_id}, durable=False)
        if changed == 0:
            raise GameNotFound(game_id)

    async def set_published(self, game_id: int, published: JSONObject, *,
                            turn: int | EllipsisType | None = ...) -> None:
        """Remember what the channel and DMs show for a game, and with it the turn message
        when ``turn`` is given (one write). Any status: the final results are posted
        after the game is finished."""
        changed = await self._db.execute(
            "UPDATE games SET published = :published,"
            " turn_message_id = CASE WHEN :set_turn THEN :turn ELSE turn_message_id END"
            " WHERE id = :id",
            {"published": _dump(published), "set_turn": turn is not ...,
             "turn": None if turn is ... else turn, "id": game_id}, durable=False)
        if changed == 0:
            raise GameNotFound(game_id)

    async def touch(self, game_id: int) -> None:
        """Note activity without a change (keeps a lobby from expiring)."""
        changed = await self._db.execute("UPDATE games SET updated_at = :now WHERE id = :id",
                                         {"now": self._clock(), "id": game_id}, durable=False)
        if changed == 0:
            raise GameNotFound(game_id)

    async def start_game(self, game_id: int, state: JSONObject, seats: Sequence[SeatRow],
                         deadline: float | None) -> None:
        """Lobby → running, with the dealt state and the final seats, at once."""
        state_json = _dump(state)
        async with self._db.transaction() as tx:
            await _update_in(tx, game_id, GameStatus.LOBBY,
                             "UPDATE games SET status = 'running', state = :state,"
                             " turn_deadline = :deadline, updated_at = :now"
                             " WHERE id = :id AND status = 'lobby'",
                             {"state": state_json, "deadline": deadline, "now": self._clock(),
                              "id": game_id})
            await tx.execute("DELETE FROM seats WHERE game_id = :id", {"id": game_id})
            await _insert_seats(tx, game_id, seats)

    async def record_move(self, game_id: int, seat: int, user_id: int | None, move: JSONObject,
                          state: JSONObject, deadline: float | None, *,
                          expected_moves: int) -> int:
        """Append a move and save the state after it, in one transaction; return its seq.

        ``expected_moves`` is the game's ``move_count`` when the writer read the state
        this move was applied to: if the game has moved on since (another process holds
        it too), :class:`StaleGame` is raised and nothing is written. Only a running game
        takes moves (:class:`WrongStatus`). This is the durability point: reply to the
        player only after it returns.
        """
        params = {"state": _dump(state), "deadline": deadline, "now": self._clock(),
                  "id": game_id, "expected": expected_moves, "seat": seat, "user": user_id,
                  "move": _dump(move)}
        # (game_id, seq) is the moves' primary key: a second writer of this seq is refused
        # even if the move_count guard were passed.
        try:
            if self._db.writable_with:  # one statement, so one round trip (the hot path)
                rows = await self._db.fetch(
                    f"WITH moved AS ({_MOVE_UPDATE}) INSERT INTO moves {_MOVE_COLUMNS}"
                    " SELECT :id, move_count, :seat, :user, :move, :now FROM moved"
                    " RETURNING seq", params)
                if not rows:
                    async with self._db.snapshot() as tx:
                        await _refuse_move(tx, game_id, expected_moves)
                seq: int = rows[0][0]
                return seq
            async with self._db.transaction() as tx:
                rows = await tx.fetch(_MOVE_UPDATE, params)
                if not rows:
                    await _refuse_move(tx, game_id, expected_moves)
                seq = rows[0][0]
                await tx.execute(f"INSERT INTO moves {_MOVE_COLUMNS}"
                                 " VALUES (:id, :seq, :seat, :user, :move, :now)",
                                 {**params, "seq": seq})
            return seq
        except ConstraintViolation:
            # A racing writer took this seq first (seen on PostgreSQL with four writers
            # at once): the game moved on, which is StaleGame like any other lost race.
            async with self._db.snapshot() as tx:
                status, found = await _game_status(tx, game_id)
            if status == GameStatus.RUNNING and found != expected_moves:
                raise StaleGame(game_id, expected_moves, found) from None
            raise

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """Move the turn deadline (e.g. a grace period after a restart)."""
        async with self._db.transaction() as tx:
            await _update_in(tx, game_id, GameStatus.RUNNING,
                             "UPDATE games SET turn_deadline = :deadline, updated_at = :now"
                             " WHERE id = :id AND status = 'running'",
                             {"deadline": deadline, "now": self._clock(), "id": game_id})

    async def mark_left(self, game_id: int, seat: int, *, computer: bool) -> None:
        """A player left a running game; ``computer``: a computer plays the seat from now on."""
        async with self._db.transaction() as tx:
            await _update_in(tx, game_id, GameStatus.RUNNING,
                             "UPDATE games SET updated_at = :now"
                             " WHERE id = :id AND status = 'running'",
                             {"now": self._clock(), "id": game_id})
            changed = await tx.execute(
                "UPDATE seats SET has_left = TRUE, is_computer = is_computer OR :computer"
                " WHERE game_id = :id AND seat = :seat",
                {"computer": computer, "id": game_id, "seat": seat})
            if changed == 0:
                raise ValueError(f"game {game_id} has no seat {seat}")

    async def use_hint(self, game_id: int, seat: int) -> int:
        """Count a hint given to ``seat`` of a running game; returns its hints so far."""
        rows = await self._db.fetch(
            "UPDATE seats SET hints_used = hints_used + 1 WHERE game_id = :id AND seat = :seat"
            " AND EXISTS (SELECT 1 FROM games WHERE id = :id AND status = 'running')"
            " RETURNING hints_used", {"id": game_id, "seat": seat})
        if not rows:
            raise GameNotFound(game_id)
        used: int = rows[0][0]
        return used

    async def finish_game(self, game_id: int, state: JSONObject,
                          results: Sequence[ResultRow], *, rated: bool = True
                          ) -> list[ResultRow]:
        """Running → finished: final state, results and rating updates in one transaction.

        Returns the results with the ratings before and after filled in. ``rated``
        False records the results without moving anybody's rating (a game with hints on a
        server that does not rate those).
        """
        state_json = _dump(state)
        now = self._clock()
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE games SET status = 'finished', state = :state, turn_deadline = NULL,"
                " finished_at = :now, updated_at = :now WHERE id = :id AND status = 'running'"
                " RETURNING guild_id, variant", {"state": state_json, "now": now, "id": game_id})
            if not rows:
                await _refuse(tx, game_id, GameStatus.RUNNING)
            guild_id, variant = rows[0]
            recorded = await record_results(tx, self._db, game_id, guild_id, variant, results,
                                            now, rated=rated)
            await tx.execute("DELETE FROM shown_hands WHERE game_id = :id", {"id": game_id})
        return recorded

    async def cancel_game(self, game_id: int) -> bool:
        """Close a lobby or abandon a running game; ``False`` if it was already closed."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET status = 'cancelled', turn_deadline = NULL, updated_at = :now"
                f" WHERE id = :id AND {_OPEN}", {"now": self._clock(), "id": game_id})
            if changed == 0:
                await _game_status(tx, game_id)  # raises GameNotFound for an unknown id
                return False
            await tx.execute("DELETE FROM shown_hands WHERE game_id = :id", {"id": game_id})
        return True

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The move log, in order."""
        rows = await self._db.fetch("SELECT seq, seat, user_id, move, created_at FROM moves"
                                    " WHERE game_id = :id ORDER BY seq", {"id": game_id})
        return [MoveRow(seq, seat, user_id, json.loads(move), created_at)
                for seq, seat, user_id, move, created_at in rows]

    async def _games(self, sql: str, params: Params | None = None) -> list[GameRow]:
        """Games from a ``SELECT {_GAME_COLUMNS}`` query, with their seats."""
        async with self._db.snapshot() as tx:
            rows = await tx.fetch(sql, params or {})
            ids = [row[0] for row in rows]
            seat_rows = await tx.fetch(self._seats_sql, {"ids": self._db.ids(ids)}) if ids else []
        seats: dict[int, list[SeatRow]] = {}
        for game_id, seat, user_id, name, is_computer, left, level, hints in seat_rows:
            seats.setdefault(game_id, []).append(
                SeatRow(seat, user_id, name, bool(is_computer), bool(left), level, hints))
        return [_game_row(row, seats.get(row[0], [])) for row in rows]

    # -- processes sharing the database -------------------------------------

    async def take_identify(self, bucket: int, spacing: float) -> float:
        """Take ``bucket`` for an IDENTIFY now (returns 0) if no process took it in the
        last ``spacing`` seconds; else the seconds until it frees (take it then)."""
        now = self._clock()
        async with self._db.transaction() as tx:
            last = await shards.take_identify(tx, bucket, spacing, now)
        return 0.0 if last is None else max(last + spacing - now, 0.001)

    async def claim_shard(self, shard_count: int, shard_id: int, owner: str) -> int:
        """Claim a shard for ``owner`` (newest claim wins); returns the claim's id."""
        async with self._db.transaction() as tx:
            return await shards.claim_shard(tx, shard_count, shard_id, owner, self._clock())

    async def shard_claims_after(self, claim: int) -> list[ShardClaim]:
        """Claims made after claim ``claim``, oldest first."""
        async with self._db.snapshot() as tx:
            return await shards.claims_after(tx, claim)

    # -- user settings ----------------------------------------------------

    async def get_settings(self, user_id: int) -> Settings:
        rows = await self._db.fetch("SELECT hand_sort, card_style, extra FROM user_settings"
                                    " WHERE user_id = :user", {"user": user_id})
        if not rows:
            return Settings()
        hand_sort, card_style, extra = rows[0]
        return Settings(hand_sort, card_style, json.loads(extra))

    async def set_settings(self, user_id: int, *, hand_sort: HandSort | None = None,
                           card_style: CardStyle | None = None,
                           extra: JSONObject | None = None) -> Settings:
        """Change some settings, keep the rest; return them all.

        ``extra`` is merged into the stored object: each key given replaces its value,
        and a key set to ``None`` is removed. Its values are flat (not objects).
        """
        _check_choice("hand_sort", hand_sort, HandSort)
        _check_choice("card_style", card_style, CardStyle)
        _check_flat(extra or {})
        defaults = Settings()
        rows = await self._db.fetch(self._settings_sql, {
            "user": user_id, "hand_sort": hand_sort, "card_style": card_style,
            "default_sort": defaults.hand_sort, "default_style": defaults.card_style,
            "extra": _dump(extra or {}), "now": self._clock()})
        hand_sort_now, card_style_now, extra_now = rows[0]
        return Settings(hand_sort_now, card_style_now, json.loads(extra_now))

    # -- server settings ----------------------------------------------------

    async def get_server_settings(self, guild_id: int) -> JSONObject:
        """A server's settings (``{}`` until a member with Manage Server changes one)."""
        rows = await self._db.fetch("SELECT settings FROM server_settings"
                                    " WHERE guild_id = :guild", {"guild": guild_id})
        return json.loads(rows[0][0]) if rows else {}

    async def set_server_settings(self, guild_id: int, changes: JSONObject) -> JSONObject:
        """Merge ``changes`` into a server's settings and return them all.

        Each key given replaces its value and a key set to ``None`` is removed (back to
        its default). Values are flat (not objects), as in :meth:`set_settings`'s extra.
        """
        _check_flat(changes)
        rows = await self._db.fetch(self._server_settings_sql, {
            "guild": guild_id, "extra": _dump(changes), "now": self._clock()})
        return json.loads(rows[0][0])

    # -- shown hands (NOT-7) ----------------------------------------------

    async def save_shown_hand(self, game_id: int, user_id: int, order: Sequence[str],
                              hand_key: str) -> None:
        """Remember the order of the hand image just shown to a player."""
        await self._db.execute(
            "INSERT INTO shown_hands (game_id, user_id, hand_order, hand_key, shown_at)"
            " VALUES (:id, :user, :order, :key, :now) ON CONFLICT (game_id, user_id) DO UPDATE"
            " SET hand_order = excluded.hand_order, hand_key = excluded.hand_key,"
            " shown_at = excluded.shown_at",
            {"id": game_id, "user": user_id, "order": _dump(list(order)), "key": hand_key,
             "now": self._clock()}, durable=False)

    async def shown_hand(self, game_id: int, user_id: int) -> tuple[list[str], str] | None:
        """``(order, hand_key)`` of the image last shown, or ``None``."""
        rows = await self._db.fetch("SELECT hand_order, hand_key FROM shown_hands"
                                    " WHERE game_id = :id AND user_id = :user",
                                    {"id": game_id, "user": user_id})
        if not rows:
            return None
        order, hand_key = rows[0]
        return json.loads(order), hand_key

    # -- records ----------------------------------------------------------

    async def leaderboard(self, guild_id: int, variant: str | None = None,
                          since: float | None = None, limit: int = 10) -> list[StandingRow]:
        """This server's standings; see :mod:`bot.store.records` for the rules."""
        async with self._db.snapshot() as tx:
            return await records.leaderboard(tx, guild_id, variant, since, limit)

    async def player_stats(self, guild_id: int, user_id: int) -> list[PlayerStatsRow]:
        async with self._db.snapshot() as tx:
            return await records.player_stats(tx, guild_id, user_id)

    async def history(self, guild_id: int, user_id: int | None = None,
                      limit: int = 10) -> list[HistoryRow]:
        async with self._db.snapshot() as tx:
            return await records.history(tx, guild_id, user_id, limit)

    async def last_finished_game(self, guild_id: int, user_id: int) -> int | None:
        """The id of the game ``user_id`` finished last in this server, or ``None``.

        Games they left count too (their result stays theirs, played by a computer).
        """
        rows = await self._db.fetch(
            "SELECT game_id FROM results WHERE guild_id = :guild AND user_id = :user"
            " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
            {"guild": guild_id, "user": user_id})
        return int(rows[0][0]) if rows else None


ShardFilter = tuple[int, Sequence[int]]
"""``(shard_count, shard_ids)``: the games of guilds on these shards."""


def _game_row(row: Row, seats: Iterable[SeatRow]) -> GameRow:
    (game_id, guild_id, channel_id, variant, options, seed, status, host_id, state,
     lobby_message_id, table_message_id, turn_message_id, turn_deadline, move_count,
     created_at, updated_at, finished_at, published, hints) = row
    return GameRow(
        id=game_id, guild_id=guild_id, channel_id=channel_id, variant=variant,
        options=json.loads(options), seed=int(seed), status=GameStatus(status),
        host_id=host_id, state=None if state is None else json.loads(state),
        lobby_message_id=lobby_message_id, table_message_id=table_message_id,
        turn_message_id=turn_message_id, turn_deadline=turn_deadline, move_count=move_count,
        created_at=created_at, updated_at=updated_at, finished_at=finished_at,
        seats=tuple(seats), published=json.loads(published), hints=bool(hints))


async def _insert_seats(tx: Tx, game_id: int, seats: Sequence[SeatRow]) -> None:
    await tx.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, is_computer, has_left, level,"
        " hints_used) VALUES (:id, :seat, :user, :name, :computer, :left, :level, :hints)",
        [{"id": game_id, "seat": s.seat, "user": s.user_id, "name": s.name,
          "computer": s.is_computer, "left": s.left, "level": s.level, "hints": s.hints}
         for s in seats])


async def _update_in(tx: Tx, game_id: int, expected: GameStatus, sql: str,
                     params: Params) -> None:
    """Run an ``UPDATE games … WHERE id = :id AND status = <expected>``; refuse if no row
    changed."""
    if await tx.execute(sql, params) == 0:
        await _refuse(tx, game_id, expected)


async def _refuse_move(tx: Tx, game_id: int, expected_moves: int) -> NoReturn:
    """Why a move was not saved: no such game, not running, or moved on since."""
    status, found = await _game_status(tx, game_id)
    if status != GameStatus.RUNNING:
        raise WrongStatus(game_id, status, GameStatus.RUNNING)
    raise StaleGame(game_id, expected_moves, found)


async def _refuse(tx: Tx, game_id: int, expected: GameStatus) -> NoReturn:
    status, _ = await _game_status(tx, game_id)
    raise WrongStatus(game_id, status, expected)


async def _game_status(tx: Tx, game_id: int) -> tuple[str, int]:
    """The game's status and move count; :class:`GameNotFound` for an unknown id."""
    rows = await tx.fetch("SELECT status, move_count FROM games WHERE id = :id", {"id": game_id})
    if not rows:
        raise GameNotFound(game_id)
    status, move_count = rows[0]
    return status, move_count


def _check_choice(name: str, value: str | None, allowed: Any) -> None:
    if value is not None and value not in get_args(allowed):
        raise ValueError(f"{name} must be one of {', '.join(get_args(allowed))}, not {value!r}")
