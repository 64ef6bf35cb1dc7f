"""Submissions: create, list, read (status + Result), follow (Server-Sent Events), rejudge."""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import AsyncIterator

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Query
from fastapi.responses import StreamingResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.gpus import gpu_model_key
from server.catalog import find_problem
from server.deps import AppState, Principal, current_user, limit, require, state
from server.models import Submission, TestResultRow, User, utcnow
from server.schemas import Error, Mode, Queued, Status, SubmissionIn, SubmissionList, SubmissionOut, SubmissionSummary, UserRef

router = APIRouter(prefix="/api/submissions", tags=["submissions"])
FORBIDDEN = {403: {"model": Error, "description": "Not your submission"}, 404: {"model": Error}}
TRUE, FALSE = {"", "1", "true", "yes", "on"}, {"0", "false", "no", "off"}
MAX_ID = 2**31 - 1
SubmissionId = Path(ge=1, le=MAX_ID, description="The submission's id", examples=[1])


def _summary(sub: Submission, user: User) -> dict:
    return dict(id=sub.id, problem_id=sub.problem_id, problem=f"problem{sub.problem_id}",
                user=UserRef(id=user.id, username=user.username), mode=sub.mode, status=sub.status,
                verdict=sub.verdict, message=sub.message, attempts=sub.attempts, gpu=sub.gpu_model, backend=sub.backend,
                device=sub.device,
                median_us=sub.median_us, created_at=sub.created_at, started_at=sub.started_at,
                finished_at=sub.finished_at)


def _load(s: Session, submission_id: int, principal: Principal) -> tuple[Submission, User]:
    row = s.execute(select(Submission, User).join(User, User.id == Submission.user_id)
                    .where(Submission.id == submission_id)).first()
    if row is None:
        raise HTTPException(404, f"no submission {submission_id}")
    if row[0].user_id != principal.id and not principal.at_least("instructor"):
        raise HTTPException(403, f"submission {submission_id} is not yours")
    return row[0], row[1]


def source_text(source: str, max_bytes: int) -> str:
    """`source` when it is text a .cu file may hold, within `max_bytes`; 413/422 otherwise."""
    try:
        size = len(source.encode("utf-8"))
    except UnicodeEncodeError:
        raise HTTPException(422, "source is not valid Unicode text (it has unpaired surrogates)") from None
    if size > max_bytes:
        raise HTTPException(413, f"source is {size} bytes; the limit is {max_bytes} bytes ({max_bytes // 1024} KiB)")
    if "\x00" in source:
        raise HTTPException(422, "source contains NUL characters: send the text of a .cu file")
    return source


def _clean_source(source: str, max_bytes: int) -> str:
    if not source_text(source, max_bytes).strip():
        raise HTTPException(422, "source is empty")
    return source


@router.post("", status_code=201, response_model=SubmissionOut,
             responses={404: {"model": Error}, 413: {"model": Error}, 422: {"model": Error}, 429: {"model": Error}})
def create_submission(body: SubmissionIn, principal: Principal = Depends(current_user),
                      st: AppState = Depends(state)) -> SubmissionOut:
    """Queue a submission. mode `run`: the problem's visible sample tests; `submit`: every test, then timing."""
    source = _clean_source(body.source, st.settings.max_source_bytes)
    limit(st, "submit", f"user:{principal.id}", st.settings.rate_submit)
    with st.db.write() as s:
        problem = find_problem(s, body.problem)
        if problem is None:
            raise HTTPException(404, f"no problem named {body.problem!r}: use its id, problemNN or its slug")
        if body.mode == "run" and not problem.has_samples:
            raise HTTPException(422, f"problem{problem.id} has no sample tests: use mode 'submit'")
        sub = Submission(user_id=principal.id, problem_id=problem.id, mode=body.mode, source=source,
                         filename=body.filename, gpu_model=gpu_model_key(body.gpu or "") or None, status="queued",
                         attempts=0, created_at=utcnow())
        s.add(sub)
        s.flush()
        out = SubmissionOut(**_summary(sub, principal.user), filename=sub.filename, source=sub.source, tests=[])
    st.judge_soon([out.id])
    return out


def _flag(value: str | None, name: str) -> bool:
    if value is None:
        return False
    if value.lower() in TRUE:
        return True
    if value.lower() in FALSE:
        return False
    raise HTTPException(422, f"{name} must be true or false (or given without a value)")


