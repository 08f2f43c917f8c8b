package artifacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// disclaimerFile imitates a repository's disclaimer-language instructions:
// front matter, an authoring comment that mentions the heading, several
// families, and a multi-line caution block for code review.
const disclaimerFile = `---
description: "Disclaimers for review agents"
applyTo: '**/.copilot-tracking/reviews/code-reviews/**'
---

# Disclaimer Language

<!--
Authoring notes:
## Code-Review
> [!CAUTION]
> This example inside a comment must be ignored.
-->

## Planning

> [!CAUTION]
> **Disclaimer:** Planning output is a draft.

` + "```markdown" + `
## Code-Review
> [!CAUTION]
> Neither must this fenced example.
` + "```" + `

## Code-Review

Some introduction.

> [!CAUTION]
> **Disclaimer:** This tool only assists a reviewer — it signs nothing off.
> Every finding must be checked by a qualified person — before merging.

> [!CAUTION]
> A second block in the section is not used.

## Security-Review

> [!CAUTION]
> **Disclaimer:** Security text.
`

const wantBlock = "> [!CAUTION]\n" +
	"> **Disclaimer:** This tool only assists a reviewer — it signs nothing off.\n" +
	"> Every finding must be checked by a qualified person — before merging."

func writeDisclaimer(t *testing.T, root, content string) {
	t.Helper()
	mkfile(t, filepath.Join(root, filepath.FromSlash(DisclaimerPath)), content)
}

func TestLoadDisclaimerFromRepository(t *testing.T) {
	for name, content := range map[string]string{
		"lf":   disclaimerFile,
		"crlf": strings.ReplaceAll(disclaimerFile, "\n", "\r\n"),
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeDisclaimer(t, root, content)
			d, err := LoadDisclaimer(root)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(Disclaimer{Block: wantBlock, Source: DisclaimerPath}, d); diff != "" {
				t.Errorf("disclaimer (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadDisclaimerFallback(t *testing.T) {
	d, err := LoadDisclaimer(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if d != DefaultDisclaimer {
		t.Errorf("got %+v, want the default", d)
	}
	lines := strings.Split(d.Block, "\n")
	if len(lines) != 2 || lines[0] != "> [!CAUTION]" || !strings.HasPrefix(lines[1], "> **Disclaimer:** ") {
		t.Errorf("default block is not a two-line caution:\n%s", d.Block)
	}
	for _, phrase := range []string{"automated", "qualified human", "not engineering approval, merge authorization, or compliance certification"} {
		if !strings.Contains(d.Block, phrase) {
			t.Errorf("default disclaimer lacks %q", phrase)
		}
	}
}

func TestLoadDisclaimerWithoutBlock(t *testing.T) {
	for name, content := range map[string]string{
		"no section":      "# Disclaimer Language\n\n## Planning\n\n> [!CAUTION]\n> Planning only.\n",
		"no caution":      "## Code-Review\n\nJust prose.\n\n> [!NOTE]\n> Not a caution.\n",
		"marker only":     "## Code-Review\n\n> [!CAUTION]\n\nProse.\n",
		"only in comment": "<!--\n## Code-Review\n> [!CAUTION]\n> x\n-->\n",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeDisclaimer(t, root, content)
			if _, err := LoadDisclaimer(root); err == nil {
				t.Error("LoadDisclaimer accepted a file without a Code-Review caution block")
			}
			// Write stops before writing anything.
			if _, err := Write(root, cleanResult(), testOpts); err == nil {
				t.Error("Write succeeded without a disclaimer")
			}
			if _, err := os.Stat(filepath.Join(root, TrackingDir)); !os.IsNotExist(err) {
				t.Errorf("Write created %s: %v", TrackingDir, err)
			}
		})
	}
}

func TestWriteCopiesDisclaimerVerbatim(t *testing.T) {
	root := t.TempDir()
	writeDisclaimer(t, root, disclaimerFile)
	w := writeOK(t, root, workflowResult())
	md := string(readFile(t, filepath.Join(w.Dir, FileReview)))
	want := "## Disclaimer and Human Review\n\n" + wantBlock + "\n\n" + HumanReviewCheckbox + "\n"
	if !strings.HasSuffix(md, want) {
		t.Errorf("review.md does not end with the repository disclaimer:\n%s", tail(md, 400))
	}
	if strings.Contains(md, DefaultDisclaimer.Block) {
		t.Error("review.md also carries the default disclaimer")
	}
}
