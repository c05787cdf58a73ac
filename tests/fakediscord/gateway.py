"""The gateway: the bot's sessions over websockets, one per shard, with RESUME.

Frames go out as TEXT JSON (discord.py only decompresses binary frames), in
order, through one writer task per connection. Every dispatch gets a
sequence number and is kept, so that after ``drop`` the bot can RESUME and
receive what it missed, as on Discord.

Sharding as Discord does it: IDENTIFY carries ``shard: [shard_id,
shard_count]`` (none means ``[0, 1]``); a session receives the events of the
guilds with ``(guild_id >> 22) % shard_count == shard_id`` (READY lists only
those, and only they get a GUILD_CREATE), and events without a guild (DMs)
go to shard 0 only. IDENTIFY is limited as on Discord (``/gateway/bot`` →
``session_start_limit``): one per ``identify_window`` seconds (5 on Discord)
in each bucket ``shard_id % max_concurrency``, at most ``remaining`` a day;
a shard IDENTIFYed while another connection holds it has two owners. Each of
these is an ``identify`` problem, which fails the test unless taken. A sharded
bot's DM with buttons is a ``shard`` problem: its clicks would reach shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .models import Message
from .recorder import Problem, Recorder
from .world import GUILD_MEMBERS, World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, RESUME = 0, 1, 2, 3, 6
REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
IDENTIFY_WINDOW = 5.0
"""Seconds in which each identify bucket allows one IDENTIFY (Discord's rule)."""
GUILDS_PER_SHARD = 2_500
"""Discord refuses a shard (4011, sharding required) with more guilds than this."""
GUILDS_PER_RECOMMENDED_SHARD = 1_000
"""``/gateway/bot`` recommends about one shard per this many guilds."""
DAY_MS = 24 * 3600 * 1000
#: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: need enabling in the developer portal.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)


class GatewayConnection:
    """One websocket, with an ordered outgoing queue."""

    def __init__(
        self, ws: web.WebSocketResponse, log: Callable[[str, dict[str, Any]], None]
    ) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self._log = log
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, frame: dict[str, Any]) -> None:
        self._queue.put_nowait(frame)

    async def close(self, code: int, reason: str = "") -> None:
        """Flush what is queued, then close the websocket with ``code``."""
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self._writer
        await self.ws.close(code=code, message=reason.encode())

    async def _write(self) -> None:
        while (frame := await self._queue.get()) is not None:
            if self.ws.closed:
                return
            self._log("send", frame)
            await self.ws.send_str(json.dumps(frame))


@dataclass
class GatewaySession:
    id: str
    intents: int
    shard: tuple[int, int]
    """``(shard_id, shard_count)``; ``(0, 1)`` for a bot that IDENTIFYed without ``shard``."""
    sharded: bool = False
    """Whether IDENTIFY carried ``shard`` (READY echoes it only then)."""
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (``None``: DMs)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


@dataclass
class SessionStartLimit:
    """What ``GET /gateway/bot`` reports, and what IDENTIFY is held to."""

    total: int = 1000
    remaining: int = 1000
    reset_after_ms: int = DAY_MS
    max_concurrency: int = 1
    window: float = IDENTIFY_WINDOW
    guilds_per_shard: int = GUILDS_PER_SHARD
    recommended_shards: int | None = None
    """``shards`` in ``/gateway/bot``; ``None``: one per 1,000 guilds, at least one."""
    last_identify: dict[int, float] = field(default_factory=dict)
    """Per bucket, the monotonic time of its last accepted IDENTIFY."""

    def bucket(self, shard_id: int) -> int:
        return shard_id % self.max_concurrency


