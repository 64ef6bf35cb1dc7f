"""Registration, login, tokens, the session cookie and CSRF, roles and permissions, rate limits."""
from __future__ import annotations

import io
import zipfile

from server_helpers import PASSWORD, RELU_OK, FakeJudge, make_settings
from server.config import RateLimit
from server.security import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE


def test_register_login_me_logout(api):
    c = api.client
    r = c.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
    assert r.status_code == 201 and r.json()["role"] == "student" and "password" not in r.text
    assert c.post("/api/auth/register", json={"username": "ALICE", "password": PASSWORD}).status_code == 409
    assert c.post("/api/auth/register", json={"username": "a", "password": PASSWORD}).status_code == 422
    assert c.post("/api/auth/register", json={"username": "bob", "password": "short"}).status_code == 422
    assert c.post("/api/auth/login", json={"username": "alice", "password": "wrong password"}).status_code == 401
    assert c.post("/api/auth/login", json={"username": "nobody", "password": PASSWORD}).status_code == 401

    r = c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    assert r.status_code == 200
    body = r.json()
    assert body["token"].startswith("cj_") and body["user"]["username"] == "alice"
    assert SESSION_COOKIE in r.cookies and r.cookies[CSRF_COOKIE] == body["csrf_token"]
    assert "httponly" in r.headers.get_list("set-cookie")[0].lower()
    bearer = {"Authorization": f"Bearer {body['token']}"}
    c.cookies.clear()
    assert c.get("/api/auth/me", headers=bearer).json()["username"] == "alice"
    assert c.get("/api/auth/me").status_code == 401
    assert c.get("/api/auth/me", headers={"Authorization": "Bearer cj_not-a-token"}).status_code == 401
    assert c.get("/api/auth/me", headers={"Authorization": "Basic abc"}).status_code == 401
    assert c.post("/api/auth/logout", headers=bearer).status_code == 204
    assert c.get("/api/auth/me", headers=bearer).status_code == 401   # the token is revoked


def test_session_cookie_needs_csrf_for_writes(api):
    c = api.client
    c.post("/api/auth/register", json={"username": "carol", "password": PASSWORD})
    login = c.post("/api/auth/login", json={"username": "carol", "password": PASSWORD}).json()
    assert c.get("/api/auth/me").json()["username"] == "carol"          # the cookie alone reads
    body = {"problem": 1, "source": RELU_OK, "mode": "run"}
    r = c.post("/api/submissions", json=body)
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    assert c.post("/api/submissions", json=body, headers={CSRF_HEADER: "forged"}).status_code == 403
    assert c.post("/api/submissions", json=body, headers={CSRF_HEADER: login["csrf_token"]}).status_code == 201
    assert c.post("/api/auth/logout", headers={CSRF_HEADER: login["csrf_token"]}).status_code == 204
    assert c.get("/api/auth/me").status_code == 401


def test_permissions(make_api, settings, tmp_path):
    api = make_api(settings, judge=FakeJudge())
    c = api.client
    alice, bob = api.account("alice"), api.account("bob")
    teacher, root = api.account("teacher", "instructor"), api.account("root", "admin")
    mine = api.submit(alice, RELU_OK + "// alice's secret\n")
    api.wait(alice, mine["id"])

    # a student reads neither another's submission (source, result, events) nor their list
    for path in (f"/api/submissions/{mine['id']}", f"/api/submissions/{mine['id']}/events"):
        r = c.get(path, headers=bob)
        assert r.status_code == 403 and "secret" not in r.text
    alice_id = c.get("/api/auth/me", headers=alice).json()["id"]
    assert c.get(f"/api/submissions?user={alice_id}", headers=bob).status_code == 403
    assert c.get("/api/submissions", headers=bob).json()["items"] == []
    assert [s["id"] for s in c.get("/api/submissions", headers=alice).json()["items"]] == [mine["id"]]
    assert c.get("/api/submissions?mine", headers=alice).json()["items"][0]["id"] == mine["id"]
    assert "secret" in c.get(f"/api/submissions/{mine['id']}", headers=alice).json()["source"]

    # nor uploads problems, rejudges, or administers
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("problem.toml", "id = 5")
    r = c.post("/api/problems", files={"file": ("p.zip", zipped.getvalue(), "application/zip")}, headers=bob)
    assert r.status_code == 403 and "instructor" in r.json()["detail"]
    assert c.post(f"/api/submissions/{mine['id']}/rejudge", headers=bob).status_code == 403
    assert c.post("/api/problems/1/rejudge", headers=bob).status_code == 403
    assert c.get("/api/admin/users", headers=bob).status_code == 403
    assert c.get("/api/admin/users", headers=teacher).status_code == 403

    # an instructor reads everyone's submissions, sources included
    assert "secret" in c.get(f"/api/submissions/{mine['id']}", headers=teacher).json()["source"]
    everyone = c.get("/api/submissions", headers=teacher).json()["items"]
    assert [s["id"] for s in everyone] == [mine["id"]]
    assert c.get("/api/submissions?mine", headers=teacher).json()["items"] == []

    # an admin manages users and roles; the last admin cannot be demoted
    users = {u["username"]: u for u in c.get("/api/admin/users", headers=root).json()}
    assert users["bob"]["role"] == "student"
    r = c.patch(f"/api/admin/users/{users['bob']['id']}", json={"role": "instructor"}, headers=root)
    assert r.status_code == 200 and r.json()["role"] == "instructor"
    assert c.get(f"/api/submissions/{mine['id']}", headers=bob).status_code == 200
    assert c.patch(f"/api/admin/users/{users['root']['id']}", json={"role": "student"}, headers=root).status_code == 409
    r = c.patch(f"/api/admin/users/{users['alice']['id']}", json={"disabled": True}, headers=root)
    assert r.status_code == 200 and r.json()["disabled"]
    assert c.get("/api/auth/me", headers=alice).status_code == 401
    assert c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}).status_code == 401
    assert c.patch("/api/admin/users/999999", json={"role": "admin"}, headers=root).status_code == 404


def test_registration_can_be_closed(make_api, tmp_path, sqlite_url, catalog):
    api = make_api(make_settings(tmp_path / "data", sqlite_url, catalog, allow_registration=False))
    r = api.client.post("/api/auth/register", json={"username": "eve", "password": PASSWORD})
    assert r.status_code == 403 and "closed" in r.json()["detail"]


def test_rate_limits(make_api, tmp_path, sqlite_url, catalog):
    api = make_api(make_settings(tmp_path / "data", sqlite_url, catalog, rate_submit=RateLimit(3, 1),
                                 rate_auth=RateLimit(6, 1)), judge=FakeJudge())
    alice = api.account("alice")   # 2 auth requests
    codes = [api.client.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"},
                             headers=alice).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    r = api.client.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"}, headers=alice)
    assert int(r.headers["Retry-After"]) >= 1 and "too many requests" in r.json()["detail"]
    logins = [api.client.post("/api/auth/login", json={"username": "alice", "password": "bad password"}).status_code
              for _ in range(6)]
    assert logins[:4] == [401] * 4 and logins[-1] == 429
