"""Server settings: where data lives, which database, limits, rate limits and dispatch tuning."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path


def default_data_dir() -> Path:
    env = os.environ.get("CUDAJUDGE_DATA_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cudajudge"


def normalize_database_url(url: str) -> str:
    """`postgresql://` and `postgres://` mean the psycopg 3 driver; other URLs are used as given."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass(frozen=True)
class RateLimit:
    """A token bucket: `burst` requests at once, refilled at `per_minute`."""
    burst: int
    per_minute: float


@dataclass(frozen=True)
class Settings:
    data_dir: Path = field(default_factory=default_data_dir)
    database_url: str | None = None          # default: SQLite file <data_dir>/cudajudge.db
    problems_dir: Path | None = None         # the catalog; default: judge.problems.loader.problems_root()

    # judging
    backend: str = "auto"                    # auto | gpu | cpu
    workers: int | None = None               # default: one per local GPU, else one CPU worker
    dispatcher: bool = True                  # run the embedded dispatcher in this process (dispatch "embedded")
    dispatch: str = "embedded"               # embedded: worker threads here; queue: jobs for `cudajudge worker`s
    lease_s: float = 60.0                    # a claimed submission is re-claimable this long after the last renewal
    poll_s: float = 1.0                      # idle workers look for work this often (new submissions wake them at once)
    max_attempts: int = 2                    # a submission whose worker died is judged again once, then IE

    # requests
    max_source_bytes: int = 64 * 1024
    max_body_bytes: int = 256 * 1024         # JSON requests
    max_upload_bytes: int = 16 * 1024 * 1024  # a problem zip, compressed
    max_unpacked_bytes: int = 64 * 1024 * 1024
    max_unpacked_file_bytes: int = 16 * 1024 * 1024
    max_zip_entries: int = 2000
    max_zip_ratio: float = 200.0             # uncompressed / compressed of one entry: above is a zip bomb
    validate_timeout_s: float = 180.0
    validate_jobs: int = 2                   # solutions of an upload judged at once

    # auth
    allow_registration: bool = True
    cookie_secure: bool = False              # set behind HTTPS
    session_days: float = 14.0
    token_days: float = 90.0
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 64 * 1024
    argon2_parallelism: int = 4

    # rate limits (per user; per client address before login)
    rate_api: RateLimit = RateLimit(burst=240, per_minute=600)
    rate_submit: RateLimit = RateLimit(burst=20, per_minute=30)
    rate_auth: RateLimit = RateLimit(burst=20, per_minute=20)
    rate_upload: RateLimit = RateLimit(burst=5, per_minute=5)
    rate_validate: RateLimit = RateLimit(burst=10, per_minute=10)   # previews: an instructor iterating on a zip

    # server-sent events
    sse_poll_s: float = 0.25
    sse_keepalive_s: float = 15.0
    sse_max_s: float = 3600.0

    def with_(self, **changes) -> "Settings":
        return replace(self, **changes)

    @property
    def url(self) -> str:
        if self.database_url:
            return normalize_database_url(self.database_url)
        return f"sqlite:///{(self.data_dir / 'cudajudge.db').resolve()}"

    @property
    def uploaded_problems_dir(self) -> Path:
        return self.data_dir / "problems"

    @property
    def unpublished_problems_dir(self) -> Path:
        """Uploaded problems taken off the list: kept, out of the folders the server syncs in."""
        return self.data_dir / "unpublished"

    @property
    def catalog_dir(self) -> Path:
        if self.problems_dir is not None:
            return self.problems_dir
        from judge.problems.loader import problems_root
        return problems_root()

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        """Settings from CUDAJUDGE_* variables, then explicit overrides (None means: not given)."""
        env = os.environ
        values: dict = {}
        if env.get("CUDAJUDGE_DATABASE_URL"):
            values["database_url"] = env["CUDAJUDGE_DATABASE_URL"]
        if env.get("CUDAJUDGE_BACKEND"):
            values["backend"] = env["CUDAJUDGE_BACKEND"]
        if env.get("CUDAJUDGE_WORKERS"):
            values["workers"] = int(env["CUDAJUDGE_WORKERS"])
        if env.get("CUDAJUDGE_LEASE_S"):
            values["lease_s"] = float(env["CUDAJUDGE_LEASE_S"])
        if env.get("CUDAJUDGE_DISPATCH"):
            values["dispatch"] = env["CUDAJUDGE_DISPATCH"]
        if env.get("CUDAJUDGE_POLL_S"):
            values["poll_s"] = float(env["CUDAJUDGE_POLL_S"])
        for name in ("api", "submit", "auth", "upload", "validate"):   # CUDAJUDGE_RATE_SUBMIT=20,30: burst 20, 30 a minute
            value = env.get(f"CUDAJUDGE_RATE_{name.upper()}")
            if value:
                burst, per_minute = value.split(",")
                values[f"rate_{name}"] = RateLimit(int(burst), float(per_minute))
        if env.get("CUDAJUDGE_COOKIE_SECURE", "").lower() in ("1", "yes", "true", "on"):
            values["cookie_secure"] = True
        if env.get("CUDAJUDGE_REGISTRATION", "").lower() in ("0", "no", "false", "off"):
            values["allow_registration"] = False
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in values:
            values["data_dir"] = Path(values["data_dir"])
        return cls(**values)
