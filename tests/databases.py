"""The tests' databases: a SQLite file, or a PostgreSQL database of this test run.

A pytest plugin (``pytest_plugins`` in ``tests/conftest.py``). Fixtures:

``postgres_server`` (session)
    URL of a PostgreSQL server's maintenance database: ``TEST_DATABASE_URL``
    (default ``postgresql://postgres@127.0.0.1:5432/test``, the service every
    machine of ours runs) when it answers. When it does not: with ``CI`` set, the
    test fails loudly (these tests never skip in CI); elsewhere (a laptop) a
    throwaway server is started with pytest-postgresql over ``pg_ctl``.
``postgres_run`` (session)
    A database ``test_<random>`` created on that server for this run, dropped
    at the end (with whatever bot processes left connected).
``postgres_url``
    That database with clean tables (its ``public`` schema dropped and made
    again, so the store migrates it from nothing): the URL to give
    ``Store.open`` or a bot (``DATABASE_URL``). Every process of one test sees
    the same database.
``database_url``
    Parametrised over ``sqlite`` and ``postgres``: what ``Store.open`` takes,
    a fresh SQLite file's path or ``postgres_url``. A store test that asks for
    it runs on both databases (the ``postgres`` one is marked ``postgres``).
``db``
    The end-to-end tests' database: a SQLite file by default; a test marked
    ``@pytest.mark.parametrize("db", BACKENDS, indirect=True)`` runs on both.

:func:`fetch_all` reads a database from outside the store (its own connection).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from pytest_postgresql import factories

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""The ``params`` of a fixture (or an indirect parametrisation) over both databases."""

postgres_throwaway = factories.postgresql_proc(port=None)
"""A server of our own (pg_ctl on a free port), started only where no server answers."""


def with_database(url: str, name: str) -> str:
    """``url`` pointing at the database ``name`` on the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _answers(url: str) -> str | None:
    """``None`` when the server answers, else why not."""
    try:
        with psycopg.connect(url, connect_timeout=3):
            return None
    except psycopg.Error as error:
        return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> str:
    url = os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_SERVER
    problem = _answers(url)
    if problem is None:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"no PostgreSQL server answers at {url} ({problem}); CI runs the "
                    "PostgreSQL tests and never skips them: start the service or set "
                    "TEST_DATABASE_URL", pytrace=False)
    executor = request.getfixturevalue("postgres_throwaway")
    return f"postgresql://{executor.user}@{executor.host}:{executor.port}/postgres"


def _admin(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def postgres_run(postgres_server: str) -> Iterator[str]:
    name = f"test_{secrets.token_hex(6)}"
    _admin(postgres_server, f'CREATE DATABASE "{name}"')
    try:
        yield with_database(postgres_server, name)
    finally:
        _admin(postgres_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_run: str) -> str:
    _admin(postgres_run, "DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public")
    return postgres_run


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "rummy.sqlite3")


@pytest.fixture
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if getattr(request, "param", "sqlite") == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "rummy.sqlite3"


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith(("postgresql://", "postgres://"))


def fetch_all(database: str | Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Every row of ``sql`` (``?`` placeholders), read over a connection of its own."""
    if is_postgres(database):
        with psycopg.connect(str(database), autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        return connection.execute(sql, params).fetchall()
