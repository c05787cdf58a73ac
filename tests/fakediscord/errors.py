"""Discord's error responses, in Discord's own JSON shapes.

Endpoints raise :class:`DiscordError`; the REST layer turns it into the HTTP
response and records it. Validation collects field errors in
:class:`FormErrors`, which becomes the nested ``50035 Invalid Form Body``
body that discord.py (e.g. ``CommandSyncFailure``) knows how to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Path = Sequence[str | int]


class DiscordError(Exception):
    """An error response: HTTP status, Discord JSON code and message."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


class FormErrors:
    """Field errors collected during validation, keyed by JSON path."""

    def __init__(self, prefix: Path = ()) -> None:
        self._prefix = tuple(prefix)
        self.items: list[tuple[tuple[str | int, ...], str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((self._prefix + tuple(path), code, message))

    def max_length(self, path: Path, value: str | None, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: Path, value: str | None, low: int, high: int) -> None:
        if value is None or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def max_items(self, path: Path, items: Sequence[Any], limit: int) -> None:
        if len(items) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def to_json(self) -> dict[str, Any]:
        tree: dict[str, Any] = {}
        for path, code, message in self.items:
            node = tree
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return tree

    def raise_if_any(self) -> None:
        if self.items:
            raise invalid_form_body(self)


def invalid_form_body(errors: FormErrors) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors=errors.to_json())


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def not_found() -> DiscordError:
    return DiscordError(404, 0, "404: Not Found")


def unknown_channel() -> DiscordError:
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def unknown_member() -> DiscordError:
    return DiscordError(404, 10007, "Unknown Member")


def unknown_user() -> DiscordError:
    return DiscordError(404, 10013, "Unknown User")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, 10062, "Unknown interaction")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def cannot_message_user() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def empty_message() -> DiscordError:
    return DiscordError(400, 50006, "Cannot send an empty message")


def entity_too_large() -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large")


def server_error(status: int = 500) -> DiscordError:
    return DiscordError(status, 0, f"{status}: Internal Server Error")


def rate_limited(retry_after: float, *, is_global: bool, bucket: str) -> DiscordError:
    """A 429 carrying every header discord.py reads.

    ``Via`` matters: without it discord.py assumes a Cloudflare ban and raises
    instead of sleeping ``retry_after`` and retrying.
    """
    headers = {
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return DiscordError(
        429,
        0,
        "You are being rate limited.",
        headers=headers,
        extra={"retry_after": retry_after, "global": is_global},
    )


def missing_access() -> DiscordError:
    return DiscordError(403, 50001, "Missing Access")


def thread_already_exists() -> DiscordError:
    return DiscordError(400, 160004, "A thread has already been created for this message")
