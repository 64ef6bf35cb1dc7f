"""Drafts: each user's editor text per problem, kept on the server so that it follows them to another
browser. Every save names the revision it was made on; a save made on an older one (another tab or
browser saved since) is refused with the newer draft, and the editor asks which to keep."""
from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Response

from server.deps import AppState, Principal, current_user, state
from server.models import Draft, utcnow
from server.schemas import DraftIn, DraftOut, Error
from server.api.problems import ProblemName, get_row
from server.api.submissions import source_text

router = APIRouter(prefix="/api/drafts", tags=["drafts"])
NONE_YET = {404: {"model": Error, "description": "No such problem, or no draft of it yet"}}


def _out(draft: Draft) -> DraftOut:
    return DraftOut(source=draft.source, revision=draft.revision, updated_at=draft.updated_at)


@router.get("/{problem}", response_model=DraftOut, responses=NONE_YET)
def get_draft(problem: str = ProblemName, principal: Principal = Depends(current_user),
              st: AppState = Depends(state)) -> DraftOut:
    """My draft of this problem."""
    row = get_row(st, problem)
    with st.db.read() as s:
        draft = s.get(Draft, (principal.id, row.id))
        if draft is None:
            raise HTTPException(404, f"no draft of problem {row.id} yet")
        return _out(draft)


@router.put("/{problem}", response_model=DraftOut,
            responses={**NONE_YET, 409: {"model": Error, "description": "A newer draft was saved meanwhile: "
                                                                         "detail = {message, draft}"},
                       413: {"model": Error}, 422: {"model": Error}})
def save_draft(body: DraftIn, problem: str = ProblemName, principal: Principal = Depends(current_user),
               st: AppState = Depends(state)):
    """Save my draft, made on `revision` (0 for a first draft). The answer is the stored draft; 409 with the
    stored one (`detail.draft`) when it has another revision."""
    row = get_row(st, problem)
    source = source_text(body.source, st.settings.max_source_bytes)
    with st.db.write() as s:
        draft = s.get(Draft, (principal.id, row.id))
        if draft is not None and draft.revision != body.revision:   # no draft: nothing newer to lose
            raise HTTPException(409, {"message": f"a newer draft (revision {draft.revision}) was saved in another "
                                                 f"tab or browser: load it, or save again on its revision",
                                      "draft": _out(draft).model_dump(mode="json")})
        if draft is None:
            draft = Draft(user_id=principal.id, problem_id=row.id, source=source, revision=1, updated_at=utcnow())
            s.add(draft)
        else:
            draft.source, draft.revision, draft.updated_at = source, draft.revision + 1, utcnow()
        s.flush()
        return _out(draft)


@router.delete("/{problem}", status_code=204, responses=NONE_YET)
def delete_draft(problem: str = ProblemName, principal: Principal = Depends(current_user),
                 st: AppState = Depends(state)) -> Response:
    """Drop my draft (the editor goes back to the starter)."""
    row = get_row(st, problem)
    with st.db.write() as s:
        draft = s.get(Draft, (principal.id, row.id))
        if draft is not None:
            s.delete(draft)
    return Response(status_code=204)
