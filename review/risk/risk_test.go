package risk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
)

func TestEvidenceHasExactlySixEntriesInOrder(t *testing.T) {
	cases := map[string]*review.ChangeSet{
		"nil":      nil,
		"empty":    {},
		"one file": changeSet("", file("a.go", review.StatusModified, "x\n", 1)),
		"mixed": changeSet(t.TempDir(),
			file("internal/auth/login.go", review.StatusModified, "pw := password\n", 1),
			file("README.md", review.StatusModified, "hi\n", 1),
			&review.File{Path: "yarn.lock", Status: review.StatusModified, Skip: "lock file"},
			&review.File{Path: "old.go", Status: review.StatusDeleted, Deleted: 10},
		),
	}
	hists := map[string]*review.History{
		"nil":         nil,
		"unavailable": {Reason: "the repository has no commits yet"},
		"available":   fullHistory,
	}
	for name, cs := range cases {
		for hname, hist := range hists {
			t.Run(name+"/"+hname, func(t *testing.T) {
				r := Assess(cs, hist, Options{})
				var got []review.Signal
				for _, e := range r.Evidence {
					got = append(got, e.Signal)
					switch e.Availability {
					case review.Observed, review.Unavailable, review.Qualitative:
					default:
						t.Errorf("%s: availability %q", e.Signal, e.Availability)
					}
					if e.Evidence == "" {
						t.Errorf("%s: empty evidence", e.Signal)
					}
				}
				if diff := cmp.Diff(review.AllSignals, got); diff != "" {
					t.Errorf("signals (-want +got):\n%s", diff)
				}
				if !r.RecommendedDepth.Valid() || r.DepthReason == "" || r.Tier == "" {
					t.Errorf("depth %v (%q), tier %q", r.RecommendedDepth, r.DepthReason, r.Tier)
				}
			})
		}
	}
}

func TestHistoryEvidence(t *testing.T) {
	cs := changeSet("",
		file("pkg/a.go", review.StatusModified, "x\n", 1),
		&review.File{Path: "pkg/new.go", OldPath: "pkg/old.go", Status: review.StatusRenamed},
	)
	tests := []struct {
		name  string
		hist  *review.History
		avail review.Availability
		want  []string
		bad   []string
	}{
		{"nil", nil, review.Unavailable, []string{"not read"}, nil},
		{"unborn", &review.History{Reason: "the repository has no commits yet"}, review.Unavailable,
			[]string{"history unavailable: the repository has no commits yet"}, nil},
		{"shallow", &review.History{Shallow: true}, review.Unavailable, []string{"shallow clone"}, nil},
		{"inaccessible", &review.History{}, review.Unavailable, []string{"not accessible"}, nil},
		{"no commits touch", &review.History{Available: true, Limit: 100, Commits: []review.Commit{
			{Hash: "1", Paths: []string{"other.go"}},
		}}, review.Observed, []string{"no prior commits touch these paths in the last 100 commits"}, []string{"churned"}},
		{"churn and partners", &review.History{Available: true, Limit: 50, Commits: []review.Commit{
			{Hash: "1", Paths: []string{"pkg/a.go", "pkg/b.go"}},
			{Hash: "2", Paths: []string{"pkg/a.go", "pkg/b.go", "pkg/c.go"}},
			{Hash: "3", Paths: []string{"pkg/old.go"}},
			{Hash: "4", Paths: []string{"unrelated.go"}},
		}}, review.Observed, []string{
			"3 commits of the last 50 touch the changed paths",
			"most churned: pkg/a.go (2 commits), pkg/new.go (1 commit)",
			"often changed with (not in this change): pkg/b.go (2 commits)",
			"attention cues, not evidence of defects",
		}, []string{"pkg/c.go", "unrelated.go"}},
		{"shallow but available", &review.History{Available: true, Shallow: true, Limit: 10}, review.Observed,
			[]string{"last 10 commits", "shallow clone: older history is missing"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := evidence(Assess(cs, tt.hist, Options{}), review.SignalHistory)
			if e.Availability != tt.avail {
				t.Errorf("availability = %s, want %s (%q)", e.Availability, tt.avail, e.Evidence)
			}
			wantContains(t, "history evidence", e.Evidence, tt.want...)
			wantNotContains(t, "history evidence", e.Evidence, tt.bad...)
		})
	}
}

