-- 0001: games, seats, the move log, results, ratings, user settings, shown hands.
--
-- Times are UTC epoch seconds (REAL). JSON columns hold compact JSON text
-- written by the store. Booleans are 0/1.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    variant          TEXT    NOT NULL,
    options          TEXT    NOT NULL,           -- JSON object
    seed             TEXT    NOT NULL,           -- decimal: seeds may exceed 64 bits
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    state            TEXT,                       -- JSON object, NULL while in lobby
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    turn_message_id  INTEGER,
    turn_deadline    REAL,
    move_count       INTEGER NOT NULL DEFAULT 0, -- seq of the last move; the next is +1
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);

-- A channel holds at most one lobby or running game, even if two requests race.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'running');

-- The idle-lobby sweep. (Restoring open games at start scans the index above.)
-- Running games stay out of it, so a move's new updated_at costs no index write.
CREATE INDEX games_idle_lobbies ON games (updated_at) WHERE status = 'lobby';

-- /rummy history for a whole server.
CREATE INDEX games_finished_by_guild
    ON games (guild_id, finished_at) WHERE status = 'finished';

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER,                         -- NULL for a computer seat
    name        TEXT    NOT NULL,
    is_computer INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    has_left    INTEGER NOT NULL DEFAULT 0 CHECK (has_left IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    -- a person's seat names them; a computer may keep the id of the player it replaced
    CHECK (is_computer = 1 OR user_id IS NOT NULL)
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user
    ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE moves (
    game_id    INTEGER NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL,
    user_id    INTEGER,                          -- NULL for computer moves and timeouts
    move       TEXT    NOT NULL,                 -- JSON object
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
) WITHOUT ROWID;

CREATE TRIGGER moves_append_only BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TABLE results (
    game_id       INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    seat          INTEGER NOT NULL,
    user_id       INTEGER,
    is_computer   INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
    place         INTEGER NOT NULL CHECK (place >= 1),
    points        INTEGER NOT NULL,
    won           INTEGER NOT NULL CHECK (won IN (0, 1)),
    rating_before INTEGER,                       -- display ratings; NULL when unrated
    rating_after  INTEGER,
    finished_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat),
    CHECK (is_computer = 1 OR user_id IS NOT NULL)
) WITHOUT ROWID;

-- Leaderboards per server and variant, optionally since a date.
CREATE INDEX results_by_guild_variant ON results (guild_id, variant, finished_at);

-- One player's stats and history.
CREATE INDEX results_by_guild_user
    ON results (guild_id, user_id, finished_at) WHERE user_id IS NOT NULL;

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,                 -- 0: the computer players of this variant
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
) WITHOUT ROWID;

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    hand_sort  TEXT    NOT NULL DEFAULT 'suit' CHECK (hand_sort IN ('suit', 'rank')),
    card_style TEXT    NOT NULL DEFAULT 'four' CHECK (card_style IN ('four', 'classic')),
    extra      TEXT    NOT NULL DEFAULT '{}',    -- JSON object: settings added later
    updated_at REAL    NOT NULL
);

-- The hand order of the image last shown to a player, so that "#n" positions
-- (NOT-7) mean the same cards after a restart; hand_key identifies the hand it
-- was made for, so a stale order is never applied to a changed hand.
CREATE TABLE shown_hands (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    hand_order TEXT    NOT NULL,                 -- JSON list of piece codes
    hand_key   TEXT    NOT NULL,
    shown_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
