"""Pytest fixtures for the fake Discord (enable with ``pytest_plugins``).

``fake_discord`` yields a started :class:`FakeDiscord` holding one guild
("Rummy Club") with a text channel "games" and two members, alice and bob.
At teardown it gives the bot a moment to answer pending interactions, stops
the server and fails the test on any unexpected problem.

Tests that need another world (other guilds, privileged intents, a small
attachment limit) build their own: ``async with FakeDiscord(...) as fake``.

``answered_in_time`` applies to every test: it fails the test if any fake
started during it saw an interaction first answered more than 3 s after it
was sent (a player would have seen "This interaction failed"), unless the test
declared it (``InteractionRecord.expect_late``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

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


@pytest.fixture(autouse=True)
def answered_in_time() -> Iterator[None]:
    before = set(FakeDiscord.started)
    yield
    late = [record for fake in list(FakeDiscord.started) if fake not in before
            for record in fake.late_answers()]
    if late:
        lines = "\n".join(f"  - {r} answered after {r.answer_time:.2f} s" for r in late)
        pytest.fail(f"{len(late)} interaction(s) answered after Discord's 3 s:\n{lines}")
