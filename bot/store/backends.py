"""The two databases behind the store, and every difference between them.

The store writes each query once, with named parameters (``:name``), in the SQL
that SQLite and PostgreSQL both speak: ``RETURNING``, ``ON CONFLICT … DO
UPDATE`` (target columns qualified by table name), ``COUNT(*) FILTER``,
``CAST(… AS DOUBLE PRECISION)``, ``TRUE`` and ``NOT flag`` for booleans. What
they do not share lives here, and only here:

* **Connections and transactions.** SQLite: one aiosqlite connection behind an
  ``asyncio.Lock`` (aiosqlite runs one statement at a time, and a transaction
  spans several awaits), transactions opened with ``BEGIN IMMEDIATE`` so that a
  second process on the file waits for the write lock instead of failing half
  way. PostgreSQL: a pool of asyncpg connections, so games write side by side
  instead of queueing behind one lock; READ COMMITTED transactions whose
  ``UPDATE … WHERE`` guards lock the rows they change.
* **Placeholders.** ``:name`` is SQLite's own style; asyncpg wants ``$1``.
* **One statement for a move** (:attr:`Backend.writable_with`): PostgreSQL runs
  a move's guarded ``UPDATE … RETURNING`` and its ``INSERT`` as one statement
  (a data-modifying ``WITH``), one round trip instead of four (``BEGIN``, two
  statements, ``COMMIT``); SQLite cannot, and runs them in a transaction. On a
  busy 2-core machine that cut a move's p50 from 76–96 ms to 15–30 ms.
* **Fragments** a query asks for by method: merging JSON objects
  (:meth:`Backend.json_merge`) and "this column is one of these ids"
  (:meth:`Backend.in_ids`, with :meth:`Backend.ids` for the value).
* **Writers the row locks do not serialise** (:meth:`Tx.serialize`, for the
  ratings of a server's variant): SQLite's write lock already does;
  PostgreSQL takes a transaction-level advisory lock.
* **Migrations** (:meth:`Backend.migrating`): SQLite runs a script statement by
  statement inside ``BEGIN IMMEDIATE``; PostgreSQL runs it whole inside a
  transaction that first takes an advisory lock (DDL is transactional there),
  so two processes starting at once never migrate together. Where a
  migration's DDL differs, it ships as ``NNNN_name.sqlite.sql`` and
  ``NNNN_name.postgresql.sql`` (see :mod:`bot.store.schema`).
* **Durability.** Every transaction and the moves in it are durable when they
  return, on both. Single statements that only keep the bot's own bookkeeping of
  what it has shown (:meth:`Backend.execute` with ``durable=False``) skip
  PostgreSQL's WAL flush (``synchronous_commit = off``, on a pool of their own):
  like every commit on SQLite in WAL mode with ``synchronous = NORMAL``, they
  survive the bot's crash, and only a crash of the database server (SQLite: of
  the machine) may forget the last fraction of a second of them.
* **Types.** PostgreSQL keeps JSON in ``jsonb`` (asyncpg passes it as text both
  ways, like SQLite's TEXT), booleans as ``boolean`` (SQLite: 0/1), ids as
  ``bigint``, times as ``double precision``.
* **Constraint errors.** Both drivers' integrity errors become
  :class:`~bot.store.errors.ConstraintViolation`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .errors import ConstraintViolation

log = logging.getLogger(__name__)

Params = Mapping[str, Any]
Row = tuple[Any, ...]
NO_PARAMS: Params = {}

BUSY_TIMEOUT = 5.0
"""SQLite: seconds a write waits for another connection's write lock before failing."""

POOL_SIZE = 5
"""PostgreSQL: connections per process for moves, transactions and reads. Writes of
different games run side by side up to this many."""

BOOKKEEPING_POOL_SIZE = 5
"""PostgreSQL: connections per process for ``durable=False`` statements (a move brings
about as many of these as of the others: the hand order shown, the publisher's record).
Ten a process in all, asyncpg's default pool: PostgreSQL's default ``max_connections``
(100) leaves room for several processes and their tests."""

ADVISORY_CLASS = 0x52554D
"""PostgreSQL advisory locks the store takes use the two-key form with this first key
(``RUM``): ``(ADVISORY_CLASS, 0)`` while migrating, ``(ADVISORY_CLASS + 1, hash)`` around a
server's ratings of a variant. Other parts of the bot take keys outside this range."""

MIGRATION_LOCK = (ADVISORY_CLASS, 0)
SERIALIZE_CLASS = ADVISORY_CLASS + 1

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def connect(target: str | Path) -> Backend:
    """A PostgreSQL URL (``postgresql://…``) or else a SQLite file's path."""
    if is_postgres_url(target):
        return await PostgresBackend.connect(str(target))
    return await SQLiteBackend.connect(target)


