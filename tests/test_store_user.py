"""Store: user and server settings, the hand last shown to a player (NOT-7); both databases."""

from __future__ import annotations

import pytest

from bot.store import SeatRow, Settings, Store

USER, OTHER = 1001, 1002
GUILD, OTHER_GUILD = 2001, 2002


@pytest.fixture
def path(database_url):
    return database_url


@pytest.fixture
async def store(path):
    store = await Store.open(path)
    yield store
    await store.close()


async def test_settings_default_until_changed(store):
    assert await store.get_settings(USER) == Settings("suit", "four", {})


async def test_set_settings_changes_only_what_is_given(path):
    async with await Store.open(path) as store:
        assert await store.set_settings(USER, hand_sort="rank") == Settings("rank", "four", {})
        assert await store.set_settings(USER, card_style="classic") == Settings("rank", "classic",
                                                                                {})
        assert await store.get_settings(OTHER) == Settings()
    async with await Store.open(path) as reopened:
        assert await reopened.get_settings(USER) == Settings("rank", "classic", {})


async def test_extra_settings_merge(store):
    await store.set_settings(USER, extra={"dm_hands": False, "lang": "en"})
    settings = await store.set_settings(USER, extra={"lang": "ms", "dm_hands": None})
    assert settings.extra == {"lang": "ms"}
    assert (await store.get_settings(USER)).extra == {"lang": "ms"}


@pytest.mark.parametrize("changes", [{"hand_sort": "colour"}, {"card_style": "fancy"},
                                     {"extra": {"nested": {"a": 1}}}])
async def test_unknown_setting_values_are_refused(store, changes):
    with pytest.raises(ValueError, match=r"must be one of|flat"):
        await store.set_settings(USER, **changes)
    assert await store.get_settings(USER) == Settings()


async def test_server_settings_default_to_none_set(store):
    assert await store.get_server_settings(GUILD) == {}


async def test_server_settings_merge_per_server_and_survive_reopening(path):
    async with await Store.open(path) as store:
        assert await store.set_server_settings(GUILD, {"language": "ms"}) == {"language": "ms"}
        changed = await store.set_server_settings(GUILD, {"rate_hinted_games": False})
        assert changed == {"language": "ms", "rate_hinted_games": False}
        assert await store.set_server_settings(GUILD, {"language": None}) == {
            "rate_hinted_games": False}
        assert await store.get_server_settings(OTHER_GUILD) == {}
    async with await Store.open(path) as reopened:
        assert await reopened.get_server_settings(GUILD) == {"rate_hinted_games": False}


async def test_nested_server_settings_are_refused(store):
    with pytest.raises(ValueError, match="flat"):
        await store.set_server_settings(GUILD, {"nested": {"a": 1}})
    assert await store.get_server_settings(GUILD) == {}


async def test_shown_hands_are_kept_per_game_and_player(path):
    async with await Store.open(path) as store:
        game_id = await store.create_game(1, 2, "straight", {}, 7, USER, [SeatRow(0, USER, "A")])
        assert await store.shown_hand(game_id, USER) is None
        await store.save_shown_hand(game_id, USER, ["7H", "2C", "KS"], "hand-1")
        await store.save_shown_hand(game_id, OTHER, ["AD"], "hand-9")
        await store.save_shown_hand(game_id, USER, ["2C", "7H"], "hand-2")
        assert await store.shown_hand(game_id, USER) == (["2C", "7H"], "hand-2")
    async with await Store.open(path) as reopened:
        assert await reopened.shown_hand(game_id, OTHER) == (["AD"], "hand-9")
        await reopened.cancel_game(game_id)
        assert await reopened.shown_hand(game_id, OTHER) is None
