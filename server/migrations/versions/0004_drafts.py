"""Drafts on the server: each user's editor text per problem, with a revision that refuses stale saves.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 17:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('drafts',
                    sa.Column('user_id', sa.Integer(), nullable=False),
                    sa.Column('problem_id', sa.Integer(), nullable=False),
                    sa.Column('source', sa.Text(), nullable=False),
                    sa.Column('revision', sa.Integer(), nullable=False),
                    sa.Column('updated_at', sa.DateTime(), nullable=False),
                    sa.ForeignKeyConstraint(['problem_id'], ['problems.id'], ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('user_id', 'problem_id'))


def downgrade() -> None:
    op.drop_table('drafts')
