"""The gateway, spoken to frame by frame: HELLO, IDENTIFY, READY, RESUME, refusals."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.raw import RawGateway

GUILDS, GUILD_MEMBERS = 1 << 0, 1 << 1


@pytest.fixture
async def gateway(fake_discord: FakeDiscord) -> AsyncIterator[RawGateway]:
    async with aiohttp.ClientSession() as session:
        yield RawGateway(session, fake_discord)


async def test_hello_then_heartbeat_ack(gateway: RawGateway) -> None:
    hello = await gateway.connect()
    await gateway.send(1, None)

    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    assert await gateway.receive() == {"op": 11}


async def test_identify_gets_ready_then_guild_create(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.identify()

    ready, guild_create = await gateway.dispatches(2)

    guild = fake_discord.guild("Rummy Club")
    assert (ready["t"], ready["s"], guild_create["t"], guild_create["s"]) == (
        "READY",
        1,
        "GUILD_CREATE",
        2,
    )
    assert ready["d"]["resume_gateway_url"] == fake_discord.gateway_url
    assert ready["d"]["user"]["id"] == str(fake_discord.bot.id) and ready["d"]["user"]["bot"]
    assert ready["d"]["application"]["id"] == str(fake_discord.application_id)
    assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
    data = guild_create["d"]
    assert [c["name"] for c in data["channels"]] == ["games"]
    assert data["member_count"] == 3
    assert [m["user"]["id"] for m in data["members"]] == [str(fake_discord.bot.id)]
    assert data["roles"][0]["id"] == str(guild.id) and data["roles"][0]["name"] == "@everyone"
    assert fake_discord.gateway.connected


async def test_members_intent_brings_every_member() -> None:
    fake = FakeDiscord(privileged_intents=GUILD_MEMBERS)
    guild = fake.add_guild("g")
    guild.add_member(fake.add_user("alice"))
    async with fake, aiohttp.ClientSession() as session:
        gateway = RawGateway(session, fake)
        await gateway.connect()
        await gateway.identify(GUILDS | GUILD_MEMBERS)
        _, guild_create = await gateway.dispatches(2)
        guild.add_member(fake.add_user("bob"))
        member_add = await gateway.receive()

    members = guild_create["d"]["members"]
    assert {m["user"]["username"] for m in members} == {"Rummy Bot", "alice"}
    assert all(m["flags"] == 0 for m in members)
    assert member_add["t"] == "GUILD_MEMBER_ADD" and member_add["d"]["user"]["username"] == "bob"


IDENTIFY_REFUSALS = {
    "wrong token": ({"token": "nope"}, 4004),
    "privileged intent not enabled": ({"intents": GUILDS | GUILD_MEMBERS}, 4014),
    "no intents": ({"intents": None}, 4013),
}


@pytest.mark.parametrize("case", IDENTIFY_REFUSALS)
async def test_identify_refusals_close_with_discords_codes(
    case: str, fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    override, code = IDENTIFY_REFUSALS[case]
    await gateway.connect()
    await gateway.send(
        2, {"token": fake_discord.token, "intents": GUILDS, "properties": {}} | override
    )

    assert await gateway.closed_with() == code
    [problem] = fake_discord.take_problems(kind="gateway")
    assert "IDENTIFY refused" in problem.detail


async def test_requests_before_identify_close_with_4003(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.send(8, {"guild_id": "1", "query": "", "limit": 0})

    assert await gateway.closed_with() == 4003
    fake_discord.take_problems(kind="gateway")


async def test_only_json_encoding_is_spoken(fake_discord: FakeDiscord, gateway: RawGateway) -> None:
    assert gateway.session is not None
    ws = await gateway.session.ws_connect(f"{fake_discord.gateway_url}?v=10&encoding=etf")

    message = await ws.receive(timeout=5)

    assert message.type is aiohttp.WSMsgType.CLOSE and ws.close_code == 4012
    await ws.close()
    fake_discord.take_problems(kind="gateway")


async def test_resume_replays_missed_events_then_resumed(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.identify()
    ready, _ = await gateway.dispatches(2)
    await fake_discord.gateway.drop()
    assert await gateway.closed_with() == 4000

    lounge = fake_discord.guild("Rummy Club").add_text_channel("lounge")
    await gateway.connect()
    await gateway.send(
        6, {"token": fake_discord.token, "session_id": ready["d"]["session_id"], "seq": 2}
    )
    missed, resumed = await gateway.dispatches(2)

    assert (missed["t"], missed["s"], missed["d"]["id"]) == ("CHANNEL_CREATE", 3, str(lounge.id))
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    assert fake_discord.gateway.resumes == 1


async def test_resume_of_an_unknown_session_is_invalid(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.send(6, {"token": fake_discord.token, "session_id": "nope", "seq": 1})

    assert await gateway.receive() == {"op": 9, "d": False}


async def test_later_additions_are_dispatched_by_intent(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.identify(GUILDS)
    await gateway.dispatches(2)
    guild = fake_discord.guild("Rummy Club")

    guild.add_member(fake_discord.add_user("carol"))
    channel = guild.add_text_channel("lounge")
    thread = channel.add_thread("Game 2")
    channel_create, thread_create = await gateway.dispatches(2)

    assert channel_create["t"] == "CHANNEL_CREATE" and channel_create["d"]["guild_id"] == str(
        guild.id
    )
    assert thread_create["t"] == "THREAD_CREATE" and thread_create["d"]["id"] == str(thread.id)
    assert thread_create["d"]["parent_id"] == str(channel.id)


async def test_request_guild_members_answers_one_chunk(
    fake_discord: FakeDiscord, gateway: RawGateway
) -> None:
    await gateway.connect()
    await gateway.identify()
    await gateway.dispatches(2)
    guild = fake_discord.guild("Rummy Club")

    await gateway.send(8, {"guild_id": str(guild.id), "query": "al", "limit": 0, "nonce": "n1"})
    chunk = await gateway.receive()

    assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["nonce"] == "n1"
    assert [m["user"]["username"] for m in chunk["d"]["members"]] == ["alice"]
