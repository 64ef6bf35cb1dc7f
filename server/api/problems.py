"""Problems: the list, one problem's public view, its leaderboard; instructors upload and rejudge."""
from __future__ import annotations

import asyncio
import shutil

from fastapi import APIRouter, Depends, File, HTTPException, Path, UploadFile
from sqlalchemy import select

from judge.problems.loader import ProblemError, parse_problem
from server.catalog import find_problem, folder_name, row_values
from server.deps import AppState, Principal, anonymous_limit, limit, require, state
from server.models import ProblemRow, Submission, User
from server.schemas import (DeviceBoard, Error, Leaderboard, LeaderboardEntry, ProblemDetail, ProblemSummary, Queued,
                            Titles, UserRef)
from server.uploads import UploadError, extract_zip, validate

router = APIRouter(prefix="/api/problems", tags=["problems"])
NOT_FOUND = {404: {"model": Error, "description": "No such problem"}}
ProblemName = Path(max_length=100, description="The problem: its id, problemNN or its slug", examples=["1"])


def summary(row: ProblemRow) -> ProblemSummary:
    return ProblemSummary(id=row.id, key=f"problem{row.id}", slug=row.slug, title=Titles(en=row.title_en, zh=row.title_zh),
                          difficulty=row.difficulty, tags=list(row.tags or []), origin=row.origin,
                          has_samples=row.has_samples)


def get_row(st: AppState, name: str) -> ProblemRow:
    with st.db.read() as s:
        row = find_problem(s, name)
    if row is None:
        raise HTTPException(404, f"no problem named {name!r}: use its id, problemNN or its slug (GET /api/problems)")
    return row


@router.get("", response_model=list[ProblemSummary])
def list_problems(st: AppState = Depends(state), _: Principal | None = Depends(anonymous_limit)) -> list[ProblemSummary]:
    with st.db.read() as s:
        rows = s.scalars(select(ProblemRow).where(ProblemRow.available.is_(True)).order_by(ProblemRow.id)).all()
    return [summary(r) for r in rows]


@router.get("/{problem}", response_model=ProblemDetail, responses=NOT_FOUND)
def get_problem(problem: str = ProblemName, st: AppState = Depends(state),
                _: Principal | None = Depends(anonymous_limit)) -> ProblemDetail:
    """Statement, signature, tested sizes, distributions and tolerance: never hidden data."""
    row = get_row(st, problem)
    return ProblemDetail(**summary(row).model_dump(), **row.info)


@router.get("/{problem}/leaderboard", response_model=Leaderboard, responses=NOT_FOUND)
def leaderboard(problem: str = ProblemName, st: AppState = Depends(state),
                _: Principal | None = Depends(anonymous_limit)) -> Leaderboard:
    """The best accepted median per user, per GPU model (submissions in mode submit, timed on a GPU)."""
    row = get_row(st, problem)
    with st.db.read() as s:
        rows = s.execute(
            select(Submission.id, Submission.user_id, User.username, Submission.device, Submission.median_us,
                   Submission.created_at).join(User, User.id == Submission.user_id)
            .where(Submission.problem_id == row.id, Submission.mode == "submit", Submission.status == "done",
                   Submission.verdict == "AC", Submission.median_us.is_not(None), Submission.device.is_not(None))
            .order_by(Submission.median_us, Submission.id)).all()
    boards: dict[str, list[LeaderboardEntry]] = {}
    seen: set[tuple[str, int]] = set()
    for sid, uid, username, device, median, created in rows:
        if (device, uid) in seen:
            continue
        seen.add((device, uid))
        entries = boards.setdefault(device, [])
        entries.append(LeaderboardEntry(rank=len(entries) + 1, user=UserRef(id=uid, username=username),
                                        submission_id=sid, median_us=median, submitted_at=created))
    return Leaderboard(problem_id=row.id, devices=[DeviceBoard(device=d, entries=e) for d, e in sorted(boards.items())])


@router.post("", status_code=201, response_model=ProblemSummary,
             responses={400: {"model": Error}, 403: {"model": Error}, 409: {"model": Error}, 413: {"model": Error},
                        422: {"model": Error, "description": "The problem folder is invalid: "
                                                             "detail = {message, findings: [{file, key, message}]}"}})
async def upload_problem(file: UploadFile = File(description="A zip of a problem folder"),
                         principal: Principal = Depends(require("instructor")),
                         st: AppState = Depends(state)) -> ProblemSummary:
    """Add a problem: a zip of its folder, checked by the validator (statically, and its reference on every
    CPU-size test). Errors name the file and the key."""
    limit(st, "upload", f"user:{principal.id}", st.settings.rate_upload)
    data = await file.read(st.settings.max_upload_bytes + 1)
    if len(data) > st.settings.max_upload_bytes:
        raise HTTPException(413, f"the upload is larger than the limit of {st.settings.max_upload_bytes} bytes")
    try:
        return await asyncio.to_thread(_install, st, data, principal)
    except UploadError as exc:
        if exc.findings:
            raise HTTPException(exc.status, {"message": exc.message, "findings": exc.findings}) from None
        raise HTTPException(exc.status, exc.message) from None


def _install(st: AppState, data: bytes, principal: Principal) -> ProblemSummary:
    work = st.settings.data_dir / "tmp"
    work.mkdir(parents=True, exist_ok=True)
    extracted = extract_zip(data, st.settings, work)
    try:
        _, findings = validate(extracted.root, st.settings)
        if findings:
            first = findings[0]
            where = f"{first['file']}: {first['key']}: " if first["key"] else f"{first['file']}: "
            more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
            raise UploadError(422, f"the problem is invalid: {where}{first['message']}{more}", findings)
        try:
            problem = parse_problem(extracted.root)
        except ProblemError as exc:   # validated above; kept for safety
            raise UploadError(422, str(exc)) from None
        target = st.settings.uploaded_problems_dir / folder_name(problem)
        with st.db.write() as s:
            clash = s.scalar(select(ProblemRow).where((ProblemRow.id == problem.id) | (ProblemRow.slug == problem.slug)))
            if clash is not None or target.exists():
                what = f"id {problem.id}" if clash is None or clash.id == problem.id else f"slug {problem.slug!r}"
                raise UploadError(409, f"problem.toml: a problem with {what} already exists: choose another id and slug")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(extracted.root), str(target))
            try:
                values = row_values(parse_problem(target), target, "uploaded")
                row = ProblemRow(id=problem.id, uploaded_by=principal.id, **values)
                s.add(row)
                s.flush()
            except Exception:
                shutil.rmtree(target, ignore_errors=True)
                raise
        return summary(row)
    finally:
        shutil.rmtree(extracted.tmp, ignore_errors=True)


@router.post("/{problem}/rejudge", response_model=Queued, responses={**NOT_FOUND, 403: {"model": Error}})
def rejudge_problem(problem: str = ProblemName, st: AppState = Depends(state),
                    _: Principal = Depends(require("instructor"))) -> Queued:
    """Judge every submission of this problem again."""
    row = get_row(st, problem)
    ids = st.store.requeue(problem_id=row.id)
    st.judge_soon(ids)
    return Queued(queued=len(ids))

