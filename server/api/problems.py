"""Problems: the list, one problem's public view, its leaderboard; instructors preview, upload and rejudge."""
from __future__ import annotations

import asyncio
import pathlib
import shutil

from fastapi import APIRouter, Depends, File, HTTPException, Path, UploadFile
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.problems.loader import PROBLEM_FILE, ProblemError, parse_problem
from judge.problems.model import Problem
from judge.timing.stats import median_interval
from server.catalog import find_problem, folder_name, row_values
from server.deps import AppState, Principal, anonymous_limit, limit, require, state
from server.models import ProblemRow, Submission, TimingCase, User
from server.schemas import (AcceptedEntry, DeviceBoard, Error, Leaderboard, LeaderboardEntry, ProblemDetail,
                            ProblemSummary, Queued, Titles, UploadedProblem, UploadPreview, UserRef)
from server.uploads import Extracted, UploadError, extract_zip, validate

router = APIRouter(prefix="/api/problems", tags=["problems"])
NOT_FOUND = {404: {"model": Error, "description": "No such problem"}}
ProblemName = Path(max_length=100, description="The problem: its id, problemNN or its slug", examples=["1"])


def summary(row: ProblemRow, solved: bool | None = None) -> ProblemSummary:
    return ProblemSummary(id=row.id, key=f"problem{row.id}", slug=row.slug, title=Titles(en=row.title_en, zh=row.title_zh),
                          difficulty=row.difficulty, tags=list(row.tags or []), origin=row.origin,
                          has_samples=row.has_samples, solved=solved)


def detail(row: ProblemRow, solved: bool | None = None) -> ProblemDetail:
    return ProblemDetail(**summary(row, solved).model_dump(), **row.info)


def accepted_submit():
    """The condition of an accepted `submit` (what counts as solving a problem)."""
    return (Submission.mode == "submit") & (Submission.status == "done") & (Submission.verdict == "AC")


def solved_ids(st: AppState, principal: Principal | None) -> set[int] | None:
    if principal is None:
        return None
    with st.db.read() as s:
        return set(s.scalars(select(Submission.problem_id).distinct()
                             .where(Submission.user_id == principal.id, accepted_submit())))


def get_row(st: AppState, name: str) -> ProblemRow:
    with st.db.read() as s:
        row = find_problem(s, name)
    if row is None:
        raise HTTPException(404, f"no problem named {name!r}: use its id, problemNN or its slug (GET /api/problems)")
    return row


@router.get("", response_model=list[ProblemSummary])
def list_problems(st: AppState = Depends(state),
                  principal: Principal | None = Depends(anonymous_limit)) -> list[ProblemSummary]:
    """Every available problem; `solved` says, for the signed-in user, which ones they have solved."""
    with st.db.read() as s:
        rows = s.scalars(select(ProblemRow).where(ProblemRow.available.is_(True)).order_by(ProblemRow.id)).all()
    solved = solved_ids(st, principal)
    return [summary(r, None if solved is None else r.id in solved) for r in rows]


@router.get("/uploaded", response_model=list[UploadedProblem], responses={403: {"model": Error}})
def list_uploaded(st: AppState = Depends(state), _: Principal = Depends(require("instructor"))) -> list[UploadedProblem]:
    """Every uploaded problem, published or not, with who uploaded it and how many submissions it has."""
    counts = select(Submission.problem_id, func.count().label("n")).group_by(Submission.problem_id).subquery()
    with st.db.read() as s:
        rows = s.execute(select(ProblemRow, User.username, counts.c.n)
                         .outerjoin(User, User.id == ProblemRow.uploaded_by)
                         .outerjoin(counts, counts.c.problem_id == ProblemRow.id)
                         .where(ProblemRow.origin == "uploaded").order_by(ProblemRow.id)).all()
        return [_uploaded(row, username, n or 0) for row, username, n in rows]


def _uploaded(row: ProblemRow, uploader: str | None, submissions: int) -> UploadedProblem:
    listed = summary(row).model_copy(update={"slug": row.slug.split("~")[-1]})   # an unlisted row's slug is kept aside
    return UploadedProblem(problem=listed, published=row.available, uploaded_by=uploader, updated_at=row.updated_at,
                           submissions=submissions)


@router.get("/{problem}", response_model=ProblemDetail, responses=NOT_FOUND)
def get_problem(problem: str = ProblemName, st: AppState = Depends(state),
                principal: Principal | None = Depends(anonymous_limit)) -> ProblemDetail:
    """Statement, signature, tested sizes, distributions and tolerance: never hidden data."""
    row = get_row(st, problem)
    solved = solved_ids(st, principal)
    return detail(row, None if solved is None else row.id in solved)


