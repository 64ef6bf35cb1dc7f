"""Find and load problem folders: `83`, `problem83`, the slug, the folder name or a path."""
from __future__ import annotations

import importlib.util
import os
import re
import sys
import tomllib
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from pydantic import ValidationError

from judge.problems.model import Problem

PROBLEM_FILE = "problem.toml"
REFERENCE_FILE = "reference.py"


class ProblemError(Exception):
    """A problem that cannot be found or loaded; the message names file, key and what is wrong."""

    def __init__(self, file: Path | str, key: str | None, message: str):
        self.file, self.key, self.message = str(file), key, message
        where = f"{self.file}: {key}: " if key else f"{self.file}: "
        super().__init__(where + message)


def problems_root() -> Path:
    """The catalog folder: $CUDAJUDGE_PROBLEMS, else `problems/` beside the judge package."""
    env = os.environ.get("CUDAJUDGE_PROBLEMS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "problems"


def problem_folders(root: Path | None = None) -> list[Path]:
    root = root or problems_root()
    return sorted(p for p in root.iterdir() if (p / PROBLEM_FILE).is_file()) if root.is_dir() else []


def folder_id(folder: Path) -> int | None:
    m = re.match(r"^(\d+)-", folder.name)
    return int(m.group(1)) if m else None


def folder_slug(folder: Path) -> str:
    """`relu` for 001-relu; a folder without a number is its own slug."""
    return folder.name.split("-", 1)[1] if folder_id(folder) is not None else folder.name


def find_problem_folder(name: str, root: Path | None = None) -> Path:
    as_path = Path(name)
    if (as_path / PROBLEM_FILE).is_file():
        return as_path
    m = re.fullmatch(r"(?:problem)?0*(\d+)", name.strip().lower())
    for folder in problem_folders(root):
        if (m and folder_id(folder) == int(m.group(1))) or name in (folder_slug(folder), folder.name):
            return folder
    known = ", ".join(f.name for f in problem_folders(root)) or "none"
    raise ProblemError(root or problems_root(), None, f"no problem named {name!r} (known: {known})")


def _key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse_problem(folder: Path) -> Problem:
    toml_path = folder / PROBLEM_FILE
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProblemError(toml_path, None, "file is missing") from None
    except UnicodeDecodeError as exc:
        raise ProblemError(toml_path, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProblemError(toml_path, None, f"invalid TOML: {exc}") from None
    try:
        problem = Problem(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
        raise ProblemError(toml_path, _key_path(err["loc"]), err["msg"] + more) from None
    except TypeError as exc:
        raise ProblemError(toml_path, None, str(exc)) from None
    named = folder_id(folder)
    if named is not None and named != problem.id:
        raise ProblemError(toml_path, "id", f"is {problem.id}, but the folder name says {named}")
    problem._folder = folder.resolve()
    return problem


def load_problem(name: str | int | Path, root: Path | None = None) -> Problem:
    folder = name if isinstance(name, Path) else find_problem_folder(str(name), root)
    return parse_problem(folder)


@lru_cache(maxsize=64)
def _import_reference(path: Path, mtime: float) -> ModuleType:
    module_name = f"cudajudge_reference_{abs(hash((str(path), mtime)))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise ProblemError(path, None, f"importing it failed: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(module, "reference", None)):
        raise ProblemError(path, "reference", "reference.py must define a function reference(**args)")
    return module


def load_reference(problem: Problem) -> ModuleType:
    path = problem.folder / REFERENCE_FILE
    if not path.is_file():
        raise ProblemError(path, None, "file is missing")
    return _import_reference(path, path.stat().st_mtime)
