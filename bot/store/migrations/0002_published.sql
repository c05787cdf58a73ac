-- 0002: what the channel and the players' DMs already show for each game, so that a
-- restart posts nothing twice (results once, one hand DM per player, the turn message
-- kept while its turn lasts).
--
-- JSON object written by the publisher: {"results": hands whose results were posted,
-- "serial": turn_serial of the turn message, "final": true once the final results are out, "closed": users whose DMs are closed,
-- "dms": {user id: [DM message id, hand key]}}.
ALTER TABLE games ADD COLUMN published TEXT NOT NULL DEFAULT '{}';
