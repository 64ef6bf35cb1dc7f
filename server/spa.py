"""The web editor: the built bundle in `server/static/` (made from `web/` by `npm run build`), served at `/`.

Files of the bundle are served as they are (`/assets/...` have content hashes in their names, so they
may be cached for good); every other path outside `/api` is a client route of the single-page app and
gets `index.html`.
"""
from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, Response

BUNDLE = Path(__file__).resolve().parent / "static"
RESERVED = ("api/", "docs", "redoc", "openapi.json")
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
NO_CACHE = {"Cache-Control": "no-cache"}


def mount_web(app: FastAPI, bundle: Path = BUNDLE) -> None:
    index = bundle / "index.html"
    root = bundle.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    def web(path: str) -> Response:
        if path.startswith(RESERVED):
            raise HTTPException(404, f"no such path: /{path}")
        if not index.is_file():
            return Response("The web editor is not built: run `npm ci && npm run build` in web/. "
                            "The API is at /api, its docs at /docs.", media_type="text/plain", status_code=503)
        file = (bundle / path).resolve()
        if path and file.is_file() and file.is_relative_to(root):
            return FileResponse(file, headers=IMMUTABLE if path.startswith("assets/") else NO_CACHE)
        return FileResponse(index, headers=NO_CACHE)