func TestChangeScopeEvidence(t *testing.T) {
	cs := changeSet("",
		file("review/gitdiff/diff.go", review.StatusModified, lines(20), 1, 2, 3),
		file("review/gitdiff/hunk.go", review.StatusUntracked, lines(4)),
		edit("review/risk/x.go", []string{"\tx := 1"}, []string{"    x := 1"}),
		&review.File{Path: "cmd/a.go", OldPath: "cmd/b.go", Status: review.StatusRenamed},
		file("docs/guide.md", review.StatusModified, "a\nb\n", 1),
		file("review/gitdiff/diff_test.go", review.StatusModified, "x\n", 1),
		&review.File{Path: "web/app.min.js", Status: review.StatusAdded, Skip: "minified"},
	)
	e := evidence(Assess(cs, nil, Options{}), review.SignalChangeScope)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "change-scope", e.Evidence,
		"7 files in 5 directories across 4 top-level areas (cmd, docs, review, web)",
		"4 modified, 1 added, 1 untracked, 1 renamed",
		"+10 −1 lines in reviewed files",
		"1 skipped (web/app.min.js: minified)",
		"2 behaviour-changing (7 lines in 1 area)",
		"1 test file", "1 documentation file",
		"2 mechanical (cmd/a.go: rename only, review/risk/x.go: whitespace only)")
}

func TestMechanical(t *testing.T) {
	tests := []struct {
		name string
		f    *review.File
		want string
	}{
		{"whitespace", edit("a.go", []string{"\tif x {", "\t}"}, []string{"if x {", "", "}"}), "whitespace only"},
		{"go comments", edit("a.go", []string{"// old doc"}, []string{"// new doc", "// more"}), "comments only"},
		{"python comments", edit("a.py", []string{"# a"}, []string{"# b"}), "comments only"},
		{"block comment", edit("a.ts", []string{"/**", " * old", " */"}, []string{"/**", " * new", " */"}), "comments only"},
		{"rename", &review.File{Path: "b.go", OldPath: "a.go", Status: review.StatusRenamed}, "rename only"},
		{"go:build is code", edit("a.go", []string{"//go:build linux"}, []string{"//go:build darwin"}), ""},
		{"shebang is code", edit("a.sh", []string{"#!/bin/sh"}, []string{"#!/bin/bash"}), ""},
		{"goose annotation is code", edit("m.sql", []string{"-- +goose Up"}, []string{"-- +goose Down"}), ""},
		{"code", edit("a.go", []string{"x := 1"}, []string{"x := 2"}), ""},
		{"comment and code", edit("a.go", []string{"// a"}, []string{"// b", "x := 2"}), ""},
		{"unknown language", edit("a.xyz", []string{"# a"}, []string{"# b"}), ""},
		{"deleted", &review.File{Path: "a.go", Status: review.StatusDeleted, Deleted: 3}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ff := newFacts(tt.f, &scanner{})
			if ff.mechanical != tt.want {
				t.Errorf("mechanical = %q, want %q", ff.mechanical, tt.want)
			}
		})
	}
}

