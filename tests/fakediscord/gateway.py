"""The gateway: one bot session over a websocket, with RESUME.

Frames go out as TEXT JSON (discord.py only decompresses binary frames), in
order, through one writer task per connection. Every dispatch gets a
sequence number and is kept, so that after ``drop`` the bot can RESUME and
receive what it missed, as on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .recorder import Problem, Recorder
from .world import GUILD_MEMBERS, World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, RESUME = 0, 1, 2, 3, 6
REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
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
    shard: list[int] | None
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None


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
    ) -> None:
        self.world = world
        self.recorder = recorder
        self.token = token
        self.application_id = application_id
        self.resume_url = resume_url
        self.privileged_intents = privileged_intents
        self.session: GatewaySession | None = None
        self.frames: list[tuple[str, dict[str, Any]]] = []
        self.identifies = 0
        self.resumes = 0
        self._connections: set[GatewayConnection] = set()

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.connection is not None

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
            if self.session is not None and self.session.connection is connection:
                self.session.connection = None
                self.world.touch()
            await connection.close(1000)
        return ws

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send an event to the bot's session, if it has the intent for it.

        While the bot is disconnected the event is only logged; a RESUME
        replays it.
        """
        session = self.session
        if session is None or (intent and not session.intents & intent):
            return
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        if session.connection is not None:
            session.connection.send(frame)

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's connection the way a network failure would; RESUME may follow."""
        if self.session is None or self.session.connection is None:
            raise RuntimeError("the bot is not connected")
        connection, self.session.connection = self.session.connection, None
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
        refusal = None
        if connection.session is not None:
            refusal = (4005, "Already authenticated")
        elif data.get("token") != self.token:
            refusal = (4004, "Authentication failed")
        elif not isinstance(intents, int):
            refusal = (4013, "Invalid intent(s)")
        elif intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            refusal = (4014, "Disallowed intent(s)")
        if refusal is not None:
            self._problem(f"IDENTIFY refused: {refusal[1]}")
            await connection.close(*refusal)
            return
        assert isinstance(intents, int)
        session = GatewaySession(
            secrets.token_hex(16), intents, data.get("shard"), connection=connection
        )
        self.session = connection.session = session
        self.dispatch("READY", self._ready(session))
        for guild in self.world.guilds.values():
            all_members = bool(intents & GUILD_MEMBERS)
            self.dispatch(
                "GUILD_CREATE",
                payloads.guild_create(guild, self.world.clock, all_members=all_members),
            )
        self.identifies += 1
        self.world.touch()

    def _ready(self, session: GatewaySession) -> dict[str, Any]:
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.user(self.world.bot) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.world.guilds.values()],
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
        if session.shard is not None:
            ready["shard"] = session.shard
        return ready

    def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.session
        if (
            session is None
            or data.get("session_id") != session.id
            or data.get("token") != self.token
        ):
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        seen = data.get("seq") or 0
        session.connection = connection
        connection.session = session
        for frame in session.log:
            if frame["s"] > seen:
                connection.send(frame)
        self.dispatch("RESUMED", {})
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
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _log(self, direction: str, frame: dict[str, Any]) -> None:
        self.frames.append((direction, frame))
        self.world.notifier.notify()

    def _problem(self, detail: str) -> None:
        self.recorder.add(Problem("gateway", detail))
