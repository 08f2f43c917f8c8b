package readiness

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// MigrationWithoutRollback finds database migrations that cannot be
// rolled back.
var MigrationWithoutRollback = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/migration-without-rollback",
		Perspective: review.Readiness,
		Category:    CatFollowUp,
		Severity:    review.SeverityMedium,
		Languages:   append([]review.Language{review.LangSQL, review.LangPython, review.LangRuby}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		CrossFile:   true,
		Inputs:      []string{"*.down.sql"}, // a .up.sql's rollback
		Summary:     "Migration without a rollback",
		Doc: "A schema migration that cannot be reversed turns a bad deploy into an outage: rolling the code back leaves " +
			"the schema ahead of it, and the only way back is a hand-written fix under pressure. Write the down " +
			"migration with the up migration, or state in the change why the migration is irreversible and how to " +
			"recover. Reported: an *.up.sql file (golang-migrate, dbmate-style pairs) without its *.down.sql in the " +
			"change set or on disk, or with an empty one; an Alembic revision whose downgrade() is missing, empty " +
			"(pass, ...) or raises NotImplementedError; a Django migration's RunPython or RunSQL without " +
			"reverse_code or reverse_sql; a Rails migration with `def up` but no `def down`; a Knex, Sequelize or " +
			"TypeORM migration with an `up` but a missing or empty `down`. Flyway's versioned V*__*.sql files (which " +
			"have no down by design) and Rails `def change` migrations are not reported.",
		Bad:  "def upgrade():\n    op.add_column(\"user\", sa.Column(\"plan\", sa.String()))\n\n\ndef downgrade():\n    pass",
		Good: "def upgrade():\n    op.add_column(\"user\", sa.Column(\"plan\", sa.String()))\n\n\ndef downgrade():\n    op.drop_column(\"user\", \"plan\")",
	},
	Run: runMigrationWithoutRollback,
}

const migrationSuggestion = "Write the rollback with the migration, or state in the change why it is irreversible and how to recover."

func runMigrationWithoutRollback(p *lens.Pass) {
	dir := "/" + path.Dir(p.File.Path) + "/"
	switch lang := p.File.Language; {
	case lang == review.LangSQL && strings.HasSuffix(p.File.Path, ".up.sql"):
		sqlMigration(p)
	case lang == review.LangPython && (strings.Contains(dir, "/versions/") || strings.Contains(dir, "/migrations/") || strings.Contains(dir, "/alembic/")):
		if p.Contains("def upgrade") {
			alembicMigration(p)
		}
		if p.Contains("migrations.Migration") {
			djangoMigration(p)
		}
	case lang == review.LangRuby && strings.Contains(dir, "/db/migrate/"):
		railsMigration(p)
	case lang.IsJS() && (strings.Contains(dir, "/migrations/") || strings.Contains(dir, "/migration/")):
		jsMigration(p)
	}
}

// firstChangedLine returns the first changed line of the file, or 0.
func firstChangedLine(p *lens.Pass) int {
	if lines := p.File.ChangedLines(); len(lines) > 0 {
		return lines[0]
	}
	return 0
}

var sqlCommentRE = regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`)

func sqlMigration(p *lens.Pass) {
	line := firstChangedLine(p)
	if line == 0 {
		return
	}
	down := strings.TrimSuffix(p.File.Path, ".up.sql") + ".down.sql"
	var content []byte
	found := false
	if f := p.ChangeSet.File(down); f != nil {
		found = f.Status != review.StatusDeleted
		content = f.Content
	} else if p.ChangeSet.Root != "" {
		b, err := regular.ReadFile(filepath.Join(p.ChangeSet.Root, filepath.FromSlash(down)))
		found, content = err == nil, b
	}
	var why string
	switch {
	case !found:
		why = fmt.Sprintf("%s has no %s", path.Base(p.File.Path), path.Base(down))
	case strings.TrimSpace(sqlCommentRE.ReplaceAllString(string(content), "")) == "":
		why = fmt.Sprintf("its rollback %s is empty", path.Base(down))
	default:
		return
	}
	p.Report(lens.Report{
		Line: line,
		Message: fmt.Sprintf("The migration %s cannot be rolled back: %s. If the deploy has to be reverted, the schema "+
			"stays ahead of the code.", p.File.Path, why),
		Suggested: migrationSuggestion,
	})
}

func alembicMigration(p *lens.Pass) {
	py := syntax.Python(p.File)
	var up, down *syntax.PyFunc
	for i := range py.Funcs {
		fn := &py.Funcs[i]
		if fn.Indent != 0 {
			continue
		}
		switch fn.Name {
		case "upgrade":
			up = fn
		case "downgrade":
			down = fn
		}
	}
	if up == nil {
		return
	}
	var why string
	anchor := 0
	switch {
	case down == nil:
		why = "it has no downgrade()"
		anchor = p.FirstChanged(up.Line, up.End)
	default:
		if !pyEmptyBody(py, down) {
			return
		}
		why = "its downgrade() does nothing"
		anchor = p.FirstChanged(down.Line, down.End)
		if anchor == 0 {
			anchor = p.FirstChanged(up.Line, up.End)
		}
	}
	if anchor == 0 {
		return
	}
	p.Report(lens.Report{
		Line: anchor, Symbol: "downgrade",
		Message: fmt.Sprintf("The Alembic revision %s cannot be rolled back: %s. If the deploy has to be reverted, "+
			"`alembic downgrade` leaves the schema ahead of the code.", p.File.Path, why),
		Suggested: migrationSuggestion,
	})
}

// pyEmptyBody reports whether a def's body only holds a docstring, pass,
// ... or a raise NotImplementedError.
func pyEmptyBody(py *syntax.PyFile, fn *syntax.PyFunc) bool {
	if fn.Body == py.LineOf(fn.Colon) {
		rest := strings.TrimSpace(py.Code[fn.Colon+1 : py.Offset(fn.Body+1)])
		return rest == "pass" || rest == "..." || strings.HasPrefix(rest, "raise NotImplementedError")
	}
	for k := fn.Body; k <= fn.End; k++ {
		l := py.Lines[k-1]
		if !l.Logical {
			continue
		}
		s := strings.TrimSpace(py.CodeLine(k))
		switch {
		case s == "pass", s == "...", strings.HasPrefix(s, "raise NotImplementedError"):
		case strings.HasPrefix(s, `"`) || strings.HasPrefix(s, `'`):
			// A docstring.
		default:
			return false
		}
	}
	return true
}

