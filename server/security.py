"""Accounts: their creation, passwords (argon2id), bearer tokens and browser sessions with CSRF tokens."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from server.config import Settings
from server.db import Database
from server.models import Credential, User, utcnow
from server.schemas import USERNAME_PATTERN

SESSION_COOKIE = "cudajudge_session"
CSRF_COOKIE = "cudajudge_csrf"
CSRF_HEADER = "X-CSRF-Token"
TOKEN_PREFIX = "cj_"
USERNAME = re.compile(USERNAME_PATTERN)


class Passwords:
    def __init__(self, settings: Settings):
        self.hasher = PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib,
                                     parallelism=settings.argon2_parallelism)
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Constant work whether or not the user exists (no user-enumeration by timing)."""
        try:
            return self.hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def create_account(db: Database, passwords: Passwords, username: str, password: str, role: str = "student") -> User:
    """A new account, committed. Raises ValueError when the name is taken (case-insensitively)."""
    hashed = passwords.hash(password)
    try:
        with db.write() as s:
            if s.scalar(select(User.id).where(func.lower(User.username) == username.lower())) is not None:
                raise ValueError(f"the username {username!r} is taken")
            user = User(username=username, password_hash=hashed, role=role, disabled=False, created_at=utcnow())
            s.add(user)
            s.flush()
            return user
    except IntegrityError:
        raise ValueError(f"the username {username!r} is taken") from None


def secret_hash(secret: str) -> str:
    """What a credential row keeps of its secret (Credential.secret_hash): the plain SHA-256 of the secret,
    in hex. Stored rows depend on this scheme, which is why it is not judge.digest's (a cache key's)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def issue(db: Session, user: User, kind: str, days: float, name: str | None = None) -> tuple[str, Credential]:
    """A new token or session for `user`; returns the secret (shown once) and its row."""
    secret = new_secret()
    cred = Credential(user_id=user.id, kind=kind, secret_hash=secret_hash(secret), name=name,
                      csrf_token=secrets.token_urlsafe(24) if kind == "session" else None,
                      created_at=utcnow(), expires_at=utcnow() + timedelta(days=days))
    db.add(cred)
    db.flush()
    return secret, cred


def lookup(db: Session, secret: str, kind: str) -> tuple[User, Credential] | None:
    if not secret or len(secret) > 200:
        return None
    row = db.execute(select(Credential, User).join(User, User.id == Credential.user_id)
                     .where(Credential.secret_hash == secret_hash(secret), Credential.kind == kind)).first()
    if row is None:
        return None
    cred, user = row
    if cred.expires_at < utcnow() or user.disabled:
        return None
    return user, cred


def revoke(db: Session, credential_id: int) -> None:
    db.execute(delete(Credential).where(Credential.id == credential_id))


def csrf_matches(expected: str | None, given: str | None) -> bool:
    return bool(expected) and bool(given) and hmac.compare_digest(expected, given)
