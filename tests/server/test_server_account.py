"""The account endpoints (named API tokens, password change, solved problems), the offline API docs, and gzip for
the web bundle while the events stream stays live."""
from __future__ import annotations

import gzip
import re
import time

import httpx

from server_helpers import PASSWORD, RELU_OK, FakeJudge, make_settings
from server.config import RateLimit
from server.security import CSRF_HEADER
from server.spa import BUNDLE


def test_named_tokens_create_list_revoke(api):
    c = api.client
    alice, bob = api.account("alice"), api.account("bob")
    r = c.post("/api/auth/tokens", json={"name": "  laptop CLI "}, headers=alice)
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["name"] == "laptop CLI" and created["token"].startswith("cj_") and created["expires_at"]
    cli = {"Authorization": f"Bearer {created['token']}"}
    assert c.get("/api/auth/me", headers=cli).json()["username"] == "alice"

    listed = c.get("/api/auth/tokens", headers=alice).json()
    assert [t["name"] for t in listed] == ["laptop CLI", "login"]       # newest first; the sign-in's token too
    assert created["token"] not in c.get("/api/auth/tokens", headers=alice).text and "token" not in listed[0]
    assert c.get("/api/auth/tokens", headers=bob).json()[0]["name"] == "login"

    for bad in ({"name": ""}, {"name": "   "}, {"name": "x" * 65}, {}, {"name": "ok", "days": 3}):
        assert c.post("/api/auth/tokens", json=bad, headers=alice).status_code == 422, bad
    assert c.post("/api/auth/tokens", json={"name": "x" * 64}, headers=alice).status_code == 201
    assert c.post("/api/auth/tokens", json={"name": "nope"}).status_code == 401

    r = c.delete(f"/api/auth/tokens/{created['id']}", headers=bob)                # someone else's
    assert r.status_code == 404 and "no API token" in r.json()["detail"]
    assert c.get("/api/auth/me", headers=cli).status_code == 200
    assert c.delete(f"/api/auth/tokens/{created['id']}", headers=alice).status_code == 204
    r = c.get("/api/auth/me", headers=cli)
    assert r.status_code == 401 and "/account" in r.json()["detail"]
    assert c.delete(f"/api/auth/tokens/{created['id']}", headers=alice).status_code == 404
    assert "laptop CLI" not in [t["name"] for t in c.get("/api/auth/tokens", headers=alice).json()]


def test_token_endpoints_need_csrf_with_the_session_cookie(api):
    c = api.client
    c.post("/api/auth/register", json={"username": "carol", "password": PASSWORD})
    csrf = c.post("/api/auth/login", json={"username": "carol", "password": PASSWORD}).json()["csrf_token"]
    r = c.post("/api/auth/tokens", json={"name": "ci"})
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    created = c.post("/api/auth/tokens", json={"name": "ci"}, headers={CSRF_HEADER: csrf})
    assert created.status_code == 201
    assert c.delete(f"/api/auth/tokens/{created.json()['id']}").status_code == 403
    assert c.post("/api/auth/password", json={"current_password": PASSWORD, "new_password": "another pass"}
                  ).status_code == 403


def test_a_browser_login_asks_for_no_bearer_token_and_leaves_none_behind(api):
    c = api.client
    c.post("/api/auth/register", json={"username": "dora", "password": PASSWORD})
    body = c.post("/api/auth/login", json={"username": "dora", "password": PASSWORD, "bearer": False}).json()
    assert body["token"] is None and body["expires_at"] is None and body["csrf_token"]
    assert c.get("/api/auth/me").json()["username"] == "dora"                     # the session cookie signs in
    assert [t["name"] for t in c.get("/api/auth/tokens").json()] == []           # no 90-day token left over
    scripted = c.post("/api/auth/login", json={"username": "dora", "password": PASSWORD}).json()
    assert scripted["token"] and "login" in [t["name"] for t in c.get("/api/auth/tokens").json()]


def test_password_change(api):
    c = api.client
    alice = api.account("alice")
    other = {"Authorization": f"Bearer {c.post('/api/auth/tokens', json={'name': 'ci'}, headers=alice).json()['token']}"}
    new = "a brand new password"

    r = c.post("/api/auth/password", json={"current_password": "not my password", "new_password": new}, headers=alice)
    assert r.status_code == 403 and r.json()["detail"] == "the current password is wrong"
    r = c.post("/api/auth/password", json={"current_password": PASSWORD, "new_password": "short"}, headers=alice)
    assert r.status_code == 422 and "new_password" in r.text
    r = c.post("/api/auth/password", json={"current_password": PASSWORD, "new_password": PASSWORD}, headers=alice)
    assert r.status_code == 400 and "current one" in r.json()["detail"]
    assert c.get("/api/auth/me", headers=other).status_code == 200                 # refusals change nothing

    r = c.post("/api/auth/password", json={"current_password": PASSWORD, "new_password": new}, headers=alice)
    assert r.status_code == 200 and r.json()["revoked"] == 2     # the CI token and the sign-in's browser session
    assert c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}).status_code == 401
    assert c.get("/api/auth/me", headers=other).status_code == 401                 # other credentials: revoked
    assert c.get("/api/auth/me", headers=alice).json()["username"] == "alice"      # this request's: kept
    c.cookies.clear()
    assert c.post("/api/auth/login", json={"username": "alice", "password": new}).status_code == 200


