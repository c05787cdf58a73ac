"""The fake Discord shards as Discord does: routing by shard, and the identify limits.

Each rule, frame by frame over raw websockets: IDENTIFY with ``[shard_id,
shard_count]``, READY and GUILD_CREATE with that shard's guilds only, guild
events and interactions only on their shard's connection, DMs on shard 0,
``/gateway/bot``, and the session start limits (one IDENTIFY per window in
each ``shard_id % max_concurrency`` bucket, ``remaining`` a day, one owner per
shard), whose breaches are ``identify`` problems that fail a test.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import shard_of
from tests.fakediscord.raw import RawClient, RawGateway

GUILDS, DIRECT_MESSAGES = 1 << 0, 1 << 12
WINDOW = 0.3


def sharded_world(shard_count: int = 2, **options: Any) -> FakeDiscord:
    """One guild on each shard (``g0``, ``g1``, …), a channel and a member in each."""
    fake = FakeDiscord(identify_window=WINDOW, **options)
    alice = fake.add_user("alice")
    for shard in range(shard_count):
        guild = fake.add_guild(f"g{shard}", shard=(shard, shard_count))
        guild.add_text_channel(f"games-{shard}")
        guild.add_member(alice)
    return fake


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


async def identified(
    fake: FakeDiscord, session: aiohttp.ClientSession, shard: list[int] | None,
    intents: int = GUILDS,
) -> tuple[RawGateway, dict[str, Any], list[dict[str, Any]]]:
    """A connection that IDENTIFYed on ``shard``: (gateway, READY, its GUILD_CREATEs)."""
    gateway = RawGateway(session, fake)
    await gateway.connect()
    await asyncio.sleep(fake.gateway.identify_wait(shard[0] if shard else 0))
    await gateway.identify(intents, shard=shard)
    ready = await gateway.receive()
    assert ready["t"] == "READY", ready
    creates = await gateway.dispatches(len(ready["d"]["guilds"]))
    return gateway, ready, creates


def test_guilds_can_be_placed_on_a_shard() -> None:
    fake = FakeDiscord()
    for count in (1, 2, 3, 16):
        for shard in range(count):
            guild = fake.add_guild(f"{shard}/{count}", shard=(shard, count))
            assert (guild.id >> 22) % count == shard == shard_of(guild.id, count)
    with pytest.raises(ValueError, match="not one of 2 shards"):
        fake.add_guild("nowhere", shard=(2, 2))


async def test_ready_and_guild_creates_carry_only_the_shards_guilds(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        _, ready, creates = await identified(fake, session, [1, 2])

    g1 = fake.guild("g1")
    assert ready["d"]["shard"] == [1, 2]
    assert ready["d"]["guilds"] == [{"id": str(g1.id), "unavailable": True}]
    assert [c["d"]["id"] for c in creates] == [str(g1.id)]
    assert fake.gateway.session is not None and fake.gateway.session.shard == (1, 2)


async def test_identify_without_a_shard_is_shard_0_of_1(session: aiohttp.ClientSession) -> None:
    fake = sharded_world(2)
    async with fake:
        _, ready, creates = await identified(fake, session, None)
        assert fake.gateway.connected and fake.gateway.connected_shards() == {0}

    assert "shard" not in ready["d"] and len(creates) == 2


async def test_guild_events_reach_only_their_shards_connection(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        shard0, _, _ = await identified(fake, session, [0, 2])
        shard1, _, _ = await identified(fake, session, [1, 2])

        fake.guild("g1").add_text_channel("lounge-1")
        event = await shard1.receive()
        await shard0.nothing_more()
        fake.guild("g0").add_text_channel("lounge-0")
        other = await shard0.receive()
        await shard1.nothing_more()

    assert (event["t"], event["d"]["name"]) == ("CHANNEL_CREATE", "lounge-1")
    assert (other["t"], other["d"]["name"]) == ("CHANNEL_CREATE", "lounge-0")


async def test_interactions_arrive_on_their_guilds_shard_and_dms_on_shard_0(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    alice = fake.user("alice")
    async with fake, RawClient(fake) as rest:
        shard0, _, _ = await identified(fake, session, [0, 2], GUILDS | DIRECT_MESSAGES)
        shard1, _, _ = await identified(fake, session, [1, 2], GUILDS | DIRECT_MESSAGES)
        await rest.put_commands([{"name": "ping", "description": "Are you there?", "type": 1}])

        await fake.slash(alice, "/ping", channel=fake.channel("games-1"))
        in_guild = await shard1.receive()
        await shard0.nothing_more()
        await fake.slash(alice, "/ping", channel=fake.dm_channel(alice))
        in_dm = await shard0.receive()
        await shard1.nothing_more()
        dm = fake.dm_channel(alice)
        await rest.post_message(dm.id, {"content": "your hand"})
        dm_event = await shard0.receive()
        await shard1.nothing_more()
        for interaction in fake.interactions:
            interaction.unanswered_expected = True

    assert in_guild["t"] == "INTERACTION_CREATE"
    assert in_guild["d"]["guild_id"] == str(fake.guild("g1").id)
    assert in_dm["t"] == "INTERACTION_CREATE" and "guild_id" not in in_dm["d"]
    assert dm_event["t"] == "MESSAGE_CREATE" and dm_event["d"]["channel_id"] == str(dm.id)


async def test_an_interaction_for_a_shard_nobody_holds_cannot_be_sent(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake, RawClient(fake) as rest:
        await identified(fake, session, [0, 2])
        await rest.put_commands([{"name": "ping", "description": "Are you there?", "type": 1}])

        assert not fake.gateway.connected  # shard 1 of 2 is missing
        with pytest.raises(RuntimeError, match="no bot session on guild g1's shard"):
            await fake.slash(fake.user("alice"), "/ping", channel=fake.channel("games-1"))


async def test_gateway_bot_reports_shards_and_the_session_start_limit() -> None:
    fake = FakeDiscord(max_concurrency=16, session_starts=2000, session_starts_remaining=1995)
    for i in range(2001):
        fake.world.add_guild(f"g{i}")
    async with fake, RawClient(fake) as rest:
        answer = await rest.request("GET", "/gateway/bot")
        fixed = FakeDiscord(shards=6)
        async with fixed, RawClient(fixed) as other:
            six = await other.request("GET", "/gateway/bot")
        anonymous = await rest.request("GET", "/gateway/bot", auth=False)
    fake.take_problems(kind="refused")

    assert answer.status == 200
    assert answer.body == {
        "url": fake.gateway_url,
        "shards": 3,
        "session_start_limit": {
            "total": 2000,
            "remaining": 1995,
            "reset_after": 24 * 3600 * 1000,
            "max_concurrency": 16,
        },
    }
    assert six.body["shards"] == 6 and six.body["session_start_limit"]["remaining"] == 1000
    assert anonymous.status == 401


async def test_each_identify_spends_one_session_start(session: aiohttp.ClientSession) -> None:
    fake = sharded_world(2, session_starts=10)
    async with fake, RawClient(fake) as rest:
        held = [await identified(fake, session, [shard, 2]) for shard in (0, 1)]
        answer = await rest.request("GET", "/gateway/bot")
        assert fake.gateway.connected

    assert answer.body["session_start_limit"]["remaining"] == 8 and len(held) == 2
    assert fake.gateway.identifies == 2


async def test_two_identifies_in_one_bucket_within_the_window_are_a_violation(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        await identified(fake, session, [0, 2])
        hasty = RawGateway(session, fake)
        await hasty.connect()
        await hasty.identify(shard=[1, 2])  # max_concurrency 1: shard 1 shares bucket 0
        answer = await hasty.receive()

    assert answer == {"op": 9, "d": False}  # INVALID_SESSION, as Discord answers
    [problem] = fake.take_problems(kind="identify")
    assert "bucket 0" in problem.detail and "max_concurrency 1" in problem.detail
    assert fake.gateway.identifies == 1


async def test_the_window_passes_then_the_bucket_takes_the_next_identify(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        first_shard = await identified(fake, session, [0, 2])
        assert fake.gateway.identify_wait(1) > 0
        await asyncio.sleep(WINDOW)
        second_shard = await identified(fake, session, [1, 2])
        assert fake.gateway.connected and first_shard and second_shard

    assert not fake.problems
    (first, _), (second, _) = fake.gateway.identified
    assert second - first >= WINDOW


async def test_max_concurrency_buckets_identify_side_by_side(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(4, max_concurrency=2)
    async with fake:
        gateways = []
        for shard in (0, 1):  # buckets 0 and 1: together is fine
            gateway = RawGateway(session, fake)
            await gateway.connect()
            await gateway.identify(shard=[shard, 4])
            gateways.append(gateway)
        for gateway in gateways:
            assert (await gateway.receive())["t"] == "READY"
        third = RawGateway(session, fake)
        await third.connect()
        await third.identify(shard=[2, 4])  # bucket 0 again, at once
        assert await third.receive() == {"op": 9, "d": False}

    [problem] = fake.take_problems(kind="identify")
    assert "shard [2, 4]" in problem.detail and "bucket 0" in problem.detail


async def test_identify_past_the_days_session_starts_is_a_violation(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(1, session_starts=1000, session_starts_remaining=0)
    async with fake:
        gateway = RawGateway(session, fake)
        await gateway.connect()
        await gateway.identify(shard=[0, 1])
        code = await gateway.closed_with()

    assert code == 4004
    [problem] = fake.take_problems(kind="identify")
    assert "no session starts left" in problem.detail


async def test_a_shard_identified_twice_at_once_has_two_owners(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        first, _, _ = await identified(fake, session, [1, 2])
        second, _, _ = await identified(fake, session, [1, 2])
        fake.guild("g1").add_text_channel("both-see-it")
        seen = [await first.receive(), await second.receive()]

    [problem] = fake.take_problems(kind="identify")
    assert "two processes own its guilds" in problem.detail
    assert [e["d"]["name"] for e in seen] == ["both-see-it", "both-see-it"]  # as on Discord


async def test_a_shard_identified_again_after_its_connection_closed_is_fine(
    session: aiohttp.ClientSession,
) -> None:
    fake = sharded_world(2)
    async with fake:
        first, _, _ = await identified(fake, session, [1, 2])
        await first.close()
        await fake.wait_until(lambda: not fake.gateway.connected_shards(2), what="the close")
        await identified(fake, session, [1, 2])

    assert not fake.problems and fake.gateway.identifies == 2


@pytest.mark.parametrize(("shard", "code"), [([2, 2], 4010), ([-1, 2], 4010), ([0, 0], 4010),
                                             ("0,1", 4010), ([0, 1], 4011)])
async def test_impossible_shards_are_refused(
    shard: Any, code: int, session: aiohttp.ClientSession
) -> None:
    fake = sharded_world(2, guilds_per_shard=1)  # two guilds on [0, 1]: sharding required
    async with fake:
        gateway = RawGateway(session, fake)
        await gateway.connect()
        await gateway.identify(shard=shard)
        closed = await gateway.closed_with()

    assert closed == code
    [problem] = fake.take_problems(kind="gateway")
    assert "IDENTIFY refused" in problem.detail


async def test_a_sharded_session_resumes_its_own_events(session: aiohttp.ClientSession) -> None:
    fake = sharded_world(2)
    async with fake:
        shard0, _, _ = await identified(fake, session, [0, 2])
        shard1, ready, _ = await identified(fake, session, [1, 2])
        await fake.gateway.drop(shard_id=1)
        assert await shard1.closed_with() == 4000
        fake.guild("g0").add_text_channel("not-for-shard-1")
        fake.guild("g1").add_text_channel("missed")

        again = RawGateway(session, fake)
        await again.connect()
        await again.send(6, {"token": fake.token, "session_id": ready["d"]["session_id"],
                             "seq": 2})
        missed, resumed = await again.dispatches(2)
        assert fake.gateway.connected and shard0.ws is not None

    assert (missed["t"], missed["d"]["name"]) == ("CHANNEL_CREATE", "missed")
    assert resumed["t"] == "RESUMED"


async def test_ready_waits_for_every_shard(session: aiohttp.ClientSession) -> None:
    fake = sharded_world(2)
    async with fake, RawClient(fake) as rest:
        await rest.put_commands([])
        shard0 = await identified(fake, session, [0, 2])
        with pytest.raises(TimeoutError):
            await fake.wait_until_ready(timeout=0.2)
        shard1 = await identified(fake, session, [1, 2])
        await fake.wait_until_ready(timeout=1)
        assert shard0 and shard1


async def test_a_sharded_bots_dm_with_buttons_is_a_problem(session: aiohttp.ClientSession) -> None:
    fake = sharded_world(2)
    alice = fake.user("alice")
    button = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go",
                                         "custom_id": "go"}]}
    async with fake, RawClient(fake) as rest:
        dm = fake.dm_channel(alice)
        plain = await rest.post_message(dm.id, {"content": "before sharding",
                                                "components": [button]})
        held = [await identified(fake, session, [shard, 2]) for shard in (0, 1)]
        fine = await rest.post_message(dm.id, {"content": "your hand"})
        buttons = await rest.post_message(dm.id, {"content": "click", "components": [button]})

    assert plain.status == fine.status == buttons.status == 200 and len(held) == 2
    [problem] = fake.take_problems(kind="shard")
    assert problem.detail.startswith(f"DM {buttons.body['id']} has components")
