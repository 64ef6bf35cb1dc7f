"""gzip for the web editor's bundle and the API docs' assets, when the browser accepts it.

API responses are left as they are: they carry tokens and CSRF tokens beside what the request sent, which
compression would let an eavesdropper guess at (BREACH); and the events stream must reach the client as
each event is written."""
from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send


class CompressWeb:
    """Pure ASGI middleware: gzip every response outside `/api/`."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.gzip = GZipMiddleware(app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/api/"):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
