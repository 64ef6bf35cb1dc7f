"""Scale-out judging: the job queue's schema (PostgreSQL), problem files for remote workers, GPU models, workers.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 14:10:00

The job queue is procrastinate: on PostgreSQL this revision applies the schema of the installed
procrastinate version (pinned in pyproject.toml). A later pin bump comes with a revision that
applies procrastinate's own migration files between the two versions (see docs/deploy.md).
SQLite has no job queue: the embedded dispatcher claims rows directly.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('problems') as batch:
        batch.add_column(sa.Column('judge_files', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('files_digest', sa.String(length=64), nullable=True))
    with op.batch_alter_table('submissions') as batch:
        batch.add_column(sa.Column('gpu_model', sa.String(length=64), nullable=True))
    op.create_table('judge_workers',
                    sa.Column('name', sa.String(length=100), nullable=False),
                    sa.Column('host', sa.String(length=100), nullable=False),
                    sa.Column('backend', sa.String(length=8), nullable=False),
                    sa.Column('gpu_model', sa.String(length=64), nullable=True),
                    sa.Column('queues', sa.JSON(), nullable=False),
                    sa.Column('started_at', sa.DateTime(), nullable=False),
                    sa.Column('last_seen', sa.DateTime(), nullable=False),
                    sa.Column('judged', sa.Integer(), nullable=False),
                    sa.Column('current', sa.Integer(), nullable=True),
                    sa.PrimaryKeyConstraint('name'))
    connection = op.get_bind()
    if connection.dialect.name == 'postgresql' and not sa.inspect(connection).has_table('procrastinate_jobs'):
        from procrastinate.schema import SchemaManager

        # through the driver's cursor without parameters: the schema's SQL has literal '%' signs
        connection.connection.cursor().execute(SchemaManager.get_schema())


def downgrade() -> None:
    # procrastinate's objects stay: they are harmless without workers, and dropping them loses queued jobs
    op.drop_table('judge_workers')
    with op.batch_alter_table('submissions') as batch:
        batch.drop_column('gpu_model')
    with op.batch_alter_table('problems') as batch:
        batch.drop_column('files_digest')
        batch.drop_column('judge_files')
