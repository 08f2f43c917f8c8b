package security

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// WorldWritable finds files and directories made writable by every user.
var WorldWritable = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/world-writable",
		Perspective: review.Security,
		Category:    CatAuth,
		Severity:    review.SeverityMedium,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, shellLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-732",
		Summary:     "World-writable file permissions",
		Doc: "A mode that lets others write (chmod 777, 666, a+w, o+w; os.Chmod(p, 0o777); os.chmod(p, 0o666)) lets " +
			"any local user or any process in the container replace the file: a script, binary or config it holds is " +
			"then run or trusted by the owner, which turns a foothold into privilege escalation. Grant write to the " +
			"owner only (0o755 for directories and executables, 0o644 for files); the fix clears the group and other " +
			"write bits of an octal mode. chmod and os.Chmod/os.chmod are Medium. Modes passed when creating files " +
			"(os.WriteFile, os.MkdirAll, os.OpenFile, os.makedirs, os.mkdir, os.open) go through the process umask, so " +
			"only a deliberately other-writable one (such as 0646 or 0776) is reported, as Low; 0666 and 0777 there are " +
			"the idiom for \"whatever the umask allows\" and are not reported. Modes with the sticky bit (1777, as for /tmp) are " +
			"deliberate and not reported, nor is a bare +w, which the umask filters, nor are test files.",
		Bad:     "RUN chmod -R 777 /app",
		Good:    "RUN chown -R app:app /app && chmod -R 755 /app",
		Fixable: true,
	},
	Run: runWorldWritable,
}

func runWorldWritable(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // tests handle fixtures, not attacker input
	}
	switch p.File.Language {
	case review.LangGo:
		goWorldWritable(p)
	case review.LangPython:
		pyWorldWritable(p)
	default:
		shellWorldWritable(p)
	}
}

// otherWritable reports whether an octal mode lets others write and is
// not a sticky directory mode.
func otherWritable(mode int64) bool { return mode&0o002 != 0 && mode&0o1000 == 0 }

// umaskDefault reports the creation modes that mean "whatever the umask
// allows": 0666 for files and 0777 for directories, the modes os.Create
// and Python's os.makedirs use themselves.
func umaskDefault(mode int64) bool { return mode == 0o666 || mode == 0o777 }

// fixedMode renders mode without group and other write bits in the
// notation of lit (0o755, 0755, 0x1ed, 493, or 755 for chmod, whose
// unprefixed modes are octal).
func fixedMode(lit string, mode int64, chmod bool) string {
	mode &^= 0o022
	switch {
	case strings.HasPrefix(lit, "0o") || strings.HasPrefix(lit, "0O"):
		return fmt.Sprintf("%s%o", lit[:2], mode)
	case strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X"):
		return fmt.Sprintf("%s%x", lit[:2], mode)
	case strings.HasPrefix(lit, "0") && len(lit) > 1:
		return fmt.Sprintf("0%0*o", len(lit)-1, mode)
	case chmod:
		return fmt.Sprintf("%0*o", len(lit), mode)
	}
	return strconv.FormatInt(mode, 10)
}

func modeFix(p *lens.Pass, line, col int, lit string, mode int64, chmod bool) *review.Fix {
	repl := fixedMode(lit, mode, chmod)
	return &review.Fix{
		Title: fmt.Sprintf("Use mode %s", repl),
		Edits: []review.TextEdit{{
			Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: col, EndLine: line, EndCol: col + len(lit)},
			NewText: repl,
		}},
	}
}

const worldWritableSuggestion = "Let only the owner write: 0o755 for directories and executables, 0o644 for files; change the owner (chown) instead of opening the mode."

// goCreateModes lists os and ioutil functions that take a creation mode,
// with the index of the mode argument.
var goCreateModes = map[string]int{"WriteFile": 2, "MkdirAll": 1, "Mkdir": 1, "OpenFile": 2}

func goWorldWritable(p *lens.Pass) {
	if !p.Contains("Chmod") && !p.Contains("WriteFile") && !p.Contains("Mkdir") && !p.Contains("OpenFile") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	osName, ioutilName := lens.GoImportName(g.File, "os"), lens.GoImportName(g.File, "io/ioutil")
	ast.Inspect(g.File, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		idx, create := -1, false
		var fn string
		switch {
		case lens.IsGoPkgCall(call, osName, "Chmod"):
			idx, fn = 1, "os.Chmod"
		case lens.IsGoPkgCall(call, osName, "WriteFile", "MkdirAll", "Mkdir", "OpenFile"):
			name := call.Fun.(*ast.SelectorExpr).Sel.Name
			idx, fn, create = goCreateModes[name], "os."+name, true
		case lens.IsGoPkgCall(call, ioutilName, "WriteFile"):
			idx, fn, create = 2, "ioutil.WriteFile", true
		default:
			return true
		}
		if idx >= len(call.Args) {
			return true
		}
		arg := call.Args[idx]
		if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if sel, ok := conv.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "FileMode" {
				arg = conv.Args[0]
			}
		}
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return true
		}
		mode, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
		if err != nil || !otherWritable(mode) || create && umaskDefault(mode) {
			return true
		}
		line := g.Line(lit.Pos())
		if !p.Changed(line) {
			return true
		}
		worldWritableReport(p, line, g.Col(lit.Pos()), lit.Value, mode, fn, create, g.EnclosingFunc(line))
		return true
	})
}

