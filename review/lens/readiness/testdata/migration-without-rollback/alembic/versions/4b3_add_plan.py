"""Near miss: a revision with a real downgrade."""
from alembic import op
import sqlalchemy as sa


def upgrade():
    op.add_column("users", sa.Column("plan", sa.String()))


def downgrade():
    op.drop_column("users", "plan")
