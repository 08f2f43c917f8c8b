ALTER TABLE users ADD COLUMN plan text; -- want "has no 0003_plan.down.sql"
