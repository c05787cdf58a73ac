-- 0002 for PostgreSQL: as 0002_published_and_levels.sqlite.sql (what the channel and DMs
-- show for each game, written by the publisher; computer levels), with JSONB.
ALTER TABLE games ADD COLUMN published JSONB NOT NULL DEFAULT '{}';

ALTER TABLE seats ADD COLUMN level TEXT;
