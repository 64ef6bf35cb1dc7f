"""The signed-in user's own account: named API tokens (for the CLI and scripts), the password, solved problems."""
from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from sqlalchemy import delete, func, select

from server.api.problems import accepted_submit, summary
from server.deps import AppState, Principal, client_key, current_user, limit, state
from server.models import Credential, ProblemRow, Submission, User, utcnow
from server.schemas import Error, PasswordChange, PasswordChanged, SolvedProblem, TokenCreated, TokenIn, TokenOut
from server.security import issue

router = APIRouter(prefix="/api/auth", tags=["account"])
SIGNED_IN = {401: {"model": Error}}
LIMITED = {**SIGNED_IN, 403: {"model": Error}, 429: {"model": Error}}


def token_out(cred: Credential) -> TokenOut:
    return TokenOut(id=cred.id, name=cred.name, created_at=cred.created_at, expires_at=cred.expires_at)


def limit_account_change(st: AppState, request: Request, principal: Principal) -> None:
    """Creating tokens and changing the password are limited like registering and logging in."""
    limit(st, "auth", f"ip:{client_key(request)}", st.settings.rate_auth)
    limit(st, "account", f"user:{principal.id}", st.settings.rate_auth)


@router.get("/tokens", response_model=list[TokenOut], responses=SIGNED_IN)
def list_tokens(principal: Principal = Depends(current_user), st: AppState = Depends(state)) -> list[TokenOut]:
    """My API tokens that have not expired, newest first (never their secrets). Browser sessions are not listed."""
    with st.db.read() as s:
        rows = s.scalars(select(Credential)
                         .where(Credential.user_id == principal.id, Credential.kind == "token",
                                Credential.expires_at > utcnow())
                         .order_by(Credential.id.desc()))
        return [token_out(c) for c in rows]


@router.post("/tokens", status_code=201, response_model=TokenCreated, responses=LIMITED)
def create_token(body: TokenIn, request: Request, principal: Principal = Depends(current_user),
                 st: AppState = Depends(state)) -> TokenCreated:
    """A new named API token; its secret is in this answer only (the server keeps its SHA-256)."""
    limit_account_change(st, request, principal)
    with st.db.write() as s:
        secret, cred = issue(s, principal.user, "token", st.settings.token_days, name=body.name)
        return TokenCreated(**token_out(cred).model_dump(), token=secret)


@router.delete("/tokens/{token_id}", status_code=204, responses={**SIGNED_IN, 404: {"model": Error}})
def revoke_token(token_id: int = Path(ge=1, le=2**31 - 1, examples=[1]), principal: Principal = Depends(current_user),
                 st: AppState = Depends(state)) -> Response:
    """Revoke one of my API tokens: requests with it get 401 from now on."""
    with st.db.write() as s:
        gone = s.execute(delete(Credential).where(Credential.id == token_id, Credential.user_id == principal.id,
                                                  Credential.kind == "token")).rowcount
    if not gone:
        raise HTTPException(404, f"you have no API token {token_id} (GET /api/auth/tokens lists yours)")
    return Response(status_code=204)


@router.post("/password", response_model=PasswordChanged, responses=LIMITED)
def change_password(body: PasswordChange, request: Request, principal: Principal = Depends(current_user),
                    st: AppState = Depends(state)) -> PasswordChanged:
    """Change my password. Every other session and API token of the account is revoked (whoever had the old
    password may have signed in with it); the session or token of this request stays valid."""
    limit_account_change(st, request, principal)
    if not st.passwords.verify(principal.user.password_hash, body.current_password):
        raise HTTPException(403, "the current password is wrong")
    if body.new_password == body.current_password:
        raise HTTPException(400, "the new password is the current one: choose another")
    hashed = st.passwords.hash(body.new_password)
    with st.db.write() as s:
        s.get(User, principal.id).password_hash = hashed
        revoked = s.execute(delete(Credential).where(Credential.user_id == principal.id,
                                                     Credential.id != principal.credential.id)).rowcount
    return PasswordChanged(revoked=revoked)


@router.get("/solved", response_model=list[SolvedProblem], responses=SIGNED_IN)
def solved_problems(principal: Principal = Depends(current_user), st: AppState = Depends(state)) -> list[SolvedProblem]:
    """The problems I solved (an accepted `submit`), with my first accepted submission of each, in problem order."""
    first = (select(func.min(Submission.id)).where(Submission.user_id == principal.id, accepted_submit())
             .group_by(Submission.problem_id))
    with st.db.read() as s:
        rows = s.execute(select(ProblemRow, Submission.id, func.coalesce(Submission.finished_at, Submission.created_at))
                         .join(Submission, Submission.problem_id == ProblemRow.id)
                         .where(Submission.id.in_(first), ProblemRow.available.is_(True))
                         .order_by(ProblemRow.id)).all()
        return [SolvedProblem(problem=summary(row, True), submission_id=sid, solved_at=at) for row, sid, at in rows]
