"""Shard settings and shard arithmetic: SHARD_COUNT, SHARD_IDS, IDENTIFY_WINDOW, ranges."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.shards import (
    ShardSet,
    contiguous_ranges,
    format_shard_ids,
    identify_budget_problem,
    overlaps,
    parse_shard_ids,
    shard_of,
)
from tests.test_bot_process import bot_process_env

TOKEN = "RmFrZUJvdA.RmFrZQ.ZmFrZS1ib3QtdG9rZW4"


def config(monkeypatch: pytest.MonkeyPatch, **env: str) -> Config:
    for key in ("SHARD_COUNT", "SHARD_IDS", "IDENTIFY_WINDOW", "DISCORD_GATEWAY_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return Config.from_env(env_file=None)


def test_unset_means_discords_recommended_count(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = config(monkeypatch)
    assert (settings.shard_count, settings.shard_ids, settings.identify_window) == (None, None, 5)


@pytest.mark.parametrize(("count", "ids", "expected"), [
    ("4", "0-3", (0, 1, 2, 3)),
    ("8", "4,5", (4, 5)),
    ("16", " 0-3, 8 ,10-11", (0, 1, 2, 3, 8, 10, 11)),
    ("4", "", None),
    ("1", "0", (0,)),
])
def test_shard_ids_and_ranges(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                              expected: tuple[int, ...] | None) -> None:
    settings = config(monkeypatch, SHARD_COUNT=count, SHARD_IDS=ids)
    assert settings.shard_count == int(count) and settings.shard_ids == expected


@pytest.mark.parametrize(("env", "message"), [
    ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of shards, 1 or more, not '0'"),
    ({"SHARD_COUNT": "two"}, "not 'two'"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "the range 3-1 runs backwards"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "2-4"}, "shard 4 is not below the shard count 4"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1,1"}, "shard 1 is listed twice"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "'0;1' is not a shard id or a range"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0,"}, "'' is not a shard id"),
    ({"IDENTIFY_WINDOW": "1"}, "IDENTIFY_WINDOW below Discord's 5 seconds is only for a test"),
    ({"IDENTIFY_WINDOW": "1", "DISCORD_GATEWAY_URL": "wss://gateway.example.com"},
     "only for a test server on this machine"),
    ({"IDENTIFY_WINDOW": "soon"}, "IDENTIFY_WINDOW must be a number of seconds"),
])
def test_bad_settings_are_one_line_errors(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                          message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config(monkeypatch, **env)
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("url", ["ws://127.0.0.1:8080/gateway", "ws://localhost:1/gateway",
                                 "ws://[::1]:9/gateway"])
def test_a_shorter_identify_window_for_a_gateway_on_this_machine(
        monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    settings = config(monkeypatch, IDENTIFY_WINDOW="0.2", DISCORD_GATEWAY_URL=url)
    assert settings.identify_window == 0.2


def test_a_longer_identify_window_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    assert config(monkeypatch, IDENTIFY_WINDOW="7.5").identify_window == 7.5


async def test_python_m_bot_names_a_bad_shard_setting_in_one_line(tmp_path: Path) -> None:
    env = bot_process_env({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "1-2"},
                          tmp_path)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path, stderr=asyncio.subprocess.PIPE)
    _, stderr = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 2
    assert stderr.decode().strip().splitlines() == [
        "error: SHARD_IDS '1-2': shard 2 is not below the shard count 2 (shards are numbered "
        "0 to 1)"]


def test_a_guild_is_on_the_shard_of_its_ids_time_part() -> None:
    guild = (1_000_003 << 22) | 12345
    assert shard_of(guild, 1) == 0 and shard_of(guild, 2) == 1 and shard_of(guild, 4) == 3
    assert ShardSet(4, (3,)).owns(guild) and not ShardSet(4, (0, 1, 2)).owns(guild)
    assert str(ShardSet(8, (0, 1, 2, 5))) == "shards 0-2,5 of 8" == f"{ShardSet(8, (0, 1, 2, 5))}"
    assert str(ShardSet(2, (1,))) == "shard 1 of 2"


def test_shards_of_different_counts_overlap_when_they_share_a_guild() -> None:
    assert overlaps((1, 2), (1, 4)) and overlaps((1, 2), (3, 4))
    assert not overlaps((1, 2), (0, 4)) and not overlaps((1, 2), (2, 4))
    assert overlaps((0, 3), (1, 2))  # gcd 1: some guild is on both
    assert overlaps((2, 4), (2, 4)) and not overlaps((2, 4), (3, 4))
    for n, m in ((2, 4), (3, 4), (4, 6)):  # the claim agrees with the guilds themselves
        for i in range(n):
            for j in range(m):
                shared = any(t % n == i and t % m == j for t in range(n * m))
                assert overlaps((i, n), (j, m)) == shared


def test_shards_split_into_contiguous_ranges() -> None:
    assert contiguous_ranges(4, 2) == [(0, 1), (2, 3)]
    assert contiguous_ranges(5, 2) == [(0, 1, 2), (3, 4)]
    assert contiguous_ranges(3, 3) == [(0,), (1,), (2,)]
    assert contiguous_ranges(1, 1) == [(0,)]
    with pytest.raises(ValueError, match="cannot split 2 shards into 3 processes"):
        contiguous_ranges(2, 3)


def test_shard_ids_read_back_as_written() -> None:
    for ids in [(0,), (0, 1, 2, 3), (4, 5), (0, 1, 2, 3, 8, 10, 11), (1, 3, 5)]:
        text = format_shard_ids(ids)
        assert parse_shard_ids(text, 16) == ids
    assert format_shard_ids((4, 5)) == "4-5" and format_shard_ids((1, 3)) == "1,3"


def test_the_days_identify_budget() -> None:
    assert identify_budget_problem(1000, 4, 86_400_000) is None
    assert identify_budget_problem(4, 4, 0) is None
    problem = identify_budget_problem(3, 4, 5_400_000)
    assert problem == ("Discord allows 3 more session start(s) today and starting 4 shard(s) "
                       "needs 4; the limit resets in 1 h 30 min")