@router.get("/{problem}/leaderboard", response_model=Leaderboard, responses=NOT_FOUND)
def leaderboard(problem: str = ProblemName, st: AppState = Depends(state),
                _: Principal | None = Depends(anonymous_limit)) -> Leaderboard:
    """The best accepted median per user, per GPU model (submissions in mode submit whose timing passed the
    judge's checks, timed on a GPU) with its interval, ties marked; and everyone who solved the problem on
    any backend, first solvers first."""
    row = get_row(st, problem)
    headline = (TimingCase.submission_id == Submission.id) & (TimingCase.idx == 0)
    with st.db.read() as s:
        rows = s.execute(
            select(Submission.id, Submission.user_id, User.username, Submission.device, Submission.median_us,
                   TimingCase.iqr_us, TimingCase.samples, Submission.created_at)
            .join(User, User.id == Submission.user_id).outerjoin(TimingCase, headline)
            .where(Submission.problem_id == row.id, accepted_submit(), Submission.median_us.is_not(None),
                   Submission.device.is_not(None))
            .order_by(Submission.median_us, Submission.id)).all()
        accepted = _first_accepts(s, row.id)
    best: dict[str, list] = {}
    seen: set[tuple[str, int]] = set()
    for sid, uid, username, device, median, iqr, samples, created in rows:
        if (device, uid) in seen:
            continue
        seen.add((device, uid))
        low, high = median_interval(median, iqr or 0.0, samples or 1)
        best.setdefault(device, []).append(dict(user=UserRef(id=uid, username=username), submission_id=sid,
                                                median_us=median, low_us=low, high_us=high, submitted_at=created))
    return Leaderboard(problem_id=row.id, devices=[DeviceBoard(device=d, entries=_ranked(e)) for d, e in sorted(best.items())],
                       accepted=accepted)


def _ranked(entries: list[dict]) -> list[LeaderboardEntry]:
    """Each entry ranked after those it is told apart from (their interval lies wholly below its own)."""
    return [LeaderboardEntry(**e, rank=1 + sum(o["high_us"] < e["low_us"] for o in entries),
                             tied=any(o is not e and o["low_us"] <= e["high_us"] and e["low_us"] <= o["high_us"]
                                      for o in entries))
            for e in entries]


def _first_accepts(s: Session, problem_id: int) -> list[AcceptedEntry]:
    rows = s.execute(
        select(Submission.id, Submission.user_id, User.username, Submission.backend, Submission.finished_at,
               Submission.verdict, Submission.status).join(User, User.id == Submission.user_id)
        .where(Submission.problem_id == problem_id, Submission.mode == "submit").order_by(Submission.id)).all()
    tries: dict[int, int] = {}
    firsts: dict[int, AcceptedEntry] = {}
    for sid, uid, username, backend, finished, verdict, status in rows:
        if uid in firsts:
            continue
        tries[uid] = tries.get(uid, 0) + 1
        if status == "done" and verdict == "AC":
            firsts[uid] = AcceptedEntry(user=UserRef(id=uid, username=username), submission_id=sid,
                                        accepted_at=finished, backend=backend, submissions=tries[uid])
    return sorted(firsts.values(), key=lambda e: (e.accepted_at, e.submission_id))


UPLOAD_ERRORS = {400: {"model": Error}, 403: {"model": Error}, 413: {"model": Error}, 429: {"model": Error},
                 503: {"model": Error, "description": "The server cannot sandbox instructor code (bubblewrap)"}}


async def _read_upload(file: UploadFile, st: AppState, principal: Principal, bucket: str) -> bytes:
    """The zip, within the size limit; previews and uploads are rate-limited apart."""
    limit(st, bucket, f"user:{principal.id}", getattr(st.settings, f"rate_{bucket}"))
    data = await file.read(st.settings.max_upload_bytes + 1)
    if len(data) > st.settings.max_upload_bytes:
        raise HTTPException(413, f"the upload is larger than the limit of {st.settings.max_upload_bytes} bytes")
    return data


def _answer(exc: UploadError) -> HTTPException:
    if exc.findings:
        return HTTPException(exc.status, {"message": exc.message, "findings": exc.findings})
    return HTTPException(exc.status, exc.message)


@router.post("", status_code=201, response_model=ProblemSummary,
             responses={**UPLOAD_ERRORS, 409: {"model": Error},
                        422: {"model": Error, "description": "The problem folder is invalid: "
                                                             "detail = {message, findings: [{file, key, message}]}"}})
async def upload_problem(file: UploadFile = File(description="A zip of a problem folder"),
                         principal: Principal = Depends(require("instructor")),
                         st: AppState = Depends(state)) -> ProblemSummary:
    """Add a problem: a zip of its folder, checked by the validator (statically, and its reference on every
    CPU-size test). Errors name the file and the key."""
    data = await _read_upload(file, st, principal, "upload")
    try:
        return await asyncio.to_thread(_install, st, data, principal)
    except UploadError as exc:
        raise _answer(exc) from None


