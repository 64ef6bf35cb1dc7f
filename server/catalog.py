"""Problems in the database: synced from the catalog folder and the uploaded ones at start.

A problem's public view holds what a learner may see: statements, starter, signature, parameter
shapes and value ranges, the tested sizes and distributions, tolerance, benchmark and limits.
Never the reference, the solutions, or any generated data.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.digest import digest
from judge.problems.loader import ProblemError, parse_problem, problem_folders
from judge.problems.model import Problem
from judge.problems.plan import test_cases
from judge.submission import PROBLEM_FILES
from server.config import Settings
from server.db import Database
from server.models import ProblemRow, utcnow

log = logging.getLogger("cudajudge.server")
STATEMENT_LANGS = ("en", "zh")
MAX_TEXT = 256 * 1024


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")[:MAX_TEXT] if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def public_info(problem: Problem, folder: Path) -> dict:
    cases = test_cases(problem)
    return {
        "statement": {lang: _read(folder / f"statement.{lang}.md") for lang in STATEMENT_LANGS},
        "starter": _read(folder / "starter.cu"),
        "signature": problem.signature,
        "params": [{"name": p.name, "role": p.role.value, "dtype": p.dtype, "c_type": p.c_type, "shape": p.shape,
                    "init": p.init if p.is_output else None,
                    "values": None if p.values is None else {"low": p.values.low, "high": p.values.high},
                    "default": p.default} for p in problem.params],
        "specials": problem.specials,
        "tolerance": problem.tolerance.model_dump(),
        "tests": [{"name": g.name, "sample": g.sample, "gpu_only": g.gpu_only, "sizes": g.sizes,
                   "distributions": g.distributions,
                   "cases": [c.name for c in cases if c.group == g.name]} for g in problem.tests],
        "benchmark": problem.benchmark.model_dump(),
        "limits": problem.limits.model_dump(),
    }


def judge_files(folder: Path) -> dict[str, str]:
    """The files judging reads of a problem folder (the run child gets exactly these)."""
    return {name: (folder / name).read_text(encoding="utf-8") for name in PROBLEM_FILES}


def files_digest(files: dict[str, str]) -> str:
    return digest(*(part for name in sorted(files) for part in (name, files[name])))


def row_values(problem: Problem, folder: Path, origin: str) -> dict:
    files = judge_files(folder)
    return {"slug": problem.slug, "title_en": problem.title.en, "title_zh": problem.title.zh,
            "difficulty": problem.difficulty, "tags": list(problem.tags), "origin": origin,
            "folder": str(folder.resolve()), "available": True,
            "has_samples": any(g.sample for g in problem.tests), "info": public_info(problem, folder),
            "judge_files": files, "files_digest": files_digest(files), "updated_at": utcnow()}


def folder_name(problem: Problem) -> str:
    return f"{problem.id:03d}-{problem.slug}"


@dataclass
class SyncReport:
    synced: list[int] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    unavailable: list[int] = field(default_factory=list)


def sync_problems(db: Database, settings: Settings) -> SyncReport:
    """Upsert every problem folder of the catalog and of `<data-dir>/problems`; mark vanished ones unavailable."""
    report = SyncReport()
    found: dict[int, tuple[Problem, Path, str]] = {}
    slugs: dict[str, int] = {}
    for origin, root in (("catalog", settings.catalog_dir), ("uploaded", settings.uploaded_problems_dir)):
        for folder in problem_folders(root):
            try:
                problem = parse_problem(folder)
            except ProblemError as exc:
                report.broken.append(str(exc))
                log.warning("problem folder skipped: %s", exc)
                continue
            if problem.id in found or slugs.get(problem.slug, problem.id) != problem.id:
                report.broken.append(f"{folder}: id {problem.id} or slug {problem.slug!r} is already taken")
                log.warning("problem folder skipped: %s: id or slug already taken", folder)
                continue
            found[problem.id] = (problem, folder, origin)
            slugs[problem.slug] = problem.id
    with db.write() as session:
        rows = {r.id: r for r in session.scalars(select(ProblemRow))}
        # free the slugs first: a problem's slug may have moved to another id
        for pid, row in rows.items():
            if pid not in found or found[pid][0].slug != row.slug:
                row.slug = f"~{pid}~{row.slug}"[:100]
        session.flush()
        for pid, (problem, folder, origin) in sorted(found.items()):
            values = row_values(problem, folder, origin)
            row = rows.get(pid)
            if row is None:
                session.add(ProblemRow(id=pid, **values))
            else:
                for key, value in values.items():
                    setattr(row, key, value)
            report.synced.append(pid)
        for pid, row in rows.items():
            if pid not in found:
                row.available = False
                row.slug = f"~{pid}~{row.slug.split('~')[-1]}"[:100]
                report.unavailable.append(pid)
    return report


_NAME = re.compile(r"^(?:problem)?0*(\d{1,9})$")


def find_problem(session: Session, name: str | int) -> ProblemRow | None:
    """A problem by id, `problemNN`, slug or folder name; None when there is none (or it is unavailable)."""
    text = str(name).strip().lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,99}", text):
        return None
    m = _NAME.match(text)
    if m:
        row = session.get(ProblemRow, int(m.group(1)))
    else:
        m = re.match(r"^0*(\d{1,9})-(.+)$", text)
        slug = m.group(2) if m else text
        row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    return row if row is not None and row.available else None
