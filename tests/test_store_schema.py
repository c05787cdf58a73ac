"""Store: versioned migrations on both databases, SQLite's settings, upgrading old files."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import asyncpg
import pytest

from bot.store import SchemaTooNew, SeatRow, Store
from bot.store import schema as schema_module
from bot.store.schema import DIALECTS, Migration, migrations
from tests.databases import fetch_all, is_postgres

TABLES = {"games", "seats", "moves", "results", "ratings", "user_settings", "shown_hands"}


def versions(database) -> list[tuple[int, str, float]]:
    return fetch_all(database, "SELECT version, name, applied_at FROM schema_version"
                               " ORDER BY version")


def tables(database) -> set[str]:
    if is_postgres(database):
        rows = fetch_all(database, "SELECT table_name FROM information_schema.tables"
                                   " WHERE table_schema = 'public'")
    else:
        rows = fetch_all(database, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {name for (name,) in rows}


def dialect(database) -> str:
    return "postgresql" if is_postgres(database) else "sqlite"


async def test_fresh_database_gets_every_migration(database_url):
    store = await Store.open(database_url, clock=lambda: 100.0)
    assert store.dialect == dialect(database_url)
    await store.close()
    assert versions(database_url) == [(m.version, m.name, 100.0)
                                      for m in migrations(dialect(database_url))]
    assert tables(database_url) >= TABLES


async def test_sqlite_runs_in_wal_mode(tmp_path):
    path = tmp_path / "rummy.sqlite3"
    await (await Store.open(path)).close()
    assert fetch_all(path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopening_an_up_to_date_database_applies_nothing(database_url):
    await (await Store.open(database_url, clock=lambda: 100.0)).close()
    async with await Store.open(database_url, clock=lambda: 200.0):
        pass
    assert {applied_at for *_, applied_at in versions(database_url)} == {100.0}


async def test_two_processes_starting_at_once_migrate_once(database_url):
    """Two stores (two connections, as two bot processes) open a new database together:
    the migration lock lets one migrate while the other waits, then finds nothing to do."""
    stores = await asyncio.gather(*(Store.open(database_url, clock=lambda: 100.0)
                                    for _ in range(3)))
    for store in stores:
        await store.close()
    assert [v for v, *_ in versions(database_url)] == [
        m.version for m in migrations(dialect(database_url))]


async def test_a_database_from_a_newer_bot_is_refused(database_url):
    await (await Store.open(database_url)).close()
    newer = len(migrations()) + 1
    fetch_all(database_url, "INSERT INTO schema_version VALUES (?, 'from the future', 0)",
              (newer,))
    with pytest.raises(SchemaTooNew, match=f"version {newer}"):
        await Store.open(database_url)
    assert max(v for v, *_ in versions(database_url)) == newer


async def test_a_failing_migration_leaves_the_database_as_it_was(database_url, monkeypatch):
    await (await Store.open(database_url)).close()
    shipped = migrations(dialect(database_url))
    broken = Migration(len(shipped) + 1, "9999_broken.sql",
                       "CREATE TABLE half_done (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n")
    monkeypatch.setattr(schema_module, "migrations", lambda _dialect: [*shipped, broken])
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError), match="nowhere"):
        await Store.open(database_url)
    assert "half_done" not in tables(database_url)
    assert [v for v, *_ in versions(database_url)] == [m.version for m in shipped]


@pytest.mark.parametrize("released", [1, 2])
async def test_a_sqlite_file_of_an_earlier_version_is_upgraded_in_place(tmp_path, released):
    """A file made by an earlier bot (its migrations, then a game) opens with its game."""
    path = tmp_path / "rummy.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                   " name TEXT NOT NULL, applied_at REAL NOT NULL)")
        for migration in migrations("sqlite")[:released]:
            for statement in migration.statements():
                db.execute(statement)
            db.execute("INSERT INTO schema_version VALUES (?, ?, 1.0)",
                       (migration.version, migration.name))
        db.execute("INSERT INTO games (guild_id, channel_id, variant, options, seed, status,"
                   " host_id, state, move_count, created_at, updated_at)"
                   " VALUES (1, 2, 'straight', '{}', '7', 'running', 3, '{\"turn\": 4}', 4, 1, 1)")
        db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 3, 'Ann')")
    async with await Store.open(path, clock=lambda: 5.0) as store:
        (game,) = await store.unfinished_games()
        assert (game.state, game.move_count, game.published) == ({"turn": 4}, 4, {})
        assert game.seats == (SeatRow(0, 3, "Ann"),)
        assert await store.record_move(game.id, 0, 3, {}, {"turn": 5}, None,
                                       expected_moves=4) == 5
    assert [(v, applied) for v, _, applied in versions(path)] == [
        (m.version, 1.0 if m.version <= released else 5.0) for m in migrations("sqlite")]


def test_statements_split_on_semicolons_outside_triggers_and_strings():
    migration = Migration(1, "0001_x.sql", (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER t_no_update BEFORE UPDATE ON t\n"
        "BEGIN\n    SELECT RAISE(ABORT, 'no; never');\nEND;\n"))
    statements = migration.statements()
    assert len(statements) == 2
    assert statements[0].endswith("DEFAULT 'a;b');")
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


@pytest.mark.parametrize("name", DIALECTS)
def test_shipped_migrations_are_numbered_from_one(name):
    shipped = migrations(name)
    assert [m.version for m in shipped] == list(range(1, len(shipped) + 1))
    assert shipped[0].name == "0001_initial.sql"


def test_both_databases_ship_the_same_migrations():
    """One set: the same versions and names, whether a script serves both or each its own."""
    assert [m.name for m in migrations("sqlite")] == [m.name for m in migrations("postgresql")]
