"""Plain HTTP calls and gateway frames to the fake, bypassing discord.py.

discord.py refuses some invalid input itself (e.g. more than 10 embeds), so
the fake's own tests use this to show the fake refuses it too. It is also a
quick way to reproduce a refusal by hand. :class:`RawGateway` speaks the
gateway frame by frame (IDENTIFY with or without a shard, RESUME, …).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiohttp

from .server import FakeDiscord

GUILDS = 1 << 0


@dataclass
class RawResponse:
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def code(self) -> int | None:
        """Discord's JSON error code, if the body has one."""
        return self.body.get("code") if isinstance(self.body, dict) else None


class RawClient:
    """An aiohttp session with the bot's token, speaking to one fake."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.session = aiohttp.ClientSession()

    async def close(self) -> None:
        await self.session.close()

    async def __aenter__(self) -> RawClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        files: dict[str, bytes] | None = None,
        auth: bool = True,
        params: dict[str, str] | None = None,
    ) -> RawResponse:
        """``path`` is relative to ``/api/v10``; ``files`` maps filenames to bytes."""
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        data: Any = None
        if files:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(json_body or {}))
            for index, (filename, content) in enumerate(files.items()):
                form.add_field(
                    f"files[{index}]",
                    content,
                    filename=filename,
                    content_type="application/octet-stream",
                )
            data = form
        elif json_body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(json_body)
        url = self.fake.api_base + path
        async with self.session.request(
            method, url, data=data, headers=headers, params=params
        ) as response:
            text = await response.text()
            body = json.loads(text) if response.content_type == "application/json" else text
            return RawResponse(response.status, body, dict(response.headers))

    async def post_message(
        self, channel_id: int, payload: dict[str, Any], files: dict[str, bytes] | None = None
    ) -> RawResponse:
        return await self.request(
            "POST", f"/channels/{channel_id}/messages", json_body=payload, files=files
        )

    async def put_commands(
        self, commands: list[dict[str, Any]], guild_id: int | None = None
    ) -> RawResponse:
        scope = f"/guilds/{guild_id}" if guild_id else ""
        return await self.request(
            "PUT", f"/applications/{self.fake.application_id}{scope}/commands", json_body=commands
        )

    async def callback(
        self, interaction: Any, payload: dict[str, Any], files: dict[str, bytes] | None = None
    ) -> RawResponse:
        return await self.request(
            "POST",
            f"/interactions/{interaction.id}/{interaction.token}/callback",
            json_body=payload,
            files=files,
            auth=False,
            params={"with_response": "1"},
        )

    async def followup(self, interaction: Any, payload: dict[str, Any]) -> RawResponse:
        return await self.request(
            "POST",
            f"/webhooks/{self.fake.application_id}/{interaction.token}",
            json_body=payload,
            auth=False,
            params={"wait": "1"},
        )

    async def webhook_message(
        self,
        method: str,
        interaction: Any,
        message_id: str = "@original",
        payload: dict[str, Any] | None = None,
    ) -> RawResponse:
        path = f"/webhooks/{self.fake.application_id}/{interaction.token}/messages/{message_id}"
        return await self.request(method, path, json_body=payload, auth=False)


class RawGateway:
    """One websocket to the fake, reading and writing JSON frames."""

    def __init__(self, session: aiohttp.ClientSession, fake: FakeDiscord) -> None:
        self.session = session
        self.fake = fake
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def connect(self, query: str = "v=10&encoding=json") -> dict[str, Any]:
        """Open the websocket; returns HELLO."""
        self.ws = await self.session.ws_connect(f"{self.fake.gateway_url}?{query}")
        return await self.receive()

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        assert self.ws is not None
        message = await self.ws.receive(timeout=timeout)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        return json.loads(message.data)

    async def nothing_more(self, wait: float = 0.2) -> None:
        """Assert that no frame arrives within ``wait`` seconds."""
        assert self.ws is not None
        try:
            message = await self.ws.receive(timeout=wait)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected frame: {message}")

    async def closed_with(self) -> int | None:
        assert self.ws is not None
        message = await self.ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE, message
        return self.ws.close_code

    async def send(self, op: int, data: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"op": op, "d": data}))

    async def identify(
        self, intents: int = GUILDS, token: str | None = None, shard: list[int] | None = None
    ) -> None:
        data: dict[str, Any] = {
            "token": token or self.fake.token,
            "intents": intents,
            "properties": {"os": "linux", "browser": "test", "device": "test"},
        }
        if shard is not None:
            data["shard"] = shard
        await self.send(2, data)

    async def dispatches(self, count: int) -> list[dict[str, Any]]:
        return [await self.receive() for _ in range(count)]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
