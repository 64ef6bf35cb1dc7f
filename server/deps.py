"""Shared state of one app and the request dependencies: who is asking, roles, rate limits."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from fastapi import Depends, HTTPException, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select

from server.config import RateLimit, Settings
from server.db import Database
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.lease import LeaseStore
from server.dispatch.queue import JobQueue
from server.models import Credential, Submission, User
from server.ratelimit import RateLimiter
from server.security import CSRF_HEADER, SESSION_COOKIE, Passwords, csrf_matches, lookup

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
ROLE_RANK = {"student": 0, "instructor": 1, "admin": 2}
# Declares the scheme in the OpenAPI document (Swagger UI's Authorize button); the header is checked below.
BEARER = HTTPBearer(auto_error=False, scheme_name="bearer",
                    description="An API token: create one on the account page (/account) or with POST /api/auth/tokens")


@dataclass
class AppState:
    settings: Settings
    db: Database
    passwords: Passwords
    store: LeaseStore
    limiter: RateLimiter = field(default_factory=RateLimiter)
    dispatcher: Dispatcher | None = None
    jobs: JobQueue | None = None          # scale-out: the job queue instead of the embedded dispatcher
    backend: str = "cpu"
    workers: int = 0
    shutting_down: bool = False

    def judge_soon(self, submission_ids: list[int]) -> None:
        """Newly queued submissions: wake the embedded dispatcher, or defer their jobs."""
        if self.dispatcher is not None:
            self.dispatcher.wake()
        if self.jobs is not None and submission_ids:
            with self.db.read() as s:
                rows = s.execute(select(Submission.id, Submission.gpu_model).where(Submission.id.in_(submission_ids))).all()
            self.jobs.enqueue([(r.id, r.gpu_model) for r in rows])


@dataclass(frozen=True)
class Principal:
    user: User
    credential: Credential
    via: str             # "token" | "session"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def role(self) -> str:
        return self.user.role

    def at_least(self, role: str) -> bool:
        return ROLE_RANK.get(self.user.role, -1) >= ROLE_RANK[role]


def state(request: Request) -> AppState:
    return request.app.state.cj


def client_key(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def limit(st: AppState, bucket: str, key: str, rule: RateLimit) -> None:
    wait = st.limiter.take(bucket, key, rule)
    if wait > 0:
        retry = 3600 if math.isinf(wait) else max(1, math.ceil(wait))
        raise HTTPException(429, f"too many requests ({bucket}): at most {rule.burst} at once and "
                                 f"{rule.per_minute:g} a minute; retry in {retry} s",
                            headers={"Retry-After": str(retry)})


def optional_principal(request: Request,
                       bearer: HTTPAuthorizationCredentials | None = Security(BEARER)) -> Principal | None:
    st = state(request)
    if request.headers.get("authorization") is not None:
        if bearer is None or not bearer.credentials.strip():
            raise HTTPException(401, "the Authorization header must be 'Bearer <token>'",
                                headers={"WWW-Authenticate": "Bearer"})
        with st.db.read() as s:
            found = lookup(s, bearer.credentials.strip(), "token")
        if found is None:
            raise HTTPException(401, "the token is unknown, expired or revoked: sign in again, or create a token "
                                     "on the account page (/account)",
                                headers={"WWW-Authenticate": "Bearer"})
        principal = Principal(found[0], found[1], "token")
    else:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        with st.db.read() as s:
            found = lookup(s, cookie, "session")
        if found is None:
            raise HTTPException(401, "the session has expired: log in again")
        principal = Principal(found[0], found[1], "session")
        if request.method not in SAFE_METHODS and not csrf_matches(found[1].csrf_token, request.headers.get(CSRF_HEADER)):
            raise HTTPException(403, f"CSRF check failed: send the session's csrf_token in the {CSRF_HEADER} header")
    limit(st, "api", f"user:{principal.id}", st.settings.rate_api)
    return principal


def anonymous_limit(request: Request, principal: Principal | None = Depends(optional_principal)) -> Principal | None:
    if principal is None:
        st = state(request)
        limit(st, "api", f"ip:{client_key(request)}", st.settings.rate_api)
    return principal


def current_user(principal: Principal | None = Depends(optional_principal)) -> Principal:
    if principal is None:
        raise HTTPException(401, "log in first: send 'Authorization: Bearer <token>' or the session cookie",
                            headers={"WWW-Authenticate": "Bearer"})
    return principal


def require(role: str):
    def check(principal: Principal = Depends(current_user)) -> Principal:
        if not principal.at_least(role):
            raise HTTPException(403, f"this needs the {role} role (you are {principal.role})")
        return principal
    return check

