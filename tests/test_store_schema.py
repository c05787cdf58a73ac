"""Store: connection settings and versioned migrations, against a real file."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import SchemaTooNew, Store
from bot.store import schema as schema_module
from bot.store.schema import Migration, migrations


def versions(path) -> list[tuple[int, str, float]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version, name, applied_at FROM schema_version").fetchall()


def tables(path) -> set[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in rows}


async def test_fresh_database_gets_every_migration(tmp_path):
    path = tmp_path / "rummy.sqlite3"
    store = await Store.open(path, clock=lambda: 100.0)
    await store.close()
    assert versions(path) == [(m.version, m.name, 100.0) for m in migrations()]
    assert {"games", "seats", "moves", "results", "ratings", "user_settings",
            "shown_hands"} <= tables(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_reopening_an_up_to_date_database_applies_nothing(tmp_path):
    path = tmp_path / "rummy.sqlite3"
    await (await Store.open(path, clock=lambda: 100.0)).close()
    async with await Store.open(path, clock=lambda: 200.0):
        pass
    assert {applied_at for *_, applied_at in versions(path)} == {100.0}


async def test_a_database_from_a_newer_bot_is_refused(tmp_path):
    path = tmp_path / "rummy.sqlite3"
    await (await Store.open(path)).close()
    newer = len(migrations()) + 1
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (?, 'from the future', 0)", (newer,))
    with pytest.raises(SchemaTooNew, match=f"version {newer}"):
        await Store.open(path)
    assert max(v for v, *_ in versions(path)) == newer


async def test_a_failing_migration_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "rummy.sqlite3"
    await (await Store.open(path)).close()
    broken = Migration(len(migrations()) + 1, "9999_broken.sql",
                       "CREATE TABLE half_done (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n")
    shipped = migrations()
    monkeypatch.setattr(schema_module, "migrations", lambda: [*shipped, broken])
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await Store.open(path)
    assert "half_done" not in tables(path)
    assert [v for v, *_ in versions(path)] == [m.version for m in shipped]


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


def test_shipped_migrations_are_numbered_from_one():
    assert [m.version for m in migrations()] == list(range(1, len(migrations()) + 1))
    assert migrations()[0].name == "0001_initial.sql"
