"""Passwords (argon2id), bearer tokens and browser sessions with CSRF tokens."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from server.config import Settings
from server.models import Credential, User, utcnow

SESSION_COOKIE = "cudajudge_session"
CSRF_COOKIE = "cudajudge_csrf"
CSRF_HEADER = "X-CSRF-Token"
TOKEN_PREFIX = "cj_"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 256


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


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def issue(db: Session, user: User, kind: str, days: float, name: str | None = None) -> tuple[str, Credential]:
    """A new token or session for `user`; returns the secret (shown once) and its row."""
    secret = new_secret()
    cred = Credential(user_id=user.id, kind=kind, secret_hash=digest(secret), name=name,
                      csrf_token=secrets.token_urlsafe(24) if kind == "session" else None,
                      created_at=utcnow(), expires_at=utcnow() + timedelta(days=days))
    db.add(cred)
    db.flush()
    return secret, cred


def lookup(db: Session, secret: str, kind: str) -> tuple[User, Credential] | None:
    if not secret or len(secret) > 200:
        return None
    row = db.execute(select(Credential, User).join(User, User.id == Credential.user_id)
                     .where(Credential.secret_hash == digest(secret), Credential.kind == kind)).first()
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
