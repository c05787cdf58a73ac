"""Plain HTTP calls to the fake, bypassing discord.py.

discord.py refuses some invalid input itself (e.g. more than 10 embeds), so
the fake's own tests use this to show the fake refuses it too. It is also a
quick way to reproduce a refusal by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiohttp

from .server import FakeDiscord


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
