"""Live progress of a submission being judged: its phase and the test running now, for the events stream.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 10:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('submissions') as batch:
        batch.add_column(sa.Column('progress', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('submissions') as batch:
        batch.drop_column('progress')
