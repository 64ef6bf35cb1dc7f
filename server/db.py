"""Engines, sessions and migrations for SQLite and PostgreSQL.

SQLite: WAL, foreign keys, a busy timeout, and `BEGIN IMMEDIATE` for every transaction that may
write (a deferred transaction that reads, then writes while another connection wrote, fails at
once with SQLITE_BUSY whatever the timeout). Read-only sessions begin deferred and never block.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
import uuid
from typing import Callable, Iterator

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from server.config import normalize_database_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
QUEUE_PREFIX = "procrastinate_"      # the job queue's tables: its own schema, applied by migration 0002


def include_name(name: str | None, type_: str, parent_names: dict) -> bool:
    """For comparing the models with the database: the job queue's tables are not ours to compare."""
    return not (type_ == "table" and name is not None and name.startswith(QUEUE_PREFIX))


class Database:
    def __init__(self, url: str):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                        pool_size=20, max_overflow=20, pool_timeout=60)
            _sqlite_events(self.engine)
        else:
            self.engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True, pool_timeout=60)
        self._write = sessionmaker(self.engine, expire_on_commit=False)
        self._read = sessionmaker(self.engine.execution_options(cudajudge_readonly=True), expire_on_commit=False)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that may write: committed on success, rolled back on an exception."""
        with self._write() as session:
            with session.begin():
                yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._read() as session:
            with session.begin():
                yield session

    def session(self, readonly: bool = False) -> Session:
        return (self._read if readonly else self._write)()

    def migrate(self) -> None:
        """Apply every Alembic migration not yet applied."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None     # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        readonly = connection.get_execution_options().get("cudajudge_readonly", False)
        connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")


def scratch_database(admin_url: str, prefix: str) -> tuple[str, Callable[[], None]]:
    """A new, empty PostgreSQL database on admin_url's server, and a function that drops it again:
    for tests and benchmarks, which must not share tables."""
    admin_url = normalize_database_url(admin_url)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with admin.connect() as c:
            c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), drop
