"""Instructors upload problem zips: validated precisely, extracted safely, then judged like the catalog."""
from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from server_helpers import RELU, RELU_OK, copy_problem, make_settings


def zip_folder(folder: Path, prefix: str = "", extra: dict[str, bytes] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, prefix + str(path.relative_to(folder)))
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return buf.getvalue()


def upload(api, headers, data: bytes, name: str = "problem.zip"):
    return api.client.post("/api/problems", files={"file": (name, data, "application/zip")}, headers=headers)


@pytest.fixture
def teacher_api(make_api, settings):
    api = make_api(settings)
    return api, api.account("teacher", "instructor"), api.account("alice")


def test_upload_valid_problem_then_judge_it(teacher_api, tmp_path, make_api, settings):
    api, teacher, alice = teacher_api
    folder = copy_problem(RELU, tmp_path, 901, "relu-copy")
    r = upload(api, teacher, zip_folder(folder, prefix="901-relu-copy/"))
    assert r.status_code == 201, r.text
    assert r.json()["id"] == 901 and r.json()["origin"] == "uploaded" and r.json()["slug"] == "relu-copy"
    stored = settings.data_dir / "problems" / "901-relu-copy"
    assert (stored / "problem.toml").is_file() and (stored / "reference.py").is_file()
    assert not list((settings.data_dir / "tmp").iterdir())           # the extraction folder is cleaned up
    assert api.client.get("/api/problems/relu-copy").json()["signature"].startswith('extern "C" void solve(')
    done = api.wait(alice, api.submit(alice, RELU_OK, problem="901")["id"])
    assert done["verdict"] == "AC" and done["result"]["problem"] == "problem901"

    r = upload(api, teacher, zip_folder(folder))                      # the same id again
    assert r.status_code == 409 and "id 901 already exists" in r.json()["detail"]
    other = copy_problem(RELU, tmp_path / "x", 902, "relu")
    r = upload(api, teacher, zip_folder(other))
    assert r.status_code == 409 and "slug 'relu'" in r.json()["detail"]

    # a new server instance on the same data dir syncs the uploaded problem in again
    api2 = make_api(settings)
    assert [p["id"] for p in api2.client.get("/api/problems").json()] == [1, 2, 901]


def preview(api, headers, data: bytes):
    return api.client.post("/api/problems/validate", files={"file": ("problem.zip", data, "application/zip")},
                           headers=headers)


def test_preview_validates_and_shows_the_problem_without_adding_it(teacher_api, tmp_path, settings):
    api, teacher, alice = teacher_api
    folder = copy_problem(RELU, tmp_path, 901, "relu-copy")
    r = preview(api, teacher, zip_folder(folder, prefix="901-relu-copy/"))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] is True and body["findings"] == []
    problem = body["problem"]
    assert (problem["id"], problem["slug"], problem["origin"]) == (901, "relu-copy", "uploaded")
    assert "$" in problem["statement"]["en"] and problem["statement"]["zh"] and problem["starter"]
    assert problem["signature"].startswith('extern "C" void solve(') and problem["tests"][0]["cases"]
    assert api.client.get("/api/problems/901").status_code == 404                     # nothing was added
    assert not (settings.data_dir / "problems").exists() and not list((settings.data_dir / "tmp").iterdir())

    clash = copy_problem(RELU, tmp_path / "a", 1, "relu-again")
    body = preview(api, teacher, zip_folder(clash)).json()
    assert body["valid"] is False and body["problem"]["id"] == 1
    assert [(f["file"], f["key"]) for f in body["findings"]] == [("problem.toml", "id")]

    bad = copy_problem(RELU, tmp_path / "b", 903, "bad-policy", lambda t: t.replace('policy = "exact"', 'policy = "roughly"'))
    body = preview(api, teacher, zip_folder(bad)).json()
    assert body["valid"] is False and body["problem"] is None
    assert (body["findings"][0]["file"], body["findings"][0]["key"]) == ("problem.toml", "tolerance.policy")

    body = preview(api, teacher, _zip({"readme.txt": b"hi"})).json()
    assert body == {"valid": False, "findings": [{"file": "problem.toml", "key": None, "message": "file is missing"}],
                    "problem": None}
    assert preview(api, teacher, b"not a zip").status_code == 400
    assert preview(api, alice, zip_folder(folder)).status_code == 403


