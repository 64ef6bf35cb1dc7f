"""The interactive API docs at `/docs`: Swagger UI served from the installed `swagger-ui-py` package's files,
so the docs work on a server without internet access (FastAPI's default loads them from a CDN)."""
from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"


def mount_api_docs(app: FastAPI) -> None:
    """`/docs` and its assets; the app must be made with `docs_url=None`."""
    app.mount(ASSETS, StaticFiles(directory=str(files("swagger_ui") / "static")), name="api-docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        # validatorUrl null: Swagger UI would otherwise send the schema's address to an online validator
        return get_swagger_ui_html(openapi_url=app.openapi_url, title=f"{app.title} API",
                                   swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
                                   swagger_ui_parameters={"validatorUrl": None})
