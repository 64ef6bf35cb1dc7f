"""Administrators: users and their roles."""
from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Path, Query
from sqlalchemy import delete, func, select

from server.api.auth import user_out
from server.deps import AppState, Principal, require, state
from server.models import Credential, User
from server.schemas import Error, UserOut, UserPatch

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/users", response_model=list[UserOut], responses={403: {"model": Error}})
def list_users(role: str | None = Query(None, pattern="^(student|instructor|admin)$"),
               limit: int = Query(500, ge=1, le=5000), offset: int = Query(0, ge=0, le=2**31 - 1),
               st: AppState = Depends(state), _: Principal = Depends(require("admin"))) -> list[UserOut]:
    query = select(User).order_by(User.id).limit(limit).offset(offset)
    if role:
        query = query.where(User.role == role)
    with st.db.read() as s:
        return [user_out(u) for u in s.scalars(query)]


@router.patch("/users/{user_id}", response_model=UserOut, responses={403: {"model": Error}, 404: {"model": Error},
                                                                       409: {"model": Error}})
def update_user(body: UserPatch, user_id: int = Path(ge=1, le=2**31 - 1, examples=[1]), st: AppState = Depends(state),
                principal: Principal = Depends(require("admin"))) -> UserOut:
    """Change a user's role, or disable the account (which also revokes its tokens and sessions)."""
    with st.db.write() as s:
        user = s.get(User, user_id)
        if user is None:
            raise HTTPException(404, f"no user {user_id}")
        demoting = body.role not in (None, "admin") or body.disabled
        if user.role == "admin" and demoting and not user.disabled:
            admins = s.scalar(select(func.count()).select_from(User)
                              .where(User.role == "admin", User.disabled.is_(False)))
            if admins <= 1:
                raise HTTPException(409, "this is the last active admin: make another admin first")
        if body.role is not None:
            user.role = body.role
        if body.disabled is not None:
            user.disabled = body.disabled
            if body.disabled:
                s.execute(delete(Credential).where(Credential.user_id == user.id))
        s.flush()
        return user_out(user)
