package readiness

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const alembicGood = `"""add plan

Revision ID: 2f1
"""
from alembic import op
import sqlalchemy as sa

revision = "2f1"


def upgrade():
    op.add_column("user", sa.Column("plan", sa.String()))


def downgrade():
    op.drop_column("user", "plan")
`

func TestMigrationWithoutRollback(t *testing.T) {
	tests := []struct {
		name    string
		changed map[string]string
		onDisk  map[string]string
		want    []string
	}{{
		name:    "up.sql without down",
		changed: map[string]string{"db/migrations/0003_plan.up.sql": "ALTER TABLE users ADD COLUMN plan text;\n"},
		onDisk:  map[string]string{},
		want:    []string{"db/migrations/0003_plan.up.sql:1"},
	}, {
		name: "up.sql with an empty down in the change set",
		changed: map[string]string{
			"db/migrations/0003_plan.up.sql":   "ALTER TABLE users ADD COLUMN plan text;\n",
			"db/migrations/0003_plan.down.sql": "-- nothing to do\n",
		},
		want: []string{"db/migrations/0003_plan.up.sql:1"},
	}, {
		name: "up.sql with its down",
		changed: map[string]string{
			"db/migrations/0003_plan.up.sql":   "ALTER TABLE users ADD COLUMN plan text;\n",
			"db/migrations/0003_plan.down.sql": "ALTER TABLE users DROP COLUMN plan;\n",
		},
	}, {
		name:    "up.sql whose down is on disk",
		changed: map[string]string{"db/migrations/0003_plan.up.sql": "ALTER TABLE users ADD COLUMN plan text;\n"},
		onDisk:  map[string]string{"db/migrations/0003_plan.down.sql": "ALTER TABLE users DROP COLUMN plan;\n"},
	}, {
		name:    "flyway versioned migration",
		changed: map[string]string{"db/migration/V3__plan.sql": "ALTER TABLE users ADD COLUMN plan text;\n"},
	}, {
		name: "alembic",
		changed: map[string]string{
			"alembic/versions/2f1_plan.py": alembicGood,
			"alembic/versions/3a2_pass.py": "def upgrade():\n    op.drop_table(\"audit\")\n\n\ndef downgrade():\n    \"\"\"Irreversible.\"\"\"\n    pass\n",
			"alembic/versions/4b3_none.py": "def upgrade():\n    op.drop_table(\"audit\")\n",
			"alembic/versions/5c4_nie.py":  "def upgrade():\n    op.drop_table(\"audit\")\n\n\ndef downgrade(): raise NotImplementedError\n",
		},
		want: []string{"alembic/versions/3a2_pass.py:5", "alembic/versions/4b3_none.py:1", "alembic/versions/5c4_nie.py:5"},
	}, {
		name: "django",
		changed: map[string]string{"shop/migrations/0007_backfill.py": `from django.db import migrations


class Migration(migrations.Migration):
    operations = [
        migrations.RunPython(backfill),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunSQL("UPDATE shop_item SET price = 0"),
        migrations.RunSQL(
            "UPDATE shop_item SET price = 1",
            reverse_sql="UPDATE shop_item SET price = 0",
        ),
    ]
`},
		want: []string{"shop/migrations/0007_backfill.py:6", "shop/migrations/0007_backfill.py:8"},
	}, {
		name: "rails",
		changed: map[string]string{
			"db/migrate/20260101_add_plan.rb":   "class AddPlan < ActiveRecord::Migration[7.1]\n  def up\n    add_column :users, :plan, :string\n  end\nend\n",
			"db/migrate/20260102_add_tier.rb":   "class AddTier < ActiveRecord::Migration[7.1]\n  def change\n    add_column :users, :tier, :string\n  end\nend\n",
			"db/migrate/20260103_add_region.rb": "class AddRegion < ActiveRecord::Migration[7.1]\n  def up\n    add_column :users, :region, :string\n  end\n\n  def down\n    remove_column :users, :region\n  end\nend\n",
		},
		want: []string{"db/migrate/20260101_add_plan.rb:1"},
	}, {
		name: "knex and typeorm",
		changed: map[string]string{
			"migrations/20260101_plan.js":  "exports.up = function (knex) {\n  return knex.schema.table('users', (t) => t.string('plan'));\n};\n\nexports.down = function (knex) {};\n",
			"migrations/20260102_tier.js":  "exports.up = async (knex) => {\n  await knex.schema.table('users', (t) => t.string('tier'));\n};\n",
			"src/migration/1700-region.ts": "export class Region1700 {\n  async up(q: QueryRunner): Promise<void> {\n    await q.query('ALTER TABLE users ADD region text');\n  }\n\n  async down(q: QueryRunner): Promise<void> {\n    await q.query('ALTER TABLE users DROP region');\n  }\n}\n",
		},
		want: []string{"migrations/20260101_plan.js:5", "migrations/20260102_tier.js:1"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scriptCheck(t, MigrationWithoutRollback, scriptChangeSet(t, tt.changed, tt.onDisk))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