@router.post("/validate", response_model=UploadPreview, responses=UPLOAD_ERRORS)
async def preview_upload(file: UploadFile = File(description="A zip of a problem folder"),
                         principal: Principal = Depends(require("instructor")),
                         st: AppState = Depends(state)) -> UploadPreview:
    """Check a problem zip as `POST /api/problems` would (a clash with an existing id or slug is a finding
    too) and show the problem as learners would see it; nothing is written. An unsafe zip is still a 4xx."""
    data = await _read_upload(file, st, principal, "validate")
    try:
        return await asyncio.to_thread(_preview, st, data)
    except UploadError as exc:
        raise _answer(exc) from None


def _extract(st: AppState, data: bytes) -> Extracted:
    work = st.settings.data_dir / "tmp"
    work.mkdir(parents=True, exist_ok=True)
    return extract_zip(data, st.settings, work)


def _clash(s: Session, problem: Problem) -> dict | None:
    """The finding when a problem in the database has the id or the slug already."""
    clash = s.scalar(select(ProblemRow).where((ProblemRow.id == problem.id) | (ProblemRow.slug == problem.slug)))
    if clash is None:
        return None
    key = "id" if clash.id == problem.id else "slug"
    what = f"id {problem.id}" if key == "id" else f"slug {problem.slug!r}"
    return {"file": PROBLEM_FILE, "key": key,
            "message": f"a problem with {what} already exists: choose another id and slug"}


def _preview(st: AppState, data: bytes) -> UploadPreview:
    try:
        extracted = _extract(st, data)
    except UploadError as exc:
        if exc.status == 422 and exc.findings:   # no problem.toml: a finding, not an unsafe upload
            return UploadPreview(valid=False, findings=exc.findings)
        raise
    try:
        _, findings = validate(extracted.root, st.settings)
        try:
            problem = parse_problem(extracted.root)
        except ProblemError:
            return UploadPreview(valid=False, findings=findings)
        with st.db.read() as s:
            clash = _clash(s, problem)
        findings += [clash] if clash else []
        row = ProblemRow(id=problem.id, **row_values(problem, extracted.root, "uploaded"))
        return UploadPreview(valid=not findings, findings=findings, problem=detail(row))
    finally:
        shutil.rmtree(extracted.tmp, ignore_errors=True)


def _validated(st: AppState, data: bytes) -> tuple[Extracted, Problem]:
    """The zip extracted and validated; UploadError (422 with every finding) when it is not valid. The
    caller removes `extracted.tmp`."""
    extracted = _extract(st, data)
    _, findings = validate(extracted.root, st.settings)
    if findings:
        first = findings[0]
        where = f"{first['file']}: {first['key']}: " if first["key"] else f"{first['file']}: "
        more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
        raise UploadError(422, f"the problem is invalid: {where}{first['message']}{more}", findings)
    try:
        return extracted, parse_problem(extracted.root)
    except ProblemError as exc:   # validated above; kept for safety
        raise UploadError(422, str(exc)) from None


def _install(st: AppState, data: bytes, principal: Principal) -> ProblemSummary:
    extracted, problem = _validated(st, data)
    try:
        target = st.settings.uploaded_problems_dir / folder_name(problem)
        with st.db.write() as s:
            clash = _clash(s, problem)
            if clash is not None:
                raise UploadError(409, f"problem.toml: {clash['message']}")
            if target.exists() or (st.settings.unpublished_problems_dir / target.name).exists():
                raise UploadError(409, f"problem.toml: a problem folder {target.name} already exists: "
                                       f"choose another id and slug")
            row = ProblemRow(id=problem.id, uploaded_by=principal.id)
            try:
                _place(st, row, extracted.root, target.name, published=True)
                s.add(row)
                s.flush()
            except Exception:
                shutil.rmtree(target, ignore_errors=True)
                raise
        return summary(row)
    finally:
        shutil.rmtree(extracted.tmp, ignore_errors=True)


def _uploaded_row(s: Session, problem_id: int) -> ProblemRow:
    row = s.get(ProblemRow, problem_id)
    if row is None:
        raise HTTPException(404, f"no problem with id {problem_id}")
    if row.origin != "uploaded":
        raise HTTPException(409, f"problem {problem_id} is in the catalog: it changes in the repository, not here")
    return row


@router.put("/{problem_id}", response_model=ProblemSummary,
            responses={**UPLOAD_ERRORS, 404: {"model": Error}, 409: {"model": Error}, 422: {"model": Error}})