def test_account_changes_are_rate_limited(make_api, settings):
    api = make_api(settings.with_(rate_auth=RateLimit(6, 0.0001)), judge=FakeJudge())
    alice = api.account("alice")                # register and login take 2 of the address's 6
    codes = [api.client.post("/api/auth/tokens", json={"name": f"t{i}"}, headers=alice).status_code for i in range(5)]
    assert codes == [201] * 4 + [429]
    r = api.client.post("/api/auth/password", json={"current_password": "guess one", "new_password": "x" * 8},
                        headers=alice)
    assert r.status_code == 429 and "Retry-After" in r.headers


def test_solved_problems(make_api, settings):
    api = make_api(settings, judge=FakeJudge())
    alice = api.account("alice")
    assert api.client.get("/api/auth/solved", headers=alice).json() == []
    api.wait(alice, api.submit(alice, RELU_OK + "// fake verdict=WA\n", problem="2", mode="submit")["id"])
    api.wait(alice, api.submit(alice, RELU_OK, mode="run")["id"])                 # a run does not solve
    first = api.wait(alice, api.submit(alice, RELU_OK, mode="submit")["id"])
    api.wait(alice, api.submit(alice, RELU_OK, mode="submit")["id"])
    solved = api.client.get("/api/auth/solved", headers=alice).json()
    assert [(s["problem"]["id"], s["problem"]["slug"], s["submission_id"]) for s in solved] == [(1, "relu", first["id"])]
    assert solved[0]["problem"]["solved"] is True and solved[0]["solved_at"] == first["finished_at"]
    assert api.client.get("/api/auth/solved", headers=api.account("bob")).json() == []
    assert api.client.get("/api/auth/solved").status_code == 401


def test_openapi_declares_bearer_and_docs_are_local(api):
    c = api.client
    schema = c.get("/openapi.json").json()
    bearer = schema["components"]["securitySchemes"]["bearer"]
    assert bearer["type"] == "http" and bearer["scheme"] == "bearer" and "/account" in bearer["description"]
    assert {"bearer": []} in schema["paths"]["/api/auth/tokens"]["post"]["security"]
    assert {"bearer": []} in schema["paths"]["/api/submissions"]["post"]["security"]

    html = c.get("/docs").text
    urls = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: '([^']+)'", html)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert "http" not in html.replace("http-equiv", "")
    for url in urls:
        assert c.get(url).status_code == 200, url
    assert c.get("/redoc").status_code == 404                 # it would load from a CDN


def test_bundle_and_docs_assets_are_gzipped(api):
    c = api.client
    index = (BUNDLE / "index.html").read_text()
    script = re.search(r'src="(/assets/[^"]+\.js)"', index).group(1)
    for path in (script, "/", "/problems/1", "/docs", "/docs/assets/swagger-ui-bundle.js"):
        plain = c.get(path, headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers, path
        with c.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as r:
            assert r.headers["content-encoding"] == "gzip", path
            packed = b"".join(r.iter_raw())
        assert gzip.decompress(packed) == plain.content and len(packed) < len(plain.content), path
    assert c.get(script).content == (BUNDLE / script.lstrip("/")).read_bytes()
    assert "content-encoding" not in c.get("/api/problems", headers={"Accept-Encoding": "gzip"}).headers


def test_events_stream_live_when_gzip_is_accepted(tmp_path, sqlite_url, catalog, live_server):
    """A browser accepts gzip: the events stream is not compressed, and each test's event arrives while the
    submission is still being judged (not all at once when the stream ends)."""
    server = live_server(make_settings(tmp_path / "data", sqlite_url, catalog))
    with httpx.Client(base_url=server.url, timeout=120, headers={"Accept-Encoding": "gzip"}) as c:
        c.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        h = {"Authorization": "Bearer " + c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}
                                                 ).json()["token"]}
        sid = c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "submit"}, headers=h).json()["id"]
        arrivals, status_at_first_test = [], None
        with c.stream("GET", f"/api/submissions/{sid}/events", headers=h) as r:
            assert "content-encoding" not in r.headers and r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("event: test"):
                    arrivals.append(time.monotonic())
                    if status_at_first_test is None:
                        status_at_first_test = c.get(f"/api/submissions/{sid}", headers=h).json()["status"]
    assert len(arrivals) > 10 and status_at_first_test == "judging"
    assert arrivals[-1] - arrivals[0] > 0.2, "the tests' events arrived together, not as each finished"
