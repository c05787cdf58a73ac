"""Pytest fixtures for the fake Discord (enable with ``pytest_plugins``).

``fake_discord`` yields a started :class:`FakeDiscord` holding one guild
("Rummy Club") with a text channel "games" and two members, alice and bob.
At teardown it gives the bot a moment to answer pending interactions, stops
the server and fails the test on any unexpected problem.

Tests that need another world (other guilds, privileged intents, a small
attachment limit) build their own: ``async with FakeDiscord(...) as fake``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    guild = fake.add_guild("Rummy Club")
    guild.add_text_channel("games")
    for name in ("alice", "bob"):
        guild.add_member(fake.add_user(name))
    async with fake:
        yield fake
        await fake.settle()
    fake.assert_clean()
