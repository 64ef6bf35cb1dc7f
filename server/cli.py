"""What `cudajudge serve` and `cudajudge admin create-user` do (cudajudge/cli.py declares the options)."""
from __future__ import annotations

import logging
from pathlib import Path

from server.config import Settings


def serve(host: str, port: int, data_dir: Path | None, database_url: str | None, backend: str | None,
          workers: int | None, dispatch: str | None = None, log_level: str = "info") -> None:
    import uvicorn

    from server.app import create_app
    from server.isolation import require_isolation

    require_isolation("cudajudge serve")

    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env(data_dir=data_dir, database_url=database_url, backend=backend, workers=workers,
                                 dispatch=dispatch)
    app = create_app(settings)
    st = app.state.cj
    db_shown = settings.url if settings.url.startswith("sqlite") else settings.url.split("@")[-1]
    if settings.dispatch == "queue":
        logging.getLogger("cudajudge.server").info("data in %s, database %s, judging by `cudajudge worker`s "
                                                   "through the job queue", settings.data_dir, db_shown)
    else:
        logging.getLogger("cudajudge.server").info("data in %s, database %s, %d %s worker(s)", settings.data_dir,
                                                   db_shown, st.workers, st.backend)
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=5)


def create_user(username: str, password: str, role: str, data_dir: Path | None, database_url: str | None,
                print_token: bool) -> str:
    """Create an account (migrating the database first); returns what to print. Raises ValueError."""
    from server.db import Database
    from server.schemas import MAX_PASSWORD, MIN_PASSWORD
    from server.security import USERNAME, Passwords, create_account, issue

    if not USERNAME.match(username):
        raise ValueError("a username is 3 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    settings = Settings.from_env(data_dir=data_dir, database_url=database_url)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.url)
    try:
        db.migrate()
        user = create_account(db, Passwords(settings), username, password, role)
        line = f"created {role} {username!r} (id {user.id})"
        if print_token:
            with db.write() as s:
                token, _ = issue(s, user, "token", settings.token_days, name="create-user")
            line += f"\n{token}"
        return line
    finally:
        db.dispose()