@router.get("", response_model=SubmissionList, responses={403: {"model": Error}, 404: {"model": Error}})
def list_submissions(mine: str | None = Query(None, description="Only mine (`?mine` or `?mine=true`)"),
                     problem: str | None = Query(None, max_length=100), user: int | None = Query(None, ge=1, le=MAX_ID),
                     status: list[Status] | None = Query(None, description="One status, or several: "
                                                         "`?status=queued&status=judging`"),
                     verdict: str | None = Query(None, pattern="^[A-Z]{2,3}$"),
                     mode: Mode | None = None, limit_: int = Query(50, alias="limit", ge=1, le=500),
                     before: int | None = Query(None, ge=1, le=MAX_ID, description="Only ids below this (paging)"),
                     principal: Principal = Depends(current_user), st: AppState = Depends(state)) -> SubmissionList:
    """Submissions, newest first. Students see their own; instructors and admins see everyone's."""
    only_mine = _flag(mine, "mine") or not principal.at_least("instructor")
    if user is not None and user != principal.id and not principal.at_least("instructor"):
        raise HTTPException(403, "only instructors may list other users' submissions")
    query = select(Submission, User).join(User, User.id == Submission.user_id)
    with st.db.read() as s:
        if problem is not None:
            row = find_problem(s, problem)
            if row is None:
                raise HTTPException(404, f"no problem named {problem!r}")
            query = query.where(Submission.problem_id == row.id)
        if only_mine:
            query = query.where(Submission.user_id == principal.id)
        if user is not None:
            query = query.where(Submission.user_id == user)
        if status:
            query = query.where(Submission.status.in_(status))
        for column, value in ((Submission.verdict, verdict), (Submission.mode, mode)):
            if value is not None:
                query = query.where(column == value)
        if before is not None:
            query = query.where(Submission.id < before)
        rows = s.execute(query.order_by(Submission.id.desc()).limit(limit_ + 1)).all()
    items = [SubmissionSummary(**_summary(sub, u)) for sub, u in rows[:limit_]]
    return SubmissionList(items=items, next_before=items[-1].id if len(rows) > limit_ else None)


@router.get("/{submission_id}", response_model=SubmissionOut, responses=FORBIDDEN)
def get_submission(submission_id: int = SubmissionId, principal: Principal = Depends(current_user),
                   st: AppState = Depends(state)) -> SubmissionOut:
    """Status, source, the tests finished so far, and the Result when done."""
    with st.db.read() as s:
        sub, user = _load(s, submission_id, principal)
        tests = [t.data for t in s.scalars(select(TestResultRow).where(TestResultRow.submission_id == sub.id)
                                           .order_by(TestResultRow.idx))]
    return SubmissionOut(**_summary(sub, user), filename=sub.filename, source=sub.source, compile=sub.compile_info,
                         tests=tests, result=sub.result if sub.status == "done" else None)


@router.post("/{submission_id}/rejudge", response_model=Queued, responses=FORBIDDEN)
def rejudge(submission_id: int = SubmissionId, st: AppState = Depends(state),
            principal: Principal = Depends(require("instructor"))) -> Queued:
    """Judge this submission again from scratch."""
    with st.db.read() as s:
        _load(s, submission_id, principal)
    ids = st.store.requeue(submission_ids=[submission_id])
    st.judge_soon(ids)
    return Queued(queued=len(ids))


# --- Server-Sent Events --------------------------------------------------------------------------

@dataclass
class Snapshot:
    status: str
    attempt: int
    verdict: str | None
    message: str | None
    compile: dict | None
    tests: list[tuple[int, dict]]
    progress: dict          # the `progress` event's data


def _progress(status: str, progress: dict | None, created_at: datetime, started_at: datetime | None) -> dict:
    """The phase (queued, starting, compiling, testing, shrinking, timing), the test it is on, and the seconds
    since the submission was queued or its judging started (`elapsed_s`) and since this phase began (`phase_s`),
    by the server's clock, so a browser's own clock does not matter."""
    now = utcnow()
    began = started_at if status == "judging" and started_at else created_at
    progress = progress if status == "judging" and progress else {"phase": "queued" if status == "queued" else "starting"}
    try:
        since = datetime.fromisoformat(progress["since"])
    except (KeyError, TypeError, ValueError):
        since = began
    return {"phase": progress.get("phase"), "test": progress.get("test"), "index": progress.get("index"),
            "elapsed_s": round(max(0.0, (now - began).total_seconds()), 1),
            "phase_s": round(max(0.0, (now - since).total_seconds()), 1)}