def test_broken_problem_rejected_with_file_and_key(teacher_api, tmp_path):
    api, teacher, _ = teacher_api
    bad_policy = copy_problem(RELU, tmp_path / "a", 903, "bad-policy",
                              lambda t: t.replace('policy = "exact"', 'policy = "roughly"'))
    r = upload(api, teacher, zip_folder(bad_policy))
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["findings"][0]["file"] == "problem.toml" and detail["findings"][0]["key"] == "tolerance.policy"
    assert "problem.toml: tolerance.policy:" in detail["message"]
    assert "exact" in detail["findings"][0]["message"]                # what the allowed values are

    bad_dtype = copy_problem(RELU, tmp_path / "b", 904, "bad-dtype",
                             lambda t: t.replace('dtype = "float32"', 'dtype = "float33"', 1))
    detail = upload(api, teacher, zip_folder(bad_dtype)).json()["detail"]
    assert (detail["findings"][0]["file"], detail["findings"][0]["key"]) == ("problem.toml", "params[0].dtype")

    missing = copy_problem(RELU, tmp_path / "c", 905, "no-statement")
    (missing / "statement.zh.md").unlink()
    (missing / "reference.py").write_text("def reference(input, N):\n    raise ValueError('boom')\n")
    detail = upload(api, teacher, zip_folder(missing)).json()["detail"]
    found = {(f["file"], f["key"]) for f in detail["findings"]}
    assert ("statement.zh.md", None) in found
    assert ("reference.py", "line 2") in found   # where it raised, once for every test it raised on
    assert all("/tmp" not in f["file"] and "upload-" not in f["file"] for f in detail["findings"])

    # the problem may sit in the zip's one folder; files beside it are ignored
    r = upload(api, teacher, zip_folder(tmp_path / "c", extra={"readme.txt": b"no problem here"}))
    assert r.status_code == 422 and ("statement.zh.md", None) in {(f["file"], f["key"]) for f in r.json()["detail"]["findings"]}
    r = upload(api, teacher, _zip({"readme.txt": b"hi"}))
    assert r.status_code == 422 and "problem.toml" in r.json()["detail"]["message"]
    assert not (api.state.settings.data_dir / "problems").exists() or \
        not any(p.name.startswith(("903", "904", "905")) for p in (api.state.settings.data_dir / "problems").iterdir())


def _zip(entries: dict[str, bytes], symlink: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "/etc/passwd")
    return buf.getvalue()


def test_hostile_zips_refused(make_api, tmp_path, sqlite_url, catalog):
    settings = make_settings(tmp_path / "data", sqlite_url, catalog, max_upload_bytes=2 * 1024 * 1024,
                             max_unpacked_bytes=8 * 1024 * 1024)
    api = make_api(settings)
    teacher = api.account("teacher", "instructor")
    toml = (RELU / "problem.toml").read_bytes()
    cases = [
        (_zip({"problem.toml": toml, "../evil.py": b"x"}), 400, "'..' is not allowed"),
        (_zip({"problem.toml": toml, "a/../../evil.py": b"x"}), 400, "'..' is not allowed"),
        (_zip({"problem.toml": toml, "/etc/cron.d/evil": b"x"}), 400, "absolute paths"),
        (_zip({"problem.toml": toml, "C:/evil": b"x"}), 400, "absolute paths"),
        (_zip({"problem.toml": toml, "a\\..\\evil": b"x"}), 400, "backslashes"),
        (_zip({"problem.toml": toml}, symlink="reference.py"), 400, "symbolic links"),
        (_zip({"problem.toml": toml, "big.bin": b"\0" * (8 * 1024 * 1024)}), 413, "zip bomb"),
        (_zip({"problem.toml": toml, "Starter.cu": b"a", "starter.cu": b"b"}), 400, "occurs twice"),
        (b"PK\x03\x04 not really a zip", 400, "not a valid zip"),
        (b"", 400, "empty"),
        (b"x" * (2 * 1024 * 1024 + 10), 413, "limit"),
    ]
    for data, status, message in cases:
        r = upload(api, teacher, data)
        assert r.status_code == status, (message, r.text)
        assert message in r.text, (message, r.text)
    # many small files unpacking past the total cap
    many = _zip({"problem.toml": toml, **{f"data/{i}.bin": bytes(range(256)) * 4096 for i in range(10)}})
    r = upload(api, teacher, many)
    assert r.status_code == 413 and "unpacks to" in r.json()["detail"]
    assert not (settings.data_dir / "problems").exists()
    assert not list((settings.data_dir / "tmp").iterdir())


