"""``python -m bot`` as a deployment runs it: configuration, start-up, a command, shutdown."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent


def bot_process_env(extra: dict[str, str], tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DEV_GUILD", "DATABASE_"))}
    env.update(extra)
    env["DATABASE_PATH"] = str(tmp_path / "rummy.sqlite3")
    env["PYTHONPATH"] = str(ROOT)
    return env


async def run_module(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=cwd, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


async def test_python_m_bot_comes_online_answers_and_stops_cleanly(fake_discord: FakeDiscord,
                                                                    tmp_path: Path) -> None:
    env = bot_process_env(fake_discord.bot_env(), tmp_path)
    process = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        alice = fake_discord.user("alice")
        rules = await fake_discord.slash(alice, "/rummy rules", variant="straight")
        reply = await rules.reply()
        assert "Straight Rummy" in reply.text and reply.ephemeral
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 0, stderr.decode()
    assert (tmp_path / "rummy.sqlite3").exists()


async def test_missing_token_is_a_one_line_error(tmp_path: Path) -> None:
    env = bot_process_env({}, tmp_path)
    env.pop("DISCORD_TOKEN", None)
    process = await run_module(env, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), 20)
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2
    assert len(lines) == 1 and lines[0].startswith("error: DISCORD_TOKEN is not set")


async def test_malformed_token_is_a_one_line_error(tmp_path: Path) -> None:
    env = bot_process_env({"DISCORD_TOKEN": "not a token"}, tmp_path)
    process = await run_module(env, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), 20)
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2 and len(lines) == 1
    assert "does not look like a bot token" in lines[0]


async def test_refused_token_is_a_one_line_error(fake_discord: FakeDiscord,
                                                 tmp_path: Path) -> None:
    env = bot_process_env({**fake_discord.bot_env(), "DISCORD_TOKEN": "AAAA.BBBB.CCCC"},
                          tmp_path)
    process = await run_module(env, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), 20)
    assert [p.status for p in fake_discord.take_problems(kind="refused")] == [401]
    lines = [line for line in stderr.decode().strip().splitlines() if line.startswith("error:")]
    assert process.returncode == 2
    assert lines == ["error: Discord refused DISCORD_TOKEN (invalid or reset token); copy the "
                     "token again from the Developer Portal"]


async def test_a_killed_bot_carries_on_with_the_same_game_and_buttons(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Kill -9 between two moves; a new process on the same database continues."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    env = bot_process_env({**fake_discord.bot_env(), "COMPUTER_DELAY": "0.05"}, tmp_path)
    first = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        lobby = await (await fake_discord.slash(alice, "/straight new", seed=21,
                                                turn_seconds=0)).reply()
        await (await fake_discord.click(bob, lobby, "Join")).response()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Draw from stock" in m.button_labels, channel=channel) is not None)
        turn = fake_discord.find_message(lambda m: "Draw from stock" in m.button_labels,
                                         channel=channel)
        mover = alice if f"<@{alice.id}>" in turn.text else bob
        panel = await (await fake_discord.click(mover, turn, "Draw from stock")).reply()
        assert "You drew" in panel.text and panel.text.count("`#") == 11
    finally:
        first.kill()
        await first.wait()
    second = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        hand = await (await fake_discord.slash(mover, "/rummy hand")).reply()
        assert hand.text.count("`#") == 11  # the draw survived the crash
        picked = await fake_discord.select(mover, panel, ["1"])  # a panel from before
        await picked.response()
        first_card = panel.text.split("`#1` ")[1].split()[0]
        done = await fake_discord.click(mover, panel, "Discard selected")
        assert f"discarded {first_card}" in (await done.reply()).text
        other = bob if mover is alice else alice
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: f"<@{other.id}>" in m.content and "Draw from stock" in m.button_labels,
            channel=channel) is not None, timeout=10)
    finally:
        second.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(second.communicate(), 20)
    assert second.returncode == 0, stderr.decode()[-2000:]
