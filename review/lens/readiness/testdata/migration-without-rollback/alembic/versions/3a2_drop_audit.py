"""drop audit

Revision ID: 3a2
"""
from alembic import op

revision = "3a2"


def upgrade():
    op.drop_table("audit")


def downgrade():  # want "Migration without a rollback"
    pass
