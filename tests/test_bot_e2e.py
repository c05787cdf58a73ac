"""End-to-end stories of the bot on the fake Discord: lobbies, moves, refusals, privacy, records."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from bot.ai.straight import choose_move
from bot.registry import VARIANTS
from tests.bot_harness import running_bot
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    play_out,
    published,
    saved_moves,
    start_game,
    text_of,
    turn_message,
)
from tests.fakediscord import CallbackType, Channel, FakeDiscord, Message, User


async def open_lobby(fake: FakeDiscord, host: User, channel: Channel | None = None,
                     **options) -> Message:
    inter = await fake.slash(host, "/straight new", channel=channel, **options)
    return await inter.reply()


# -- lobbies -------------------------------------------------------------------------------


async def test_lobby_seats_and_host_rights(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        lobby = await open_lobby(fake_discord, alice, seed=3)
        assert lobby.button_labels == ["Join", "Leave", "Add easy computer",
                                       "Add standard computer", "Add strong computer", "Start",
                                       "Cancel"]
        join = await fake_discord.click(bob, lobby, "Join")
        assert (await join.response()).type is CallbackType.UPDATE_MESSAGE
        assert "bob" in lobby.text
        again = await fake_discord.click(bob, lobby, "Join")
        assert await text_of(again) == "You are already seated in this game."
        refused = await fake_discord.click(bob, lobby, "Start")
        reply = await refused.reply()
        assert reply.ephemeral and reply.text == "Only the host can start the game."
        nope = await fake_discord.click(bob, lobby, "Add strong computer")
        assert await text_of(nope) == "Only the host can add computer players."
        await (await fake_discord.click(alice, lobby, "Add strong computer")).response()
        assert "Ada (strong bot)" in lobby.text  # issue 23: the level beside the name
        await (await fake_discord.click(bob, lobby, "Leave")).response()
        assert "bob" not in lobby.text.split("Seats")[-1]
        start = await fake_discord.slash(alice, "/rummy start")
        await start.reply()
        await fake_discord.wait_until(lambda: not lobby.buttons)  # the lobby lost its buttons
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert session.status == "running" and [s.name for s in session.seats] == [
            "alice", "Ada (bot)"]


async def test_second_game_in_a_busy_channel_is_refused(fake_discord: FakeDiscord,
                                                        db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db):
        await open_lobby(fake_discord, alice)
        second = await fake_discord.slash(bob, "/straight new")
        reply = await second.reply()
        assert reply.ephemeral and reply.text.startswith("This channel already has a game.")


async def test_cancel_needs_the_host_or_manage_server(fake_discord: FakeDiscord,
                                                      db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.add_user("carol")
    fake_discord.guild("Rummy Club").add_member(carol, manage_guild=True)
    async with running_bot(fake_discord, db) as bot:
        lobby = await open_lobby(fake_discord, alice)
        refused = await fake_discord.click(bob, lobby, "Cancel")
        assert await text_of(refused) == ("Only the host or someone with Manage Server can "
                                          "cancel.")
        cancel = await fake_discord.slash(carol, "/rummy cancel")
        assert "Cancelled by carol" in await text_of(cancel)
        assert bot.controller.sessions.in_channel(fake_discord.channel("games").id) is None
        again = await open_lobby(fake_discord, bob)  # the channel is free again
        assert "Open lobby" in again.text


async def test_idle_lobby_closes_after_fifteen_minutes(fake_discord: FakeDiscord,
                                                       db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        lobby = await open_lobby(fake_discord, alice)
        assert await bot.controller.lobby.close_idle_lobbies(time.time()) == 0
        assert await bot.controller.lobby.close_idle_lobbies(time.time() + 16 * 60) == 1
        await fake_discord.wait_until(lambda: not lobby.buttons)
        assert "Closed after 15 minutes" in lobby.text


async def test_bad_options_are_refused_in_one_line(fake_discord: FakeDiscord,
                                                   db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db):
        inter = await fake_discord.slash(alice, "/straight new", turn_seconds=5)
        assert await text_of(inter) == "turn_seconds must be 0 or 10–600, not 5"


# -- moves and refusals ------------------------------------------------------------------


async def test_refused_moves_answer_privately_and_change_nothing(fake_discord: FakeDiscord,
                                                                 db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.add_user("carol")
    fake_discord.guild("Rummy Club").add_member(carol)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        game = session.game
        mover = fake_discord.user(session.seats[game.to_move].name)
        other = bob if mover is alice else alice
        before, moves = json.dumps(game.to_json()), await saved_moves(bot, session)
        held = {c.code for c in game.hand(game.to_move)}
        absent = next(c for c in ("QS", "2D", "5C", "9H", "KD", "AS") if c not in held)
        cases = [
            (mover, "/straight discard", {"card": "11H"}, '"11H" is not a card'),
            (mover, "/straight discard", {"card": "JK"}, "there are no jokers in Straight "
                                                         "Rummy"),
            (mover, "/straight discard", {"card": next(iter(held))}, "draw first"),
            (mover, "/straight meld", {"cards": "7H 8H | "}, "group 2 is empty: put cards "
                                                             "between the |"),
            (other, "/straight draw", {"source": "stock"},
             f"It is not your turn: it is {session.seats[game.to_move].name}'s turn."),
            (carol, "/straight draw", {"source": "stock"}, "You are not playing in this game."),
            (mover, "/straight discard", {"card": "#40"}, "#40 is out of date: your hand "
                                                          "changed, look at your new hand and "
                                                          "use its positions"),
        ]
        for user, command, options, expected in cases:
            reply = await (await fake_discord.slash(user, command, **options)).reply()
            assert reply.ephemeral and reply.text == expected, (command, options)
        await (await fake_discord.slash(mover, "/straight draw", source="stock")).response()
        reply = await (await fake_discord.slash(mover, "/straight discard",
                                                card=absent)).reply()
        assert reply.text in (f"you do not hold {absent}",) or "discarded" in reply.text
        assert json.dumps(game.to_json()) == before  # the old state object is untouched
        assert await saved_moves(bot, session) >= moves + 1
        assert_no_hand_in_channel(fake_discord, fake_discord.channel("games"))


async def test_double_click_on_draw_applies_once(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        mover = fake_discord.user(session.seats[session.game.to_move].name)
        turn = await turn_message(fake_discord)
        assert "Draw from stock" in turn.button_labels
        first, second = await asyncio.gather(fake_discord.click(mover, turn, "Draw from stock"),
                                             fake_discord.click(mover, turn, "Draw from stock"))
        replies = sorted([await text_of(first), await text_of(second)])
        assert any(r.startswith("you have already drawn this turn") for r in replies)
        assert sum("You drew" in r for r in replies) == 1
        assert await saved_moves(bot, session) == 1


async def test_stale_panel_buttons_are_refused(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        seat = session.game.to_move
        mover = fake_discord.user(session.seats[seat].name)
        waiting = bob if mover is alice else alice
        turn = await turn_message(fake_discord)
        out_of_turn = await fake_discord.click(waiting, turn, "Draw from stock")
        assert await text_of(out_of_turn) == (f"It is not your turn: it is "
                                              f"{session.seats[seat].name}'s turn.")
        panel = await (await fake_discord.click(mover, turn, "Draw from stock")).reply()
        await (await fake_discord.select(mover, panel, ["2"])).response()
        old_discard = panel.button("Discard selected")["custom_id"]
        # The hand changes through a typed command while the panel stays open.
        card = session.game.hand(seat)[0]
        await (await fake_discord.slash(mover, "/straight discard", card=card.code)).response()
        moves = await saved_moves(bot, session)
        stale = await fake_discord.click(mover, panel, old_discard)
        assert await text_of(stale) in (f"It is not your turn: it is {waiting.name}'s turn.",
                                        "your hand changed since that panel was shown: open My "
                                        "hand again")
        assert await saved_moves(bot, session) == moves


async def test_phone_player_picks_cards_and_discards_with_buttons(fake_discord: FakeDiscord,
                                                                  db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        seat = session.game.to_move
        mover = fake_discord.user(session.seats[seat].name)
        turn = await turn_message(fake_discord)
        drawn = await fake_discord.click(mover, turn, "Draw from stock")
        panel = await drawn.reply()
        assert panel.ephemeral
        await fake_discord.wait_until(lambda: panel.attachments)  # the picture follows the text
        assert panel.attachments[0].filename == "hand.png"
        assert "Your hand" in panel.text and "You drew" in panel.text
        assert panel.button("Discard selected").get("disabled")
        picked = await fake_discord.select(mover, panel, ["1"], custom_id=None)
        assert (await picked.response()).type is CallbackType.UPDATE_MESSAGE
        assert not panel.button("Discard selected").get("disabled")
        first = session.game.hand(seat)
        shown_first = panel.text.split("`#1` ")[1].split()[0]
        done = await fake_discord.click(mover, panel, "Discard selected")
        assert "You discarded" in (await done.reply()).text or "discarded" in (
            await done.reply()).text
        assert session.game.to_move != seat
        assert session.game.discard[-1].code == shown_first
        assert len(session.game.hand(seat)) == len(first) - 1


async def test_autocomplete_offers_only_the_players_cards(fake_discord: FakeDiscord,
                                                          db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        hand = {c.code for c in session.game.hand(0)}
        choices = await fake_discord.autocomplete(alice, "/straight discard", "card", "")
        assert {c.value for c in choices} == hand
        typed = sorted(hand)[0]
        more = await fake_discord.autocomplete(alice, "/straight meld", "cards", typed + " ")
        assert all(c.value.startswith(typed + " ") for c in more)
        assert {c.value.split()[-1] for c in more} <= hand
        outsider = fake_discord.add_user("dave")
        fake_discord.guild("Rummy Club").add_member(outsider)
        assert await fake_discord.autocomplete(outsider, "/straight discard", "card", "") == []


async def test_two_games_in_two_channels_at_once(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lounge = fake_discord.guild("Rummy Club").add_text_channel("lounge")
    async with running_bot(fake_discord, db) as bot:
        one, two = await asyncio.gather(
            start_game(fake_discord, bot, alice, computers=1, channel=fake_discord.channel("games"),
                       hands=1),
            start_game(fake_discord, bot, bob, computers=2, channel=lounge, hands=1))
        assert one.game_id != two.game_id and one.game.players == 2 and two.game.players == 3
        for session, user in ((one, alice), (two, bob)):
            seat = session.seat_of(user.id)
            await fake_discord.wait_until(lambda s=session, p=seat: s.game.to_move == p,
                                          timeout=10)
            await (await fake_discord.slash(user, "/straight draw", channel=fake_discord.channel(
                "games") if session is one else lounge, source="stock")).response()
        assert len(one.game.hand(0)) == 11 and len(two.game.hand(0)) == 8


# -- privacy and DMs -------------------------------------------------------------------------


async def test_closed_dms_fall_back_without_stalling(fake_discord: FakeDiscord,
                                                     db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    fake_discord.close_dms(bob)
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        await published(fake_discord, bot)
        notices = [m for m in fake_discord.channel_messages(channel)
                   if "can't send you direct messages" in m.text]
        assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].text
        assert fake_discord.dms(alice) and not fake_discord.dms(bob)
        hand = await (await fake_discord.slash(bob, "/rummy hand")).reply()
        assert hand.ephemeral
        await fake_discord.wait_until(lambda: hand.attachments)
        assert hand.attachments[0].image().width > 300
        for _ in range(3):  # play on: the game never waits for bob's DMs
            seat = session.game.to_move
            user = fake_discord.user(session.seats[seat].name)
            await (await fake_discord.slash(user, "/straight draw", source="stock")).response()
            card = session.game.hand(seat)[-1]
            await (await fake_discord.slash(user, "/straight discard",
                                            card=card.code)).response()
        await published(fake_discord, bot)
        assert len([m for m in fake_discord.channel_messages(channel)
                    if "can't send you direct messages" in m.text]) == 1
        assert_no_hand_in_channel(fake_discord, channel)


async def test_hand_dm_names_the_server_and_channel(fake_discord: FakeDiscord,
                                                    db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, computers=1)
        await published(fake_discord, bot)
        (dm,) = fake_discord.dms(alice)
        channel = fake_discord.channel("games")
        assert "Rummy Club" in dm.text and f"<#{channel.id}>" in dm.text
        assert f"/channels/{channel.guild.id}/{channel.id}" in dm.text
        codes = {c.code for c in session.game.hand(0)}
        assert codes == {part for part in dm.text.split() if part in codes}
        assert dm.attachments[0].image().height > 200


# -- leaving, timers, the end ------------------------------------------------------------------


async def test_leaving_mid_game_hands_the_seat_to_a_computer(fake_discord: FakeDiscord,
                                                             db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob], hands=1)
        leave = await fake_discord.slash(bob, "/rummy leave")
        assert "A computer plays your seat" in await text_of(leave)
        assert session.seats[1].is_computer and session.seats[1].left
        play = await fake_discord.slash(bob, "/straight draw", source="stock")
        assert await text_of(play) == "You are not playing in this game."
        await play_out(fake_discord, session, alice, choose_move)
        await published(fake_discord, bot)
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        places = {p.name: p.place for p in history[0].players}
        assert places == {"alice": 1, "bob": 2}  # the leaver is recorded last


async def test_timer_expiry_plays_for_the_player(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob], turn_seconds=30)
        seat = session.game.to_move
        assert session.deadline is not None and session.deadline > time.time() + 20
        session.deadline = time.time()  # as if thirty seconds had passed
        bot.controller.schedule(session)
        await fake_discord.wait_until(lambda: session.game.to_move != seat, timeout=5)
        assert session.game.timeouts[seat] == 1
        await published(fake_discord, bot)
        assert "ran out of time" in fake_discord.last_message(fake_discord.channel("games")).text


async def test_match_results_records_and_rematch(fake_discord: FakeDiscord, db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, computers=1, hands=2)
        await play_out(fake_discord, session, alice, choose_move)
        await published(fake_discord, bot)
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        assert final is not None and "Seed: `11`" in final.text
        assert {a.filename for a in final.attachments} == {"results.png", "table.png",
                                                           "scores.png"}
        over = [m for m in fake_discord.channel_messages(channel) if "Hand 1 is over" in m.text]
        assert len(over) == 1 and over[0].attachments[0].filename == "results.png"
        board = await (await fake_discord.slash(alice, "/rummy leaderboard")).reply()
        assert f"<@{alice.id}>" in board.text and "rating" in board.text
        stats = await (await fake_discord.slash(alice, "/rummy stats")).reply()
        assert "Straight Rummy" in stats.text
        history = await (await fake_discord.slash(alice, "/rummy history")).reply()
        assert "seed `11`" in history.text
        rematch = await fake_discord.click(alice, final, "Rematch")
        lobby = await rematch.reply()
        assert "Open lobby" in lobby.text and "Ada (standard bot)" in lobby.text
        assert_no_hand_in_channel(fake_discord, channel)


async def test_discord_errors_on_channel_posts_never_lose_a_move(fake_discord: FakeDiscord,
                                                                 db: Path) -> None:
    """429s are retried by discord.py; a post that keeps failing is logged, play goes on."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        route = "POST /channels/{channel_id}/messages"
        fake_discord.fail_next(route, status=429, retry_after=0.05)
        seat = session.game.to_move
        mover = fake_discord.user(session.seats[seat].name)
        await (await fake_discord.slash(mover, "/straight draw", source="stock")).response()
        card = session.game.hand(seat)[-1]
        fake_discord.fail_next(route, status=403, code=50013, times=1)
        fake_discord.allow_errors(50013)
        reply = await (await fake_discord.slash(mover, "/straight discard",
                                                card=card.code)).reply()
        assert f"discarded {card.code}" in reply.text
        await published(fake_discord, bot)
        assert session.game.to_move != seat and await saved_moves(bot, session) == 2
        # The next change publishes normally again.
        nxt = fake_discord.user(session.seats[session.game.to_move].name)
        await (await fake_discord.slash(nxt, "/straight draw", source="stock")).response()
        await published(fake_discord, bot)
        assert await turn_message(fake_discord)