func TestCriticalityEvidence(t *testing.T) {
	r := Assess(changeSet("",
		file("internal/auth/login.go", review.StatusModified, "x\n\tpw := password\n", 1, 2),
		file("api/routes.go", review.StatusModified, "x\n", 1),
		file("billing/invoice.go", review.StatusModified, "x\n", 1),
		edit("internal/crypto/box.go", []string{"// a"}, []string{"// b"}),
		file("pkg/strutil.go", review.StatusModified, "x\n", 1),
		file("internal/auth/login_test.go", review.StatusModified, "x\n", 1),
		file("config/database.yml", review.StatusModified, "pool: 5\n", 1),
		file("deploy/.env", review.StatusModified, "X=1\n", 1),
		file("api/v1/user.proto", review.StatusModified, "int32 id = 1;\n", 1),
	), nil, Options{})
	want := map[string]string{
		"internal/auth/login.go":      RiskHigh,
		"billing/invoice.go":          RiskHigh,
		"api/routes.go":               RiskMedium,
		"internal/crypto/box.go":      RiskLow, // comments only
		"pkg/strutil.go":              RiskLow,
		"internal/auth/login_test.go": RiskLow,
		"config/database.yml":         RiskLow,
		"deploy/.env":                 RiskHigh,
		"api/v1/user.proto":           RiskMedium,
	}
	if diff := cmp.Diff(want, r.FileRisk); diff != "" {
		t.Errorf("FileRisk (-want +got):\n%s", diff)
	}
	e := evidence(r, review.SignalPathCriticality)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "path-criticality", e.Evidence,
		`High: billing/invoice.go: financial logic ("billing" in path)`,
		`internal/auth/login.go: auth ("auth" in path), secrets ("password" at line 2)`,
		`Medium: api/routes.go: API boundary ("api" in path)`,
		`deploy/.env: secrets (secret file)`,
		"Low: 4 files",
		"critical paths with mechanical changes only: internal/crypto/box.go (comments only)",
		`configuration naming critical classes (Low as configuration): config/database.yml: persistence ("database" in path)`)

	benign := Assess(changeSet("", file("pkg/strutil.go", review.StatusModified, "x\n", 1)), nil, Options{})
	e = evidence(benign, review.SignalPathCriticality)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "path-criticality", e.Evidence, "no critical path touched", "Low: 1 file")
}

func TestTestPresence(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"pkg/a_test.go",
		"py/test_mod.py",
		"py/tests/test_other.py",
		"tests/test_rootonly.py",
		"web/button.test.tsx",
		"web/__tests__/menu.test.ts",
		"src/test/java/com/x/FooTest.java",
		"spec/models/user_spec.rb",
	} {
		writeFile(t, root, p, "x\n", past)
	}
	cs := changeSet(root,
		file("pkg/a.go", review.StatusModified, "x\n", 1),
		file("pkg/b.go", review.StatusModified, "x\n", 1), // no sibling test on disk
		file("py/mod.py", review.StatusModified, "x\n", 1),
		file("py/other.py", review.StatusModified, "x\n", 1),
		file("lib/rootonly.py", review.StatusModified, "x\n", 1),
		file("web/button.tsx", review.StatusModified, "x\n", 1),
		file("web/menu.ts", review.StatusModified, "x\n", 1),
		file("src/main/java/com/x/Foo.java", review.StatusModified, "x\n", 1),
		file("app/models/user.rb", review.StatusModified, "x\n", 1),
		file("src/lib.rs", review.StatusModified, "fn f() {}\n#[cfg(test)]\nmod tests {}\n", 1),
		file("native/x.c", review.StatusModified, "x\n", 1),
		file("svc/c.go", review.StatusModified, "x\n", 1),
		file("svc/other_test.go", review.StatusModified, "x\n", 1), // a package test of svc changed
		file("gen/d.go", review.StatusModified, "x\n", 1),
		file("gen/d_test.go", review.StatusAdded, "x\n"),       // the sibling test is part of the change
		edit("pkg/doc.go", []string{"// a"}, []string{"// b"}), // mechanical: needs no test
	)
	r := Assess(cs, nil, Options{})
	e := evidence(r, review.SignalTestPresence)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "test-presence", e.Evidence,
		"changed tests: gen/d_test.go, svc/other_test.go",
		"tests found for 11 of 13 changed source files",
		"no test found for pkg/b.go",
		"not checked: native/x.c (no test-file convention for C)",
		"presence is not proof")
	wantNotContains(t, "test-presence", e.Evidence, "pkg/doc.go")
	got := map[string]string{}
	a := &analysis{byPath: map[string]*fileFacts{}}
	for _, f := range cs.Files {
		ff := &fileFacts{facts: newFacts(f, &scanner{})}
		a.files = append(a.files, ff)
		a.byPath[ff.path] = ff
	}
	findTests(a.files, a.byPath, root)
	for _, ff := range a.files {
		if ff.tests.kind == testFound {
			got[ff.path] = ff.tests.by
		}
	}
	want := map[string]string{
		"pkg/a.go":                     "pkg/a_test.go",
		"py/mod.py":                    "py/test_mod.py",
		"py/other.py":                  "py/tests/test_other.py",
		"lib/rootonly.py":              "tests/test_rootonly.py",
		"web/button.tsx":               "web/button.test.tsx",
		"web/menu.ts":                  "web/__tests__/menu.test.ts",
		"src/main/java/com/x/Foo.java": "src/test/java/com/x/FooTest.java",
		"app/models/user.rb":           "spec/models/user_spec.rb",
		"src/lib.rs":                   "inline #[cfg(test)]",
		"svc/c.go":                     "package test svc/other_test.go",
		"gen/d.go":                     "gen/d_test.go",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests found (-want +got):\n%s", diff)
	}
}

