"""Drafts on the server: saved per user and problem, refused with the newer one when stale, private."""
from __future__ import annotations

from server_helpers import RELU_OK


def test_a_draft_follows_its_user_and_a_stale_save_gets_the_newer_one(api):
    c = api.client
    alice, bob = api.account("alice"), api.account("bob")
    assert c.get("/api/drafts/1", headers=alice).status_code == 404
    first = c.put("/api/drafts/1", json={"source": RELU_OK, "revision": 0}, headers=alice)
    assert first.status_code == 200 and first.json()["revision"] == 1
    # "another browser" reads it back
    assert c.get("/api/drafts/relu", headers=alice).json()["source"] == RELU_OK

    second = c.put("/api/drafts/1", json={"source": RELU_OK + "// tab A\n", "revision": 1}, headers=alice)
    assert second.json()["revision"] == 2
    stale = c.put("/api/drafts/1", json={"source": RELU_OK + "// tab B\n", "revision": 1}, headers=alice)
    assert stale.status_code == 409 and "another tab or browser" in stale.json()["detail"]["message"]
    newer = stale.json()["detail"]["draft"]
    assert newer["revision"] == 2 and newer["source"].endswith("// tab A\n")   # the newer draft comes back
    assert c.put("/api/drafts/1", json={"source": "", "revision": 2}, headers=alice).json()["revision"] == 3

    assert c.get("/api/drafts/1", headers=bob).status_code == 404                # drafts are private
    assert c.get("/api/drafts/1").status_code == 401
    assert c.put("/api/drafts/77", json={"source": "x", "revision": 0}, headers=alice).status_code == 404
    assert c.put("/api/drafts/1", json={"source": "int x;\x00", "revision": 3}, headers=alice).status_code == 422
    assert c.put("/api/drafts/1", json={"source": "x" * 70_000, "revision": 3}, headers=alice).status_code == 413
    assert c.put("/api/drafts/1", json={"source": "x", "revision": -1}, headers=alice).status_code == 422

    assert c.delete("/api/drafts/1", headers=alice).status_code == 204
    assert c.get("/api/drafts/1", headers=alice).status_code == 404
    assert c.put("/api/drafts/1", json={"source": "y", "revision": 3}, headers=alice).json()["revision"] == 1
