package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
)

// baselineCache holds the repository's baseline (.reviewls-baseline.json,
// or the config's baseline path) as last read, keyed by the file's size
// and modification time, so a review re-reads it, valid or not, only when
// it changed.
type baselineCache struct {
	rel  string
	size int64
	mod  time.Time
	read bool
	b    *review.Baseline // nil when the file was invalid
}

// baselineLocked returns the baseline for a review, or nil when there is
// none. A baseline that cannot be read is reported once and ignored: the
// review goes on without it, as the CLI's would not (it exits 2), because
// an editor should keep showing findings. Requires engMu.
func (ss *session) baselineLocked() *review.Baseline {
	rel := ss.eng.Config().BaselinePath()
	ss.baselineRel.Store(&rel)
	c := &ss.baseline
	st, err := os.Stat(filepath.Join(ss.root, filepath.FromSlash(rel)))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			ss.logger.Warn("baseline", "err", err)
		}
		*c = baselineCache{}
		return nil
	}
	if c.read && c.rel == rel && c.size == st.Size() && c.mod.Equal(st.ModTime()) {
		return c.b
	}
	b, err := artifacts.ReadBaseline(ss.root, rel)
	if err != nil {
		ss.logger.Warn("baseline ignored", "err", err)
		ss.srv.showMessageOnce("reviewls: " + err.Error() + " (reviewing without the baseline)")
	}
	*c = baselineCache{rel: rel, size: st.Size(), mod: st.ModTime(), read: true, b: b}
	return b
}

// isBaselinePath reports whether p is the configured baseline file, whose
// change affects the whole review.
func (ss *session) isBaselinePath(p string) bool {
	rel := review.BaselineFile
	if r := ss.baselineRel.Load(); r != nil {
		rel = *r
	}
	return p == rel
}
