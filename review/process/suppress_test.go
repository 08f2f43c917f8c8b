package process

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// suppressed runs Suppress over one finding of rule on line n of a file
// and reports whether it was silenced.
func suppressed(t *testing.T, path, src, rule string, n int) bool {
	t.Helper()
	f := file(path, src, n)
	p := &Suppress{ChangeSet: changeSet(f)}
	got, err := p.Process(context.Background(), []*review.Finding{finding(rule, path, n, review.SeverityHigh)})
	if err != nil {
		t.Fatal(err)
	}
	return len(got) == 0
}

// TestSuppressOnlyComments checks that a directive counts only in a
// comment of the file's language: inside a string literal (or any other
// code) it suppresses nothing, and a string that holds a comment marker
// before a real trailing comment does not hide that comment.
func TestSuppressOnlyComments(t *testing.T) {
	const why = "reviewls:ignore security/x test fixture, not a real key"
	tests := []struct {
		name, path, src string
		line            int
		want            bool
	}{
		// The case: the directive is the value of the constant.
		{"go string", "a.go", `const k = "` + why + ` AKIAZ7Q2R5T6W3X4Y6B2"`, 1, false},
		{"go string with a comment marker", "a.go", `k := "x // ` + why + `"`, 1, false},
		{"go raw string", "a.go", "k := `// " + why + "`", 1, false},
		{"go raw string across lines", "a.go", "k := `\n// " + why + "\n`", 3, false},
		{"go raw string ending in a backslash", "a.go", "k := `C:\\` // " + why, 1, true},
		{"go rune then comment", "a.go", `r := '"' // ` + why, 1, true},
		{"go trailing comment after a URL", "a.go", `u := "http://x" // ` + why, 1, true},
		{"go block comment", "a.go", `/* ` + why + ` */ x := 1`, 1, true},
		{"go block comment then string", "a.go", `/* c */ s := "` + why + `"`, 1, false},
		{"go block comment line above", "a.go", "/*\n  " + why + "\n*/\nx := 1", 4, false},
		{"go comment line above", "a.go", "// " + why + "\nx := 1", 2, true},
		{"go code before the comment above", "a.go", "y := 2 // " + why + "\nx := 1", 2, false},
		{"js template literal", "a.js", "const k = `" + why + "`;", 1, false},
		{"js template across lines", "a.js", "const k = `\n// " + why + "\n`;", 3, false},
		{"js single quotes", "a.ts", `const k = '// ` + why + `';`, 1, false},
		{"js escaped quote", "a.ts", `const k = "a\"// ` + why + `";`, 1, false},
		{"js trailing comment after //-string", "a.ts", `const u = "https://x//y"; // ` + why, 1, true},
		{"jsx comment above", "a.tsx", "{/* " + why + " */}\n<img src=\"x\" />", 2, true},
		{"jsx string", "a.tsx", "<img alt=\"{/* " + why + " */}\" />", 1, false},
		{"python string", "a.py", `k = "# ` + why + `"`, 1, false},
		{"python docstring", "a.py", "\"\"\"\n# " + why + "\n\"\"\"\nx = 1", 3, false},
		{"python comment after a #-string", "a.py", `k = "a#b"  # ` + why, 1, true},
		{"shell string", "a.sh", `echo "# ` + why + `"`, 1, false},
		{"shell single quotes", "a.sh", `echo '# ` + why + `'`, 1, false},
		{"shell mid-word hash", "a.sh", `echo a#` + why, 1, false},
		{"shell comment", "a.sh", `curl -s "$u" # ` + why, 1, true},
		{"yaml string", "a.yaml", `k: "# ` + why + `"`, 1, false},
		{"yaml mid-word hash", "a.yaml", `url: http://x/#` + why, 1, false},
		{"yaml comment", "a.yaml", `k: v # ` + why, 1, true},
		{"html attribute", "a.html", `<img alt="<!-- ` + why + ` -->">`, 1, false},
		{"html comment", "a.html", `<img src="x"> <!-- ` + why + ` -->`, 1, true},
		{"markdown comment", "a.md", `<!-- ` + why + ` -->` + "\n![x](y.png)", 2, true},
		{"json has no comments", "a.json", `{"k": "// ` + why + `"}`, 1, false},
		{"text has no comments", "a.txt", `# ` + why, 1, false},
		{"sql comment", "a.sql", `SELECT 1; -- ` + why, 1, true},
		{"sql string", "a.sql", `SELECT '-- ` + why + `';`, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := suppressed(t, tt.path, tt.src+"\n", "security/x", tt.line); got != tt.want {
				t.Errorf("suppressed = %v, want %v in\n%s", got, tt.want, tt.src)
			}
		})
	}
}