var djangoOpRE = regexp.MustCompile(`\bmigrations\s*\.\s*(RunPython|RunSQL)\s*\(`)

func djangoMigration(p *lens.Pass) {
	py := syntax.Python(p.File)
	for _, m := range djangoOpRE.FindAllStringSubmatchIndex(py.Code, -1) {
		op := py.Code[m[2]:m[3]]
		reverse := "reverse_code"
		if op == "RunSQL" {
			reverse = "reverse_sql"
		}
		args := py.Args(m[1] - 1)
		positional, named := 0, false
		for _, a := range args {
			if a.Name == "" {
				positional++
			}
			named = named || a.Name == reverse
		}
		if positional >= 2 || named {
			continue
		}
		line := p.FirstChanged(py.LineOf(m[0]), py.LineOf(py.Match(m[1]-1)))
		if line == 0 {
			continue
		}
		p.Report(lens.Report{
			Line: line,
			Message: fmt.Sprintf("migrations.%s without %s makes the Django migration %s irreversible: `migrate` to an "+
				"earlier state fails with IrreversibleError, so a reverted deploy leaves the schema ahead of the code.",
				op, reverse, path.Base(p.File.Path)),
			Suggested: fmt.Sprintf("Pass %s (migrations.RunPython.noop when nothing needs undoing, migrations.RunSQL.noop for SQL).", reverse),
		})
	}
}

var (
	rubyDefUpRE   = regexp.MustCompile(`(?m)^\s*def\s+up\b`)
	rubyDefDownRE = regexp.MustCompile(`(?m)^\s*def\s+down\b`)
)

func railsMigration(p *lens.Pass) {
	src := string(p.File.Content)
	loc := rubyDefUpRE.FindStringIndex(src)
	if loc == nil || rubyDefDownRE.MatchString(src) {
		return
	}
	line := firstChangedLine(p)
	if line == 0 {
		return
	}
	p.Report(lens.Report{
		Line: line,
		Message: fmt.Sprintf("The Rails migration %s defines up but no down: `rails db:rollback` raises "+
			"IrreversibleMigration, so a reverted deploy leaves the schema ahead of the code.", path.Base(p.File.Path)),
		Suggested: "Add a down method that undoes up, or use a reversible change method.",
	})
}

func jsMigration(p *lens.Pass) {
	if !p.Contains("up") {
		return
	}
	js := syntax.JS(p.File)
	var up, down *syntax.JSFunc
	funcs := syntax.JSFuncs(p.File)
	for i := range funcs {
		switch funcs[i].Name {
		case "up":
			up = &funcs[i]
		case "down":
			down = &funcs[i]
		}
	}
	if up == nil {
		return
	}
	var why string
	anchor := 0
	upLines := func() int { return p.FirstChanged(int(js.Toks[up.Start].Line), int(js.Toks[up.Close].Line)) }
	switch {
	case down == nil:
		why, anchor = "it has no down", upLines()
	case down.Close == down.Open+1:
		why = "its down does nothing"
		anchor = p.FirstChanged(int(js.Toks[down.Start].Line), int(js.Toks[down.Close].Line))
		if anchor == 0 {
			anchor = upLines()
		}
	default:
		return
	}
	if anchor == 0 {
		return
	}
	p.Report(lens.Report{
		Line: anchor, Symbol: "down",
		Message: fmt.Sprintf("The migration %s cannot be rolled back: %s. If the deploy has to be reverted, the schema "+
			"stays ahead of the code.", p.File.Path, why),
		Suggested: migrationSuggestion,
	})
}
