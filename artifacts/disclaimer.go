package artifacts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
)

// DisclaimerPath is where a repository keeps its own disclaimer wording
// (the hve-core disclaimer-language instructions).
const DisclaimerPath = ".github/instructions/shared/disclaimer-language.instructions.md"

// disclaimerSlug selects the section of the disclaimer file that applies to
// code review.
const disclaimerSlug = "code-review"

// HumanReviewCheckbox is the literal, always unchecked, last line of
// review.md; only a human may tick it.
const HumanReviewCheckbox = "- [ ] Reviewed and validated by a qualified human reviewer"

// Disclaimer is the caution block that ends every review.md.
type Disclaimer struct {
	// Block is the "> [!CAUTION]" blockquote, one line per quoted line,
	// without a trailing newline.
	Block string
	// Source says where Block came from: the repository file's path
	// relative to the root, or "reviewls" for the built-in wording.
	Source string
}

// DefaultDisclaimer is reviewls's own wording, used when the repository has
// no disclaimer file.
var DefaultDisclaimer = Disclaimer{
	Block: "> [!CAUTION]\n" +
		"> **Disclaimer:** reviewls is an automated review assistant, not a reviewer. " +
		"Its findings and suggested fixes are input for the reviewer's own judgment, " +
		"and each one must be validated by a qualified human before anyone acts on it, merges the change, or treats it as resolved. " +
		"Its output is not engineering approval, merge authorization, or compliance certification.",
	Source: "reviewls",
}

// LoadDisclaimer returns the disclaimer of the repository at root. When
// root holds DisclaimerPath it returns that file's "## Code-Review" caution
// block verbatim; a file without one is an error, and the caller must then
// stop rather than write a substitute (hve-spec 8.5). Without the file it
// returns DefaultDisclaimer.
//
// The file is parsed as its authoring contract says: one H2 per family,
// whose slug is the first word of its heading, lower-cased; the first
// "> [!CAUTION]" blockquote of the section is the disclaimer. Headings
// inside front matter, fenced code and HTML comments do not count.
func LoadDisclaimer(root string) (Disclaimer, error) {
	name := filepath.Join(root, filepath.FromSlash(DisclaimerPath))
	data, err := regular.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultDisclaimer, nil
	}
	if err != nil {
		return Disclaimer{}, fmt.Errorf("read disclaimer: %w", err)
	}
	block, ok := cautionBlock(data, disclaimerSlug)
	if !ok {
		return Disclaimer{}, fmt.Errorf("disclaimer %s: no \"> [!CAUTION]\" block under a \"## Code-Review\" heading", DisclaimerPath)
	}
	return Disclaimer{Block: block, Source: DisclaimerPath}, nil
}

// cautionBlock returns the first caution blockquote of the H2 section whose
// slug is slug.
func cautionBlock(data []byte, slug string) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	var (
		lineNo     int
		inFront    bool
		fence      string // the open code fence, "" outside code
		inComment  bool
		inSection  bool
		collecting bool
		block      []string
	)
	for sc.Scan() {
		raw := strings.TrimSuffix(sc.Text(), "\r")
		lineNo++
		trimmed := strings.TrimSpace(raw)
		if collecting {
			if strings.HasPrefix(strings.TrimLeft(raw, " "), ">") {
				block = append(block, raw)
				continue
			}
			break
		}
		switch {
		case lineNo == 1 && trimmed == "---":
			inFront = true
			continue
		case inFront:
			if trimmed == "---" || trimmed == "..." {
				inFront = false
			}
			continue
		case inComment:
			if strings.Contains(raw, "-->") {
				inComment = false
			}
			continue
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			continue
		case strings.HasPrefix(trimmed, "<!--"):
			inComment = !strings.Contains(trimmed[4:], "-->")
			continue
		}
		if h, ok := strings.CutPrefix(raw, "## "); ok {
			fields := strings.Fields(h)
			inSection = len(fields) > 0 && strings.ToLower(fields[0]) == slug
			continue
		}
		if strings.HasPrefix(raw, "# ") {
			inSection = false
			continue
		}
		if inSection && isCautionStart(raw) {
			collecting = true
			block = append(block, raw)
		}
	}
	if sc.Err() != nil || len(block) < 2 {
		// A caution marker with no prose is not a disclaimer.
		return "", false
	}
	return strings.Join(block, "\n"), true
}

// isCautionStart reports whether line opens a GitHub caution alert.
func isCautionStart(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), ">")
	return ok && strings.EqualFold(strings.TrimSpace(rest), "[!CAUTION]")
}
