package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// Digest returns the SHA-256 of the bytes a review of cs read, as
// "sha256:<hex>": for each changed file in path order its path, old path
// and status, then its diff (the hunks as the diff artifact has them) or,
// for an untracked or added file without hunks, its content. A decision
// carries it, so a hook or CI can tell a decision about this exact change
// from a stale one. Skipped files add their path and status only: their
// bytes were not reviewed.
func Digest(cs *ChangeSet) string {
	h := sha256.New()
	if cs != nil {
		for _, f := range cs.Files {
			fmt.Fprintf(h, "file %q %q %s %t\n", f.Path, f.OldPath, f.Status, f.Skip != "")
			if f.Skip != "" {
				continue
			}
			for _, hk := range f.Hunks {
				fmt.Fprintf(h, "@@ -%d,%d +%d,%d @@\n", hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines)
				for _, l := range hk.Lines {
					io.WriteString(h, l)
					io.WriteString(h, "\n")
				}
			}
			if len(f.Hunks) == 0 && f.Content != nil {
				fmt.Fprintf(h, "content %d\n", len(f.Content))
				h.Write(f.Content)
			}
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