func TestTestPresenceWithoutWorkTree(t *testing.T) {
	e := evidence(Assess(changeSet("", file("pkg/a.go", review.StatusModified, "x\n", 1)), nil, Options{}),
		review.SignalTestPresence)
	wantContains(t, "test-presence", e.Evidence, "not checked: pkg/a.go (work tree unknown)")
}

func TestRollbackEvidence(t *testing.T) {
	tests := []struct {
		name  string
		files []*review.File
		avail review.Availability
		want  []string
	}{
		{"plain source", []*review.File{file("pkg/a.go", review.StatusModified, "x\n", 1)}, review.Qualitative,
			[]string{"no migrations", "judged from the file kinds (1 source) to revert with the change"}},
		{"migration", []*review.File{file("db/migrations/0002_users.sql", review.StatusAdded, "CREATE TABLE users (id int);\n")},
			review.Observed, []string{"hard to reverse: db/migrations/0002_users.sql (migration)"}},
		{"alter in sql file", []*review.File{file("scripts/fix.sql", review.StatusModified, "alter table users drop column x;\n", 1)},
			review.Observed, []string{"scripts/fix.sql line 1 (ALTER TABLE)", "(DROP COLUMN)"}},
		{"drop in code", []*review.File{file("pkg/a.go", review.StatusModified, "\tdb.Exec(\"DROP TABLE users\")\n", 1)},
			review.Observed, []string{"pkg/a.go line 1 (DROP TABLE)"}},
		{"schema", []*review.File{file("prisma/schema.prisma", review.StatusModified, "model U {}\n", 1)},
			review.Observed, []string{"prisma/schema.prisma (schema definition)"}},
		{"feature flag", []*review.File{file("pkg/a.go", review.StatusModified, "\tif featureFlags.Enabled(\"x\") {\n", 1)},
			review.Observed, []string{`reversal evidence: feature flag at pkg/a.go line 1 ("feature flags")`}},
		{"down migration", []*review.File{
			file("db/migrations/3_x.up.sql", review.StatusAdded, "ALTER TABLE t ADD c int;\n"),
			file("db/migrations/3_x.down.sql", review.StatusAdded, "ALTER TABLE t DROP COLUMN c;\n"),
		}, review.Observed, []string{"hard to reverse: db/migrations/3_x.up.sql (migration)",
			"reversal evidence: down migration db/migrations/3_x.down.sql"}},
		{"proto", []*review.File{file("api/v1/user.proto", review.StatusModified, "int32 id = 1;\n", 1)},
			review.Qualitative, []string{"changes data format definitions (api/v1/user.proto)", "judged from the file kind"}},
		{"migration in a test is not rollout", []*review.File{file("db/migrations/testdata/x.sql", review.StatusAdded, "DROP TABLE x;\n")},
			review.Qualitative, []string{"no migrations"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := evidence(Assess(changeSet("", tt.files...), nil, Options{}), review.SignalRollback)
			if e.Availability != tt.avail {
				t.Errorf("availability = %s, want %s (%q)", e.Availability, tt.avail, e.Evidence)
			}
			wantContains(t, "rollback", e.Evidence, tt.want...)
		})
	}
}

