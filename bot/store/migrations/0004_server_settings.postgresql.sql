-- 0004: a server's own settings, chosen by members with Manage Server (the language of
-- its public messages and DMs; whether games with hints count for ratings; ...).
-- One JSON object per server, like user_settings.extra: a new setting needs no new
-- migration until it earns a column. A server without a row has every default.
CREATE TABLE server_settings (
    guild_id   BIGINT PRIMARY KEY,
    settings   JSONB  NOT NULL DEFAULT '{}',
    updated_at DOUBLE PRECISION NOT NULL
);
