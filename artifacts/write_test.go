package artifacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

// tree returns every regular file under dir, slash-separated and relative
// to dir, sorted.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func writeOK(t *testing.T, root string, res *review.Result) *Written {
	t.Helper()
	w, err := Write(root, res, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestWriteIgnoresItself checks the tracking folder's own .gitignore: it
// is written by default, removed once the team commits its reviews, and
// an edited one is the team's and stays.
func TestWriteIgnoresItself(t *testing.T) {
	root := t.TempDir()
	ignore := filepath.Join(root, TrackingDir, ".gitignore")
	writeOK(t, root, workflowResult())
	if data, err := os.ReadFile(ignore); err != nil || !strings.HasSuffix(string(data), "\n*\n") {
		t.Fatalf(".gitignore = %q, %v; want one that ignores everything", data, err)
	}
	commit := testOpts
	commit.CommitReviews = true
	if _, err := Write(root, workflowResult(), commit); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ignore); !os.IsNotExist(err) {
		t.Errorf("commit-reviews: the .gitignore reviewls wrote is still there (%v)", err)
	}
	edited := "*.lock\n"
	if err := os.WriteFile(ignore, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{commit, testOpts} {
		if _, err := Write(root, workflowResult(), opts); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(ignore); err != nil || string(data) != edited {
			t.Errorf("commit-reviews %v: edited .gitignore became %q, %v", opts.CommitReviews, data, err)
		}
	}
}

func TestWriteWorkflowFileSet(t *testing.T) {
	root := t.TempDir()
	w := writeOK(t, root, workflowResult())
	want := []string{
		".gitignore",
		".lock",
		"pr/pr-reference.xml",
		"reviews/code-reviews/feat-login/diff-state.json",
		"reviews/code-reviews/feat-login/dispatch-manifest.json",
		"reviews/code-reviews/feat-login/functional-findings.json",
		"reviews/code-reviews/feat-login/metadata.json",
		"reviews/code-reviews/feat-login/readiness-findings.json",
		"reviews/code-reviews/feat-login/review-artifact.json",
		"reviews/code-reviews/feat-login/review.md",
		"reviews/code-reviews/feat-login/security-findings.json",
		"reviews/code-reviews/feat-login/standards-findings.json",
	}
	if diff := cmp.Diff(want, tree(t, filepath.Join(root, TrackingDir))); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if got := filepath.Base(w.Files[len(w.Files)-1]); got != FileMetadata {
		t.Errorf("last file written is %s, want metadata.json", got)
	}
	if w.Dir != filepath.Join(root, ".copilot-tracking", "reviews", "code-reviews", "feat-login") {
		t.Errorf("Dir = %s", w.Dir)
	}
	var m map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(w.Dir, FileMetadata)), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["artifacts"]; ok {
		t.Error("workflow metadata lists artifacts")
	}
	if err := Validate(w.Dir); err != nil {
		t.Error(err)
	}
}