func TestTier(t *testing.T) {
	many := func(n int, dir func(int) string) []*review.File {
		var fs []*review.File
		for i := range n {
			fs = append(fs, file(fmt.Sprintf("%s/f%d.go", dir(i), i), review.StatusModified, "x\n", 1))
		}
		return fs
	}
	oneDir := func(int) string { return "pkg" }
	tests := []struct {
		name  string
		files []*review.File
		want  review.ScopeTier
	}{
		{"1 file, 10 lines", []*review.File{file("pkg/a.go", review.StatusModified, lines(10), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)}, review.TierTrivial},
		{"1 file, 11 lines", []*review.File{file("pkg/a.go", review.StatusModified, lines(11), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)}, review.TierLocal},
		{"2 small files", many(2, oneDir), review.TierLocal},
		{"docs only, large", []*review.File{file("docs/a.md", review.StatusAdded, lines(500)), file("README.md", review.StatusModified, "x\n", 1)}, review.TierTrivial},
		{"comments only in 3 files", []*review.File{
			edit("pkg/a.go", []string{"// a"}, []string{"// b"}),
			edit("pkg/b.go", []string{"// a"}, []string{"// b"}),
			edit("cmd/c.go", []string{"// a"}, []string{"// b"}),
		}, review.TierTrivial},
		{"1 file with a hotspot", []*review.File{file("pkg/client.go", review.StatusModified, "x\n", 1)}, review.TierLocal},
		{"400 lines", []*review.File{file("pkg/a.go", review.StatusAdded, lines(400))}, review.TierLocal},
		{"401 lines", []*review.File{file("pkg/a.go", review.StatusAdded, lines(401))}, review.TierBroad},
		{"3 areas", many(3, func(i int) string { return fmt.Sprintf("a%d", i) }), review.TierLocal},
		{"4 areas", many(4, func(i int) string { return fmt.Sprintf("a%d", i) }), review.TierBroad},
		{"4 areas, one of them docs", append(many(3, func(i int) string { return fmt.Sprintf("a%d", i) }),
			file("docs/x.md", review.StatusModified, "x\n", 1)), review.TierLocal},
		{"19 files", many(19, oneDir), review.TierLocal},
		{"20 files", many(20, oneDir), review.TierBroad},
		{"go.mod", []*review.File{file("go.mod", review.StatusModified, "require x v1\n", 1)}, review.TierBroad},
		{"auth", []*review.File{file("internal/auth/a.go", review.StatusModified, "x\n", 1)}, review.TierHighRisk},
		{"secrets in content", []*review.File{file("pkg/a.go", review.StatusModified, "\tpassword := os.Getenv(\"P\")\n", 1)}, review.TierHighRisk},
		{"migration", []*review.File{file("db/migrations/1.sql", review.StatusAdded, "CREATE TABLE t (id int);\n")}, review.TierHighRisk},
		{"comments only in auth", []*review.File{edit("internal/auth/a.go", []string{"// a"}, []string{"// b"})}, review.TierLocal},
		{"auth test only", []*review.File{file("internal/auth/a_test.go", review.StatusModified, "x\n", 1)}, review.TierTrivial},
		{"database config is configuration", []*review.File{file("config/database.yml", review.StatusModified, "pool: 5\n", 1)}, review.TierLocal},
		{"secret file", []*review.File{file(".env", review.StatusModified, "X=1\n", 1)}, review.TierHighRisk},
		{"networking is not high risk", []*review.File{file("pkg/http/client.go", review.StatusModified, lines(30), 1, 2, 3)}, review.TierLocal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Assess(changeSet("", tt.files...), nil, Options{})
			if r.Tier != tt.want {
				t.Errorf("tier = %s, want %s", r.Tier, tt.want)
			}
		})
	}
}

