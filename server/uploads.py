"""Problem uploads: a zip of a problem folder, extracted safely and checked by the validator.

Refused with a precise message: not a zip, absolute paths, `..`, backslashes, symlinks and other
non-regular entries, duplicate names, too many entries, an entry or the whole over the size caps,
a compression ratio no real problem has (zip bombs; sizes are counted while extracting, never
taken from the headers alone). The validator (static checks, and the reference on every
CPU-size test) runs in a sandboxed child (server.isolation): the server never runs uploaded code
itself, and without a working sandbox it does not run it at all. When those checks pass, the starter
and every solution are judged on the CPU backend, whose children are sandboxed as a submission's.
"""
from __future__ import annotations

import io
import json
import shutil
import stat
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from judge.problems.loader import PROBLEM_FILE
from server.config import Settings
from server.isolation import SandboxUnavailable, run_instructor_code, server_folders


class UploadError(Exception):
    """A 4xx answer: `status`, a message, and the validator's findings (file, key, message) if any."""

    def __init__(self, status: int, message: str, findings: list[dict] | None = None):
        super().__init__(message)
        self.status, self.message, self.findings = status, message, findings or []


@dataclass
class Extracted:
    root: Path          # the problem folder inside the temporary directory
    tmp: Path           # remove when done


def _entry_path(info: zipfile.ZipInfo) -> PurePosixPath | None:
    """The entry's safe relative path; None for directory entries. Raises UploadError for unsafe ones."""
    name = info.filename
    if "\\" in name or "\x00" in name:
        raise UploadError(400, f"zip entry {name!r}: backslashes and NUL bytes are not allowed in names")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UploadError(400, f"zip entry {name!r}: absolute paths are not allowed")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UploadError(400, f"zip entry {name!r}: '..' is not allowed in paths")
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise UploadError(400, f"zip entry {name!r}: symbolic links are not allowed")
    if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):   # 0: no type recorded (a plain file)
        raise UploadError(400, f"zip entry {name!r}: only regular files and folders are allowed")
    if info.is_dir():
        return None
    if not parts:
        raise UploadError(400, f"zip entry {name!r}: empty name")
    if len(parts) > 12 or any(len(p) > 255 for p in parts):
        raise UploadError(400, f"zip entry {name!r}: path too deep or a name too long")
    return PurePosixPath(*parts)


def extract_zip(data: bytes, settings: Settings, workdir: Path) -> Extracted:
    """The problem folder of the zip `data`, extracted into a new temporary folder under `workdir`."""
    archive, infos = _open_zip(data, settings)
    paths = _checked_entries(infos, settings)
    prefix = _problem_prefix([p for _, p in paths.values()])
    tmp = Path(tempfile.mkdtemp(prefix="upload-", dir=workdir))
    root = tmp / "problem"
    root.mkdir()
    try:
        _write_problem(archive, paths.values(), prefix, root, settings)
    except UploadError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UploadError(400, f"the zip could not be extracted: {exc}") from None
    return Extracted(root=root, tmp=tmp)


def _open_zip(data: bytes, settings: Settings) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    if not data:
        raise UploadError(400, "the upload is empty: send a zip of a problem folder")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise UploadError(400, f"not a valid zip file: {exc}") from None
    if len(infos) > settings.max_zip_entries:
        raise UploadError(413, f"the zip has {len(infos)} entries; the limit is {settings.max_zip_entries}")
    return archive, infos


def _checked_entries(infos: list[zipfile.ZipInfo],
                     settings: Settings) -> dict[str, tuple[zipfile.ZipInfo, PurePosixPath]]:
    """The file entries by lower-cased path, each checked; their declared sizes checked in all."""
    paths: dict[str, tuple[zipfile.ZipInfo, PurePosixPath]] = {}
    declared = 0
    for info in infos:
        path = _entry_path(info)
        if path is None:
            continue
        key = str(path).lower()
        if key in paths:
            raise UploadError(400, f"zip entry {info.filename!r}: the name occurs twice")
        if info.flag_bits & 0x1:
            raise UploadError(400, f"zip entry {info.filename!r}: encrypted entries are not supported")
        _check_declared_size(info, settings)
        declared += info.file_size
        paths[key] = (info, path)
    if declared > settings.max_unpacked_bytes:
        raise UploadError(413, f"the zip unpacks to {declared} bytes; the limit is {settings.max_unpacked_bytes}")
    return paths