class Tx(ABC):
    """Statements inside one transaction (or one consistent read)."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        """Every row of ``sql``."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        """Run ``sql``; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run ``sql`` once per parameter set."""

    @abstractmethod
    async def serialize(self, scope: str) -> None:
        """Hold off other transactions that serialize on ``scope`` until this one ends."""

    @abstractmethod
    async def script(self, sql: str) -> None:
        """Run a migration's script (inside :meth:`Backend.migrating`)."""


class Backend(ABC):
    """A connected database: transactions, single statements and the dialect's fragments."""

    dialect: ClassVar[str]
    """The migrations' suffix: ``sqlite`` or ``postgresql``."""
    writable_with: ClassVar[bool]
    """Whether a ``WITH`` clause may hold an ``UPDATE … RETURNING`` that the statement
    after it reads (PostgreSQL), so that two writes are one statement."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """All or nothing: commits when the block ends, rolls back if it raises."""

    @abstractmethod
    def snapshot(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """Several reads that see one consistent state."""

    @abstractmethod
    def migrating(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A transaction that no other process migrates alongside."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        """One statement on its own (its own transaction)."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = NO_PARAMS, *,
                      durable: bool = True) -> int:
        """One statement on its own; the number of rows it changed. ``durable=False``:
        bookkeeping that may skip the server's flush to disk (see the module's notes)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def json_merge(self, target: str, patch: str) -> str:
        """SQL for the JSON object ``target`` with ``patch``'s keys set (and those set to
        ``null`` removed). The store passes flat objects only: on those the two agree."""

    @abstractmethod
    def in_ids(self, column: str, param: str) -> str:
        """SQL for "``column`` is one of the ids in the parameter ``param``"."""

    @abstractmethod
    def ids(self, values: Iterable[int]) -> Any:
        """The parameter value :meth:`in_ids` expects."""


@contextlib.contextmanager
def _constraints(*errors: type[BaseException]) -> Iterator[None]:
    try:
        yield
    except errors as error:
        raise ConstraintViolation(str(error)) from error


# -- SQLite ---------------------------------------------------------------------------


def sqlite_statements(sql: str) -> list[str]:
    """A script split into statements, ``;`` inside triggers and strings respected."""
    statements, pending = [], ""
    *pieces, tail = sql.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip() != ";":
                statements.append(pending.strip())
            pending = ""
    if (pending + tail).strip():
        raise ValueError("unfinished statement at the end of the script")
    return statements


class _SQLiteTx(Tx):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        with _constraints(sqlite3.IntegrityError):
            return list(await self._db.execute_fetchall(sql, params))  # type: ignore[arg-type]

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        with _constraints(sqlite3.IntegrityError):
            cursor = await self._db.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        with _constraints(sqlite3.IntegrityError):
            await self._db.executemany(sql, rows)

    async def serialize(self, scope: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` holds the database's only write lock."""

    async def script(self, sql: str) -> None:
        for statement in sqlite_statements(sql):  # one at a time: a script would COMMIT
            await self._db.execute(statement)


async def _use_wal(db: aiosqlite.Connection) -> None:
    """Switch the file to WAL, waiting out another process doing the same.

    Changing the journal mode needs the file to itself, and SQLite answers "database is
    locked" at once rather than through the busy handler when another connection holds it
    (two bots starting on a new file at once). The mode is the file's: once the other
    process has set it, there is nothing left to do.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            async with db.execute("PRAGMA journal_mode") as cursor:
                row = await cursor.fetchone()
            if row is not None and str(row[0]).lower() == "wal":
                return
            await asyncio.sleep(0.05)


class SQLiteBackend(Backend):
    dialect = "sqlite"
    writable_with = False

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self._tx = _SQLiteTx(db)

    @classmethod
    async def connect(cls, path: str | Path) -> SQLiteBackend:
        db = await aiosqlite.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            await _use_wal(db)
            # With WAL, NORMAL syncs the log at checkpoints rather than at every commit.
            # A commit is still atomic and is in the WAL file (through write()) when it
            # returns, so it survives the bot crashing or being killed; only a power cut
            # or OS crash may lose the last few commits, and never corrupts the file.
            # FULL would add an fsync to every move.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await db.close()
            raise
        return cls(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            try:
                # Inside the try: a task cancelled while BEGIN is on its way (a shutdown)
                # must still roll back, or the open transaction blocks the final checkpoint.
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._tx
            except BaseException:
                # aiosqlite runs statements in order, so this follows BEGIN even when the
                # await above was cancelled; when BEGIN itself failed there is nothing to undo.
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Tx]:
        async with self._lock:  # this process's writes wait; other processes are not expected
            yield self._tx

    def migrating(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        return self.transaction()  # BEGIN IMMEDIATE: a second process waits, then finds it done

    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        async with self._lock:
            return await self._tx.fetch(sql, params)

    async def execute(self, sql: str, params: Params = NO_PARAMS, *,
                      durable: bool = True) -> int:
        async with self._lock:  # every commit is written alike (WAL, synchronous=NORMAL)
            return await self._tx.execute(sql, params)

    async def close(self) -> None:
        """Fold the WAL back into the database file and close.

        The folding is housekeeping: another process on the file may hold it
        ("database is locked"), and the connection closes all the same. Left open,
        its worker thread would keep the process from exiting.
        """
        async with self._lock:
            try:
                await self._db.execute("PRAGMA optimize")
                await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError as error:
                log.info("closing without folding the WAL back: %s", error)
            finally:
                await self._db.close()

    def json_merge(self, target: str, patch: str) -> str:
        return f"json_patch({target}, {patch})"

    def in_ids(self, column: str, param: str) -> str:
        return f"{column} IN (SELECT value FROM json_each(:{param}))"

    def ids(self, values: Iterable[int]) -> Any:
        return json.dumps(list(values))


# -- PostgreSQL -----------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_]\w*)")
"""A string literal (left alone) or a ``:name`` placeholder (not a ``::`` cast)."""


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` with ``:name`` placeholders as asyncpg's ``$n``, and the names in order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match[1]
        if name is None:
            return match[0]
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PLACEHOLDER.sub(number, sql), tuple(names)


def _arguments(names: tuple[str, ...], params: Params) -> list[Any]:
    return [params[name] for name in names]


def _rowcount(status: str) -> int:
    """The count at the end of a command tag (``UPDATE 3``, ``INSERT 0 1``)."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


