package users

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

type Store struct{ db *sql.DB }

const usersTable = "users"

var baseQuery = "SELECT id, name FROM users"

func (s *Store) ByName(ctx context.Context, name string) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, "SELECT id FROM users WHERE name = '"+name+"'") // want "s.db.QueryContext is built with concatenation of `name`"
}

func (s *Store) Sorted(ctx context.Context, column string) (*sql.Rows, error) {
	q := fmt.Sprintf("SELECT id FROM users ORDER BY %s", column)
	return s.db.QueryContext(ctx, q) // want "fmt.Sprintf formatting `column` with %s"
}

func (s *Store) Delete(id string) error {
	query := "DELETE FROM users WHERE id = "
	query += id
	_, err := s.db.Exec(query) // want "`query \+=` of `id`"
	return err
}

// Near misses.

func (s *Store) ByID(ctx context.Context, id int64) *sql.Row {
	return s.db.QueryRowContext(ctx, "SELECT name FROM users WHERE id = $1", id)
}

func (s *Store) Page(ctx context.Context, limit int) (*sql.Rows, error) {
	q := fmt.Sprintf("SELECT id FROM %s ORDER BY id LIMIT %d", usersTable, limit)
	return s.db.QueryContext(ctx, q)
}

func (s *Store) In(ctx context.Context, ids []int64) (*sql.Rows, error) {
	marks := strings.Repeat("?,", len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	q := "SELECT name FROM users WHERE id IN (" + strings.TrimSuffix(marks, ",") + ")"
	_ = q
	return s.db.QueryContext(ctx, "SELECT name FROM users WHERE id IN ("+marks[:len(marks)-1]+")", args...)
}

func (s *Store) Filter(ctx context.Context, active bool, n int) (*sql.Rows, error) {
	where := " WHERE 1 = 1"
	if active {
		where += " AND active"
	}
	return s.db.QueryContext(ctx, baseQuery+where+" LIMIT "+strconv.Itoa(n))
}

func (s *Store) Joined(ctx context.Context, cols []string) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, fmt.Sprintf("SELECT %s FROM users", strings.Join(cols, ", ")))
}

type cache struct{}

func (cache) Get(ctx context.Context, key string) string { return key }

func Lookup(ctx context.Context, c cache, user string) string {
	return c.Get(ctx, "user:"+user)
}