// TestSuppressRejectsNonReasons checks that the placeholder the editor
// inserts and reasons of fewer than three words suppress nothing.
func TestSuppressRejectsNonReasons(t *testing.T) {
	tests := []struct {
		reason string
		want   bool
	}{
		{"<why this finding does not apply>", false},
		{"because <why this finding does not apply>", false},
		{"<reason>", false},
		{"<REASON> goes here", false},
		{"it is <fill in the reason>", false},
		{"<…>", false},
		{"ok", false},
		{"false positive", false},
		{"- - -", false},
		{"test fixture, ok", true},
		{"test fixture key", true},
		{"tracked in #42", true},
		{"the <img> is decorative", true},
		{"checksum for the v1 cache format, not a password", true},
	}
	for _, tt := range tests {
		src := "x := 1 // reviewls:ignore security/x " + tt.reason + "\n"
		if got := suppressed(t, "a.go", src, "security/x", 1); got != tt.want {
			t.Errorf("reason %q: suppressed = %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// secretFinding is a finding of a secret-class rule on a line whose code
// is code, matched as review/lens matches a secret: by its place.
func secretFinding(path string, line int, code, value string) *review.Finding {
	f := finding("security/hardcoded-secret", path, line, review.SeverityCritical)
	f.Secrets = []string{value}
	f.Match = review.SecretMatch(review.SecretAnchor(code, f.Secrets), 0)
	return f
}

// TestSuppressHoldsSecrets checks that an inline ignore of a secret hides
// it but keeps it held for the gate, and that allow-secrets releases
// exactly the listed secret.
func TestSuppressHoldsSecrets(t *testing.T) {
	lines := []string{
		`a := "AKIAZ7Q2R5T6W3X4Y6B2" // reviewls:ignore security/hardcoded-secret rotated key kept for the replay test`,
		`b := "AKIAZ7Q2R5T6W3X4Y6B3" // reviewls:ignore security/hardcoded-secret rotated key kept for the replay test`,
		`c := "AKIAZ7Q2R5T6W3X4Y6B4"`,
		`d := "AKIAZ7Q2R5T6W3X4Y6B5" // reviewls:ignore security/hardcoded-secret <why this finding does not apply>`,
	}
	cs := changeSet(file("a.go", strings.Join(lines, "\n")+"\n", 1, 2, 3, 4))
	in := []*review.Finding{
		secretFinding("a.go", 1, lines[0], "AKIAZ7Q2R5T6W3X4Y6B2"),
		secretFinding("a.go", 2, lines[1], "AKIAZ7Q2R5T6W3X4Y6B3"),
		secretFinding("a.go", 3, lines[2], "AKIAZ7Q2R5T6W3X4Y6B4"),
		secretFinding("a.go", 4, lines[3], "AKIAZ7Q2R5T6W3X4Y6B5"),
	}
	var fps []string
	for _, f := range in {
		fps = append(fps, f.SecretFingerprint())
	}
	p := &Suppress{ChangeSet: cs, AllowSecrets: []string{fps[1], fps[2]}}
	got, err := p.Process(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// The placeholder suppresses nothing.
	assertSame(t, []string{"security/hardcoded-secret@a.go:4"}, got)
	var sup []string
	for _, s := range p.Suppressed {
		sup = append(sup, fmt.Sprintf("%d %s held=%v: %s", s.Finding.Span.StartLine, s.By, s.Held, s.Reason))
	}
	want := []string{
		"1 inline at a.go:1; a secret: still blocks the gate unless allow-secrets lists " + fps[0] + " held=true: rotated key kept for the replay test",
		"2 config allow-secrets held=false: rotated key kept for the replay test",
		"3 config allow-secrets held=false: allow-secrets lists " + fps[2],
	}
	if diff := cmp.Diff(want, sup); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
	res := &review.Result{Findings: got, Suppressed: p.Suppressed, Counts: Count(got)}
	if g := res.GateCounts(); g != (review.Counts{Critical: 2}) {
		t.Errorf("GateCounts = %+v, want the live and the held secret", g)
	}
}

// TestSecretFingerprint checks the fingerprint's form and that it stands
// for the secret's place: the same line elsewhere in the file keeps it,
// another file or another line changes it.
func TestSecretFingerprint(t *testing.T) {
	const code = `key := "AKIAZ7Q2R5T6W3X4Y6B2"`
	a := secretFinding("cfg/a.go", 3, code, "AKIAZ7Q2R5T6W3X4Y6B2")
	fp := a.SecretFingerprint()
	if !strings.HasPrefix(fp, "security/hardcoded-secret:cfg/a.go:") || len(fp) != len("security/hardcoded-secret:cfg/a.go:")+16 {
		t.Errorf("fingerprint %q is not <rule>:<path>:<16 hex>", fp)
	}
	if strings.Contains(fp, "AKIA") {
		t.Errorf("fingerprint %q holds the value", fp)
	}
	moved := secretFinding("cfg/a.go", 40, "\t"+code, "AKIAZ7Q2R5T6W3X4Y6B2")
	elsewhere := secretFinding("cfg/b.go", 3, code, "AKIAZ7Q2R5T6W3X4Y6B2")
	otherLine := secretFinding("cfg/a.go", 3, `backup := "AKIAZ7Q2R5T6W3X4Y6B2"`, "AKIAZ7Q2R5T6W3X4Y6B2")
	if moved.SecretFingerprint() != fp || elsewhere.SecretFingerprint() == fp || otherLine.SecretFingerprint() == fp {
		t.Errorf("fingerprints: moved %s, other file %s, other line %s, want only the first to equal %s",
			moved.SecretFingerprint(), elsewhere.SecretFingerprint(), otherLine.SecretFingerprint(), fp)
	}
	if f := finding("security/weak-crypto", "a.go", 1, review.SeverityHigh); f.SecretFingerprint() != "" {
		t.Errorf("a finding without a secret has fingerprint %q", f.SecretFingerprint())
	}
}