class _PostgresTx(Tx):
    def __init__(self, connection: PoolConnectionProxy[Any]) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        query, names = numbered(sql)
        with _constraints(asyncpg.IntegrityConstraintViolationError):
            rows = await self._connection.fetch(query, *_arguments(names, params))
        return [tuple(row) for row in rows]

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        query, names = numbered(sql)
        with _constraints(asyncpg.IntegrityConstraintViolationError):
            return _rowcount(await self._connection.execute(query, *_arguments(names, params)))

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if not rows:
            return
        query, names = numbered(sql)
        with _constraints(asyncpg.IntegrityConstraintViolationError):
            await self._connection.executemany(query, [_arguments(names, r) for r in rows])

    async def serialize(self, scope: str) -> None:
        await self._connection.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))",
                                       SERIALIZE_CLASS, scope)

    async def script(self, sql: str) -> None:
        await self._connection.execute(sql)  # without arguments asyncpg runs a whole script


class PostgresBackend(Backend):
    dialect = "postgresql"
    writable_with = True

    def __init__(self, pool: asyncpg.Pool, bookkeeping: asyncpg.Pool) -> None:
        self._pool = pool
        self._bookkeeping = bookkeeping

    @classmethod
    async def connect(cls, url: str) -> PostgresBackend:
        # Every connection is opened now: a new one means a new server process, which
        # on a busy machine takes long enough to miss Discord's 3 s if done mid-move.
        pool = await asyncpg.create_pool(url, min_size=POOL_SIZE, max_size=POOL_SIZE)
        try:
            bookkeeping = await asyncpg.create_pool(
                url, min_size=BOOKKEEPING_POOL_SIZE, max_size=BOOKKEEPING_POOL_SIZE,
                server_settings={"synchronous_commit": "off"})
        except BaseException:
            await pool.close()
            raise
        return cls(pool, bookkeeping)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresTx(connection)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as connection, connection.transaction(
                isolation="repeatable_read", readonly=True):
            yield _PostgresTx(connection)

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[Tx]:
        async with self.transaction() as tx:
            await tx.fetch("SELECT pg_advisory_xact_lock(:class, :key)",
                           {"class": MIGRATION_LOCK[0], "key": MIGRATION_LOCK[1]})
            yield tx

    async def fetch(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        query, names = numbered(sql)
        with _constraints(asyncpg.IntegrityConstraintViolationError):
            rows = await self._pool.fetch(query, *_arguments(names, params))
        return [tuple(row) for row in rows]

    async def execute(self, sql: str, params: Params = NO_PARAMS, *,
                      durable: bool = True) -> int:
        query, names = numbered(sql)
        pool = self._pool if durable else self._bookkeeping
        with _constraints(asyncpg.IntegrityConstraintViolationError):
            return _rowcount(await pool.execute(query, *_arguments(names, params)))

    async def close(self) -> None:
        for pool in (self._pool, self._bookkeeping):
            try:
                await asyncio.wait_for(pool.close(), 10)
            except TimeoutError:
                pool.terminate()

    def json_merge(self, target: str, patch: str) -> str:
        return f"jsonb_strip_nulls(CAST({target} AS JSONB) || CAST({patch} AS JSONB))"

    def in_ids(self, column: str, param: str) -> str:
        return f"{column} = ANY(:{param})"

    def ids(self, values: Iterable[int]) -> Any:
        return list(values)
