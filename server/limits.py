"""Request body size limits, enforced while the body streams in (not only from Content-Length)."""
from __future__ import annotations

import json

from server.config import Settings


class BodyTooLarge(Exception):
    pass


def _reject(limit: int, what: str):
    body = json.dumps({"detail": f"{what} is larger than the limit of {limit} bytes"}).encode()
    return [
        {"type": "http.response.start", "status": 413,
         "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]},
        {"type": "http.response.body", "body": body},
    ]


class BodySizeLimit:
    """Pure ASGI middleware: problem uploads may be `max_upload_bytes`, every other request `max_body_bytes`."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.settings = settings

    def limit_for(self, scope) -> tuple[int, str]:
        if scope["method"] == "POST" and scope["path"].rstrip("/") == "/api/problems":
            return self.settings.max_upload_bytes, "the upload"
        return self.settings.max_body_bytes, "the request body"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit, what = self.limit_for(scope)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    for message in _reject(limit, what):
                        await send(message)
                    return
        received = 0
        exceeded = started = False

        async def counted_receive():
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise BodyTooLarge()
            return message

        async def guarded_send(message):
            # The app may turn the exception into its own error response: answer 413 instead.
            nonlocal started
            if exceeded:
                if not started:
                    started = True
                    for reply in _reject(limit, what):
                        await send(reply)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except BodyTooLarge:
            pass
        if exceeded and not started:
            for reply in _reject(limit, what):
                await send(reply)
