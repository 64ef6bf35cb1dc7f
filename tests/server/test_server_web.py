"""The server serves the committed web bundle at `/`: client routes get index.html, the API and its docs stay."""
from __future__ import annotations

import re

from server.spa import BUNDLE


def test_bundle_served_beside_the_api(make_api, sqlite_url, catalog, tmp_path):
    from server_helpers import make_settings

    api = make_api(make_settings(tmp_path / "data", sqlite_url, catalog))
    index = (BUNDLE / "index.html").read_text()
    for path in ("/", "/problems", "/problems/83", "/submissions/7", "/instructor"):
        r = api.client.get(path)
        assert r.status_code == 200 and r.text == index and r.headers["content-type"].startswith("text/html"), path
    script = re.search(r'src="(/assets/[^"]+\.js)"', index).group(1)
    r = api.client.get(script)
    assert r.status_code == 200 and "javascript" in r.headers["content-type"] and "immutable" in r.headers["cache-control"]
    assert api.client.get("/api/problems").json()[0]["id"] == 1
    r = api.client.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json() == {"detail": "no such path: /api/no-such-thing"}
    assert api.client.get("/docs").status_code == 200 and api.client.get("/openapi.json").status_code == 200
    assert api.client.get("/assets/../../app.py").text == index          # never a file outside the bundle
