-- 0002: what the channel and DMs show for each game, and computer levels.
-- restart posts nothing twice (results once, one hand DM per player, the turn message
-- kept while its turn lasts).
--
-- JSON object written by the publisher: {"results": hands whose results were posted,
-- "serial": turn_serial of the turn message, "final": true once the final results are out, "closed": users whose DMs are closed,
-- "dms": {user id: [DM message id, hand key]}}.
ALTER TABLE games ADD COLUMN published TEXT NOT NULL DEFAULT '{}';

-- A computer seat's level where a variant offers several (Tile Rummy: easy, strong);
-- NULL for people and for the variant's default computer.
ALTER TABLE seats ADD COLUMN level TEXT;