def _check_declared_size(info: zipfile.ZipInfo, settings: Settings) -> None:
    """The header's sizes: a first refusal only, as extracting counts the bytes it writes."""
    if info.file_size > settings.max_unpacked_file_bytes:
        raise UploadError(413, f"zip entry {info.filename!r}: {info.file_size} bytes unpacked; "
                               f"the limit for one file is {settings.max_unpacked_file_bytes}")
    if info.file_size > 1024 * 1024 and info.file_size > settings.max_zip_ratio * max(1, info.compress_size):
        raise UploadError(413, f"zip entry {info.filename!r}: compression ratio "
                               f"{info.file_size / max(1, info.compress_size):.0f}:1 looks like a zip bomb "
                               f"(the limit is {settings.max_zip_ratio:.0f}:1 for files over 1 MiB)")


def _problem_prefix(files: list[PurePosixPath]) -> tuple[str, ...]:
    """Where problem.toml is: () at the top, or (folder,) for the one top-level folder holding it."""
    if PurePosixPath(PROBLEM_FILE) in files:
        return ()
    tops = {p.parts[0] for p in files if len(p.parts) > 1}
    candidates = [t for t in tops if PurePosixPath(t, PROBLEM_FILE) in files]
    if len(candidates) != 1:
        raise UploadError(422, "problem.toml: file is missing (put it at the top of the zip, or in its one folder)",
                          [{"file": PROBLEM_FILE, "key": None, "message": "file is missing"}])
    return (candidates[0],)


def _write_problem(archive: zipfile.ZipFile, entries: Iterable[tuple[zipfile.ZipInfo, PurePosixPath]],
                   prefix: tuple[str, ...], root: Path, settings: Settings) -> None:
    """Write the entries under `prefix` into `root`, counting the bytes as they unpack."""
    total = 0
    for info, path in entries:
        if path.parts[:len(prefix)] != prefix:
            continue   # files beside the problem folder (e.g. __MACOSX/) are ignored
        target = root.joinpath(*path.parts[len(prefix):])
        if not target.resolve().is_relative_to(root.resolve()):
            raise UploadError(400, f"zip entry {info.filename!r}: escapes the problem folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        total = _write_entry(archive, info, target, total, settings)


def _write_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, total: int,
                 settings: Settings) -> int:
    """Unpack one entry into `target`; `total`: bytes the earlier entries unpacked. Returns the new total."""
    written = 0
    with archive.open(info) as src, open(target, "wb") as dst:
        while chunk := src.read(64 * 1024):
            written += len(chunk)
            total += len(chunk)
            if written > settings.max_unpacked_file_bytes or total > settings.max_unpacked_bytes:
                raise UploadError(413, f"zip entry {info.filename!r}: unpacks past the size limit "
                                       f"({settings.max_unpacked_file_bytes} bytes a file, "
                                       f"{settings.max_unpacked_bytes} in all)")
            dst.write(chunk)
    return total


def _relative(file: str, root: Path) -> str:
    try:
        return str(Path(file).resolve().relative_to(root.resolve()))
    except ValueError:
        return Path(file).name


def validate(root: Path, settings: Settings) -> tuple[dict, list[dict]]:
    """Run the validator's checks in a sandboxed child: (problem summary or {}, findings)."""
    try:
        out = run_instructor_code("server.validate_child", root, settings, settings.validate_timeout_s)
    except SandboxUnavailable as exc:
        raise UploadError(503, str(exc)) from None
    except subprocess.TimeoutExpired:
        raise UploadError(422, f"validation took longer than {settings.validate_timeout_s:.0f} s "
                               f"(is reference.py too slow on the CPU-size tests?)") from None
    try:   # the child ran instructor code: its answer is checked for shape, not trusted
        answer = json.loads(out.stdout.strip().splitlines()[-1])
        findings = [{"file": _relative(str(f["file"]), root), "key": None if f["key"] is None else str(f["key"]),
                     "message": str(f["message"])} for f in answer["findings"]]
        problem = answer.get("problem") or {}
    except (json.JSONDecodeError, IndexError, KeyError, TypeError, AttributeError):
        tail = (out.stderr or out.stdout)[-500:]
        raise UploadError(422, f"validation failed to run (exit {out.returncode}): {tail}") from None
    if not findings:
        findings = judged_findings(root, settings)
    return problem, findings


def judged_findings(root: Path, settings: Settings) -> list[dict]:
    """The starter and every solution judged on the CPU backend (which observes data races and
    shared-memory bounds) as `cudajudge validate` judges them: a starter that does not build or is
    already accepted, and a solution whose verdict is not the one it declares, are findings."""
    from judge.problems.loader import parse_problem
    from judge.problems.validator import judge_solutions
    from judge.submission import verdict_of_file

    problem = parse_problem(root)
    judge = verdict_of_file("cpu", hidden=tuple(server_folders(settings)))
    runs, starter = judge_solutions(problem, root, judge, jobs=settings.validate_jobs, races_observed=True)
    return ([{"file": _relative(f.file, root), "key": f.key, "message": f.message} for f in starter]
            + [{"file": _relative(str(r.path), root), "key": None, "message": r.mismatch()} for r in runs if not r.ok])
