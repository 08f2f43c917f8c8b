package artifacts

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reviewls/reviewls/review"
)

// PRReference renders the diff artifact at DiffPatchPath in the layout of
// hve-core's pr-reference skill: a <commit_history> root holding
// <current_branch>, <base_branch>, <commits> and <full_diff>.
//
// Two deliberate differences make the file well-formed XML, which the
// skill's raw output is not: <full_diff> wraps the unified diff in a CDATA
// section (on lines of its own, so line-oriented readers such as read-diff
// still see every diff line intact), and characters XML cannot carry are
// replaced by U+FFFD. A local extension, <skipped_files>, lists the changed
// paths that were not reviewed, with the reason.
//
// The diff covers the reviewed and deleted files: git's headers
// ("diff --git", new/deleted file mode, similarity index and rename
// from/to), then ---/+++ and the hunks. Commits are those of res.History between the merge-base and
// HEAD of a branch diff; a local-changes review has none.
func PRReference(res *review.Result) []byte {
	v := newView(res, Options{})
	return v.prReference()
}

func (v *view) prReference() []byte {
	var b bytes.Buffer
	b.WriteString("<commit_history>\n")
	b.WriteString("  <current_branch>\n")
	b.WriteString(xmlText(v.red.String(v.branch())) + "\n")
	b.WriteString("  </current_branch>\n\n")
	b.WriteString("  <base_branch>\n")
	b.WriteString("    " + xmlText(v.red.String(v.base())) + "\n")
	b.WriteString("  </base_branch>\n\n")

	b.WriteString("  <commits>\n")
	for _, c := range v.branchCommits() {
		date := time.Unix(c.When, 0).UTC().Format(time.DateOnly)
		fmt.Fprintf(&b, "<commit hash=\"%s\" date=\"%s\"><message><subject>%s</subject><body>%s</body></message></commit>\n",
			xmlAttr(review.ShortSHA(c.Hash)), date, cdata(v.red.String(c.Subject)), cdata(""))
	}
	b.WriteString("  </commits>\n\n")

	b.WriteString("  <full_diff>\n")
	var diff strings.Builder
	for _, f := range v.cs.Files {
		if f.Skip == "" {
			writeFileDiff(&diff, f)
		}
	}
	if diff.Len() > 0 {
		b.WriteString("<![CDATA[\n")
		b.WriteString(cdataBody(v.red.String(diff.String())))
		b.WriteString("]]>\n")
	}
	b.WriteString("  </full_diff>\n")

	if skipped := v.skipped(); len(skipped) > 0 {
		b.WriteString("\n  <skipped_files>\n")
		for _, f := range skipped {
			fmt.Fprintf(&b, "    <file path=\"%s\" status=\"%s\" reason=\"%s\"/>\n",
				xmlAttr(v.red.String(f.Path)), xmlAttr(string(f.Status)), xmlAttr(v.red.String(f.Skip.String())))
		}
		b.WriteString("  </skipped_files>\n")
	}
	b.WriteString("</commit_history>\n")
	return v.red.Bytes(b.Bytes())
}

// branchCommits returns the commits of res.History that lie between the
// merge-base and HEAD of a branch diff: the entries before the base commit
// in the history, which lists the newest first as git log does. When the
// base commit is not in the list the range is unknown and nothing is
// returned rather than a guess.
func (v *view) branchCommits() []review.Commit {
	h := v.res.History
	if h == nil || !h.Available || v.target.Kind != review.BranchDiff || v.target.BaseSHA == "" {
		return nil
	}
	for i, c := range h.Commits {
		if c.Hash == v.target.BaseSHA {
			return h.Commits[:i]
		}
	}
	return nil
}