func worldWritableReport(p *lens.Pass, line, col int, lit string, mode int64, fn string, create bool, symbol string) {
	r := lens.Report{
		Line: line, Col: col, EndCol: col + len(lit), Symbol: symbol,
		Message: fmt.Sprintf("%s with mode %s lets every user write the file: any local user or process can replace "+
			"what it holds, and whoever later runs or trusts it runs their code.", fn, lit),
		Suggested: worldWritableSuggestion,
	}
	if mode != 0 {
		r.Fix = modeFix(p, line, col, lit, mode, fn == "chmod")
	}
	if create {
		r.Severity = review.SeverityLow
		r.Message = fmt.Sprintf("%s creates the file with mode %s, which lets every user write it unless the process "+
			"umask removes the bit (a umask of 0, common in containers and some services, keeps it).", fn, lit)
	}
	p.Report(r)
}

var (
	pyModeCallRE = regexp.MustCompile(`(\bos\s*\.\s*)?(?:\.\s*)?\b(chmod|fchmod|lchmod|makedirs|mkdir|open)\s*\(`)
	pyOctalRE    = regexp.MustCompile(`^0[oO]?[0-7]+$|^[0-9]+$`)
)

func pyWorldWritable(p *lens.Pass) {
	if !p.Contains("chmod") && !p.Contains("mkdir") && !p.Contains("makedirs") && !p.Contains("os.open") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		for _, m := range pyModeCallRE.FindAllStringSubmatchIndex(code, -1) {
			name := code[m[4]:m[5]]
			osCall := m[2] >= 0
			method := !osCall && m[0] < m[4] && strings.Contains(code[m[0]:m[4]], ".")
			if !osCall && !method || name == "open" && !osCall {
				continue
			}
			// Position of the mode argument: os.chmod(path, mode),
			// os.open(path, flags, mode), Path.chmod(mode), Path.mkdir(mode).
			pos := 1
			switch {
			case name == "open":
				pos = 2
			case method:
				pos = 0
			}
			var modeArg *syntax.PyArg
			for i, a := range py.Args(py.Offset(n) + m[1] - 1) {
				if a.Name == "mode" || a.Name == "" && i == pos {
					modeArg = &a
				}
			}
			if modeArg == nil {
				continue
			}
			lit := strings.TrimSpace(py.Src[modeArg.Value:modeArg.End])
			create := name != "chmod" && name != "fchmod" && name != "lchmod"
			fn := name
			if osCall {
				fn = "os." + name
			}
			line := py.LineOf(modeArg.Value)
			if !p.Changed(line) {
				continue
			}
			col := modeArg.Value - py.Offset(line) + 1
			symbol := lens.PyFuncName(py, line)
			if !pyOctalRE.MatchString(lit) {
				if strings.Contains(lit, "S_IWOTH") || strings.Contains(lit, "S_IRWXO") {
					worldWritableReport(p, line, col, lit, 0, fn, create, symbol)
				}
				continue
			}
			digits := lit
			base := 10
			if strings.HasPrefix(lit, "0") && len(lit) > 1 {
				digits, base = strings.TrimLeft(lit[1:], "oO"), 8
			}
			mode, err := strconv.ParseInt(digits, base, 64)
			if err != nil || !otherWritable(mode) || create && umaskDefault(mode) {
				continue
			}
			worldWritableReport(p, line, col, lit, mode, fn, create, symbol)
		}
	})
}

var chmodRE = regexp.MustCompile(`\bchmod\s+(?:(?:-[A-Za-z]+|--[a-z-]+(?:=\S+)?)\s+)*([0-7]{3,4}|[ugoa]*[-+=][rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*)(?:\s|$|;|&|\|)`)

func shellWorldWritable(p *lens.Pass) {
	if !p.Contains("chmod") {
		return
	}
	p.EachChanged(func(n int, line string) {
		if !strings.Contains(line, "chmod") {
			return
		}
		code := syntax.MaskShellQuotes(syntax.StripShellComment(line))
		for _, m := range chmodRE.FindAllStringSubmatchIndex(code, -1) {
			lit := code[m[2]:m[3]]
			col := m[2] + 1
			if lit[0] >= '0' && lit[0] <= '7' {
				mode, _ := strconv.ParseInt(lit, 8, 64)
				if otherWritable(mode) {
					worldWritableReport(p, n, col, lit, mode, "chmod", false, "")
				}
				continue
			}
			if symbolicOtherWrite(lit) {
				p.Report(lens.Report{
					Line: n, Col: col, EndCol: col + len(lit),
					Message: fmt.Sprintf("chmod %s lets every user write the file: any local user or process can replace "+
						"what it holds, and whoever later runs or trusts it runs their code.", lit),
					Suggested: worldWritableSuggestion,
				})
			}
		}
	})
}

// symbolicOtherWrite reports whether a symbolic mode (a+w, o=rwx, ...)
// grants write to others.
func symbolicOtherWrite(mode string) bool {
	for _, clause := range strings.Split(mode, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 {
			continue
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		if op != '-' && strings.ContainsAny(who, "oa") && strings.Contains(perms, "w") {
			return true
		}
	}
	return false
}
