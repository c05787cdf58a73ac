"""Versioned migrations, one set for both databases.

A migration is ``migrations/NNNN_name.sql`` when one script serves SQLite and
PostgreSQL alike, or the pair ``NNNN_name.sqlite.sql`` and
``NNNN_name.postgresql.sql`` when their DDL differs (types, triggers): the
version numbers and names are the same on both. Migrations are applied in
order at open, each recorded in ``schema_version``, all pending ones in one
transaction that no other process migrates alongside
(:meth:`~bot.store.backends.Backend.migrating`): a failed upgrade leaves the
database as it was. Never edit a released migration; add the next one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

from .backends import Backend, sqlite_statements
from .errors import SchemaTooNew

_NAME = re.compile(r"(\d{4})_(\w+?)(?:\.(sqlite|postgresql))?\.sql")
DIALECTS = ("sqlite", "postgresql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    """``NNNN_name.sql``, the same for every dialect (recorded in ``schema_version``)."""
    sql: str

    def statements(self) -> list[str]:
        """The script split into statements, as SQLite runs it (one at a time)."""
        try:
            return sqlite_statements(self.sql)
        except ValueError as error:
            raise ValueError(f"{self.name}: {error}") from None


def migrations(dialect: str = "sqlite") -> list[Migration]:
    """The migrations shipped with this bot for ``dialect``, oldest first."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for {dialect!r}")
    found: dict[int, Migration] = {}
    for entry in files(__package__).joinpath("migrations").iterdir():
        match = _NAME.fullmatch(entry.name)
        if not match or match[3] not in (None, dialect):
            continue
        version = int(match[1])
        if version in found:
            raise RuntimeError(f"two migrations {version:04d} for {dialect}: "
                               f"{found[version].name} and {entry.name}")
        found[version] = Migration(version, f"{match[1]}_{match[2]}.sql",
                                   entry.read_text("utf-8"))
    ordered = [found[v] for v in sorted(found)]
    if [m.version for m in ordered] != list(range(1, len(ordered) + 1)):
        raise RuntimeError(f"{dialect} migrations must be numbered 1, 2, 3…: "
                           f"{[m.name for m in ordered]}")
    return ordered


async def migrate(backend: Backend, now: float) -> list[int]:
    """Apply pending migrations in one transaction; return their versions.

    The transaction takes the migration lock first (SQLite: ``BEGIN
    IMMEDIATE``; PostgreSQL: an advisory lock), so two bots starting at once
    cannot both upgrade: the second waits and then finds nothing to do.
    """
    known = migrations(backend.dialect)
    async with backend.migrating() as tx:
        await tx.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                         " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at DOUBLE PRECISION NOT NULL)")
        (current,), = await tx.fetch("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        if current > len(known):
            raise SchemaTooNew(current, len(known))
        applied = []
        for migration in known[current:]:
            await tx.script(migration.sql)
            await tx.execute("INSERT INTO schema_version (version, name, applied_at)"
                             " VALUES (:version, :name, :now)",
                             {"version": migration.version, "name": migration.name, "now": now})
            applied.append(migration.version)
    return applied