class Gateway:
    """Accepts the bot's websocket, IDENTIFY/RESUME, and dispatches events."""

    def __init__(
        self,
        world: World,
        recorder: Recorder,
        *,
        token: str,
        application_id: int,
        resume_url: Callable[[], str],
        privileged_intents: int,
        limits: SessionStartLimit | None = None,
    ) -> None:
        self.world = world
        self.recorder = recorder
        self.token = token
        self.application_id = application_id
        self.resume_url = resume_url
        self.privileged_intents = privileged_intents
        self.limits = limits or SessionStartLimit()
        self.sessions: list[GatewaySession] = []
        """Every session IDENTIFY opened, oldest first (a dropped one can still RESUME)."""
        self.frames: list[tuple[str, dict[str, Any]]] = []
        self.identifies = 0
        self.identified: list[tuple[float, tuple[int, int]]] = []
        """Accepted IDENTIFYs: (monotonic time, (shard_id, shard_count))."""
        self.resumes = 0
        self._connections: set[GatewayConnection] = set()

    @property
    def session(self) -> GatewaySession | None:
        """The newest session (the only one for a bot that does not shard)."""
        return self.sessions[-1] if self.sessions else None

    @property
    def shard_count(self) -> int | None:
        """The shard count of the newest IDENTIFY."""
        session = self.session
        return session.shard[1] if session is not None else None

    def connected_shards(self, shard_count: int | None = None, *, since: int = 0) -> set[int]:
        """Shard ids of ``shard_count`` (default: the newest) with a live connection
        (among the sessions opened since the ``since``-th: one process's)."""
        count = self.shard_count if shard_count is None else shard_count
        return {
            s.shard[0]
            for s in self.sessions[since:]
            if s.shard[1] == count and s.connection is not None
        }

    @property
    def connected(self) -> bool:
        """Every shard of the newest shard count has a live connection."""
        count = self.shard_count
        return count is not None and len(self.connected_shards(count)) == count

    def receiver(self, guild_id: int | None) -> GatewaySession | None:
        """The session that gets ``guild_id``'s events (``None``: DMs): a connected one,
        else one that can still RESUME and will be replayed the event; ``None`` if no
        session ever held that shard."""
        sessions = [s for s in reversed(self.sessions) if s.receives(guild_id)]
        connected = [s for s in sessions if s.connection is not None]
        return (connected or sessions or [None])[0]

    def bot_gateway(self, url: str) -> dict[str, Any]:
        """The body of ``GET /gateway/bot``."""
        limits = self.limits
        shards = limits.recommended_shards or max(
            1, math.ceil(len(self.world.guilds) / GUILDS_PER_RECOMMENDED_SHARD)
        )
        return {
            "url": url,
            "shards": shards,
            "session_start_limit": {
                "total": limits.total,
                "remaining": limits.remaining,
                "reset_after": limits.reset_after_ms,
                "max_concurrency": limits.max_concurrency,
            },
        }

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        connection = GatewayConnection(ws, self._log)
        self._connections.add(connection)
        if request.query.get("encoding", "json") != "json" or request.query.get("v") != "10":
            self._problem(f"gateway connected with unsupported query {dict(request.query)}")
            await connection.close(4012, "Invalid API version or encoding")
            return ws
        connection.send(
            {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
                elif message.type is WSMsgType.BINARY:
                    self._problem("bot sent a binary gateway frame; the fake speaks JSON text")
                    await connection.close(4002, "Decode error")
        finally:
            self._connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                self.world.touch()
            await connection.close(1000)
        return ws

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send an event to every session that receives it (its guild's shard, or shard 0
        for events without a guild) and has the intent for it.

        While a session is disconnected the event is only logged; a RESUME
        replays it.
        """
        raw_guild = data.get("guild_id")
        guild_id = int(raw_guild) if raw_guild is not None else None
        for session in self.sessions:
            if session.receives(guild_id):
                self._send(session, event, data, intent)

    def _send(self, session: GatewaySession, event: str, data: dict[str, Any],
              intent: int = 0) -> None:
        if intent and not session.intents & intent:
            return
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        if session.connection is not None:
            session.connection.send(frame)

    async def drop(self, code: int = 4000, *, shard_id: int = 0) -> None:
        """Close a shard's connection (of the newest shard count) the way a network
        failure would; RESUME may follow."""
        session = next(
            (
                s
                for s in reversed(self.sessions)
                if s.connection is not None
                and s.shard == (shard_id, self.shard_count)
            ),
            None,
        )
        if session is None or session.connection is None:
            raise RuntimeError(f"the bot is not connected on shard {shard_id}")
        connection, session.connection = session.connection, None
        await connection.close(code, "Dropped by the test")

    async def close(self) -> None:
        for connection in list(self._connections):
            await connection.close(1001, "Fake Discord stopping")

    async def _receive(self, connection: GatewayConnection, frame: dict[str, Any]) -> None:
        self._log("receive", frame)
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            self._resume(connection, data or {})
        elif connection.session is None:
            self._problem(f"op {op} sent before IDENTIFY")
            await connection.close(4003, "Not authenticated")
        elif op == REQUEST_GUILD_MEMBERS:
            self._send_members(connection.session, data or {})
        elif op != PRESENCE_UPDATE:
            self._problem(f"unknown or unsupported gateway opcode {op}")
            await connection.close(4001, "Unknown opcode")

    async def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        intents = data.get("intents")
        raw_shard = data.get("shard", [0, 1])
        refusal = None
        if connection.session is not None:
            refusal = (4005, "Already authenticated")
        elif data.get("token") != self.token:
            refusal = (4004, "Authentication failed")
        elif not isinstance(intents, int):
            refusal = (4013, "Invalid intent(s)")
        elif intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            refusal = (4014, "Disallowed intent(s)")
        elif not _valid_shard(raw_shard):
            refusal = (4010, "Invalid shard")
        elif self._guilds_on(*raw_shard) > self.limits.guilds_per_shard:
            refusal = (4011, "Sharding required")
        if refusal is not None:
            self._problem(f"IDENTIFY refused: {refusal[1]} (shard {raw_shard})")
            await connection.close(*refusal)
            return
        assert isinstance(intents, int)
        shard: tuple[int, int] = (raw_shard[0], raw_shard[1])
        if not await self._identify_allowed(connection, shard):
            return
        session = GatewaySession(
            secrets.token_hex(16), intents, shard, sharded="shard" in data, connection=connection
        )
        self.sessions.append(session)
        connection.session = session
        self._send(session, "READY", self._ready(session))
        all_members = bool(intents & GUILD_MEMBERS)
        for guild in self.world.guilds.values():
            if session.receives(guild.id):
                self._send(
                    session,
                    "GUILD_CREATE",
                    payloads.guild_create(guild, self.world.clock, all_members=all_members),
                )
        self.identifies += 1
        self.world.touch()

    async def _identify_allowed(
        self, connection: GatewayConnection, shard: tuple[int, int]
    ) -> bool:
        """Discord's session start limits; a breach is an ``identify`` problem.

        Past ``remaining`` Discord resets the token and closes (4004); within
        a bucket's window it answers INVALID_SESSION. A second live
        connection on one shard is accepted (Discord does) but recorded: the
        shard then has two owners.
        """
        limits = self.limits
        now = time.monotonic()
        if limits.remaining <= 0:
            self._violation(f"shard {list(shard)} IDENTIFYed with no session starts left "
                            f"today ({limits.total} a day)")
            await connection.close(4004, "Authentication failed")
            return False
        bucket = limits.bucket(shard[0])
        last = limits.last_identify.get(bucket)
        if last is not None and now - last < limits.window:
            self._violation(
                f"shard {list(shard)} IDENTIFYed {now - last:.2f} s after the last IDENTIFY "
                f"of its bucket {bucket} (max_concurrency {limits.max_concurrency}: one per "
                f"{limits.window:g} s per bucket)"
            )
            connection.send({"op": INVALID_SESSION, "d": False})
            return False
        holders = [s for s in self.sessions if s.shard == shard and s.connection is not None]
        if holders:
            self._violation(f"shard {list(shard)} IDENTIFYed while another connection holds "
                            "it: two processes own its guilds")
        limits.remaining -= 1
        limits.last_identify[bucket] = now
        self.identified.append((now, shard))
        return True

    def identify_wait(self, shard_id: int = 0) -> float:
        """Seconds until ``shard_id``'s bucket takes another IDENTIFY (0: now)."""
        last = self.limits.last_identify.get(self.limits.bucket(shard_id))
        if last is None:
            return 0.0
        return max(0.0, last + self.limits.window - time.monotonic())

    def note_dm(self, message: Message) -> None:
        """A sharded bot's DM with components is a ``shard`` problem: DMs and their
        clicks reach shard 0 only, whichever process holds it, not the process that
        owns the game the buttons are for."""
        if message.components and any(s.shard[1] > 1 for s in self.sessions):
            self.recorder.add(Problem(
                "shard", f"DM {message.id} has components, but a sharded bot gets their "
                "clicks on shard 0 only, maybe in another process than the game's"))

    def _guilds_on(self, shard_id: int, shard_count: int) -> int:
        return sum(1 for g in self.world.guilds if shard_of(g, shard_count) == shard_id)

    def _ready(self, session: GatewaySession) -> dict[str, Any]:
        guilds = [g for g in self.world.guilds.values() if session.receives(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.user(self.world.bot) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url(),
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if session.sharded:
            ready["shard"] = list(session.shard)
        return ready

    def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or data.get("token") != self.token:
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        seen = data.get("seq") or 0
        session.connection = connection
        connection.session = session
        for frame in session.log:
            if frame["s"] > seen:
                connection.send(frame)
        self._send(session, "RESUMED", {})
        self.resumes += 1
        self.world.touch()

    def _send_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            self._problem(f"REQUEST_GUILD_MEMBERS for unknown guild {data.get('guild_id')}")
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.user.name.lower().startswith(query)
        ][: data.get("limit") or None]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m, self.world.clock) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        if not session.receives(guild.id):
            self._problem(f"REQUEST_GUILD_MEMBERS for guild {guild.id} on shard "
                          f"{list(session.shard)}, which does not receive it")
            return
        self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _log(self, direction: str, frame: dict[str, Any]) -> None:
        self.frames.append((direction, frame))
        self.world.notifier.notify()

    def _problem(self, detail: str) -> None:
        self.recorder.add(Problem("gateway", detail))

    def _violation(self, detail: str) -> None:
        self.recorder.add(Problem("identify", detail))


def _valid_shard(shard: Any) -> bool:
    return (
        isinstance(shard, list)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        and 0 <= shard[0] < shard[1]
    )