// TestWriteModelReview checks that a review the model reviewer ran in
// writes its ledger, model-review.json, listed in the workflow metadata's
// artifacts, and that the next review without one removes it.
func TestWriteModelReview(t *testing.T) {
	root := t.TempDir()
	res := modelResult()
	w := writeOK(t, root, res)
	ledger := filepath.Join(w.Dir, FileModelReview)
	if err := schemas.Validate("model-review", readFile(t, ledger)); err != nil {
		t.Error(err)
	}
	var m struct {
		Artifacts map[string]any `json:"artifacts"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(w.Dir, FileMetadata)), &m); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"model_review": FileModelReview}, m.Artifacts); diff != "" {
		t.Errorf("metadata artifacts (-want +got):\n%s", diff)
	}
	if err := Validate(w.Dir); err != nil {
		t.Error(err)
	}
	res.Model = review.ModelReview{}
	w = writeOK(t, root, res)
	if _, err := os.Stat(ledger); !errors.Is(err, fs.ErrNotExist) || !slices.Contains(w.Removed, ledger) {
		t.Errorf("after a review without the model: %s stat %v, removed %q", FileModelReview, err, w.Removed)
	}
}

func TestWriteInteractiveFileSet(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	dir := Folder(root, res.ChangeSet.Target)
	// Artifacts the server wrote on request during the loop.
	mkfile(t, filepath.Join(dir, "explanations", "board-1-Login.md"), "Login renders the form.")
	mkfile(t, filepath.Join(dir, "walkback", "board-1-001-register-2.md"), "Investigation.")
	mkfile(t, filepath.Join(dir, "walkback", "scratch notes.md"), "Not an artifact name.")

	w := writeOK(t, root, res)
	want := []string{
		"dispatch-board.md",
		"dispatch-manifest.json",
		"accessibility-findings.json",
		"diff-state.json",
		"emission-record.json",
		"explanations/board-1-Login.md",
		"functional-findings.json",
		"metadata.json",
		"review-artifact.json",
		"review.md",
		"walkback/board-1-001-register-2.md",
		"walkback/scratch notes.md",
		"walkthrough.md",
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, tree(t, w.Dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	var m MetadataDoc
	if err := json.Unmarshal(readFile(t, filepath.Join(w.Dir, FileMetadata)), &m); err != nil {
		t.Fatal(err)
	}
	wantIdx := &ArtifactIndex{
		DispatchManifest: "dispatch-manifest.json",
		DispatchBoard:    "dispatch-board.md",
		Walkthrough:      "walkthrough.md",
		EmissionRecord:   "emission-record.json",
		Explanations:     []string{"explanations/board-1-Login.md"},
		Walkbacks:        []string{"walkback/board-1-001-register-2.md"},
	}
	if diff := cmp.Diff(wantIdx, m.Artifacts); diff != "" {
		t.Errorf("metadata.artifacts (-want +got):\n%s", diff)
	}
	md := string(readFile(t, filepath.Join(w.Dir, FileReview)))
	for _, link := range []string{"(dispatch-board.md)", "(walkthrough.md)", "(explanations/board-1-Login.md)", "(walkback/board-1-001-register-2.md)"} {
		if !strings.Contains(md, link) {
			t.Errorf("review.md does not link %s", link)
		}
	}
	if err := Validate(w.Dir); err != nil {
		t.Error(err)
	}
}

func mkfile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestWriteRemovesStaleFiles runs an interactive review with five
// perspectives, then a workflow review with two, on the same branch: the
// stale findings files go, and the review loop's work (explanations, the
// walkthrough, the board, the emission record) and files that are not
// artifacts stay.
func TestWriteRemovesStaleFiles(t *testing.T) {
	root := t.TempDir()
	first := interactiveResult()
	first.Perspectives = review.AllPerspectives
	dir := Folder(root, first.ChangeSet.Target)
	mkfile(t, filepath.Join(dir, "explanations", "board-1-Login.md"), "x")
	writeOK(t, root, first)

	// Leftovers: a crashed write's temp file (old), a file of an older
	// layout, and the user's own notes. A fresh temp file may be another
	// writer's, in flight: it stays.
	crashed := filepath.Join(dir, ".review.md.tmp-ABCDEF")
	mkfile(t, crashed, "partial")
	old := time.Now().Add(-2 * tempStaleAfter)
	if err := os.Chtimes(crashed, old, old); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(dir, ".metadata.json.tmp-FRESH01234"), "in flight")
	mkfile(t, filepath.Join(dir, "orientation-walkthrough.md"), "old name")
	mkfile(t, filepath.Join(dir, "notes.txt"), "mine")
	mkfile(t, filepath.Join(dir, "pr-findings.json"), "not a perspective")

	second := interactiveResult()
	second.Mode = review.ModeWorkflow
	second.Perspectives = []review.Perspective{review.Functional, review.Readiness}
	second.Findings = nil
	w := writeOK(t, root, second)

	want := []string{
		".metadata.json.tmp-FRESH01234",
		"diff-state.json",
		"dispatch-board.md",
		"dispatch-manifest.json",
		"emission-record.json",
		"explanations/board-1-Login.md",
		"functional-findings.json",
		"metadata.json",
		"notes.txt",
		"pr-findings.json",
		"readiness-findings.json",
		"review-artifact.json",
		"review.md",
		"walkthrough.md",
	}
	if diff := cmp.Diff(want, tree(t, dir)); diff != "" {
		t.Errorf("files after the second review (-want +got):\n%s", diff)
	}
	var removed []string
	for _, r := range w.Removed {
		removed = append(removed, filepath.Base(r))
	}
	slices.Sort(removed)
	wantRemoved := []string{
		".review.md.tmp-ABCDEF",
		"accessibility-findings.json",
		"orientation-walkthrough.md",
		"security-findings.json",
		"standards-findings.json",
	}
	if diff := cmp.Diff(wantRemoved, removed); diff != "" {
		t.Errorf("Removed (-want +got):\n%s", diff)
	}
}

// TestWriteRedactsEverything plants secrets everywhere a result carries
// text and checks that no written byte holds them, in raw or escaped form.
func TestWriteRedactsEverything(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result func() *review.Result
	}{
		{"workflow", workflowResult},
		{"interactive", func() *review.Result {
			res := interactiveResult()
			res.Board[0].Summary += " " + secretKey
			res.Board[0].PreliminarySignal = secretQuote
			res.Walkthrough.Areas[0].Summary += " " + secretKey
			res.Walkthrough.EntryPoints = append(res.Walkthrough.EntryPoints, secretQuote)
			res.NextActions[0].Reason = secretKey
			res.ChangeSet.Files[0].Content = []byte(secretKey)
			res.ChangeSet.Files[0].Skip = ""
			res.Risk.Brief.Intent = "uses " + secretQuote
			res.Findings[0].Secrets = []string{secretKey, secretQuote}
			res.Findings[0].CurrentCode = secretKey
			res.Redactor = nil // the findings' own secrets must still be redacted
			return res
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeOK(t, root, tc.result())
			forms := secretForms(secretKey, secretQuote)
			files := tree(t, filepath.Join(root, TrackingDir))
			if len(files) < 8 {
				t.Fatalf("only %d files written", len(files))
			}
			for _, f := range files {
				data := readFile(t, filepath.Join(root, TrackingDir, f))
				for _, s := range forms {
					if bytes.Contains(data, []byte(s)) {
						t.Errorf("%s contains the secret as %q", f, s)
					}
				}
				// The documents that quote the code show the redacted form.
				switch filepath.Base(f) {
				case FileReview, FileRiver, "pr-reference.xml":
					if !bytes.Contains(data, []byte("…[redacted, ")) {
						t.Errorf("%s shows no redaction marker", f)
					}
				}
			}
		})
	}
}

// TestWriteRedactsUnregisteredSecrets plants secrets that no finding
// cites and the run's redactor does not know — on a removed line, a
// context line, in a file name, the branch name and a commit subject — and
// checks that the writers' own detection keeps every one out of every
// file and out of the folder name.
func TestWriteRedactsUnregisteredSecrets(t *testing.T) {
	const (
		removed = "ghp_WLm52mva5fiI6bGfKFI6mAezmOWfSLjl8MU9"
		context = "xoxb-867539163168-585242400242-hMjaddCnYysNa9ZwsjEJri9f"
		name    = "AIzaMiCrnm_6h_gdVF6DV-Fekg00ikyexkidT88"
		branch  = "ghp_cdrJRM2jVrVKch3Tz85pkNGcVx2RHLKXSf3w"
		subject = "ASIAKPDHIEYGSNO2FRNZ"
	)
	res := workflowResult()
	res.Redactor = nil
	for _, f := range res.ChangeSet.Files {
		switch f.Path {
		case "old/legacy.go":
			f.Hunks[0].Lines = append(f.Hunks[0].Lines, "-const token = \""+removed+"\"")
		case "internal/auth/token.go":
			f.Hunks[0].Lines[0] = " const slack = \"" + context + "\" // func Sign(claims Claims) (string, error) {"
		case "assets/logo.png":
			f.Path = "assets/" + name + ".png"
		}
	}
	res.ChangeSet.Sort()
	res.ChangeSet.Target.Branch = "feat/" + branch
	res.ChangeSet.Target.HeadRef = "refs/heads/feat/" + branch
	res.History.Commits[0].Subject = "rotate " + subject
	root := t.TempDir()
	w := writeOK(t, root, res)
	if strings.Contains(w.Dir, branch) {
		t.Errorf("the folder name holds the branch's secret: %s", w.Dir)
	}
	files := tree(t, filepath.Join(root, TrackingDir))
	for _, f := range files {
		data := readFile(t, filepath.Join(root, TrackingDir, f))
		for _, s := range []string{removed, context, name, branch, subject} {
			if strings.Contains(f, s) {
				t.Errorf("the path %s holds %s…", f, s[:8])
			}
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s holds %s…", f, s[:8])
			}
		}
	}
	prref := string(readFile(t, filepath.Join(root, filepath.FromSlash(DiffPatchPath))))
	for _, s := range []string{removed, context, subject} {
		if !strings.Contains(prref, review.Redact(s)) {
			t.Errorf("pr-reference.xml does not show %s redacted", review.Redact(s))
		}
	}
}

// secretForms returns each secret as written raw and in the escaped forms
// of JSON, XML and markdown tables.
func secretForms(secrets ...string) []string {
	var out []string
	for _, s := range secrets {
		j, _ := json.Marshal(s)
		out = append(out, s, strings.Trim(string(j), `"`),
			strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s),
			strings.ReplaceAll(s, "|", `\|`),
			strings.ReplaceAll(s, "<", "&lt;"))
	}
	return out
}

