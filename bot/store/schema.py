"""Connection settings and versioned migrations.

Migrations are ``migrations/NNNN_name.sql``, applied in order at open, each
recorded in ``schema_version``, all pending ones in one transaction: a failed
upgrade leaves the database as it was. Never edit a released migration; add
the next one.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib.resources import files

import aiosqlite

from .errors import SchemaTooNew

BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another connection's write lock before failing."""

_NAME = re.compile(r"(\d{4})_\w+\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The script split into statements, ``;`` inside triggers and strings respected."""
        statements, pending = [], ""
        *pieces, tail = self.sql.split(";")
        for piece in pieces:
            pending += piece + ";"
            if sqlite3.complete_statement(pending):
                if pending.strip() != ";":
                    statements.append(pending.strip())
                pending = ""
        if (pending + tail).strip():
            raise ValueError(f"{self.name}: unfinished statement at the end")
        return statements


def migrations() -> list[Migration]:
    """The migrations shipped with this bot, oldest first."""
    found = []
    for entry in files(__package__).joinpath("migrations").iterdir():
        match = _NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3…: {[m.name for m in found]}")
    return found


async def configure(db: aiosqlite.Connection) -> None:
    """Per-connection settings (the busy timeout is set at connect); outside any transaction."""
    await db.execute("PRAGMA journal_mode = WAL")
    # With WAL, NORMAL syncs the log at checkpoints rather than at every commit.
    # A commit is still atomic and is in the WAL file (through write()) when it
    # returns, so it survives the bot crashing or being killed; only a power cut
    # or OS crash may lose the last few commits, and never corrupts the file.
    # FULL would add an fsync to every move.
    await db.execute("PRAGMA synchronous = NORMAL")
    await db.execute("PRAGMA foreign_keys = ON")


async def migrate(db: aiosqlite.Connection, now: float) -> list[int]:
    """Apply pending migrations in one transaction; return their versions.

    ``BEGIN IMMEDIATE`` takes the write lock first, so two bots starting at
    once cannot both upgrade: the second waits and then finds nothing to do.
    """
    known = migrations()
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                         " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at REAL NOT NULL)")
        (current,), = await db.execute_fetchall(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version")
        if current > len(known):
            raise SchemaTooNew(current, len(known))
        applied = []
        for migration in known[current:]:
            for statement in migration.statements():
                await db.execute(statement)
            await db.execute("INSERT INTO schema_version (version, name, applied_at)"
                             " VALUES (?, ?, ?)", (migration.version, migration.name, now))
            applied.append(migration.version)
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    await db.execute("COMMIT")
    return applied
