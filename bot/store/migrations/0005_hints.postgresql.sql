-- 0005: hints (issue 24). Whether a game allows /rummy hint (the lobby's hints option,
-- on unless the host turned it off), and how many hints each seat has used: kept with
-- the game so the counts survive a restart and reach the results.
ALTER TABLE games ADD COLUMN hints BOOLEAN NOT NULL DEFAULT TRUE;

ALTER TABLE seats ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0 CHECK (hints_used >= 0);
