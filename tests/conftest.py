"""Test-wide plugins: the fake Discord fixtures and the databases (SQLite, PostgreSQL)."""

pytest_plugins = ["tests.fakediscord.plugin", "tests.databases"]
