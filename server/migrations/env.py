"""Alembic environment: the server passes its open connection in `config.attributes["connection"]`."""
from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from server.db import include_name
from server.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:   # run from the alembic command line
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as connection:
            _run(connection)
        return
    _run(connection)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, include_name=include_name,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run them against a database")
run_migrations_online()