def test_a_problem_with_to_dos_left_is_not_valid(teacher_api, tmp_path):
    from judge.problems.new import new_problem

    api, teacher, _ = teacher_api
    folder = new_problem("row-softmax", tmp_path, 907)
    body = preview(api, teacher, zip_folder(folder)).json()
    to_do = [f for f in body["findings"] if f["message"].startswith("to do: ")]
    assert body["valid"] is False and {f["file"] for f in to_do} >= {"problem.toml", "reference.py", "starter.cu"}, body


def test_upload_judges_the_starter_and_every_solution(teacher_api, tmp_path, settings):
    api, teacher, _ = teacher_api
    folder = copy_problem(RELU, tmp_path, 908, "relu-judged")
    (folder / "starter.cu").write_text((folder / "starter.cu").read_text() + "\nthis line does not compile\n")
    out_of_bounds = (folder / "solutions" / "rejected" / "no_bounds_check.cu").read_text().split("\n", 1)[1]
    (folder / "solutions" / "accepted" / "naive.cu").write_text(out_of_bounds)   # no longer declares its RE
    r = upload(api, teacher, zip_folder(folder))
    assert r.status_code == 422, r.text
    found = {f["file"]: f["message"] for f in r.json()["detail"]["findings"]}
    assert found["starter.cu"].startswith("does not build and run: CE"), found
    assert found["solutions/accepted/naive.cu"].startswith("expected AC, got RE at seed"), found
    assert "out-of-bounds" in found["solutions/accepted/naive.cu"]
    assert set(found) == {"starter.cu", "solutions/accepted/naive.cu"}   # the other solutions are as declared
    assert not (settings.data_dir / "problems" / "908-relu-judged").exists()

    (folder / "starter.cu").write_text((RELU / "solutions" / "accepted" / "grid_stride.cu").read_text())
    (folder / "solutions" / "accepted" / "naive.cu").write_text(RELU_OK)
    body = preview(api, teacher, zip_folder(folder)).json()
    assert body["valid"] is False
    assert body["findings"] == [{"file": "starter.cu", "key": None,
                                 "message": "is accepted as it is: a starter leaves the learner the problem to solve"}]


def test_update_unpublish_and_publish_an_uploaded_problem(teacher_api, tmp_path, settings):
    api, teacher, alice = teacher_api
    c = api.client
    upload_zip = zip_folder(copy_problem(RELU, tmp_path / "v1", 909, "relu-v1"))
    assert upload(api, teacher, upload_zip).status_code == 201
    first = api.wait(alice, api.submit(alice, RELU_OK, problem="909")["id"])
    assert first["verdict"] == "AC"
    assert c.get("/api/problems/uploaded", headers=alice).status_code == 403
    [listed] = c.get("/api/problems/uploaded", headers=teacher).json()
    assert (listed["problem"]["id"], listed["published"], listed["uploaded_by"], listed["submissions"]) == \
        (909, True, "teacher", 1)

    def put(problem_id: int, data: bytes):
        return c.put(f"/api/problems/{problem_id}", files={"file": ("problem.zip", data, "application/zip")},
                     headers=teacher)

    retitled = copy_problem(RELU, tmp_path / "v2", 909, "relu-v1",
                            lambda toml: toml.replace('en = "ReLU activation"', 'en = "ReLU, second version"', 1))
    r = put(909, zip_folder(retitled))
    assert r.status_code == 200, r.text
    assert c.get("/api/problems/909").json()["title"]["en"] == "ReLU, second version"
    kept = c.get(f"/api/submissions/{first['id']}", headers=alice).json()
    assert kept["verdict"] == "AC" and kept["result"] == first["result"]        # the old version's result stays
    r = put(909, zip_folder(copy_problem(RELU, tmp_path / "other", 910, "relu-other")))
    assert r.status_code == 422 and "a new version keeps its id" in r.json()["detail"]
    assert put(1, upload_zip).status_code == 409                                # the catalog changes in the repository

    r = c.post("/api/problems/909/unpublish", headers=teacher)
    assert r.status_code == 200 and r.json()["published"] is False and r.json()["problem"]["slug"] == "relu-v1"
    assert 909 not in [p["id"] for p in c.get("/api/problems").json()]
    assert c.get("/api/problems/909").status_code == 404
    assert c.post("/api/submissions", json={"problem": "909", "source": RELU_OK, "mode": "run"},
                  headers=alice).status_code == 404
    assert (settings.data_dir / "unpublished" / "909-relu-v1").is_dir()
    assert c.post("/api/problems/909/unpublish", headers=alice).status_code == 403

    r = c.post("/api/problems/909/publish", headers=teacher)
    assert r.status_code == 200 and r.json()["published"] is True
    assert c.get("/api/problems/relu-v1").json()["title"]["en"] == "ReLU, second version"
