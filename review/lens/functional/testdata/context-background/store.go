package store

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

type Store struct{ db *sql.DB }

func (s *Store) Get(ctx context.Context, id string) (string, error) {
	var name string
	err := s.db.QueryRowContext(context.Background(), "SELECT name FROM items WHERE id = $1", id).Scan(&name) // want "context.Background\(\) ignores the function's ctx parameter"
	return name, err
}

func (s *Store) Touch(reqCtx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.TODO(), time.Second) // want "context.TODO\(\) ignores the function's reqCtx parameter"
	defer cancel()
	return s.retry(func() error {
		_, err := s.db.ExecContext(context.Background(), "UPDATE items SET seen = now() WHERE id = $1", id) // want "ignores the function's reqCtx"
		_ = ctx
		return err
	})
}

func (s *Store) retry(fn func() error) error { return fn() }

// Near misses.

func (s *Store) Unnamed(_ context.Context) error {
	_, err := s.db.ExecContext(context.Background(), "SELECT 1")
	return err
}

func (s *Store) Async(ctx context.Context, id string) {
	go func() {
		_, _ = s.db.ExecContext(context.Background(), "DELETE FROM cache WHERE id = $1", id)
	}()
	defer func() {
		_, _ = s.db.ExecContext(context.Background(), "UPDATE stats SET n = n + 1")
	}()
}

func Serve(ctx context.Context, srv *http.Server) error {
	go func() { _ = srv.ListenAndServe() }()
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

func Stop(ctx context.Context, srv *http.Server) error {
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

func NoContext(s *Store) error {
	_, err := s.db.ExecContext(context.Background(), "SELECT 1")
	return err
}

func Handler(w http.ResponseWriter, r *http.Request) {
	ctx := context.Background()
	_ = ctx
}

func (s *Store) Guarded(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx != context.Background() {
		_ = ctx
	}
	_, err := s.db.ExecContext(ctx, "SELECT 1")
	return err
}
