"""Registration, login (a bearer token and a session cookie with its CSRF token), logout, me."""
from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from sqlalchemy import func, select

from server.deps import AppState, Principal, client_key, current_user, limit, state
from server.models import User
from server.schemas import Credentials, Error, LoginIn, LoginOut, UserOut
from server.security import CSRF_COOKIE, SESSION_COOKIE, create_account, issue, revoke

router = APIRouter(prefix="/api/auth", tags=["auth"])


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, username=user.username, role=user.role, disabled=user.disabled, created_at=user.created_at)


@router.post("/register", status_code=201, response_model=UserOut,
             responses={403: {"model": Error}, 409: {"model": Error}, 429: {"model": Error}})
def register(body: Credentials, request: Request, st: AppState = Depends(state)) -> UserOut:
    """Create a student account."""
    if not st.settings.allow_registration:
        raise HTTPException(403, "registration is closed on this server: ask an administrator for an account")
    limit(st, "auth", f"ip:{client_key(request)}", st.settings.rate_auth)
    try:
        return user_out(create_account(st.db, st.passwords, body.username, body.password))
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None


@router.post("/login", response_model=LoginOut, responses={401: {"model": Error}, 429: {"model": Error}})
def login(body: LoginIn, request: Request, response: Response, st: AppState = Depends(state)) -> LoginOut:
    """Check the password; set the session cookie (for the browser) and return a bearer token (for scripts)
    unless the login asks for none, as the web editor does: it would sit unused in the account's tokens."""
    limit(st, "auth", f"ip:{client_key(request)}", st.settings.rate_auth)
    limit(st, "login", f"name:{body.username.lower()}", st.settings.rate_auth)
    with st.db.read() as s:
        user = s.scalar(select(User).where(func.lower(User.username) == body.username.lower()))
    ok = st.passwords.verify(user.password_hash if user else None, body.password)
    if not ok or user is None or user.disabled:
        raise HTTPException(401, "wrong username or password" if not (ok and user) else "this account is disabled")
    with st.db.write() as s:
        token, cred = issue(s, user, "token", st.settings.token_days, name="login") if body.bearer else (None, None)
        session, sess = issue(s, user, "session", st.settings.session_days)
    max_age = int(st.settings.session_days * 86400)
    response.set_cookie(SESSION_COOKIE, session, max_age=max_age, httponly=True, samesite="lax",
                        secure=st.settings.cookie_secure, path="/")
    response.set_cookie(CSRF_COOKIE, sess.csrf_token, max_age=max_age, httponly=False, samesite="lax",
                        secure=st.settings.cookie_secure, path="/")
    return LoginOut(token=token, expires_at=cred.expires_at if cred else None, csrf_token=sess.csrf_token,
                    user=user_out(user))


@router.post("/logout", status_code=204, responses={401: {"model": Error}})
def logout(response: Response, principal: Principal = Depends(current_user), st: AppState = Depends(state)) -> Response:
    """Revoke the token or session this request used."""
    with st.db.write() as s:
        revoke(s, principal.credential.id)
    response = Response(status_code=204)
    if principal.via == "session":
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
    return response


@router.get("/me", response_model=UserOut, responses={401: {"model": Error}})
def me(principal: Principal = Depends(current_user)) -> UserOut:
    return user_out(principal.user)