async def update_problem(problem_id: int = Path(ge=1, description="The uploaded problem's id"),
                         file: UploadFile = File(description="A zip of the problem's new folder: the same id"),
                         principal: Principal = Depends(require("instructor")),
                         st: AppState = Depends(state)) -> ProblemSummary:
    """Replace an uploaded problem with a new version, validated as an upload is. Its submissions keep
    the results they have; a rejudge judges them on the new version."""
    data = await _read_upload(file, st, principal, "upload")
    try:
        return await asyncio.to_thread(_replace, st, problem_id, data)
    except UploadError as exc:
        raise _answer(exc) from None


def _replace(st: AppState, problem_id: int, data: bytes) -> ProblemSummary:
    with st.db.read() as s:
        _uploaded_row(s, problem_id)
    extracted, problem = _validated(st, data)
    try:
        if problem.id != problem_id:
            raise UploadError(422, f"problem.toml: id: the zip is problem {problem.id}, not {problem_id}: a new "
                                   f"version keeps its id")
        with st.db.write() as s:
            row = _uploaded_row(s, problem_id)
            _refuse_slug_clash(s, problem)
            old = pathlib.Path(row.folder)
            retired = extracted.tmp / "previous"
            shutil.move(str(old), str(retired))
            try:
                _place(st, row, extracted.root, folder_name(problem), row.available)
            except Exception:
                shutil.move(str(retired), str(old))
                raise
            return summary(row)
    finally:
        shutil.rmtree(extracted.tmp, ignore_errors=True)


def _refuse_slug_clash(s: Session, problem: Problem) -> None:
    clash = s.scalar(select(ProblemRow.id).where(ProblemRow.slug == problem.slug, ProblemRow.id != problem.id))
    if clash is not None:
        raise UploadError(409, f"problem.toml: slug: problem {clash} has the slug {problem.slug!r}: choose another")


def _place(st: AppState, row: ProblemRow, folder: pathlib.Path, name: str, published: bool) -> None:
    """Move `folder` to where a problem `published` or not lives, as `name`, and store its row's values.
    An unlisted problem's row keeps its slug in a form that leaves the slug free, as the catalog sync does."""
    root = st.settings.uploaded_problems_dir if published else st.settings.unpublished_problems_dir
    root.mkdir(parents=True, exist_ok=True)
    target = root / name
    shutil.move(str(folder), str(target))
    values = row_values(parse_problem(target), target, "uploaded")
    values["available"] = published
    if not published:
        values["slug"] = f"~{row.id}~{values['slug']}"[:100]
    for key, value in values.items():
        setattr(row, key, value)


@router.post("/{problem_id}/unpublish", response_model=UploadedProblem, responses={403: {"model": Error}, 404: {"model": Error}, 409: {"model": Error}})
def unpublish_problem(problem_id: int = Path(ge=1), st: AppState = Depends(state),
                      _: Principal = Depends(require("instructor"))) -> UploadedProblem:
    """Take an uploaded problem off the list: learners no longer see it or submit to it; its folder,
    submissions and results are kept, and publishing it again restores it."""
    return _set_published(st, problem_id, False)


@router.post("/{problem_id}/publish", response_model=UploadedProblem, responses={403: {"model": Error}, 404: {"model": Error}, 409: {"model": Error}})
def publish_problem(problem_id: int = Path(ge=1), st: AppState = Depends(state),
                    _: Principal = Depends(require("instructor"))) -> UploadedProblem:
    """List an unpublished problem again."""
    return _set_published(st, problem_id, True)


def _set_published(st: AppState, problem_id: int, published: bool) -> UploadedProblem:
    with st.db.write() as s:
        row = _uploaded_row(s, problem_id)
        if row.available != published:
            folder = pathlib.Path(row.folder)
            if published:
                try:
                    _refuse_slug_clash(s, parse_problem(folder))
                except UploadError as exc:
                    raise HTTPException(exc.status, f"{exc.message}, then publish it") from None
            _place(st, row, folder, folder.name, published)
        submissions = s.scalar(select(func.count()).select_from(Submission).where(Submission.problem_id == problem_id))
        uploader = s.get(User, row.uploaded_by) if row.uploaded_by else None
        return _uploaded(row, uploader.username if uploader else None, submissions)


@router.post("/{problem}/rejudge", response_model=Queued, responses={**NOT_FOUND, 403: {"model": Error}})
def rejudge_problem(problem: str = ProblemName, st: AppState = Depends(state),
                    _: Principal = Depends(require("instructor"))) -> Queued:
    """Judge every submission of this problem again."""
    row = get_row(st, problem)
    ids = st.store.requeue(problem_id=row.id)
    st.judge_soon(ids)
    return Queued(queued=len(ids))

