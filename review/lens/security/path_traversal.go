package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// PathTraversal finds Python paths joined from request or archive data
// without a containment check.
var PathTraversal = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/path-traversal",
		Perspective: review.Security,
		Category:    CatInput,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthStandard,
		Skill:       "CWE-22",
		Summary:     "Path built from untrusted input without a containment check",
		Doc: "`os.path.join(base, name)` with a name from a request (a route parameter, request.args/form/files, " +
			"a Tornado handler's path argument) or from an archive (a tar or zip member's name) escapes base: " +
			"`../../etc/passwd` climbs out, and an absolute name replaces base altogether, so the code reads, " +
			"serves or overwrites any file the process can reach (zip-slip, tar-slip). Resolve the joined path " +
			"(os.path.realpath) and check it stays inside base (os.path.commonpath, Path.is_relative_to), or use " +
			"werkzeug's secure_filename / safe_join, flask.send_from_directory, or tarfile's filter=\"data\". " +
			"A function that makes such a check, takes os.path.basename of the name, or holds one of those " +
			"helpers is not reported; a check for \"..\" alone is not enough (absolute names) and does not count. A " +
			"change that deletes the check is reported on the join, whose line it did not touch.",
		Bad:  "filename = request.args[\"name\"]\nreturn send_file(os.path.join(UPLOADS, filename))",
		Good: "path = os.path.realpath(os.path.join(UPLOADS, request.args[\"name\"]))\nif os.path.commonpath([path, UPLOADS]) != UPLOADS:\n    abort(404)\nreturn send_file(path)",
	},
	Run: runPathTraversal,
}

var (
	// routeDecorator matches a decorator that routes URLs to the function.
	routeDecorator = regexp.MustCompile(`^@\s*[\w.]*\b(?:route|get|post|put|patch|delete|api_view|websocket)\s*\(`)
	// pySource matches expressions that read request or archive data.
	pySource = regexp.MustCompile(`\brequest\.(?:args|form|files|values|GET|POST|FILES|query_params|path_params|data|json)\b|\.get_argument\(|\.get_query_argument\(`)
	// archiveIter matches the iterables of archive members.
	archiveIter = regexp.MustCompile(`\.(?:getmembers|getnames|namelist|infolist)\(\)|\b(?:members|member_names|names)\b`)
	pyAssign    = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=[^=]`)
	pyFor       = regexp.MustCompile(`^for\s+([A-Za-z_]\w*)\s+in\s+(.*):`)
	pyJoin      = regexp.MustCompile(`\bos\.path\.join\s*\(`)
	// containment are the checks and helpers that keep a path inside its
	// base.
	containment = regexp.MustCompile(`\b(?:realpath|abspath|commonpath|commonprefix|is_relative_to|relative_to|secure_filename|safe_join|send_from_directory|basename|is_within_directory|assert_no_path_traversal)\s*\(|filter\s*=`)
)

func runPathTraversal(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) || !p.Contains("os.path.join") {
		return
	}
	py := syntax.Python(p.File)
	for i := range py.Funcs {
		fn := &py.Funcs[i]
		// A change that deletes the containment check re-opens the hole
		// without touching the join: it is reported there, with the line
		// of the removal.
		removed := removedMatch(p.File, fn.Line, fn.End, containment)
		if p.FirstChanged(fn.Line, fn.End) == 0 && removed == 0 {
			continue
		}
		body := py.Code[py.Offset(fn.Line):py.Offset(min(fn.End+1, len(py.Lines)))]
		if !strings.Contains(body, "os.path.join") || containment.MatchString(body) {
			continue
		}
		tainted := map[string]string{} // name -> where it comes from
		if routed(py, fn) {
			for _, a := range py.Args(fn.Open) {
				name := strings.TrimSpace(strings.SplitN(strings.SplitN(py.Src[a.Off:a.End], ":", 2)[0], "=", 2)[0])
				if name != "self" && name != "cls" && name != "request" && !strings.HasPrefix(name, "*") && name != "" {
					tainted[name] = "a URL parameter"
				}
			}
		}
		for n := fn.Body; n <= fn.End; n++ {
			code := strings.TrimSpace(py.CodeLine(n))
			if m := pyFor.FindStringSubmatch(code); m != nil && archiveIter.MatchString(m[2]) {
				tainted[m[1]] = "an archive member's name"
				continue
			}
			if m := pyAssign.FindStringSubmatch(code); m != nil {
				rhs := code[len(m[0])-1:]
				if pySource.MatchString(rhs) {
					tainted[m[1]] = "the request"
				} else if from := taintedIn(rhs, tainted); from != "" {
					tainted[m[1]] = from
				}
			}
			if len(tainted) == 0 || !p.Changed(n) && removed == 0 {
				continue
			}
			full := py.CodeLine(n)
			for _, loc := range pyJoin.FindAllStringIndex(full, -1) {
				args := py.Args(py.Offset(n) + loc[1] - 1)
				for k, a := range args {
					arg := py.Src[a.Off:a.End]
					from := taintedIn(arg, tainted)
					if k == 0 || from == "" && !pySource.MatchString(arg) {
						continue
					}
					if from == "" {
						from = "the request"
					}
					r := 0
					if !p.Changed(n) {
						r = removed
					}
					p.Report(lens.Report{
						Line: n, Symbol: fn.Name, Removed: r,
						Message: fmt.Sprintf("os.path.join gets `%s`, which comes from %s, and nothing in %s checks that the "+
							"result stays inside the base directory: `../` or an absolute name reaches any file.", lens.Snippet(arg), from, fn.Name),
						Suggested: "Resolve the path with os.path.realpath and check it with os.path.commonpath against the " +
							"base, or use secure_filename / send_from_directory / tarfile's filter=\"data\".",
					})
					break
				}
			}
		}
	}
}

// removedMatch returns the line of f before which the change removed a
// line matching re within lines [from, to], or 0.
func removedMatch(f *review.File, from, to int, re *regexp.Regexp) int {
	at := 0
	f.EachRemoved(func(before int, text string) {
		if at == 0 && before > from && before <= to+1 && re.MatchString(text) {
			at = before
		}
	})
	return at
}

// taintedIn returns where a tainted name that code uses comes from, or "".
func taintedIn(code string, tainted map[string]string) string {
	for name, from := range tainted {
		i := 0
		for {
			j := strings.Index(code[i:], name)
			if j < 0 {
				break
			}
			j += i
			before := j == 0 || !syntax.PyIdentByte(code[j-1]) && code[j-1] != '.'
			after := j+len(name) >= len(code) || !syntax.PyIdentByte(code[j+len(name)])
			if before && after {
				return from
			}
			i = j + len(name)
		}
	}
	return ""
}

// routed reports a function whose parameters come from the URL: under a
// routing decorator, or a get/post/... method of a Tornado-style handler.
func routed(py *syntax.PyFile, fn *syntax.PyFunc) bool {
	for n := fn.Line - 1; n >= 1; n-- {
		code := strings.TrimSpace(py.CodeLine(n))
		if !strings.HasPrefix(code, "@") {
			break
		}
		if routeDecorator.MatchString(code) {
			return true
		}
	}
	switch fn.Name {
	case "get", "post", "put", "patch", "delete", "head":
		for n := fn.Line - 1; n >= 1; n-- {
			if code := strings.TrimSpace(py.CodeLine(n)); strings.HasPrefix(code, "class ") {
				return strings.Contains(code, "Handler")
			}
		}
	}
	return false
}
