"""Test-wide plugins: the fake Discord fixtures."""

pytest_plugins = ["tests.fakediscord.plugin"]