// writeFileDiff writes the unified diff of one file with git's headers.
func writeFileDiff(b *strings.Builder, f *review.File) {
	oldPath, newPath := f.Path, f.Path
	if f.Status == review.StatusRenamed && f.OldPath != "" {
		oldPath = f.OldPath
	}
	fmt.Fprintf(b, "diff --git %s %s\n", gitPath("a/", oldPath), gitPath("b/", newPath))
	hunks := f.Hunks
	switch f.Status {
	case review.StatusAdded, review.StatusUntracked:
		b.WriteString("new file mode 100644\n")
		if len(hunks) == 0 && len(f.Content) > 0 {
			hunks = []review.Hunk{wholeFileHunk(f.Content)}
		}
	case review.StatusDeleted:
		b.WriteString("deleted file mode 100644\n")
	case review.StatusRenamed:
		if oldPath != newPath {
			fmt.Fprintf(b, "similarity index %d%%\nrename from %s\nrename to %s\n", f.Similarity, gitName(oldPath), gitName(newPath))
		}
	}
	if len(hunks) == 0 {
		return
	}
	from, to := gitPath("a/", oldPath), gitPath("b/", newPath)
	switch f.Status {
	case review.StatusAdded, review.StatusUntracked:
		from = "/dev/null"
	case review.StatusDeleted:
		to = "/dev/null"
	}
	fmt.Fprintf(b, "--- %s%s\n+++ %s%s\n", from, tabIfSpace(oldPath), to, tabIfSpace(newPath))
	newNoEOL := len(f.Content) > 0 && f.Content[len(f.Content)-1] != '\n'
	for k, h := range hunks {
		fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		// The last line of a side that ends without a newline gets git's
		// marker; only the last hunk can hold it, when it reaches the end
		// (of both sides: nothing follows it).
		oldEnd, newEnd := -1, -1
		if k == len(hunks)-1 && (h.NewLines == 0 || h.NewStart+h.NewLines-1 == countLines(f.Content)) {
			oldEnd, newEnd = lastLineOf(h, '-'), lastLineOf(h, '+')
		}
		for i, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
			if i == oldEnd && f.BaseNoEOL || i == newEnd && newNoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
}

// lastLineOf returns the index in h of the last line of one side: the
// last context line or line marked side ('-' old, '+' new); -1 if none.
func lastLineOf(h review.Hunk, side byte) int {
	for i := len(h.Lines) - 1; i >= 0; i-- {
		if l := h.Lines[i]; l != "" && (l[0] == ' ' || l[0] == side) {
			return i
		}
	}
	return -1
}

// countLines counts the lines of content, a last one without a newline
// included.
func countLines(content []byte) int {
	n := bytes.Count(content, []byte("\n"))
	if len(content) > 0 && content[len(content)-1] != '\n' {
		n++
	}
	return n
}

// wholeFileHunk turns the content of a new file without hunks into one
// hunk of added lines.
func wholeFileHunk(content []byte) review.Hunk {
	text := strings.TrimSuffix(string(content), "\n")
	lines := strings.Split(text, "\n")
	h := review.Hunk{NewStart: 1, NewLines: len(lines)}
	for _, l := range lines {
		h.Lines = append(h.Lines, "+"+strings.TrimSuffix(l, "\r"))
	}
	return h
}

// hunkRange formats one side of a hunk header as git does: the count is
// left out when it is 1.
func hunkRange(start, count int) string {
	if count == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

// gitPath prefixes a path as git's diff headers do, quoting it C-style when
// it holds a quote, a backslash or a control character.
func gitPath(prefix, p string) string {
	if needsQuote(p) {
		return strconv.Quote(prefix + p)
	}
	return prefix + p
}

func gitName(p string) string {
	if needsQuote(p) {
		return strconv.Quote(p)
	}
	return p
}

func needsQuote(p string) bool {
	return strings.ContainsFunc(p, func(r rune) bool { return r == '"' || r == '\\' || r < ' ' || r == 0x7f })
}

// tabIfSpace returns the tab git appends to ---/+++ lines of a path with a
// space, so readers know where the name ends.
func tabIfSpace(p string) string {
	if strings.Contains(p, " ") {
		return "\t"
	}
	return ""
}

// xmlSafe replaces what XML 1.0 cannot carry, even in CDATA: invalid UTF-8
// and control characters other than tab, newline and carriage return.
func xmlSafe(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF):
			return utf8.RuneError
		}
		return r
	}, s)
}

// xmlText escapes s as element text.
func xmlText(s string) string {
	s = xmlSafe(s)
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// xmlAttr escapes s as a double-quoted attribute value.
func xmlAttr(s string) string {
	s = xmlSafe(s)
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;", "\r", "&#13;", "\t", "&#9;").Replace(s)
}

// cdata wraps s in a CDATA section.
func cdata(s string) string { return "<![CDATA[" + cdataBody(s) + "]]>" }

// cdataBody makes s safe inside a CDATA section: a "]]>" in the text ends
// one section and opens the next.
func cdataBody(s string) string {
	return strings.ReplaceAll(xmlSafe(s), "]]>", "]]]]><![CDATA[>")
}
