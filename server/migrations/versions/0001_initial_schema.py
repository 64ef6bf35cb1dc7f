"""Initial schema: users, credentials, problems, submissions, test results, timing cases.

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 11:56:18.112119

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0001'
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('disabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('username')
    )
    op.create_table('credentials',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('secret_hash', sa.String(length=64), nullable=False),
    sa.Column('csrf_token', sa.String(length=64), nullable=True),
    sa.Column('name', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('secret_hash')
    )
    with op.batch_alter_table('credentials', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_credentials_user_id'), ['user_id'], unique=False)

    op.create_table('problems',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('slug', sa.String(length=100), nullable=False),
    sa.Column('title_en', sa.String(length=200), nullable=False),
    sa.Column('title_zh', sa.String(length=200), nullable=False),
    sa.Column('difficulty', sa.String(length=16), nullable=False),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('origin', sa.String(length=16), nullable=False),
    sa.Column('folder', sa.Text(), nullable=False),
    sa.Column('available', sa.Boolean(), nullable=False),
    sa.Column('has_samples', sa.Boolean(), nullable=False),
    sa.Column('info', sa.JSON(), nullable=False),
    sa.Column('uploaded_by', sa.Integer(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['uploaded_by'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('slug')
    )
    op.create_table('submissions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('problem_id', sa.Integer(), nullable=False),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('filename', sa.String(length=100), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('verdict', sa.String(length=8), nullable=True),
    sa.Column('message', sa.Text(), nullable=True),
    sa.Column('backend', sa.String(length=16), nullable=True),
    sa.Column('device', sa.String(length=200), nullable=True),
    sa.Column('median_us', sa.Float(), nullable=True),
    sa.Column('compile_info', sa.JSON(), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=True),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('lease_owner', sa.String(length=100), nullable=True),
    sa.Column('lease_token', sa.String(length=64), nullable=True),
    sa.Column('lease_expires', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['problem_id'], ['problems.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_submissions_problem_id'), ['problem_id'], unique=False)
        batch_op.create_index('ix_submissions_problem_verdict', ['problem_id', 'mode', 'verdict'], unique=False)
        batch_op.create_index('ix_submissions_status_lease', ['status', 'lease_expires'], unique=False)
        batch_op.create_index(batch_op.f('ix_submissions_user_id'), ['user_id'], unique=False)

    op.create_table('test_results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('submission_id', sa.Integer(), nullable=False),
    sa.Column('idx', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('verdict', sa.String(length=8), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('time_ms', sa.Float(), nullable=True),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['submission_id'], ['submissions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('submission_id', 'idx', name='uq_test_results_submission_idx')
    )
    op.create_table('timing_cases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('submission_id', sa.Integer(), nullable=False),
    sa.Column('idx', sa.Integer(), nullable=False),
    sa.Column('size', sa.JSON(), nullable=False),
    sa.Column('distribution', sa.String(length=100), nullable=False),
    sa.Column('samples', sa.Integer(), nullable=False),
    sa.Column('median_us', sa.Float(), nullable=False),
    sa.Column('min_us', sa.Float(), nullable=False),
    sa.Column('iqr_us', sa.Float(), nullable=False),
    sa.Column('noisy', sa.Boolean(), nullable=False),
    sa.Column('gbps', sa.Float(), nullable=True),
    sa.Column('sol_pct', sa.Float(), nullable=True),
    sa.Column('baseline_us', sa.Float(), nullable=True),
    sa.Column('ratio_to_baseline', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['submission_id'], ['submissions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('timing_cases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_timing_cases_submission_id'), ['submission_id'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('timing_cases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_timing_cases_submission_id'))

    op.drop_table('timing_cases')
    op.drop_table('test_results')
    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_submissions_user_id'))
        batch_op.drop_index('ix_submissions_status_lease')
        batch_op.drop_index('ix_submissions_problem_verdict')
        batch_op.drop_index(batch_op.f('ix_submissions_problem_id'))

    op.drop_table('submissions')
    op.drop_table('problems')
    with op.batch_alter_table('credentials', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_credentials_user_id'))

    op.drop_table('credentials')
    op.drop_table('users')