def _snapshot(st: AppState, submission_id: int, after: int) -> Snapshot | None:
    with st.db.read() as s:
        sub = s.execute(select(Submission.status, Submission.attempts, Submission.verdict, Submission.message,
                               Submission.compile_info, Submission.progress, Submission.created_at,
                               Submission.started_at).where(Submission.id == submission_id)).first()
        if sub is None:
            return None
        tests = s.execute(select(TestResultRow.idx, TestResultRow.data)
                          .where(TestResultRow.submission_id == submission_id, TestResultRow.idx >= after)
                          .order_by(TestResultRow.idx)).all()
    return Snapshot(sub.status, sub.attempts, sub.verdict, sub.message, sub.compile_info, [(i, d) for i, d in tests],
                    _progress(sub.status, sub.progress, sub.created_at, sub.started_at))


def _sse(event: str, data: dict, event_id: str | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _resume_point(last_event_id: str | None) -> tuple[int | None, int]:
    """Last-Event-ID is 'attempt:tests-sent'."""
    try:
        attempt, sent = (int(x) for x in (last_event_id or "").split(":"))
        return attempt, max(0, sent)
    except ValueError:
        return None, 0


async def _stream(st: AppState, submission_id: int, last_event_id: str | None) -> AsyncIterator[bytes]:
    resume_attempt, next_idx = _resume_point(last_event_id)
    attempt, status, compile_sent, shown = resume_attempt, None, False, None
    started = last_beat = time.monotonic()
    yield b"retry: 2000\n\n"
    while True:
        snap = await asyncio.to_thread(_snapshot, st, submission_id, next_idx)
        if snap is None:
            yield _sse("error", {"message": f"submission {submission_id} no longer exists"})
            return
        if attempt is not None and snap.attempt != attempt:
            # judged again (a worker died, or a rejudge): start this attempt's tests afresh; a first claim
            # (attempt 0 → 1) is no restart
            if attempt and (next_idx or status is not None):
                yield _sse("restart", {"attempt": snap.attempt})
            attempt, next_idx, status, compile_sent, shown = snap.attempt, 0, None, False, None
            continue
        attempt = snap.attempt
        if snap.status != status and snap.status != "done":
            status = snap.status
            yield _sse("status", {"status": status, "attempt": attempt})
        if snap.compile is not None and not compile_sent:
            compile_sent = True
            yield _sse("compile", snap.compile)
        for idx, data in snap.tests:
            next_idx = idx + 1
            yield _sse("test", {"index": idx, "attempt": attempt, "result": data}, f"{attempt}:{next_idx}")
        phase = (snap.status, snap.progress["phase"], snap.progress["test"], snap.progress["index"])
        # A test's progress read before the worker recorded the next one is stale once its result was sent.
        stale = snap.progress["index"] is not None and snap.progress["index"] < next_idx
        if snap.status != "done" and phase != shown and not stale:
            shown = phase
            yield _sse("progress", {**snap.progress, "attempt": attempt})
        if snap.status == "done":
            yield _sse("status", {"status": "done", "attempt": attempt})
            yield _sse("done", {"id": submission_id, "verdict": snap.verdict, "message": snap.message,
                                "tests": next_idx})
            return
        now = time.monotonic()
        if st.shutting_down or now - started > st.settings.sse_max_s:
            return
        if now - last_beat > st.settings.sse_keepalive_s:
            last_beat = now
            yield b": keep-alive\n\n"
        await asyncio.sleep(st.settings.sse_poll_s)


@router.get("/{submission_id}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "Events: status, compile, progress (the phase and the test running "
                                            "now), test (one per finished test), restart, done"},
                       **FORBIDDEN})
async def events(submission_id: int = SubmissionId, principal: Principal = Depends(current_user), st: AppState = Depends(state),
                 last_event_id: str | None = Header(None, max_length=40)) -> StreamingResponse:
    """Follow a submission: one `test` event per finished test, then `done`. Resumable with Last-Event-ID."""
    def check() -> None:
        with st.db.read() as s:
            _load(s, submission_id, principal)
    await asyncio.to_thread(check)
    return StreamingResponse(_stream(st, submission_id, last_event_id), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

