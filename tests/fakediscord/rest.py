"""The REST side: routing, body parsing, auth, recording and failure injection.

Handlers (see ``endpoints.py``) receive a :class:`RequestContext` and return
a :class:`Reply` or raise :class:`DiscordError`. This module turns both into
HTTP responses with the exact headers discord.py relies on
(``Content-Type: application/json`` with no charset, ``X-RateLimit-*``), and
records every request; unknown endpoints and refusals become problems.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .clock import Clock
from .errors import DiscordError, not_found, rate_limited, server_error, unauthorized
from .recorder import Problem, Recorder, RequestRecord, UploadedFile

if TYPE_CHECKING:
    from .interactions import InteractionRecord

API_PREFIX = "/api/v10"
FILE_FIELD = re.compile(r"files\[\d+\]")


@dataclass
class RequestContext:
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    record: RequestRecord
    #: Set by handlers once they know which interaction a request is about.
    interaction: InteractionRecord | None = None

    @property
    def body(self) -> dict[str, Any]:
        """The JSON body as an object (``{}`` when there is none)."""
        return self.json if isinstance(self.json, dict) else {}


@dataclass
class Reply:
    body: Any = None
    status: int = 200
    content_type: str = "application/json"


Handler = Callable[[RequestContext], Awaitable[Reply]]


@dataclass(frozen=True)
class Route:
    """``"POST /channels/{channel_id}/messages"`` and its handler."""

    name: str
    handler: Handler
    bot_auth: bool = True
    under_api: bool = True

    @property
    def method(self) -> str:
        return self.name.split(" ", 1)[0]

    @property
    def segments(self) -> list[str]:
        return self.name.split(" ", 1)[1].strip("/").split("/")

    def match(self, method: str, segments: list[str]) -> dict[str, str] | None:
        pattern = self.segments
        if method != self.method or len(pattern) != len(segments):
            return None
        params = {}
        for expected, actual in zip(pattern, segments, strict=True):
            if expected.startswith("{"):
                params[expected[1:-1]] = actual
            elif expected != actual:
                return None
        return params


@dataclass
class Injection:
    route: str
    status: int
    retry_after: float
    is_global: bool
    times: int
    code: int | None = None
    hits: list[RequestRecord] = field(default_factory=list)


@dataclass
class Stall:
    """Requests to ``route`` that are carried out but not answered until ``release``:
    the state between Discord acting and the bot hearing of it (a crash test kills
    the bot there)."""

    route: str
    times: int
    hits: list[RequestRecord] = field(default_factory=list)
    _reached: asyncio.Event = field(default_factory=asyncio.Event)
    _released: asyncio.Event = field(default_factory=asyncio.Event)

    async def reached(self, timeout: float = 10.0) -> RequestRecord:
        """Wait until a request was carried out and is being held; that request."""
        await asyncio.wait_for(self._reached.wait(), timeout)
        return self.hits[-1]

    def release(self) -> None:
        """Answer the held requests (and any later ones) at once."""
        self.times = 0
        self._released.set()


class Rest:
    """Serves the routes, checks auth, records, and applies injected failures."""

    def __init__(self, recorder: Recorder, clock: Clock, token: str, routes: list[Route]) -> None:
        self.recorder = recorder
        self.clock = clock
        self.token = token
        self.routes = routes
        self.injections: list[Injection] = []
        self.stalls: list[Stall] = []

    def stall(self, route: str, *, times: int) -> Stall:
        self._check_route(route)
        stall = Stall(route, times)
        self.stalls.append(stall)
        return stall

    def release_all(self) -> None:
        for stall in self.stalls:
            stall.release()

    def _check_route(self, route: str) -> None:
        if route not in {r.name for r in self.routes}:
            known = "\n  ".join(r.name for r in self.routes)
            raise ValueError(f"unknown route {route!r}; routes are:\n  {known}")

    def inject(
        self,
        route: str,
        *,
        status: int,
        retry_after: float,
        is_global: bool,
        times: int,
        code: int | None,
    ) -> Injection:
        self._check_route(route)
        injection = Injection(route, status, retry_after, is_global, times, code)
        self.injections.append(injection)
        return injection

    async def handle(self, request: web.Request) -> web.Response:
        under_api = request.path.startswith(API_PREFIX + "/")
        path = request.path.removeprefix(API_PREFIX) if under_api else request.path
        route, params = self._match(request.method, path, under_api)
        record = RequestRecord(
            request.method, path, route.name if route else None, dict(request.query), None, []
        )
        self.recorder.requests.append(record)
        ctx: RequestContext | None = None
        try:
            record.json, record.files = await _read_body(request)
            if route is None:
                raise not_found()
            if route.bot_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise unauthorized()
            ctx = RequestContext(params, record.query, record.json, record.files, record)
            reply = await self._run(route, ctx)
        except DiscordError as error:
            self._note_refusal(record, error, ctx)
            return self._error(record, error)
        except Exception as crash:  # a bug in the fake: answer 400 so discord.py does not retry
            detail = f"{type(crash).__name__}: {crash}\n{traceback.format_exc()}"
            self.recorder.add(Problem("fake_error", detail, 400, 0, record))
            return self._error(record, DiscordError(400, 0, f"fake Discord crashed: {crash!r}"))
        record.status, record.response = reply.status, reply.body
        return self._response(reply, route)

    async def _run(self, route: Route, ctx: RequestContext) -> Reply:
        injection = next(
            (i for i in self.injections if i.route == route.name and i.times > 0), None
        )
        if injection is not None:
            injection.times -= 1
            injection.hits.append(ctx.record)
            ctx.record.injected = True
            raise self._injected_error(injection, route)
        reply = await route.handler(ctx)
        stall = next((t for t in self.stalls if t.route == route.name and t.times > 0), None)
        if stall is not None:
            stall.times -= 1
            stall.hits.append(ctx.record)
            stall._reached.set()
            await stall._released.wait()
        return reply

    def _note_refusal(
        self, record: RequestRecord, error: DiscordError, ctx: RequestContext | None
    ) -> None:
        if record.injected:
            return
        if record.route is None:
            problem = Problem(
                "unknown_endpoint",
                "the fake does not serve this endpoint",
                error.status,
                error.code,
                record,
            )
        else:
            interaction = ctx.interaction if ctx else None
            problem = Problem(
                "refused", error.message, error.status, error.code, record, interaction
            )
        self.recorder.add(problem)

    def _injected_error(self, injection: Injection, route: Route) -> DiscordError:
        if injection.status == 429:
            return rate_limited(
                injection.retry_after, is_global=injection.is_global, bucket=_bucket(route.name)
            )
        if injection.status >= 500:
            return server_error(injection.status)
        return DiscordError(injection.status, injection.code or 0, f"Injected {injection.status}")

    def _match(
        self, method: str, path: str, under_api: bool
    ) -> tuple[Route | None, dict[str, str]]:
        segments = path.strip("/").split("/")
        for route in self.routes:
            if (
                route.under_api == under_api
                and (params := route.match(method, segments)) is not None
            ):
                return route, params
        return None, {}

    def _error(self, record: RequestRecord, error: DiscordError) -> web.Response:
        record.status, record.response = error.status, error.body()
        headers = {"Content-Type": "application/json", **error.headers}
        return web.Response(
            status=error.status, body=json.dumps(error.body()).encode(), headers=headers
        )

    def _response(self, reply: Reply, route: Route) -> web.Response:
        headers = self._ratelimit_headers(route)
        if reply.status == 204:
            return web.Response(status=204, headers=headers)
        headers["Content-Type"] = reply.content_type
        body = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        return web.Response(status=reply.status, body=body, headers=headers)

    def _ratelimit_headers(self, route: Route) -> dict[str, str]:
        """A roomy bucket, so discord.py never waits pre-emptively."""
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{self.clock.now() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": _bucket(route.name),
        }


def _bucket(route_name: str) -> str:
    return hashlib.sha1(route_name.encode()).hexdigest()[:16]


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON, or multipart ``payload_json`` + ``files[n]`` as discord.py sends them."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        payload: Any = None
        files = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                payload = _parse_json(await part.text())
            elif part.name is not None and FILE_FIELD.fullmatch(part.name):
                data = await part.read(decode=False)
                files.append(UploadedFile(part.name, part.filename or part.name, bytes(data)))
            else:
                raise DiscordError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        str(part.name): {
                            "_errors": [{"code": "UNKNOWN_FIELD", "message": "Unknown field"}]
                        }
                    },
                )
        return payload, files
    raw = await request.read()
    if request.content_type != "application/json":
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    return _parse_json(raw.decode()), []


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
