-- 0003: what processes running different shards coordinate through the database.
--
-- IDENTIFY pacing. Discord takes one IDENTIFY per 5 seconds in each bucket
-- (shard_id % max_concurrency), counted across all the bot's processes. A process
-- takes a bucket, writing the moment, only when the last IDENTIFY there is old enough,
-- and identifies at once; a process that dies right after still holds the bucket.
CREATE TABLE identify_slots (
    bucket      INTEGER PRIMARY KEY,
    identify_at REAL    NOT NULL                 -- the latest IDENTIFY's moment
);

-- Shard ownership. A process claims each shard as it connects it; the newest claim on
-- a shard (or on one that shares guilds with it under another shard count) wins, so a
-- process that comes back after another took its shards over finds out and stops.
CREATE TABLE shard_claims (
    id          INTEGER PRIMARY KEY AUTOINCREMENT, -- claim order (newest wins)
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_id    INTEGER NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    owner       TEXT    NOT NULL,                  -- host:pid:random of the process
    claimed_at  REAL    NOT NULL
);
CREATE INDEX shard_claims_by_shard ON shard_claims (shard_count, shard_id);
