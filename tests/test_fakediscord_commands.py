"""Command definitions: the fake refuses what Discord refuses at sync time.

Each rule pairs a valid definition with its just-invalid twin; the refusal is
a ``50035`` whose ``errors`` are keyed by the command's index, which is what
discord.py's ``CommandSyncFailure`` reads.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import combined_length
from tests.fakediscord.raw import RawClient

STRING, INTEGER = 3, 4


@pytest.fixture
async def raw(fake_discord: FakeDiscord) -> AsyncIterator[RawClient]:
    async with RawClient(fake_discord) as client:
        yield client


def command(name: str = "straight", description: str = "Straight Rummy", **extra: Any) -> dict:
    return {"name": name, "description": description, "type": 1, **extra}


def option(name: str = "card", kind: int = STRING, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "An option", "type": kind, **extra}


def sub(name: str, *options: dict[str, Any], kind: int = 1) -> dict[str, Any]:
    return {"name": name, "description": "A subcommand", "type": kind, "options": list(options)}


def choices(count: int, *, name: str = "c", value_length: int = 1) -> list[dict[str, Any]]:
    return [{"name": f"{name}{i}", "value": f"{i}".rjust(value_length, "v")} for i in range(count)]


def many(count: int) -> list[dict[str, Any]]:
    return [command(f"cmd{i}") for i in range(count)]


RULES: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "name is lowercase": ([command("straight")], [command("Straight")]),
    "name has no spaces": ([command("straight-new")], [command("straight new")]),
    "name at most 32": ([command("x" * 32)], [command("x" * 33)]),
    "name not empty": ([command("x")], [command("")]),
    "name allows letters of any script": ([command("rémi_ñ'1")], [command("rémi!")]),
    "description 1..100": ([command(description="d" * 100)], [command(description="d" * 101)]),
    "description required": ([command(description="d")], [command(description="")]),
    "options at most 25": (
        [command(options=[option(f"o{i}") for i in range(25)])],
        [command(options=[option(f"o{i}") for i in range(26)])],
    ),
    "option names unique": (
        [command(options=[option("a"), option("b")])],
        [command(options=[option("a"), option("a")])],
    ),
    "option name rules": ([command(options=[option("with")])], [command(options=[option("With")])]),
    "required options first": (
        [command(options=[option("a", required=True), option("b")])],
        [command(options=[option("a"), option("b", required=True)])],
    ),
    "choices at most 25": (
        [command(options=[option(choices=choices(25))])],
        [command(options=[option(choices=choices(26))])],
    ),
    "choice name at most 100": (
        [command(options=[option(choices=[{"name": "n" * 100, "value": "v"}])])],
        [command(options=[option(choices=[{"name": "n" * 101, "value": "v"}])])],
    ),
    "string choice value at most 100": (
        [command(options=[option(choices=choices(1, value_length=100))])],
        [command(options=[option(choices=choices(1, value_length=101))])],
    ),
    "choice value matches option type": (
        [command(options=[option(kind=INTEGER, choices=[{"name": "two", "value": 2}])])],
        [command(options=[option(kind=INTEGER, choices=[{"name": "two", "value": "2"}])])],
    ),
    "autocomplete excludes choices": (
        [command(options=[option(autocomplete=True)])],
        [command(options=[option(autocomplete=True, choices=choices(2))])],
    ),
    "subcommands do not mix with options": (
        [command(options=[sub("new"), sub("draw")])],
        [command(options=[sub("new"), option("card")])],
    ),
    "groups hold subcommands": (
        [command(options=[sub("game", sub("new"), kind=2)])],
        [command(options=[sub("game", option("card"), kind=2)])],
    ),
    "groups only at top level": (
        [command(options=[sub("game", sub("new"), kind=2)])],
        [command(options=[sub("game", sub("inner", sub("new"), kind=2), kind=2)])],
    ),
    "subcommands do not nest in subcommands": (
        [command(options=[sub("new", option("seed", INTEGER))])],
        [command(options=[sub("new", sub("deeper"))])],
    ),
    "min_value only on numbers": (
        [command(options=[option(kind=INTEGER, min_value=0)])],
        [command(options=[option(kind=STRING, min_value=0)])],
    ),
    "combined size at most 8000": (
        [
            command(
                options=[sub(f"s{i:02}", *[option(f"o{j}") for j in range(4)]) for i in range(10)]
            )
        ],
        [
            command(
                options=[
                    {
                        **sub(
                            f"s{i:02}", *[option(f"o{j}", description="d" * 100) for j in range(8)]
                        ),
                        "description": "d" * 100,
                    }
                    for i in range(10)
                ]
            )
        ],
    ),
    "names unique per type": ([command("a"), command("b")], [command("a"), command("a")]),
    "at most 100 chat input commands": (many(100), many(101)),
}


@pytest.mark.parametrize("rule", RULES)
async def test_command_rule_refuses_the_invalid_twin(
    rule: str, fake_discord: FakeDiscord, raw: RawClient
) -> None:
    valid, invalid = RULES[rule]

    accepted = await raw.put_commands(valid)
    refused = await raw.put_commands(invalid)

    assert accepted.status == 200, accepted.body
    assert (refused.status, refused.code) == (400, 50035), refused.body
    assert fake_discord.take_problems(code=50035)


def test_combined_size_fixture_is_really_over_8000() -> None:
    valid, invalid = RULES["combined size at most 8000"]
    assert combined_length(valid[0]) <= 8000 < combined_length(invalid[0])


async def test_errors_are_keyed_by_command_index(fake_discord: FakeDiscord, raw: RawClient) -> None:
    refused = await raw.put_commands([command("ok"), command("Bad")])

    assert (
        refused.body["errors"]["1"]["name"]["_errors"][0]["code"]
        == "APPLICATION_COMMAND_INVALID_NAME"
    )
    fake_discord.take_problems()


async def test_sync_answers_commands_with_ids_and_keeps_ids_by_name(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    guild = fake_discord.guild("Rummy Club")

    first = await raw.put_commands([command("straight"), command("rummy")], guild_id=guild.id)
    second = await raw.put_commands([command("rummy"), command("tiles")], guild_id=guild.id)
    listed = await raw.request(
        "GET", f"/applications/{fake_discord.application_id}/guilds/{guild.id}/commands"
    )

    ids = {c["name"]: c["id"] for c in first.body}
    assert {c["name"] for c in second.body} == {"rummy", "tiles"}
    assert next(c for c in second.body if c["name"] == "rummy")["id"] == ids["rummy"]
    assert all(c["application_id"] == str(fake_discord.application_id) for c in second.body)
    assert all(c["guild_id"] == str(guild.id) and c["version"] for c in second.body)
    assert listed.body == second.body
    assert fake_discord.synced_commands(guild) == second.body
    assert fake_discord.synced_commands() == []


async def test_context_menu_commands_take_no_description(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    accepted = await raw.put_commands([{"name": "Show Hand", "type": 2}])
    refused = await raw.put_commands([{"name": "Show Hand", "type": 2, "description": "x"}])

    assert accepted.status == 200 and accepted.body[0]["description"] == ""
    assert refused.status == 400
    fake_discord.take_problems()


async def test_commands_of_another_application_are_refused(
    fake_discord: FakeDiscord, raw: RawClient
) -> None:
    refused = await raw.request("PUT", "/applications/42/commands", json_body=[])

    assert (refused.status, refused.code) == (403, 50001)
    fake_discord.take_problems()
