package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestNewDependencyUpgrade checks that a version change (the old line is
// removed in the same diff) is not a new dependency.
func TestNewDependencyUpgrade(t *testing.T) {
	src := "module example.com/app\n\ngo 1.24\n\nrequire (\n\tgithub.com/google/uuid v1.6.0\n\tgolang.org/x/sync v0.10.0\n)\n"
	f := lenstest.NewFile("go.mod", []byte(src))
	f.Lines = map[int]review.LineState{6: review.LineUnstaged, 7: review.LineUnstaged}
	f.Hunks = []review.Hunk{{OldStart: 6, OldLines: 1, NewStart: 6, NewLines: 2, Lines: []string{
		"-\tgithub.com/google/uuid v1.5.0", "+\tgithub.com/google/uuid v1.6.0", "+\tgolang.org/x/sync v0.10.0",
	}}}
	got := lenstest.Check(t, NewDependency, f, 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 7 {
		t.Fatalf("got %+v, want one finding for golang.org/x/sync on line 7", got)
	}
}

// TestNewDependencyBumps checks version bumps of existing dependencies in
// package.json and pyproject.toml (a real shape: a release commit), and
// a dependency moved from devDependencies to dependencies.
func TestNewDependencyBumps(t *testing.T) {
	for _, c := range []struct{ path, old, new string }{
		{"package.json", "{\n  \"dependencies\": {\n    \"debug\": \"2.6.9\"\n  }\n}\n", "{\n  \"dependencies\": {\n    \"debug\": \"^4.3.4\"\n  }\n}\n"},
		{"package.json", "{\n  \"dependencies\": {\n  },\n  \"devDependencies\": {\n    \"zod\": \"^3\"\n  }\n}\n", "{\n  \"dependencies\": {\n    \"zod\": \"^3\"\n  },\n  \"devDependencies\": {\n  }\n}\n"},
		{"pyproject.toml", "[project]\ndependencies = [\n  \"click>=8.0\",\n]\n", "[project]\ndependencies = [\n  \"click>=8.1.3\",\n]\n"},
	} {
		if got := lenstest.Check(t, NewDependency, lenstest.Modified(c.path, c.old, c.new), 0, nil); len(got) != 0 {
			t.Errorf("%s %q: got %+v, want nothing", c.path, c.new, got)
		}
	}
}