async def test_a_deleted_channel_ends_its_game_quietly(fake_discord: FakeDiscord,
                                                       db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    doomed = fake_discord.guild("Rummy Club").add_text_channel("doomed")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob], channel=doomed)
        doomed.delete()
        await fake_discord.wait_until(lambda: bot.controller.sessions.by_id(session.game_id)
                                      is None)
        row = await bot.store.get_game(session.game_id)
        assert row.status == "cancelled"
        fresh = await open_lobby(fake_discord, alice)  # the bot carries on elsewhere
        assert "Open lobby" in fresh.text


async def test_restart_restores_the_game_and_rearms_the_timer_with_grace(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob], turn_seconds=30)
        state = session.game.to_json()
        seat = session.game.to_move
    async with running_bot(fake_discord, db, restart_grace=120) as bot:
        restored = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert restored is not None and restored.game.to_json() == state
        assert restored.deadline is not None and restored.deadline >= time.time() + 100
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "restarted" in turn.text and "Draw from stock" in turn.button_labels
        mover = fake_discord.user(restored.seats[seat].name)
        drawn = await fake_discord.click(mover, turn, "Draw from stock")
        assert "You drew" in await text_of(drawn)


async def test_a_click_that_waits_for_a_busy_game_is_deferred_then_answered(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Discord allows 3 s: an interaction kept waiting by the game's lock is deferred first."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        mover = fake_discord.user(session.seats[session.game.to_move].name)
        async with session.lock:  # something slow holds the game for a moment
            inter = await fake_discord.slash(mover, "/straight draw", source="stock")
            response = await inter.response()
            assert response.type is CallbackType.DEFERRED_CHANNEL_MESSAGE and response.ephemeral
        reply = await inter.reply()
        assert reply.ephemeral and "You drew" in reply.text


async def test_one_move_edits_the_turn_message_once(fake_discord: FakeDiscord,
                                                    db: Path) -> None:
    """Publishing is idempotent: a second wake for the same move sends nothing."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        before = len(turn.history)
        mover = fake_discord.user(session.seats[session.game.to_move].name)
        await (await fake_discord.slash(mover, "/straight draw", source="stock")).response()
        await published(fake_discord, bot)
        assert len(turn.history) == before + 1
        bot.controller.publisher.wake(session)  # nothing changed: nothing is sent
        await published(fake_discord, bot)
        assert len(turn.history) == before + 1


@pytest.mark.parametrize("key", sorted(VARIANTS))
async def test_the_lobby_shows_every_option_and_the_key_rules(fake_discord: FakeDiscord,
                                                              db: Path, key: str) -> None:
    """Issue 19 item 12: every option in effect (the ones set away from the default in bold,
    one set to its default too) and the variant's key rules, before anyone joins."""
    alice = fake_discord.user("alice")
    specs = VARIANTS[key].game.options_type.specs()
    kept = next(s for s in specs if s.kind == "choice")  # set, to what it is by default
    async with running_bot(fake_discord, db):
        lobby = await (await fake_discord.slash(alice, f"/{key} new", seed=1,
                                                options={kept.name: kept.default,
                                                         "turn_seconds": 0})).reply()
        options = lobby.embeds[0]["fields"]
        shown = {f["name"]: f["value"] for f in options}
        for spec in specs:
            assert f"{spec.name}: " in shown["Options"], (spec.name, shown["Options"])
        assert "**turn_seconds: 0**" in shown["Options"]
        assert f"{kept.name}: {kept.default}" in shown["Options"]
        assert "Your turn:" in shown["Rules"] or "A play:" in shown["Rules"], shown["Rules"]
        assert "/rummy rules" in shown["Rules"]


async def test_a_bar_in_garbage_is_answered_with_what_is_wrong(fake_discord: FakeDiscord,
                                                               db: Path) -> None:
    """Issue 19 item 13 (NOT-6, NOT-13): the first real problem is named, not only the |."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        mover = fake_discord.user(session.seats[session.game.to_move].name)
        cases = {"11H | 7H": '"11H" is not a card', "7H|ZZ": '"ZZ" is not a card',
                 "7H | 8H": "one group only here: remove the |"}
        for typed, expected in cases.items():
            answer = await (await fake_discord.slash(mover, "/straight discard",
                                                     card=typed)).reply()
            assert answer.ephemeral and answer.text.startswith(expected), (typed, answer.text)
