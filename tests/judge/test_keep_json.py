"""Small cache files written whole: the old content or the new, never half, and nothing left behind
where they cannot be written."""
import json

from judge.cache_paths import keep_json


def test_a_value_is_written_whole_over_the_old_one(tmp_path):
    path = tmp_path / "kept" / "value.json"
    keep_json(path, {"n": 1})
    keep_json(path, {"n": 2})
    assert json.loads(path.read_text()) == {"n": 2}
    assert [p.name for p in path.parent.iterdir()] == ["value.json"]


def test_where_it_cannot_be_written_nothing_is_kept_and_nothing_left(tmp_path):
    (tmp_path / "file").write_text("a file where the folder would be")
    keep_json(tmp_path / "file" / "value.json", {"n": 1})
    taken = tmp_path / "taken.json"
    taken.mkdir()   # the rename cannot replace a folder
    keep_json(taken, {"n": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "taken.json"]
    assert taken.is_dir() and not any(taken.iterdir())
