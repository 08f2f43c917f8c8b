package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/security"
	"github.com/reviewls/reviewls/review/secret"
)

// The gate scans every changed file for secrets, whatever the review does
// with it, as gitleaks scans every blob a commit adds: the files the
// review skips (build output, vendored and generated code, lock files,
// minified files and maps, files over the size cap, UTF-16 files and
// files with a NUL byte, paths .gitattributes marks binary, -diff or
// working-tree-encoding) and the paths the configuration's ignore globs
// leave out. The new side of each — the index blob in a staged review, the
// work tree otherwise — is read whole, line by line (secret.Scan), decoded
// from UTF-16 and from its working-tree encoding; only true binaries are
// left out, and listed. A secret counts when the base version of the path
// does not hold the same value, so the secrets already in a vendored file
// do not block. Each becomes a finding of the rule that reports its kind,
// on the line of the value, its message naming why the review does not
// read the file. A file's scan is memoised on it, so a save re-scans only
// the files it changed.

// unreadOf memoises the scan of a file on it.
var unreadOf review.Memo[*unreadScan]

// unreadScan is the outcome of the scan of one file.
type unreadScan struct {
	// hits are the secrets the base version does not hold.
	hits []secret.Hit
	// unscanned says why the content could not be scanned, or is "".
	unscanned string
}

// unread scans the files of cs that the review does not read. It returns
// the findings, the change set the review lists — cs, or a copy of it in
// which the ignored files that hold a secret join Files as skipped files,
// so that their findings have a file in the change — and the files it
// could not scan.
func (e *Engine) unread(ctx context.Context, cs *review.ChangeSet, cfg *review.Config) ([]*review.Finding, *review.ChangeSet, []review.Unscanned) {
	var findings []*review.Finding
	var unscanned []review.Unscanned
	var join []*review.File
	scan := func(f *review.File, ignored bool) {
		if ctx.Err() != nil {
			return
		}
		// Memoised whole: a cancelled run must not leave a scan that missed
		// the base version.
		s := unreadOf.Of(f, func() *unreadScan { return e.scanUnread(context.WithoutCancel(ctx), cs.Target, f) })
		if s.unscanned != "" {
			unscanned = append(unscanned, review.Unscanned{Path: f.Path, Reason: s.unscanned})
		}
		found := security.UnreadFindings(f, string(f.Skip), s.hits, unreadState(cs.Target, f), cfg)
		if len(found) > 0 && ignored {
			join = append(join, f)
		}
		findings = append(findings, found...)
	}
	for _, f := range cs.Files {
		if !f.Reviewed() && hasOwnContent(f) {
			scan(f, false)
		}
	}
	for _, f := range cs.Ignored {
		scan(f, true)
	}
	if len(join) == 0 {
		return findings, cs, unscanned
	}
	listed := &review.ChangeSet{Root: cs.Root, Target: cs.Target, Files: append(append([]*review.File(nil), cs.Files...), join...), Ignored: cs.Ignored}
	listed.Sort()
	return findings, listed, unscanned
}

// hasOwnContent reports whether a changed file the review does not read
// has a new side of its own to scan: not deleted, not a submodule or a
// nested repository, not gone from the work tree, not one of the ignored
// files a review lists (they are scanned as such).
func hasOwnContent(f *review.File) bool {
	switch f.Skip {
	case review.SkipSubmodule, review.SkipNested, review.SkipWorkTreeDeleted, review.SkipIgnored:
		return false
	}
	return f.Status != review.StatusDeleted
}

// unreadState is the state of the lines of a file the review does not
// read, which has no per-line states.
func unreadState(t review.Target, f *review.File) review.LineState {
	switch {
	case t.Staged:
		return review.LineStaged
	case f.Status == review.StatusUntracked:
		return review.LineUntracked
	case f.Unstaged:
		return review.LineUnstaged
	case f.Staged:
		return review.LineStaged
	}
	return review.LineCommitted
}

// scanUnread scans the new side of f and keeps the secrets its base
// version does not hold.
func (e *Engine) scanUnread(ctx context.Context, t review.Target, f *review.File) *unreadScan {
	rc, enc, err := e.repo.OpenNew(t, f)
	if err != nil {
		return &unreadScan{unscanned: "unreadable: " + err.Error()}
	}
	defer rc.Close()
	hits, err := scanText(rc, enc, f.Path)
	switch {
	case errors.Is(err, secret.ErrBinary):
		return &unreadScan{unscanned: "binary"}
	case err != nil:
		return &unreadScan{unscanned: "unreadable: " + err.Error()}
	case len(hits) == 0:
		return &unreadScan{}
	}
	base := ""
	if f.Status != review.StatusAdded && f.Status != review.StatusUntracked {
		if data, err := e.repo.ReadBase(ctx, t, f.BasePath()); err == nil {
			base = decodeText(data)
		}
	}
	out := &unreadScan{}
	for _, h := range hits {
		for _, v := range h.Values {
			if !strings.Contains(base, v) {
				out.hits = append(out.hits, h)
				break
			}
		}
	}
	return out
}

// scanText decodes r (from enc, a working-tree-encoding, or as sniffed)
// and scans it as the file at path.
func scanText(r io.Reader, enc, path string) ([]secret.Hit, error) {
	text, err := secret.Decode(r, enc)
	if err != nil {
		return nil, err
	}
	return secret.Scan(text, path)
}

// decodeText returns data as UTF-8 text, decoded as sniffed; "" for a
// binary.
func decodeText(data []byte) string {
	text, err := secret.Decode(bytes.NewReader(data), "")
	if err != nil {
		return ""
	}
	b, err := io.ReadAll(text)
	if err != nil {
		return ""
	}
	return string(b)
}