func TestWriteEmptyChangeSet(t *testing.T) {
	root := t.TempDir()
	for _, res := range []*review.Result{nil, {}, {ChangeSet: &review.ChangeSet{}}} {
		if _, err := Write(root, res, Options{}); err == nil || !strings.Contains(err.Error(), "empty change set") {
			t.Errorf("Write(%v) = %v, want an empty change set error", res, err)
		}
	}
	if files := tree(t, root); len(files) != 0 {
		t.Errorf("wrote %v", files)
	}
}

// TestWriteSchemaViolationWritesNothing feeds a result the schemas reject:
// the error names the schema and no file is created.
func TestWriteSchemaViolationWritesNothing(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	res.Board[0].ID = "Board One" // not a kebab-case id
	_, err := Write(root, res, testOpts)
	var se *schemas.SchemaError
	if !errors.As(err, &se) || se.Schema != "dispatch-manifest.v1" {
		t.Fatalf("Write = %v, want a dispatch-manifest schema error", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("wrote %v", tree(t, root))
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := writeAtomic(r, "a.json", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(r, "a.json", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, filepath.Join(dir, "a.json"))); got != "two" {
		t.Errorf("a.json = %q", got)
	}
	// A rename onto a non-empty directory fails: the old content stays and
	// no temporary file is left behind.
	mkfile(t, filepath.Join(dir, "b.json", "x"), "keep")
	if err := writeAtomic(r, "b.json", []byte("new")); err == nil {
		t.Fatal("writeAtomic onto a directory succeeded")
	}
	if diff := cmp.Diff([]string{"a.json", "b.json/x"}, tree(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestWriteReplacesAtomically checks that rewriting a review leaves no
// temporary file and that each file is either wholly old or wholly new.
func TestWriteReplacesAtomically(t *testing.T) {
	root := t.TempDir()
	w1 := writeOK(t, root, workflowResult())
	res := workflowResult()
	res.Findings = res.Findings[:1]
	w2 := writeOK(t, root, res)
	for _, f := range tree(t, w2.Dir) {
		if strings.Contains(f, tempMarker) {
			t.Errorf("temporary file %s left behind", f)
		}
	}
	if err := Validate(w1.Dir); err != nil {
		t.Error(err)
	}
	var m MetadataDoc
	if err := json.Unmarshal(readFile(t, filepath.Join(w2.Dir, FileMetadata)), &m); err != nil {
		t.Fatal(err)
	}
	if m.FindingsCount.Total() != 1 {
		t.Errorf("metadata counts %+v, want the second review's single finding", m.FindingsCount)
	}
}

func TestFolderNames(t *testing.T) {
	root := filepath.FromSlash("/repo")
	base := filepath.Join(root, ".copilot-tracking", "reviews", "code-reviews")
	tests := []struct {
		target review.Target
		want   string
	}{
		{review.Target{Branch: "main"}, "main"},
		{review.Target{Branch: "feat/my-feature"}, "feat-my-feature"},
		{review.Target{Detached: true, HeadSHA: headSHA}, "detached-3b1f0c2"},
		{review.Target{Branch: "../../etc"}, "----etc"},
		{review.Target{Branch: ".."}, "-"},
		{review.Target{Branch: "."}, "unnamed"},
		{review.Target{Branch: ""}, "unnamed"},
		{review.Target{Branch: `a\b:c`}, "a-b-c"},
	}
	for _, tc := range tests {
		got := Folder(root, tc.target)
		if want := filepath.Join(base, tc.want); got != want {
			t.Errorf("Folder(%+v) = %s, want %s", tc.target, got, want)
		}
		if rel, err := filepath.Rel(base, got); err != nil || !filepath.IsLocal(rel) || strings.ContainsRune(rel, filepath.Separator) {
			t.Errorf("Folder(%+v) = %s escapes %s", tc.target, got, base)
		}
	}
}

// TestFolderDisambiguation reviews "feat/x" and "feat-x", which share the
// documented folder name: the second gets a hashed name, each keeps its
// own folder across reviews whatever the order, and the readers (Folder,
// LoadLoop) resolve the folder the writer chose.
func TestFolderDisambiguation(t *testing.T) {
	for _, order := range [][]string{{"feat/x", "feat-x"}, {"feat-x", "feat/x"}} {
		t.Run(order[0]+" first", func(t *testing.T) {
			root := t.TempDir()
			results := map[string]*review.Result{}
			dirs := map[string]string{}
			for _, branch := range order {
				res := interactiveResult()
				res.ChangeSet.Target.Branch = branch
				res.ChangeSet.Target.HeadRef = "refs/heads/" + branch
				results[branch] = res
				dirs[branch] = writeOK(t, root, res).Dir
			}
			first, second := dirs[order[0]], dirs[order[1]]
			if filepath.Base(first) != "feat-x" {
				t.Errorf("%s (first) wrote %s, want the documented feat-x", order[0], first)
			}
			if !regexp.MustCompile(`^feat-x-[0-9a-f]{8}$`).MatchString(filepath.Base(second)) {
				t.Errorf("%s (second) wrote %s, want feat-x-<hash>", order[1], second)
			}
			// Again, in the other order: each branch keeps its folder.
			for _, branch := range []string{order[1], order[0]} {
				if got := writeOK(t, root, results[branch]).Dir; got != dirs[branch] {
					t.Errorf("%s rewrote %s, want %s", branch, got, dirs[branch])
				}
				if got := Folder(root, results[branch].ChangeSet.Target); got != dirs[branch] {
					t.Errorf("Folder(%s) = %s, want %s", branch, got, dirs[branch])
				}
				var m MetadataDoc
				if err := json.Unmarshal(readFile(t, filepath.Join(dirs[branch], FileMetadata)), &m); err != nil || m.Branch != branch {
					t.Errorf("%s/metadata.json records branch %q (%v), want %q", dirs[branch], m.Branch, err, branch)
				}
				if l, err := LoadLoop(root, results[branch].ChangeSet.Target); err != nil || l == nil {
					t.Errorf("LoadLoop(%s) = %v, %v; want the loop of its folder", branch, l, err)
				}
			}
			// The hashed choice sticks even when the documented folder goes.
			if err := os.RemoveAll(first); err != nil {
				t.Fatal(err)
			}
			if got := Folder(root, results[order[1]].ChangeSet.Target); got != second {
				t.Errorf("after removing %s, Folder(%s) = %s, want %s", first, order[1], got, second)
			}
		})
	}
}

// TestFolderNameWithSecret checks that a branch whose name holds a secret
// gets a folder named without it, the same for writer and reader.
func TestFolderNameWithSecret(t *testing.T) {
	const token = "ghp_cdrJRM2jVrVKch3Tz85pkNGcVx2RHLKXSf3w"
	root := t.TempDir()
	res := cleanResult()
	res.ChangeSet.Target.Detached = false
	res.ChangeSet.Target.Branch = "ci/" + token
	w := writeOK(t, root, res)
	if !regexp.MustCompile(`^ci-redacted-[0-9a-f]{8}$`).MatchString(filepath.Base(w.Dir)) {
		t.Errorf("folder %s, want ci-redacted-<hash>", w.Dir)
	}
	if got := Folder(root, res.ChangeSet.Target); got != w.Dir {
		t.Errorf("Folder = %s, want the written %s", got, w.Dir)
	}
	other := cleanResult()
	other.ChangeSet.Target.Detached = false
	other.ChangeSet.Target.Branch = "ci/ghp_h34LxCnzm8KVbyZMvaBhnoCru0ftOsgHYdby"
	if got := Folder(root, other.ChangeSet.Target); got == w.Dir {
		t.Errorf("two secret-named branches share %s", got)
	}
}

// TestWriteStaysInsideTracking writes reviews of hostile branch names and
// through hostile links, and checks that nothing lands outside
// root/.copilot-tracking.
func TestWriteStaysInsideTracking(t *testing.T) {
	for _, branch := range []string{"../../../../escape", "..", "feat/../../x", "a/./b"} {
		t.Run(branch, func(t *testing.T) {
			root := t.TempDir()
			res := cleanResult()
			res.ChangeSet.Target.Detached = false
			res.ChangeSet.Target.Branch = branch
			w := writeOK(t, root, res)
			for _, f := range w.Files {
				rel, err := filepath.Rel(filepath.Join(root, TrackingDir), f)
				if err != nil || !filepath.IsLocal(rel) {
					t.Errorf("wrote %s outside .copilot-tracking", f)
				}
			}
			entries, _ := os.ReadDir(root)
			if len(entries) != 1 || entries[0].Name() != TrackingDir {
				t.Errorf("root holds %v", tree(t, root))
			}
			var m MetadataDoc
			if err := json.Unmarshal(readFile(t, filepath.Join(w.Dir, FileMetadata)), &m); err != nil {
				t.Fatal(err)
			}
			if m.Branch != branch {
				t.Errorf("metadata.branch = %q, want the unsanitized %q", m.Branch, branch)
			}
		})
	}
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	t.Run("tracking dir is a symlink", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		if err := os.Symlink(outside, filepath.Join(root, TrackingDir)); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(root, cleanResult(), testOpts); err == nil {
			t.Error("Write followed a symlinked .copilot-tracking")
		}
		if files := tree(t, outside); len(files) != 0 {
			t.Errorf("wrote outside: %v", files)
		}
	})
	t.Run("reviews dir links outside", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, TrackingDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, TrackingDir, "reviews")); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(root, cleanResult(), testOpts); err == nil {
			t.Error("Write followed a symlink out of .copilot-tracking")
		}
		if files := tree(t, outside); len(files) != 0 {
			t.Errorf("wrote outside: %v", files)
		}
	})
}

func TestWriteDetachedHead(t *testing.T) {
	root := t.TempDir()
	w := writeOK(t, root, cleanResult())
	if filepath.Base(w.Dir) != "detached-3b1f0c2" {
		t.Errorf("folder %s, want detached-3b1f0c2", w.Dir)
	}
	d, err := Read(w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Metadata.Branch != "detached-3b1f0c2" || d.Metadata.HeadCommit != headSHA {
		t.Errorf("metadata branch %q head %q", d.Metadata.Branch, d.Metadata.HeadCommit)
	}
}

func TestWriteUsesOptionsNow(t *testing.T) {
	root := t.TempDir()
	opts := testOpts
	// 90 minutes after res.Finished, given in another zone.
	opts.Now = finished.Add(90 * time.Minute).In(time.FixedZone("CEST", 2*60*60))
	w, err := Write(root, cleanResult(), opts)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Read(w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Metadata.ReviewedAt != "2026-06-20T10:45:42Z" {
		t.Errorf("reviewed_at = %q", d.Metadata.ReviewedAt)
	}
}