func TestBrief(t *testing.T) {
	tests := []struct {
		name    string
		files   []*review.File
		intent  string
		modules []string
	}{
		{"package and test", []*review.File{
			file("review/gitdiff/diff.go", review.StatusModified, lines(5), 1, 2),
			file("review/gitdiff/hunk.go", review.StatusModified, lines(5), 1),
			file("review/gitdiff/repo.go", review.StatusModified, lines(5), 1, 2, 3),
			file("review/gitdiff/diff_test.go", review.StatusAdded, lines(4)),
		}, "Modifies 3 Go files in review/gitdiff and adds 1 test.", []string{"review/gitdiff"}},
		{"mixed", []*review.File{
			file("cmd/reviewls/main.go", review.StatusModified, lines(5), 1),
			file("review/risk/risk.go", review.StatusAdded, lines(30)),
			file("review/risk/doc.go", review.StatusAdded, lines(3)),
			file("docs/risk.md", review.StatusAdded, lines(10)),
			&review.File{Path: "old/x.yaml", Status: review.StatusDeleted, Deleted: 4},
			&review.File{Path: "package-lock.json", Status: review.StatusModified, Skip: "lock file"},
		}, "Modifies 1 Go file, adds 3 files and deletes 1 YAML file across 4 directories; " +
			"lists 1 file without reviewing it (package-lock.json).",
			[]string{"review/risk", "docs", "old"}},
		{"tests only", []*review.File{
			file("pkg/a_test.go", review.StatusModified, lines(5), 1),
		}, "Modifies 1 test in pkg.", []string{"pkg"}},
		{"root", []*review.File{file("main.go", review.StatusModified, lines(5), 1)},
			"Modifies 1 Go file at the repository root.", []string{"."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Assess(changeSet("", tt.files...), nil, Options{}).Brief
			if b.Intent != tt.intent {
				t.Errorf("intent = %q\nwant     %q", b.Intent, tt.intent)
			}
			if diff := cmp.Diff(tt.modules, b.PrimaryModules); diff != "" {
				t.Errorf("primary modules (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBriefNotes(t *testing.T) {
	r := Assess(changeSet("",
		file("internal/auth/login.go", review.StatusModified, "x\n", 1),
		file("internal/auth/session_store.go", review.StatusModified, "x\n", 1),
		file("billing/pay.go", review.StatusModified, "x\n", 1),
		file("go.mod", review.StatusModified, "x\n", 1),
		file("config/app.yaml", review.StatusModified, "x: 1\n", 1),
		file("db/migrations/4.sql", review.StatusAdded, "x\n"),
		file(".github/workflows/ci.yml", review.StatusModified, "x: 1\n", 1),
		file("pkg/flags.go", review.StatusModified, "\tif ldclient.BoolVariation(\"x\") {\n", 1),
	), nil, Options{})
	want := []string{"auth (2 files)", "persistence (2 files)", "financial logic (1 file)"}
	if diff := cmp.Diff(want, r.Brief.RiskAreas); diff != "" {
		t.Errorf("risk areas (-want +got):\n%s", diff)
	}
	wantContains(t, "rollout notes", r.Brief.RolloutNotes,
		"Hard to reverse: db/migrations/4.sql (migration)",
		"dependencies: go.mod",
		"configuration: config/app.yaml",
		"CI workflow: .github/workflows/ci.yml",
		`reversal: feature flag at pkg/flags.go line 1 ("ldclient")`)
	wantContains(t, "test notes", r.Brief.TestNotes, "0 of 4 behaviour-changing source files have a test by convention")

	quiet := Assess(changeSet("", file("pkg/a.go", review.StatusModified, "x\n", 1)), nil, Options{})
	if want := "No migrations, configuration, dependency manifests or feature flags in the change."; quiet.Brief.RolloutNotes != want {
		t.Errorf("rollout notes = %q, want %q", quiet.Brief.RolloutNotes, want)
	}
	if len(quiet.Brief.RiskAreas) != 0 {
		t.Errorf("risk areas = %v, want none", quiet.Brief.RiskAreas)
	}
}

func TestSpecialists(t *testing.T) {
	tests := []struct {
		name  string
		files []*review.File
		want  []review.SpecialistSignal
	}{
		{"none", []*review.File{file("pkg/a.go", review.StatusModified, "x := 1\n", 1)}, []review.SpecialistSignal{}},
		{"security", []*review.File{
			file("internal/auth/login.go", review.StatusModified, "x\n", 1),
			file("pkg/parse.go", review.StatusModified, "x\n", 1),
			file("pkg/net.go", review.StatusModified, "x\n", 1), // networking alone is no security signal
		}, []review.SpecialistSignal{{Concern: "security", Signals: []string{"auth", "parsing"},
			Files: []string{"internal/auth/login.go", "pkg/parse.go"}}}},
		{"supply chain", []*review.File{
			file("go.mod", review.StatusModified, "x\n", 1),
			&review.File{Path: "yarn.lock", Status: review.StatusModified, Skip: "lock file"},
			file("Dockerfile", review.StatusModified, "FROM x\n", 1),
			file(".github/workflows/ci.yml", review.StatusModified, "x: 1\n", 1),
			file(".gitlab-ci.yml", review.StatusModified, "x: 1\n", 1),
			file("Makefile", review.StatusModified, "x:\n", 1),
			file("requirements-dev.txt", review.StatusModified, "x\n", 1),
		}, []review.SpecialistSignal{{Concern: "supply-chain",
			Signals: []string{"CI workflow", "build config", "container build", "dependency manifest", "lockfile"},
			Files:   []string{".github/workflows/ci.yml", ".gitlab-ci.yml", "Dockerfile", "Makefile", "go.mod", "requirements-dev.txt", "yarn.lock"}}}},
		{"ai", []*review.File{
			file("app/chat.py", review.StatusModified, "from openai import OpenAI\n", 1),
			file("app/model.py", review.StatusModified, "import torch\n", 1),
			file("prompts/system.md", review.StatusAdded, "You are helpful.\n"),
			file("requirements.txt", review.StatusModified, "anthropic==0.3\n", 1),
		}, []review.SpecialistSignal{
			{Concern: "supply-chain", Signals: []string{"dependency manifest"}, Files: []string{"requirements.txt"}},
			{Concern: "ai", Signals: []string{"anthropic", "import torch", "openai", "prompt file"},
				Files: []string{"app/chat.py", "app/model.py", "prompts/system.md", "requirements.txt"}}}},
		{"ai near misses", []*review.File{
			file("app/etl.py", review.StatusModified, "transformers = [a, b]\n", 1),
			file("cli/prompt.go", review.StatusModified, "x\n", 1),
		}, []review.SpecialistSignal{}},
		{"accessibility", []*review.File{
			file("web/App.tsx", review.StatusModified, "x\n", 1),
			file("web/site.css", review.StatusModified, "x\n", 1),
			file("templates/page.html", review.StatusModified, "x\n", 1),
			file("views/mail.tmpl", review.StatusModified, "x\n", 1),
			file("web/App.test.tsx", review.StatusModified, "x\n", 1),
		}, []review.SpecialistSignal{{Concern: "accessibility", Signals: []string{"markup", "stylesheet", "template"},
			Files: []string{"templates/page.html", "views/mail.tmpl", "web/App.tsx", "web/site.css"}}}},
		{"privacy", []*review.File{
			file("pkg/user.go", review.StatusModified, "\tEmail string\n\tlog.Printf(\"user %s\", u.Email)\n", 1, 2),
			file("pkg/form.ts", review.StatusModified, "const dateOfBirth = x\n", 1),
			file("pkg/mail.go", review.StatusModified, "\tsendEmail(to)\n", 1),
		}, []review.SpecialistSignal{{Concern: "privacy",
			Signals: []string{"personal data in a log call", "personal data: date of birth", "personal data: email"},
			Files:   []string{"pkg/form.ts", "pkg/mail.go", "pkg/user.go"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Assess(changeSet("", tt.files...), nil, Options{}).Specialist
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("specialists (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEfficiencySignals(t *testing.T) {
	r := Assess(changeSet("",
		file("pkg/poll.go", review.StatusModified, "func f() {\n\tfor {\n\t\tcheck()\n\t\ttime.Sleep(time.Second)\n\t}\n}\n", 4),
		file("pkg/users.py", review.StatusModified, "for u in users:\n    cursor.execute(\"SELECT 1 FROM t\")\n", 2),
		file("pkg/tick.go", review.StatusModified, "\tt := time.NewTicker(d)\n", 1),
		file("deploy/cron.yaml", review.StatusModified, "schedule: x\n", 1),
		file("pkg/once.go", review.StatusModified, "func f() {\n\ttime.Sleep(time.Second)\n}\n", 2), // not in a loop
		file("pkg/far.go", review.StatusModified, "for {\n"+lines(50)+"\ttime.Sleep(d)\n}\n", 52),   // loop header out of reach
	), nil, Options{})
	want := &review.SpecialistSignal{Concern: "efficiency",
		Signals: []string{"cron or batch job", "polling", "query in loop", "sleep in loop"},
		Files:   []string{"deploy/cron.yaml", "pkg/poll.go", "pkg/tick.go", "pkg/users.py"}}
	if diff := cmp.Diff(want, specialistOf(r.Specialist, "efficiency")); diff != "" {
		t.Errorf("efficiency (-want +got):\n%s", diff)
	}
}

func specialistOf(ss []review.SpecialistSignal, concern string) *review.SpecialistSignal {
	for i := range ss {
		if ss[i].Concern == concern {
			return &ss[i]
		}
	}
	return nil
}

func TestDeterminism(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "go.mod", "module example.com/m\n", past)
	writeFile(t, root, "pkg/a.go", lines(10), past)
	writeFile(t, root, "pkg/a_test.go", "x\n", past)
	writeFile(t, root, "coverage.out", "mode: set\nexample.com/m/pkg/a.go:1.1,3.2 2 1\n", future)
	build := func(reverse bool) *review.ChangeSet {
		files := []*review.File{
			file("pkg/a.go", review.StatusModified, lines(10), 1, 2),
			file("internal/auth/jwt.go", review.StatusModified, "\tgo verify(token)\n\tpassword := x\n", 1, 2),
			file("web/App.tsx", review.StatusAdded, "const email = fetch(u)\n"),
			file("go.mod", review.StatusModified, "require x v1\n", 1),
			file("db/migrations/1.sql", review.StatusAdded, "ALTER TABLE t ADD c int;\n"),
			&review.File{Path: "yarn.lock", Status: review.StatusModified, Skip: "lock file"},
		}
		if reverse {
			for i, j := 0, len(files)-1; i < j; i, j = i+1, j-1 {
				files[i], files[j] = files[j], files[i]
			}
		}
		return &review.ChangeSet{Root: root, Files: files}
	}
	hist := &review.History{Available: true, Limit: 20, Commits: []review.Commit{
		{Paths: []string{"pkg/a.go", "pkg/b.go"}}, {Paths: []string{"pkg/a.go", "pkg/b.go", "web/App.tsx"}},
	}}
	first := Assess(build(false), hist, Options{})
	for i := range 5 {
		if diff := cmp.Diff(first, Assess(build(i%2 == 1), hist, Options{})); diff != "" {
			t.Fatalf("run %d differs (-first +again):\n%s", i, diff)
		}
	}
}

func TestNeverComprehensiveOnlyBecauseEvidenceIsMissing(t *testing.T) {
	// A benign change with history and coverage both unavailable.
	r := Assess(changeSet("", file("pkg/strutil.go", review.StatusModified, lines(3), 1)), nil, Options{})
	if r.RecommendedDepth != review.DepthStandard || !r.Incomplete {
		t.Fatalf("depth = %s, incomplete = %v, want standard and incomplete (%s)", r.RecommendedDepth, r.Incomplete, r.DepthReason)
	}
	wantContains(t, "depth reason", r.DepthReason, "evidence is incomplete (history and coverage unavailable)",
		"missing evidence alone never escalates")
	if !strings.HasPrefix(r.DepthReason, "standard:") {
		t.Errorf("reason %q does not start with the depth", r.DepthReason)
	}
}
