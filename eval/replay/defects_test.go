package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadDefects(t *testing.T) {
	list := filepath.Join(t.TempDir(), "d.tsv")
	data := "# comment\nowner/repo\t0123456789012345678901234567890123456789\tgo-ignored-error\ta/b.go\t12\tos.Chmod(p, 0o600)\tdropped\n" +
		"owner/repo\t0123456789012345678901234567890123456789\tgo-ignored-error\ta/c.go\t3\t\t\tHigh\n"
	if err := os.WriteFile(list, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := readDefects(list)
	if err != nil || len(ds) != 2 {
		t.Fatalf("readDefects = %v, %v", ds, err)
	}
	if d := ds[0]; d.Perspective != "functional" || d.Severity != "Medium" || d.Line != 12 || d.Text != "os.Chmod(p, 0o600)" {
		t.Errorf("first = %+v", d)
	}
	if ds[1].Severity != "High" {
		t.Errorf("the severity column does not override: %+v", ds[1])
	}
	for _, bad := range []string{"r\ts\tno-such-class\tp\t1\n", "r\ts\tgo-ignored-error\tp\tx\n", "r\ts\n"} {
		os.WriteFile(list, []byte(bad), 0o644)
		if _, err := readDefects(list); err == nil {
			t.Errorf("readDefects(%q) gave no error", bad)
		}
	}
}

func TestCatches(t *testing.T) {
	d := defect{Path: "a.go", Line: 10, Perspective: "functional", Severity: "Medium"}
	for _, tt := range []struct {
		f    finding
		want bool
	}{
		{finding{Rule: "functional/ignored-error", Severity: "Medium", File: "a.go", Lines: "10"}, true},
		{finding{Rule: "functional/ignored-error", Severity: "Medium", File: "a.go", Lines: "11-12"}, true},
		{finding{Rule: "functional/ignored-error", Severity: "Medium", File: "a.go", Lines: "7-9"}, true},
		{finding{Rule: "functional/ignored-error", Severity: "Medium", File: "a.go", Lines: "12"}, false},
		{finding{Rule: "functional/ignored-error", Severity: "High", File: "a.go", Lines: "10"}, false},
		{finding{Rule: "standards/x", Severity: "Medium", File: "a.go", Lines: "10"}, false},
		{finding{Rule: "functional/ignored-error", Severity: "Medium", File: "b.go", Lines: "10"}, false},
	} {
		if got := d.catches(tt.f); got != tt.want {
			t.Errorf("catches(%+v) = %v, want %v", tt.f, got, tt.want)
		}
	}
}

// TestRecommendationTable checks the decisions table: the recommendations
// in order of precedence, those no review gave left out, and the share.
func TestRecommendationTable(t *testing.T) {
	got := recommendationTable(map[string]int{"accept-as-is": 3, "needs-more-work": 1}, "commits")
	want := "| recommendation | commits | share |\n|---|---|---|\n| needs-more-work | 1 | 25% |\n| accept-as-is | 3 | 75% |\n| **all** | 4 | |\n"
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}
