"""The fake refuses what Discord refuses for messages, and accepts the valid twin.

Each rule is a pair: the largest (or otherwise valid) payload passes, the one
just past the limit is refused with Discord's error code. Requests go straight
over HTTP because discord.py itself blocks a few of these before sending.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.raw import RawClient

INVALID_FORM_BODY = 50035


@pytest.fixture
async def raw(fake_discord: FakeDiscord) -> AsyncIterator[RawClient]:
    async with RawClient(fake_discord) as client:
        yield client


def button(label: str = "Go", custom_id: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id or label, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(count: int, custom_id: str = "pick", **extra: Any) -> dict[str, Any]:
    options = [{"label": f"Card {i}", "value": f"c{i}"} for i in range(count)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


def embed_with(**fields: Any) -> dict[str, Any]:
    return {"embeds": [fields]}


def fields(count: int, name: str = "n", value: str = "v") -> list[dict[str, str]]:
    return [{"name": name, "value": value} for _ in range(count)]


RULES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "content length": ({"content": "x" * 2000}, {"content": "x" * 2001}),
    "embed count": ({"embeds": [{"title": "t"}] * 10}, {"embeds": [{"title": "t"}] * 11}),
    "embed title": (embed_with(title="x" * 256), embed_with(title="x" * 257)),
    "embed description": (embed_with(description="x" * 4096), embed_with(description="x" * 4097)),
    "embed field count": (embed_with(fields=fields(25)), embed_with(fields=fields(26))),
    "embed field name": (
        embed_with(fields=fields(1, name="x" * 256)),
        embed_with(fields=fields(1, name="x" * 257)),
    ),
    "embed field value": (
        embed_with(fields=fields(1, value="x" * 1024)),
        embed_with(fields=fields(1, value="x" * 1025)),
    ),
    "embed field name required": (
        embed_with(fields=fields(1)),
        embed_with(fields=fields(1, name="")),
    ),
    "embed footer": (
        embed_with(footer={"text": "x" * 2048}),
        embed_with(footer={"text": "x" * 2049}),
    ),
    "embed author": (
        embed_with(author={"name": "x" * 256}),
        embed_with(author={"name": "x" * 257}),
    ),
    "embed total": (
        {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2000}]},
        {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
    ),
    "action rows": (
        {"components": [row(button(f"b{i}")) for i in range(5)]},
        {"components": [row(button(f"b{i}")) for i in range(6)]},
    ),
    "buttons per row": (
        {"components": [row(*[button(f"b{i}") for i in range(5)])]},
        {"components": [row(*[button(f"b{i}") for i in range(6)])]},
    ),
    "select alone in its row": (
        {"components": [row(select(3)), row(button())]},
        {"components": [row(select(3), button())]},
    ),
    "select options": ({"components": [row(select(25))]}, {"components": [row(select(26))]}),
    "select max_values within options": (
        {"components": [row(select(3, max_values=3))]},
        {"components": [row(select(3, max_values=4))]},
    ),
    "select option label": (
        {
            "components": [
                row({"type": 3, "custom_id": "s", "options": [{"label": "x" * 100, "value": "v"}]})
            ]
        },
        {
            "components": [
                row({"type": 3, "custom_id": "s", "options": [{"label": "x" * 101, "value": "v"}]})
            ]
        },
    ),
    "select option values unique": (
        {
            "components": [
                row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}],
                    }
                )
            ]
        },
        {
            "components": [
                row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "a"}],
                    }
                )
            ]
        },
    ),
    "custom_id length": (
        {"components": [row(button(custom_id="x" * 100))]},
        {"components": [row(button(custom_id="x" * 101))]},
    ),
    "custom_id unique": (
        {"components": [row(button("a"), button("b"))]},
        {"components": [row(button("a", "same"), button("b", "same"))]},
    ),
    "button label": (
        {"components": [row(button("x" * 80))]},
        {"components": [row(button("x" * 81))]},
    ),
    "button needs custom_id": (
        {"components": [row(button())]},
        {"components": [row({"type": 2, "style": 1, "label": "Go"})]},
    ),
    "link button has url, no custom_id": (
        {
            "components": [
                row({"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"})
            ]
        },
        {
            "components": [
                row(
                    {
                        "type": 2,
                        "style": 5,
                        "label": "Rules",
                        "url": "https://example.com",
                        "custom_id": "rules",
                    }
                )
            ]
        },
    ),
    "top level must be rows": ({"components": [row(button())]}, {"components": [button()]}),
    "no ephemeral flag outside interactions": (
        {"content": "hi", "flags": 4096},
        {"content": "hi", "flags": 64},
    ),
    "nonce length": ({"nonce": "n" * 25}, {"nonce": "n" * 26}),
    "unique custom_ids": (  # two pick menus of one rack, as Discord refuses them (issue 19)
        {"components": [row(select(13, custom_id="rs:3:pick:1")),
                        row(select(13, custom_id="rs:3:pick:2"))]},
        {"components": [row(select(13, custom_id="rs:3:pick:")),
                        row(select(13, custom_id="rs:3:pick:"))]},
    ),
}


@pytest.mark.parametrize("rule", RULES)
async def test_message_rule_refuses_past_the_limit_and_accepts_at_it(
    rule: str, fake_discord: FakeDiscord, raw: RawClient
) -> None:
    valid, invalid = RULES[rule]
    channel = fake_discord.default_channel

    accepted = await raw.post_message(channel.id, {"content": "x", **valid})
    refused = await raw.post_message(channel.id, {"content": "x", **invalid})

    assert accepted.status == 200, accepted.body
    assert (refused.status, refused.code) == (400, INVALID_FORM_BODY), refused.body
    assert refused.body["message"] == "Invalid Form Body"
    assert fake_discord.take_problems(code=INVALID_FORM_BODY)


async def test_invalid_form_body_nests_errors_by_json_path(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    payload = {
        "content": "x",
        "components": [row(button()), row(*[button(f"b{i}") for i in range(6)])],
    }

    refused = await raw.post_message(fake_discord.default_channel.id, payload)

    errors = refused.body["errors"]["components"]["1"]["components"]["_errors"]
    assert errors[0]["code"] == "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
    fake_discord.take_problems()


async def test_empty_message_is_refused_with_50006(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    channel = fake_discord.default_channel

    refused = await raw.post_message(channel.id, {"content": "   "})
    accepted = await raw.post_message(channel.id, {"components": [row(button())]})

    assert (refused.status, refused.code) == (400, 50006)
    assert accepted.status == 200
    fake_discord.take_problems(code=50006)


async def test_an_enforced_nonce_returns_the_first_message(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    """Discord: with ``enforce_nonce``, a second create with the same nonce by the same
    author in the past few minutes returns the first message and makes none."""
    channel = fake_discord.default_channel
    other = fake_discord.guild("Rummy Club").add_text_channel("other")
    first = await raw.post_message(channel.id, {"content": "one", "nonce": "n1",
                                                "enforce_nonce": True})
    again = await raw.post_message(channel.id, {"content": "two", "nonce": "n1",
                                                "enforce_nonce": True})
    loose = await raw.post_message(channel.id, {"content": "three", "nonce": "n1"})
    elsewhere = await raw.post_message(other.id, {"content": "four", "nonce": "n1",
                                                  "enforce_nonce": True})
    assert again.body["id"] == first.body["id"] and again.body["content"] == "one"
    assert first.body["nonce"] == "n1"
    assert loose.body["id"] != first.body["id"] and elsewhere.body["id"] != first.body["id"]
    fake_discord.advance_time(5 * 60 + 1)
    later = await raw.post_message(channel.id, {"content": "five", "nonce": "n1",
                                                "enforce_nonce": True})
    assert later.body["id"] != first.body["id"]
    assert [m.content for m in fake_discord.channel_messages(channel)] == ["one", "three",
                                                                           "five"]


async def test_attachment_size_limit() -> None:
    async with FakeDiscord(attachment_size_limit=1000) as fake:
        channel = fake.add_guild("g").add_text_channel("c")
        async with RawClient(fake) as client:
            accepted = await client.post_message(
                channel.id, {"content": "x"}, {"a.png": b"x" * 1000}
            )
            refused = await client.post_message(
                channel.id, {"content": "x"}, {"a.png": b"x" * 1001}
            )

        assert accepted.status == 200
        assert (refused.status, refused.code) == (413, 40005)
        assert [p.code for p in fake.take_problems()] == [40005]


async def test_at_most_ten_attachments(fake_discord: FakeDiscord, raw: RawClient) -> None:
    channel = fake_discord.default_channel
    ten = {f"{i}.txt": b"x" for i in range(10)}

    accepted = await raw.post_message(channel.id, {"content": "x"}, ten)
    refused = await raw.post_message(channel.id, {"content": "x"}, ten | {"10.txt": b"x"})

    assert accepted.status == 200
    assert (refused.status, refused.code) == (400, INVALID_FORM_BODY)
    fake_discord.take_problems()


async def test_attachments_are_stored_and_served(fake_discord: FakeDiscord, raw: RawClient) -> None:
    png = (
        b"\x89PNG\r\n\x1a\n"
        + b"\x00\x00\x00\rIHDR"
        + (3).to_bytes(4, "big")
        + (2).to_bytes(4, "big")
    )

    sent = await raw.post_message(
        fake_discord.default_channel.id, {"content": "see"}, {"hand.png": png}
    )

    attachment = fake_discord.last_message().attachments[0]
    assert (attachment.filename, attachment.data, attachment.content_type) == (
        "hand.png",
        png,
        "image/png",
    )
    assert (sent.body["attachments"][0]["width"], sent.body["attachments"][0]["height"]) == (3, 2)
    async with raw.session.get(sent.body["attachments"][0]["url"]) as served:
        assert await served.read() == png


async def test_edit_keeps_listed_attachments_and_history(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    channel = fake_discord.default_channel
    sent = await raw.post_message(channel.id, {"content": "v1"}, {"a.txt": b"a"})
    kept = sent.body["attachments"][0]["id"]

    edited = await raw.request(
        "PATCH",
        f"/channels/{channel.id}/messages/{sent.body['id']}",
        json_body={"content": "v2", "attachments": [{"id": kept}, {"id": 0}]},
        files={"b.txt": b"b"},
    )

    message = fake_discord.last_message()
    assert edited.status == 200
    assert [a.filename for a in message.attachments] == ["a.txt", "b.txt"]
    assert message.content == "v2" and message.history[0].content == "v1"
    assert message.edited_at is not None


async def test_unknown_channel_and_message(fake_discord: FakeDiscord, raw: RawClient) -> None:
    channel = fake_discord.default_channel

    no_channel = await raw.post_message(1234, {"content": "x"})
    no_message = await raw.request(
        "PATCH", f"/channels/{channel.id}/messages/1234", json_body={"content": "x"}
    )

    assert (no_channel.status, no_channel.code) == (404, 10003)
    assert (no_message.status, no_message.code) == (404, 10008)
    assert {p.code for p in fake_discord.take_problems()} == {10003, 10008}


async def test_closed_dms_refuse_with_50007(fake_discord: FakeDiscord, raw: RawClient) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    fake_discord.close_dms(bob)

    alice_dm = await raw.request(
        "POST", "/users/@me/channels", json_body={"recipient_id": str(alice.id)}
    )
    bob_dm = await raw.request(
        "POST", "/users/@me/channels", json_body={"recipient_id": str(bob.id)}
    )
    to_alice = await raw.post_message(int(alice_dm.body["id"]), {"content": "your hand"})
    to_bob = await raw.post_message(int(bob_dm.body["id"]), {"content": "your hand"})

    assert to_alice.status == 200 and fake_discord.dms(alice)[0].content == "your hand"
    assert (to_bob.status, to_bob.code) == (403, 50007)
    assert fake_discord.dms(bob) == []
    fake_discord.open_dms(bob)
    assert (await raw.post_message(int(bob_dm.body["id"]), {"content": "again"})).status == 200


async def test_users_sharing_no_guild_cannot_be_messaged(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    stranger = fake_discord.add_user("stranger")

    dm = await raw.request(
        "POST", "/users/@me/channels", json_body={"recipient_id": str(stranger.id)}
    )
    sent = await raw.post_message(int(dm.body["id"]), {"content": "hi"})

    assert (sent.status, sent.code) == (403, 50007)


async def test_requests_need_the_bot_token(fake_discord: FakeDiscord, raw: RawClient) -> None:
    refused = await raw.request("GET", "/users/@me", auth=False)

    assert refused.status == 401
    assert [p.status for p in fake_discord.take_problems()] == [401]


async def test_unknown_endpoint_is_404_and_a_problem(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    response = await raw.request("POST", f"/channels/{fake_discord.default_channel.id}/typing")

    assert response.status == 404
    with pytest.raises(AssertionError, match="unknown_endpoint"):
        fake_discord.assert_clean()
    [problem] = fake_discord.take_problems()
    assert "POST /channels/" in str(problem) and "/typing" in str(problem)


async def test_rest_answers_json_without_charset_and_rate_limit_headers(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    response = await raw.request("GET", "/users/@me")

    assert response.headers["Content-Type"] == "application/json"
    assert response.headers["X-RateLimit-Remaining"] == "49"
    assert response.body["id"] == str(fake_discord.bot.id) and response.body["bot"] is True


async def test_injected_rate_limit_has_discord_shape(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    route = "POST /channels/{channel_id}/messages"
    fake_discord.fail_next(route, status=429, retry_after=1.5, is_global=True)

    limited = await raw.post_message(fake_discord.default_channel.id, {"content": "x"})
    after = await raw.post_message(fake_discord.default_channel.id, {"content": "x"})

    assert limited.status == 429
    assert limited.body == {
        "message": "You are being rate limited.",
        "code": 0,
        "retry_after": 1.5,
        "global": True,
    }
    assert limited.headers["X-RateLimit-Global"] == "true" and "Via" in limited.headers
    assert after.status == 200
    assert fake_discord.problems == []


def test_fail_next_rejects_unknown_routes(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="unknown route"):
        fake_discord.fail_next("POST /channel/{id}/messages")


async def test_injected_client_errors_carry_the_given_code(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    fake_discord.fail_next("POST /channels/{channel_id}/messages", status=403, code=50013)

    refused = await raw.post_message(fake_discord.default_channel.id, {"content": "x"})

    assert (refused.status, refused.code) == (403, 50013)
    assert fake_discord.problems == []
