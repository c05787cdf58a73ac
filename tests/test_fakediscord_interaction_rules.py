"""Discord's interaction rules, exercised over raw HTTP.

A silent discord.Client holds the gateway session (it answers nothing); the
tests answer the interactions themselves, so every rule can be hit exactly:
one response, within 3 seconds, of a type valid for the interaction; webhook
calls for 15 minutes; deferred responses turning the first followup into the
original message; and the same content limits as channel messages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.fakediscord import CallbackType, FakeDiscord, InteractionRecord, Message, User
from tests.fakediscord.client import running
from tests.fakediscord.raw import RawClient

STRING, INTEGER = 3, 4
EPHEMERAL = 64
COMMANDS = [
    {
        "name": "play",
        "description": "Play cards",
        "options": [
            {"type": STRING, "name": "cards", "description": "Cards", "autocomplete": True},
            {"type": INTEGER, "name": "meld", "description": "Meld", "autocomplete": True},
        ],
    }
]


@pytest.fixture
async def raw(fake_discord: FakeDiscord) -> AsyncIterator[RawClient]:
    async with RawClient(fake_discord) as client:
        synced = await client.put_commands(COMMANDS, guild_id=fake_discord.guild("Rummy Club").id)
        assert synced.status == 200
        async with running(fake_discord, discord.Client(intents=discord.Intents.default())):
            yield client


@pytest.fixture
def alice(fake_discord: FakeDiscord) -> User:
    return fake_discord.user("alice")


@pytest.fixture
def bob(fake_discord: FakeDiscord) -> User:
    return fake_discord.user("bob")


async def play(fake: FakeDiscord, user: User) -> InteractionRecord:
    return await fake.slash(user, "/play", cards="7H 7S 7D")


async def button_message(raw: RawClient, fake: FakeDiscord) -> Message:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    sent = await raw.post_message(
        fake.default_channel.id, {"content": "board", "components": [row]}
    )
    return fake.message(sent.body["id"])


async def test_callback_answers_the_body_discord_py_parses(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)

    answer = await raw.callback(inter, {"type": 4, "data": {"content": "hi", "flags": EPHEMERAL}})

    message = await inter.reply()
    assert answer.status == 200
    assert answer.body["interaction"] == {
        "id": str(inter.id),
        "type": 2,
        "response_message_id": str(message.id),
        "response_message_loading": False,
        "response_message_ephemeral": True,
    }
    assert answer.body["resource"]["type"] == 4
    assert answer.body["resource"]["message"]["content"] == "hi"
    assert message.ephemeral and message.visible_to is alice


async def test_callback_without_with_response_is_204(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)

    answer = await raw.request(
        "POST",
        f"/interactions/{inter.id}/{inter.token}/callback",
        json_body={"type": 4, "data": {"content": "hi"}},
        auth=False,
    )

    assert answer.status == 204


async def test_only_one_response_40060(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)

    first = await raw.callback(inter, {"type": 4, "data": {"content": "one"}})
    second = await raw.callback(inter, {"type": 4, "data": {"content": "two"}})

    assert first.status == 200
    assert (second.status, second.code) == (400, 40060)
    assert second.body["message"] == "Interaction has already been acknowledged."
    assert [m.content for m in fake_discord.channel_messages()] == ["one"]
    assert [p.code for p in fake_discord.take_problems()] == [40060]


async def test_first_response_within_three_seconds(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    in_time = await play(fake_discord, alice)
    fake_discord.advance_time(2.5)  # leaves room for the real time the request takes
    accepted = await raw.callback(in_time, {"type": 5})
    late = await play(fake_discord, alice)
    fake_discord.advance_time(3.1)

    refused = await raw.callback(late, {"type": 5})

    assert accepted.status == 200
    assert (refused.status, refused.code) == (404, 10062)
    with pytest.raises(AssertionError, match="10062"):
        await late.response()
    fake_discord.take_problems()
    assert fake_discord.late_answers() == [late]  # the suite-wide check would fail the test
    assert in_time.answer_time is not None and in_time.answer_time < 3 < late.answer_time
    late.expect_unanswered()
    late.expect_late()
    assert fake_discord.late_answers() == []
    await raw.followup(in_time, {"content": "done"})


CALLBACK_TYPES = {
    "command: message": ("command", 4, True),
    "command: deferred message": ("command", 5, True),
    "command: modal": ("command", 9, True),
    "command: deferred update": ("command", 6, False),
    "command: update": ("command", 7, False),
    "command: autocomplete result": ("command", 8, False),
    "command: pong": ("command", 1, False),
    "click: deferred update": ("click", 6, True),
    "click: update": ("click", 7, True),
    "click: autocomplete result": ("click", 8, False),
    "autocomplete: result": ("autocomplete", 8, True),
    "autocomplete: message": ("autocomplete", 4, False),
    "autocomplete: modal": ("autocomplete", 9, False),
}
CALLBACK_DATA = {
    1: None,
    4: {"content": "ok"},
    5: None,
    6: None,
    7: {"content": "updated"},
    8: {"choices": []},
    9: {
        "custom_id": "m",
        "title": "T",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "f", "label": "F", "style": 1}]}
        ],
    },
}


async def new_interaction(
    kind: str, fake: FakeDiscord, raw: RawClient, user: User
) -> InteractionRecord:
    if kind == "command":
        return await play(fake, user)
    if kind == "click":
        return await fake.click(user, await button_message(raw, fake), "Go")
    return await fake.autocomplete_interaction(user, "/play", "cards", "7")


@pytest.mark.parametrize("case", CALLBACK_TYPES)
async def test_callback_type_must_suit_the_interaction(
    case: str, fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    kind, callback_type, valid = CALLBACK_TYPES[case]
    inter = await new_interaction(kind, fake_discord, raw, alice)
    payload: dict[str, Any] = {"type": callback_type}
    if CALLBACK_DATA[callback_type] is not None:
        payload["data"] = CALLBACK_DATA[callback_type]

    answer = await raw.callback(inter, payload)

    if valid:
        assert answer.status == 200, answer.body
        assert inter.callback is not None and inter.callback.type is CallbackType(callback_type)
        if callback_type in (5, 6):
            await raw.webhook_message("PATCH", inter, payload={"content": "done"})
    else:
        assert (answer.status, answer.code) == (400, 50035), answer.body
        assert "type" in answer.body["errors"]
        fake_discord.take_problems()
        inter.expect_unanswered()


def modal(*components: dict[str, Any], title: str = "Rename", custom_id: str = "rename") -> dict:
    return {
        "type": 9,
        "data": {"custom_id": custom_id, "title": title, "components": list(components)},
    }


def text_row(custom_id: str = "name", label: str = "Name", **extra: Any) -> dict[str, Any]:
    field = {"type": 4, "custom_id": custom_id, "label": label, "style": 1, **extra}
    return {"type": 1, "components": [field]}


def text_label(**field: Any) -> dict[str, Any]:
    inner = {"type": 4, "custom_id": "name", "style": 1} | field
    return {"type": 18, "label": "Name", "component": inner}


MODALS = {
    "title length": (modal(text_row(), title="t" * 45), modal(text_row(), title="t" * 46)),
    "custom_id length": (
        modal(text_row(), custom_id="c" * 100),
        modal(text_row(), custom_id="c" * 101),
    ),
    "at most 5 components": (
        modal(*[text_row(f"f{i}") for i in range(5)]),
        modal(*[text_row(f"f{i}") for i in range(6)]),
    ),
    "at least 1 component": (modal(text_row()), modal()),
    "text input label length": (modal(text_row(label="l" * 45)), modal(text_row(label="l" * 46))),
    "one text input per row": (
        modal(text_row("a"), text_row("b")),
        modal(
            {
                "type": 1,
                "components": [text_row("a")["components"][0], text_row("b")["components"][0]],
            }
        ),
    ),
    "unique field ids": (modal(text_row("a"), text_row("b")), modal(text_row("a"), text_row("a"))),
    "value within max_length": (
        modal(text_row(value="v" * 10, max_length=10)),
        modal(text_row(value="v" * 11, max_length=10)),
    ),
    "max_length at most 4000": (modal(text_row(max_length=4000)), modal(text_row(max_length=4001))),
    "labelled input has no label of its own": (
        modal(text_label()),
        modal(text_label(label="Own label")),
    ),
}


@pytest.mark.parametrize("rule", MODALS)
async def test_modal_rules(
    rule: str, fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    valid, invalid = MODALS[rule]
    refused_inter, accepted_inter = await play(fake_discord, alice), await play(fake_discord, alice)

    refused = await raw.callback(refused_inter, invalid)
    accepted = await raw.callback(accepted_inter, valid)

    assert accepted.status == 200, accepted.body
    assert (refused.status, refused.code) == (400, 50035), refused.body
    assert "data" in refused.body["errors"]
    fake_discord.take_problems()
    refused_inter.expect_unanswered()


def choices(count: int, value: Any = "7H", name: str = "7 of hearts") -> dict[str, Any]:
    return {"type": 8, "data": {"choices": [{"name": name, "value": value}] * count}}


CHOICES = {
    "at most 25 choices": ("cards", choices(25), choices(26)),
    "name at most 100": ("cards", choices(1, name="n" * 100), choices(1, name="n" * 101)),
    "name not empty": ("cards", choices(1, name="n"), choices(1, name="")),
    "string value at most 100": ("cards", choices(1, value="v" * 100), choices(1, value="v" * 101)),
    "string option takes strings": ("cards", choices(1, value="7"), choices(1, value=7)),
    "integer option takes integers": ("meld", choices(1, value=2), choices(1, value="2")),
}


@pytest.mark.parametrize("rule", CHOICES)
async def test_autocomplete_result_rules(
    rule: str, fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    option, valid, invalid = CHOICES[rule]
    refused_inter = await fake_discord.autocomplete_interaction(alice, "/play", option, "7")
    accepted_inter = await fake_discord.autocomplete_interaction(alice, "/play", option, "7")

    refused = await raw.callback(refused_inter, invalid)
    accepted = await raw.callback(accepted_inter, valid)

    assert accepted.status == 200, accepted.body
    assert (refused.status, refused.code) == (400, 50035), refused.body
    assert accepted_inter.choices == [(c["name"], c["value"]) for c in valid["data"]["choices"]]
    fake_discord.take_problems()
    refused_inter.expect_unanswered()


async def test_autocomplete_payload_marks_the_focused_option(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await fake_discord.autocomplete_interaction(alice, "/play", "cards", "7", meld=2)

    options = inter.payload["data"]["options"]
    assert options == [
        {"type": STRING, "name": "cards", "value": "7", "focused": True},
        {"type": INTEGER, "name": "meld", "value": 2},
    ]
    await raw.callback(inter, choices(0))


async def test_callback_content_is_validated_like_messages(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    refused_inter, accepted_inter = await play(fake_discord, alice), await play(fake_discord, alice)

    refused = await raw.callback(refused_inter, {"type": 4, "data": {"content": "x" * 2001}})
    accepted = await raw.callback(accepted_inter, {"type": 4, "data": {"content": "x" * 2000}})

    assert refused.body["errors"]["data"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert accepted.status == 200
    with pytest.raises(AssertionError, match="Invalid Form Body"):
        await refused_inter.reply(timeout=1)
    fake_discord.take_problems()
    refused_inter.expect_unanswered()


async def test_callback_files_are_stored_as_ephemeral_attachments(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)

    await raw.callback(
        inter,
        {
            "type": 4,
            "data": {
                "content": "hand",
                "flags": EPHEMERAL,
                "attachments": [{"id": 0, "description": "7H"}],
            },
        },
        files={"hand.png": b"\x89PNG fake"},
    )

    [attachment] = (await inter.reply()).attachments
    assert (attachment.filename, attachment.data, attachment.description) == (
        "hand.png",
        b"\x89PNG fake",
        "7H",
    )
    assert attachment.ephemeral


async def test_callback_attachment_size_limit(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)
    limit = inter.payload["attachment_size_limit"]

    refused = await raw.callback(
        inter, {"type": 4, "data": {"content": "big"}}, files={"big.png": b"x" * (limit + 1)}
    )
    accepted = await raw.callback(
        inter, {"type": 4, "data": {"content": "ok"}}, files={"ok.png": b"x" * limit}
    )

    assert limit == 10 * 1024 * 1024
    assert (refused.status, refused.code) == (413, 40005)
    assert accepted.status == 200
    fake_discord.take_problems()


async def test_followup_needs_an_acknowledged_interaction(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)

    early = await raw.followup(inter, {"content": "too early"})
    await raw.callback(inter, {"type": 4, "data": {"content": "ack"}})
    later = await raw.followup(inter, {"content": "fine"})

    assert (early.status, early.code) == (404, 10015)
    assert later.status == 200
    fake_discord.take_problems()


async def test_webhook_calls_work_for_fifteen_minutes(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)
    await raw.callback(inter, {"type": 4, "data": {"content": "ack"}})

    fake_discord.advance_time(14 * 60)
    in_time = await raw.followup(inter, {"content": "still here"})
    fake_discord.advance_time(60 + 1)
    expired = await raw.followup(inter, {"content": "too late"})
    expired_edit = await raw.webhook_message("PATCH", inter, payload={"content": "too late"})

    assert in_time.status == 200
    assert (expired.status, expired.code) == (401, 50027)
    assert (expired_edit.status, expired_edit.code) == (401, 50027)
    assert [p.code for p in fake_discord.take_problems()] == [50027, 50027]


async def test_first_followup_fills_a_deferral_with_the_deferrals_visibility(
    fake_discord: FakeDiscord, raw: RawClient, alice: User, bob: User
) -> None:
    inter = await play(fake_discord, alice)
    await raw.callback(inter, {"type": 5, "data": {"flags": EPHEMERAL}})
    thinking = inter.original
    assert thinking is not None and thinking.loading and thinking.ephemeral

    first = await raw.followup(inter, {"content": "your hand"})
    public = await raw.followup(inter, {"content": "alice drew"})
    private = await raw.followup(inter, {"content": "psst", "flags": EPHEMERAL})

    assert first.body["id"] == str(thinking.id)
    assert thinking.content == "your hand" and thinking.ephemeral and not thinking.loading
    assert thinking.edited_at is None
    assert [m.content for m in inter.followups] == ["your hand", "alice drew", "psst"]
    assert not inter.followups[1].ephemeral and inter.followups[2].visible_to is alice
    assert [m.content for m in fake_discord.find_messages(visible_to=bob)] == ["alice drew"]
    assert public.status == private.status == 200


async def test_public_deferral_ignores_the_followups_ephemeral_flag(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)
    await raw.callback(inter, {"type": 5})

    await raw.followup(inter, {"content": "secret", "flags": EPHEMERAL})

    assert inter.original is not None and not inter.original.ephemeral
    assert fake_discord.last_message().content == "secret"
    assert [p.kind for p in fake_discord.take_problems()] == ["ephemeral_ignored"]


async def test_original_can_be_read_edited_and_deleted(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    inter = await play(fake_discord, alice)
    await raw.callback(inter, {"type": 5})

    edited = await raw.webhook_message("PATCH", inter, payload={"content": "table"})
    fetched = await raw.webhook_message("GET", inter)
    deleted = await raw.webhook_message("DELETE", inter)
    gone = await raw.webhook_message("GET", inter)

    assert edited.body["content"] == fetched.body["content"] == "table"
    assert deleted.status == 204 and inter.original is not None and inter.original.deleted
    assert (gone.status, gone.code) == (404, 10008)
    assert fake_discord.channel_messages() == []
    fake_discord.take_problems()


async def test_webhook_messages_belong_to_their_interaction(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    mine, other = await play(fake_discord, alice), await play(fake_discord, alice)
    for inter in (mine, other):
        await raw.callback(inter, {"type": 4, "data": {"content": "ack"}})
    followup = await raw.followup(other, {"content": "theirs"})

    refused = await raw.webhook_message("PATCH", mine, followup.body["id"], {"content": "hijack"})
    accepted = await raw.webhook_message("PATCH", other, followup.body["id"], {"content": "edit"})

    assert (refused.status, refused.code) == (404, 10008)
    assert accepted.status == 200
    fake_discord.take_problems()


async def test_deferred_update_then_edit_original_changes_the_clicked_message(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    board = await button_message(raw, fake_discord)
    inter = await fake_discord.click(alice, board, "Go")

    await raw.callback(inter, {"type": 6})
    await raw.webhook_message("PATCH", inter, payload={"content": "board v2", "components": []})

    assert await inter.reply() is board
    assert board.content == "board v2" and board.buttons == []
    assert inter.payload["message"]["id"] == str(board.id)
    assert inter.payload["data"] == {"custom_id": "go", "component_type": 2}


async def test_interaction_payload_carries_what_discord_py_needs(
    fake_discord: FakeDiscord, raw: RawClient, alice: User
) -> None:
    in_guild = await play(fake_discord, alice)

    payload = in_guild.payload
    assert payload["attachment_size_limit"] == 10 * 1024 * 1024
    assert payload["version"] == 1 and payload["application_id"] == str(fake_discord.application_id)
    assert payload["data"]["guild_id"] == str(fake_discord.guild("Rummy Club").id)
    assert payload["member"]["flags"] == 0 and "permissions" in payload["member"]
    assert payload["member"]["user"]["id"] == str(alice.id)
    await raw.callback(in_guild, {"type": 4, "data": {"content": "ok"}})
