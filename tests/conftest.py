"""Test-wide plugins (the fake Discord fixtures, the databases: SQLite, PostgreSQL) and
settings.

``IDENTIFY_WINDOW`` is Discord's 5 seconds between two IDENTIFYs of one
bucket. The fake enforces it and the bot paces itself by it; both read this
variable, so the suite shortens it for every fake and bot it starts (the bot
accepts a shorter window only from a gateway on this machine). Run the suite
with ``IDENTIFY_WINDOW=5`` to see it hold at Discord's own pace.
"""

import os

os.environ.setdefault("IDENTIFY_WINDOW", "0.5")

pytest_plugins = ["tests.fakediscord.plugin", "tests.databases"]
