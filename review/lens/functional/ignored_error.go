package functional

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/goapi"
	"github.com/reviewls/reviewls/review/syntax"
)

// IgnoredError finds Go calls whose error result is dropped although it
// reports a failure the caller must act on.
var IgnoredError = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/ignored-error",
		Perspective: review.Functional,
		Category:    CatErrors,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Fixable:     true,
		Summary:     "Error result dropped",
		Doc: "A call whose error is dropped, as a bare statement or with `_ =`, lets the program carry on after a " +
			"failure: a file that was never written, a transaction that was rolled back, a scan that read nothing. " +
			"Check the error and return it with context, or handle it. Which calls return an error is known without " +
			"type-checking, from a signature index of the standard library (generated from its sources) and of the " +
			"package's own files, and from the types of the function's parameters and variables: a package " +
			"function, a method of a typed value (`c.conn.SetKeepAlive`, `http.DefaultClient.Do`, `cmd.Start`) or a " +
			"function of the package. `v, _ := f()` with f's error in the blank is reported too (`req, _ := " +
			"http.NewRequest(...)`, `data, _ := io.ReadAll(f)`): v is used although the call may have failed; " +
			"parsers whose zero value is a deliberate default (strconv, netip, url, time.Parse, json.Marshal, " +
			"os.Hostname, ...) and calls with only literal arguments are not. A curated list gives the calls whose " +
			"loss is worst a higher severity and a precise consequence (os.WriteFile, os.Rename, Close, Write and " +
			"Sync on a file from os.Create, Flush on a bufio.Writer, Commit on a transaction, Scan on rows). Calls " +
			"whose errors are conventionally ignored or moot (fmt's printers, Write and Close in general, writes to " +
			"a bytes.Buffer, strings.Builder or hash, Rollback, io.Copy pumps, killing or signalling a process, " +
			"connection deadlines, CloseWithError, encoding a response) are not reported, nor is any deferred " +
			"call: a deferred Close is a separate question. Also left alone: a call followed by a return of " +
			"another error (cleanup on a failure path), a call whose line or the comment above says the error is " +
			"ignored on purpose (\"best effort\", \"ignore\", `//nolint`), os.Setenv with a literal key, and calls " +
			"in tests outside the curated list. An explicit `_ = f()` is reported only where the error means lost " +
			"or invalid data. The quick fix checks the error as the call returns it (`_, err :=` for a call that also " +
			"returns a value) and handles it as the enclosing function allows: returned wrapped, with the zero values " +
			"of the other results; `t.Fatalf` in a test; `log.Fatalf` in main; in a function the change adds that " +
			"returns nothing, a new error result. Elsewhere (a function that existed before or has other results, a " +
			"function literal) the suggestion says what to decide, as a new result changes the function's callers.",
		Bad:  "os.WriteFile(path, data, 0o644)\nreturn nil",
		Good: "if err := os.WriteFile(path, data, 0o644); err != nil {\n\treturn fmt.Errorf(\"save %s: %w\", path, err)\n}\nreturn nil",
	},
	Run: runIgnoredError,
}

// errCallee describes a call whose error must not be dropped.
type errCallee struct {
	sev review.Severity
	// effect is the consequence of ignoring the error, as a clause.
	effect string
	// explicit reports `_ = f()` too: the error means lost or invalid data,
	// so even a deliberate discard is suspect.
	explicit bool
	// tests reports the call in test files too.
	tests bool
}

const (
	effectWrite   = "the file may be missing or truncated while the program carries on as if it were saved"
	effectDecode  = "on malformed input the value stays zero or half-filled and is then used as if it were valid"
	effectCleanup = "the path stays behind and nothing reports it"
)

// errFuncs lists package functions by import path.
var errFuncs = map[string]map[string]errCallee{
	"os": {
		"WriteFile": {review.SeverityHigh, effectWrite, true, true},
		"Rename":    {review.SeverityHigh, "the old file stays in place and the new one may be lost, while the caller reports success", true, true},
		"Chdir":     {review.SeverityHigh, "later relative paths resolve against the old working directory", true, true},
		"Remove":    {review.SeverityMedium, effectCleanup, false, false},
		"RemoveAll": {review.SeverityMedium, effectCleanup, false, false},
		"Mkdir":     {review.SeverityMedium, "the directory may not exist and the next write fails with a less clear error", false, true},
		"MkdirAll":  {review.SeverityMedium, "the directory may not exist and the next write fails with a less clear error", false, true},
		"Chmod":     {review.SeverityMedium, "the file keeps its old permissions", false, false},
		"Chown":     {review.SeverityMedium, "the file keeps its old owner", false, true},
		"Lchown":    {review.SeverityMedium, "the file keeps its old owner", false, true},
		"Chtimes":   {review.SeverityMedium, "the file keeps its old times", false, false},
		"Setenv":    {review.SeverityMedium, "the environment keeps its old value", false, false},
		"Symlink":   {review.SeverityMedium, "the link is never created and nothing reports it", false, true},
		"Link":      {review.SeverityMedium, "the link is never created and nothing reports it", false, true},
		"Truncate":  {review.SeverityMedium, "the file keeps its old content", false, true},
	},
	"io/ioutil":       {"WriteFile": {review.SeverityHigh, effectWrite, true, true}},
	"encoding/json":   {"Unmarshal": {review.SeverityMedium, effectDecode, true, true}},
	"encoding/xml":    {"Unmarshal": {review.SeverityMedium, effectDecode, true, true}},
	"encoding/binary": {"Read": {review.SeverityMedium, "a short or failed read leaves the value partly filled", true, true}},
	"io":              {"ReadFull": {review.SeverityMedium, "a short read leaves the buffer partly filled", true, true}},
	"path/filepath": {
		"Walk":    {review.SeverityMedium, "errors of the walk (unreadable directories, errors returned by the callback) are lost and the result is silently incomplete", false, true},
		"WalkDir": {review.SeverityMedium, "errors of the walk (unreadable directories, errors returned by the callback) are lost and the result is silently incomplete", false, true},
	},
	"io/fs": {"WalkDir": {review.SeverityMedium, "errors of the walk (unreadable directories, errors returned by the callback) are lost and the result is silently incomplete", false, true}},
	"net/http": {
		"ListenAndServe":    {review.SeverityMedium, "if the address is taken or the listener fails, the server never runs and nothing says why", false, false},
		"ListenAndServeTLS": {review.SeverityMedium, "if the address is taken or the certificate is bad, the server never runs and nothing says why", false, false},
	},
}

// valueKind is what a local variable holds, judged by the call that made it.
type valueKind int

const (
	noValue valueKind = iota
	fileWriter
	bufWriter
	streamWriter // compress and archive writers: Close writes the trailer
	sqlTx
	sqlRows
	execCmd
	errGroup
)

// kindMethods lists, per kind of value, the methods whose errors matter.
var kindMethods = map[valueKind]map[string]errCallee{
	fileWriter: {
		"Close":       {review.SeverityHigh, "data still in the kernel's buffers may never reach the disk, and a failed write surfaces only here", false, false},
		"Write":       {review.SeverityHigh, effectWrite, true, true},
		"WriteString": {review.SeverityHigh, effectWrite, true, true},
		"WriteAt":     {review.SeverityHigh, effectWrite, true, true},
		"Sync":        {review.SeverityHigh, "the data may not be durable after a crash although the caller assumes it is", true, true},
	},
	bufWriter: {"Flush": {review.SeverityHigh, "the buffered tail of the output is silently lost, and every earlier write error surfaces only here", true, true}},
	streamWriter: {
		"Close": {review.SeverityHigh, "the output is truncated: Close writes the stream's trailer and reports earlier write errors", true, true},
		"Flush": {review.SeverityHigh, "the buffered output is silently lost", true, true},
	},
	sqlTx:   {"Commit": {review.SeverityHigh, "the transaction may have been rolled back while the caller reports success", true, true}},
	sqlRows: {"Scan": {review.SeverityMedium, "a failed scan leaves the destinations unchanged and they are used as if they were read", true, true}},
	execCmd: {
		"Run":   {review.SeverityMedium, "a command that fails or exits non-zero goes unnoticed", false, true},
		"Start": {review.SeverityMedium, "a command that never started goes unnoticed", false, true},
		"Wait":  {review.SeverityMedium, "a command that fails or exits non-zero goes unnoticed", false, true},
	},
	errGroup: {"Wait": {review.SeverityMedium, "errors returned by the group's goroutines are lost", true, true}},
}

// ctor is a constructor whose result has a known kind.
type ctor struct{ path, name string }

var ctorKinds = map[ctor]valueKind{
	{"os", "Create"}:                              fileWriter,
	{"os", "CreateTemp"}:                          fileWriter,
	{"io/ioutil", "TempFile"}:                     fileWriter,
	{"os", "OpenFile"}:                            fileWriter, // only with write flags, see valueKindOf
	{"bufio", "NewWriter"}:                        bufWriter,
	{"bufio", "NewWriterSize"}:                    bufWriter,
	{"compress/gzip", "NewWriter"}:                streamWriter,
	{"compress/gzip", "NewWriterLevel"}:           streamWriter,
	{"compress/zlib", "NewWriter"}:                streamWriter,
	{"compress/zlib", "NewWriterLevel"}:           streamWriter,
	{"compress/flate", "NewWriter"}:               streamWriter,
	{"archive/zip", "NewWriter"}:                  streamWriter,
	{"archive/tar", "NewWriter"}:                  streamWriter,
	{"os/exec", "Command"}:                        execCmd,
	{"os/exec", "CommandContext"}:                 execCmd,
	{"golang.org/x/sync/errgroup", "WithContext"}: errGroup,
}

// methodKinds are methods that make a value of a known kind whatever their
// receiver: database handles are too varied to recognise by type.
var methodKinds = map[string]valueKind{
	"Begin": sqlTx, "BeginTx": sqlTx,
	"Query": sqlRows, "QueryContext": sqlRows, "QueryRow": sqlRows, "QueryRowContext": sqlRows,
}

// candidateNames are the callee names (or the first call of a chain) that
// make a changed line worth parsing: the cheap pre-filter of the rule.
var candidateNames = func() map[string]bool {
	m := map[string]bool{"NewDecoder": true, "QueryRow": true, "QueryRowContext": true}
	for _, fs := range errFuncs {
		for name := range fs {
			m[name] = true
		}
	}
	for _, ms := range kindMethods {
		for name := range ms {
			m[name] = true
		}
	}
	return m
}()

// sameFileErrFuncs returns the functions of the file whose last result is
// error, and the methods per receiver type.
func sameFileErrFuncs(file *ast.File) (funcs map[string]bool, methods map[string]map[string]bool) {
	funcs, methods = map[string]bool{}, map[string]map[string]bool{}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !returnsError(fd.Type) {
			continue
		}
		if fd.Recv == nil {
			funcs[fd.Name.Name] = true
			continue
		}
		recv, _, _ := strings.Cut(syntax.GoFuncName(fd), ".")
		if methods[recv] == nil {
			methods[recv] = map[string]bool{}
		}
		methods[recv][fd.Name.Name] = true
	}
	return funcs, methods
}

// isStringLit reports a first argument that is a string literal: os.Setenv
// fails only for malformed keys, which a literal is not.
func isStringLit(args []ast.Expr) bool {
	if len(args) == 0 {
		return false
	}
	lit, ok := args[0].(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}

// acknowledged reports a comment on the line or the one above that says
// the error is ignored on purpose ("best effort", "ignore the error").
func acknowledged(f *review.File, line int) bool {
	cs := syntax.Comments(f)
	lines := lens.Lines(f)
	for _, n := range []int{line, line - 1} {
		if n < 1 || n > len(cs) || cs[n-1].Col == 0 {
			continue
		}
		if n < line && strings.TrimSpace(lines[n-1][:cs[n-1].Col-1]) != "" {
			continue // the line above has code: its comment is about that code
		}
		t := strings.ToLower(cs[n-1].Text)
		for _, w := range []string{"best effort", "best-effort", "ignore", "error is", "err is", "can't fail", "cannot fail", "never fails", "nolint"} {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// conventionallyIgnored are method names whose errors callers ignore by
// convention (writers that report errors later, printers) or that are a
// separate question (Close).
var conventionallyIgnored = map[string]bool{
	"Write": true, "WriteString": true, "WriteByte": true, "WriteRune": true, "Close": true,
	"Print": true, "Printf": true, "Println": true, "UnreadByte": true, "UnreadRune": true, "Rollback": true,
}

// typeName returns the name of a named type or a pointer to one.
func typeName(e ast.Expr) string {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func returnsError(ft *ast.FuncType) bool {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return false
	}
	id, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

// leadingCall returns the last name of the identifier chain that starts
// line, when the chain is called ("s.db.Exec(" gives "Exec"), after an
// optional "_ =" or "_, _ =" discard.
func leadingCall(line string) (string, bool) {
	s := strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(s, "_"); ok {
		rest = strings.TrimLeft(rest, " \t,_")
		if r, ok := strings.CutPrefix(rest, "="); ok && !strings.HasPrefix(r, "=") {
			s = strings.TrimSpace(r)
		}
	}
	last, i := 0, 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > last:
			i++
		case c == '.' && i > last:
			i++
			last = i
		case c == '(' && i > last:
			return s[last:i], true
		default:
			return "", false
		}
	}
	return "", false
}

func runIgnoredError(p *lens.Pass) {
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	funcs, methods := sameFileErrFuncs(g.File)
	// Pre-filter: only declarations with a changed line that starts with a
	// call of interest are walked.
	var decls []*ast.FuncDecl
	test := review.IsTestPath(p.File.Path)
	for _, d := range lens.GoDeclsWithChangedLine(p.File, func(line string) bool {
		name, ok := leadingCall(line)
		if !test && (ok || strings.Contains(line, ", _ ")) {
			return true // any call may return an error the index knows
		}
		return ok && (candidateNames[name] || funcs[name] || methodOfAny(methods, name))
	}) {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			decls = append(decls, fd)
		}
	}
	if len(decls) == 0 {
		return
	}
	c := &ignoredErrorCheck{p: p, g: g, test: test, funcs: funcs, methods: methods, imports: goapi.Imports(g.File),
		std: goapi.Std(), pkg: goapi.Package(p.ChangeSet, p.File)}
	if mod := lens.GoModuleOf(p.ChangeSet, p.File.Path); mod != nil && mod.Path != "" {
		c.module = func(importPath string) *goapi.API {
			rel, ok := strings.CutPrefix(importPath, mod.Path+"/")
			if !ok || strings.Contains(rel, "..") {
				return nil
			}
			return goapi.Dir(p.ChangeSet, path.Join(mod.Dir, rel))
		}
	}
	for _, fd := range decls {
		c.decl(fd)
	}
}

func methodOfAny(methods map[string]map[string]bool, name string) bool {
	for _, ms := range methods {
		if ms[name] {
			return true
		}
	}
	return false
}

type ignoredErrorCheck struct {
	p       *lens.Pass
	fd      *ast.FuncDecl // the declaration being walked
	g       *syntax.GoFile
	test    bool
	funcs   map[string]bool
	methods map[string]map[string]bool
	imports map[string]string // local name -> import path
	// std and pkg are the signature indexes of the standard library and
	// of the file's package.
	std, pkg *goapi.API
	// module gives the declarations of another package of the module.
	module func(importPath string) *goapi.API

	// Per declaration:
	kinds map[string]valueKind
	// locals are the names declared in the function, which shadow
	// same-file functions.
	locals map[string]bool
	// types maps variables to the same-file type they hold, from
	// parameters, the receiver and composite literals.
	types map[string]string
	// typer types the function's expressions for the calls no list
	// names.
	typer *typer
}

func (c *ignoredErrorCheck) decl(fd *ast.FuncDecl) {
	c.fd = fd
	c.kinds = map[string]valueKind{}
	c.locals = map[string]bool{}
	c.types = map[string]string{}
	c.typer = newTyper(c.std, c.pkg, c.imports, c.module, fd)
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			c.locals[n.Name] = true
			if t := typeName(fl.Type); c.methods[t] != nil {
				c.types[n.Name] = t
			}
		}
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recvType, _, _ := strings.Cut(syntax.GoFuncName(fd), ".")
		c.types[fd.Recv.List[0].Names[0].Name] = recvType
	}
	lens.GoInspectStack(fd.Body, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			c.track(n)
			if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(n.Rhs) == 1 {
				switch {
				case n.Tok == token.ASSIGN && allBlank(n.Lhs):
					c.check(n, call, true, stack)
				case len(n.Lhs) > 1 && isBlank(n.Lhs[len(n.Lhs)-1]) && !allBlank(n.Lhs) && !ifInit(stack):
					c.checkBlank(n, call, stack)
				}
			}
			c.typer.assign(n)
		case *ast.ValueSpec:
			c.trackSpec(n)
			c.typer.spec(n)
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && !beforeErrorReturn(stack, fd) {
				c.check(n, call, false, stack)
			}
		}
		return true
	})
}

// beforeErrorReturn reports whether the statement on top of the stack is
// followed by a return of an error: the call is then cleanup on a path
// that already reports a failure (closing a file, sending an alert).
func beforeErrorReturn(stack []ast.Node, fd *ast.FuncDecl) bool {
	if len(stack) < 2 {
		return false
	}
	list := stmtList(stack[len(stack)-2])
	for i, s := range list {
		if s != stack[len(stack)-1] || i+1 >= len(list) {
			continue
		}
		ret, ok := list[i+1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 || !inErrorFunc(stack, fd) {
			return false
		}
		last, isIdent := ret.Results[len(ret.Results)-1].(*ast.Ident)
		return !isIdent || last.Name != "nil"
	}
	return false
}

// inErrorFunc reports whether the innermost function on the stack returns
// an error last: only then is a return of a non-nil value an error path.
func inErrorFunc(stack []ast.Node, fd *ast.FuncDecl) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if fn, ok := stack[i].(*ast.FuncLit); ok {
			return returnsError(fn.Type)
		}
	}
	return fd != nil && returnsError(fd.Type)
}

// deferred reports whether the innermost function literal on the stack is
// called by a defer statement.
func deferred(stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		if _, ok := stack[i].(*ast.FuncLit); ok {
			if call, ok := stack[i-1].(*ast.CallExpr); ok && i >= 2 {
				_, isDefer := stack[i-2].(*ast.DeferStmt)
				return isDefer && call.Fun == stack[i]
			}
			return false
		}
	}
	return false
}

// ifInit reports an assignment that is the init statement of an if or a
// switch: `if v, _ := f(); v != nil` tests the value it keeps.
func ifInit(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	switch s := stack[len(stack)-2].(type) {
	case *ast.IfStmt:
		return s.Init == stack[len(stack)-1]
	case *ast.SwitchStmt:
		return s.Init == stack[len(stack)-1]
	}
	return false
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

func allBlank(exprs []ast.Expr) bool {
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return len(exprs) > 0
}

// track records the kind of value a local variable receives.
func (c *ignoredErrorCheck) track(as *ast.AssignStmt) {
	if as.Tok == token.DEFINE {
		for _, e := range as.Lhs {
			if id, ok := e.(*ast.Ident); ok {
				c.locals[id.Name] = true
			}
		}
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	kind := noValue
	delete(c.types, id.Name)
	if len(as.Rhs) == 1 {
		switch rhs := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.CallExpr:
			kind = c.valueKindOf(rhs)
		case *ast.UnaryExpr:
			if lit, ok := rhs.X.(*ast.CompositeLit); ok && rhs.Op == token.AND {
				c.types[id.Name] = typeName(lit.Type)
			}
		case *ast.CompositeLit:
			c.types[id.Name] = typeName(rhs.Type)
		}
	}
	if kind == noValue {
		delete(c.kinds, id.Name)
		return
	}
	c.kinds[id.Name] = kind
}

func (c *ignoredErrorCheck) trackSpec(vs *ast.ValueSpec) {
	for _, n := range vs.Names {
		c.locals[n.Name] = true
	}
	sel, ok := vs.Type.(*ast.SelectorExpr)
	if !ok || len(vs.Values) > 0 {
		return
	}
	if x, ok := sel.X.(*ast.Ident); ok && c.imports[x.Name] == "golang.org/x/sync/errgroup" && sel.Sel.Name == "Group" {
		for _, n := range vs.Names {
			c.kinds[n.Name] = errGroup
		}
	}
}

func (c *ignoredErrorCheck) valueKindOf(call *ast.CallExpr) valueKind {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return noValue
	}
	if x, ok := sel.X.(*ast.Ident); ok {
		if path, ok := c.imports[x.Name]; ok {
			kind := ctorKinds[ctor{path, sel.Sel.Name}]
			if kind == fileWriter && sel.Sel.Name == "OpenFile" && !writeFlags(c.p.File, call) {
				return noValue
			}
			return kind
		}
	}
	return methodKinds[sel.Sel.Name]
}

// writeFlags reports whether an os.OpenFile call opens for writing.
func writeFlags(f *review.File, call *ast.CallExpr) bool {
	if len(call.Args) < 2 {
		return false
	}
	flags := lens.GoText(f, call.Args[1])
	return strings.Contains(flags, "O_WRONLY") || strings.Contains(flags, "O_RDWR") ||
		strings.Contains(flags, "O_APPEND") || strings.Contains(flags, "O_CREATE")
}

// check reports call when its dropped error matters; stack holds the
// statement.
func (c *ignoredErrorCheck) check(stmt ast.Stmt, call *ast.CallExpr, explicit bool, stack []ast.Node) {
	inDefer := deferred(stack)
	line := c.g.Line(stmt.Pos())
	if !c.p.Changed(line) {
		return
	}
	name, info, ok := c.lookup(call)
	if !ok && !explicit && !c.test {
		name, info, ok = c.generic(call)
	}
	if !ok || explicit && !info.explicit || c.test && !info.tests {
		return
	}
	if inDefer && strings.HasSuffix(name, ".Close") || name == "os.Setenv" && isStringLit(call.Args) || acknowledged(c.p.File, line) {
		return
	}
	how := "dropped"
	if explicit {
		how = "discarded with `_ =`"
	}
	_, results, _ := c.typer.callee(call)
	if !goapi.ReturnsError(results) {
		results = nil // not the callee the rule named
	}
	fix, suggested := c.errorFix(stmt, call, name, results, stack)
	c.p.Report(lens.Report{
		Line:      line,
		EndLine:   c.g.Line(stmt.End()),
		Severity:  info.sev,
		Symbol:    c.g.EnclosingFunc(line),
		Title:     fmt.Sprintf("Error of %s %s", name, how),
		Message:   fmt.Sprintf("The error returned by %s is %s: %s.", name, how, info.effect),
		Suggested: suggested,
		Fix:       fix,
	})
}

// effectLost is the consequence of dropping an error the rule knows of
// only from the callee's signature.
const effectLost = "the failure is lost and the caller carries on as if the call had succeeded"

// generic identifies a call that no list names but whose signature, in the
// standard library's index or the package's declarations, ends in error.
func (c *ignoredErrorCheck) generic(call *ast.CallExpr) (string, errCallee, bool) {
	name, res, ok := c.typer.callee(call)
	if !ok || !goapi.ReturnsError(res) || conventionallyUnchecked(name, call, c.typer) {
		return "", errCallee{}, false
	}
	return name, errCallee{review.SeverityMedium, effectLost, false, false}, true
}

// checkBlank reports `v, _ := f()` where the blank is f's error: v is then
// used although the call may have failed.
func (c *ignoredErrorCheck) checkBlank(as *ast.AssignStmt, call *ast.CallExpr, stack []ast.Node) {
	line := c.g.Line(as.Pos())
	if c.test || !c.p.Changed(line) || constantArgs(call) || acknowledged(c.p.File, line) {
		return
	}
	name, res, ok := c.typer.callee(call)
	if !ok || len(res) != len(as.Lhs) || !goapi.ReturnsError(res) || conventionallyUnchecked(name, call, c.typer) || fallback(call, c.typer) {
		return
	}
	fix, suggested := c.blankFix(as, name, stack)
	c.p.Report(lens.Report{
		Line:     line,
		EndLine:  c.g.Line(as.End()),
		Severity: review.SeverityMedium,
		Symbol:   c.g.EnclosingFunc(line),
		Title:    fmt.Sprintf("Error of %s discarded with `_`", name),
		Message: fmt.Sprintf("The error returned by %s is assigned to `_`, and %s is used as if the call had succeeded: "+
			"on failure it holds a zero or partial value.", name, lens.GoText(c.p.File, as.Lhs[0])),
		Suggested: suggested,
		Fix:       fix,
	})
}

// constantArgs reports a call whose arguments are all literals: its
// failure would be a programming error seen on the first run
// (url.Parse("https://example.com"), regexp-like constructors).
func constantArgs(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	for _, a := range call.Args {
		if _, ok := ast.Unparen(a).(*ast.BasicLit); !ok {
			return false
		}
	}
	return true
}

// uncheckedPackages are packages whose functions' errors callers do not
// check by convention: formatted output, and writers that cannot fail.
var uncheckedPackages = map[string]bool{"fmt": true}

// uncheckedFuncs are functions and methods whose errors are moot when
// dropped: copies that pump a stream until it ends, killing or signalling
// a process that may be gone, deadlines on a connection that may be
// closed, CloseWithError (always nil), encoding a response to a client
// that may have left.
var uncheckedFuncs = map[string]bool{
	"io.Copy": true, "io.CopyBuffer": true, "io.CopyN": true, "syscall.Kill": true, "os.Unsetenv": true,
	"os.Process.Kill": true, "os.Process.Signal": true, "os.Process.Release": true, "os.Process.Wait": true,
	"io.PipeWriter.CloseWithError": true, "io.PipeReader.CloseWithError": true,
	"encoding/json.Encoder.Encode": true, "encoding/xml.Encoder.Encode": true,
}

// uncheckedMethods are method names whose errors are moot in the same way
// whatever the receiver (net.Conn and its many implementations).
var uncheckedMethods = map[string]bool{"SetDeadline": true, "SetReadDeadline": true, "SetWriteDeadline": true, "CloseWithError": true}

// fallbackFuncs are functions whose error callers discard with `_` on
// purpose, keeping the zero value as a default: parsers of values and
// queries of the environment. Their bare calls are still reported.
var fallbackFuncs = map[string]bool{
	"encoding/json.Marshal": true, "encoding/json.MarshalIndent": true, "time.Parse": true, "time.ParseDuration": true,
	"time.ParseInLocation": true, "time.LoadLocation": true, "net.SplitHostPort": true, "net.ParseCIDR": true,
	"net.ParseMAC": true, "net.LookupHost": true, "path/filepath.Abs": true, "path/filepath.Rel": true,
	"path/filepath.Match": true, "path/filepath.Glob": true, "path.Match": true, "os.Hostname": true, "os.Getwd": true,
	"os.Executable": true, "os.UserHomeDir": true, "os.UserConfigDir": true, "os.UserCacheDir": true,
	"mime.ParseMediaType": true, "regexp.MatchString": true, "net/mail.ParseAddress": true,
}

// fallbackPackages are packages all of whose functions parse values (see
// fallbackFuncs).
var fallbackPackages = map[string]bool{"strconv": true, "net/netip": true, "net/url": true}

// uncheckedTypes are types whose methods never fail or report failure
// later (errcheck's defaults).
var uncheckedTypes = map[string]bool{
	"bytes.Buffer": true, "strings.Builder": true, "bufio.Writer": true, "hash.Hash": true, "hash.Hash32": true,
	"hash.Hash64": true, "math/rand.Rand": true, "text/tabwriter.Writer": true,
}

// conventionallyUnchecked reports calls whose errors are not checked by
// convention: fmt's printers, methods of never-failing writers, writers and
// closers in general (a separate question, see the rule's doc), and
// crypto/rand.Read and math/rand.Read.
func conventionallyUnchecked(name string, call *ast.CallExpr, t *typer) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return strings.HasPrefix(strings.ToLower(name), "print")
	}
	if id, ok := sel.X.(*ast.Ident); ok && !t.isVar(id.Name) {
		if p, ok := t.imports[id.Name]; ok {
			return uncheckedPackages[p] || uncheckedFuncs[p+"."+sel.Sel.Name] || sel.Sel.Name == "Read" && (p == "crypto/rand" || p == "math/rand")
		}
	}
	recv := goapi.Named(t.exprType(sel.X))
	return conventionallyIgnored[sel.Sel.Name] || uncheckedMethods[sel.Sel.Name] || uncheckedTypes[recv] || uncheckedFuncs[recv+"."+sel.Sel.Name]
}

// fallback reports a call whose error `_` discards on purpose (see
// fallbackFuncs).
func fallback(call *ast.CallExpr, t *typer) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if id, ok := sel.X.(*ast.Ident); ok && !t.isVar(id.Name) {
		p := t.imports[id.Name]
		return fallbackPackages[p] || fallbackFuncs[p+"."+sel.Sel.Name]
	}
	recv := goapi.Named(t.exprType(sel.X))
	return strings.HasPrefix(recv, "net/netip.") || strings.HasPrefix(recv, "net/url.")
}

// lookup identifies the callee of call and whether its error matters.
func (c *ignoredErrorCheck) lookup(call *ast.CallExpr) (string, errCallee, bool) {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if c.funcs[fn.Name] && !c.locals[fn.Name] && !strings.HasPrefix(strings.ToLower(fn.Name), "print") {
			return fn.Name, errCallee{review.SeverityMedium, "the failure is lost and the caller carries on as if the call had succeeded", false, true}, true
		}
	case *ast.SelectorExpr:
		method := fn.Sel.Name
		switch x := ast.Unparen(fn.X).(type) {
		case *ast.Ident:
			if path, ok := c.imports[x.Name]; ok {
				info, ok := errFuncs[path][method]
				return x.Name + "." + method, info, ok
			}
			if c.methods[c.types[x.Name]][method] && !conventionallyIgnored[method] {
				return x.Name + "." + method, errCallee{review.SeverityMedium, "the failure is lost and the caller carries on as if the call had succeeded", false, true}, true
			}
			if info, ok := kindMethods[c.kinds[x.Name]][method]; ok {
				return x.Name + "." + method, info, true
			}
		case *ast.CallExpr:
			// Chains: db.QueryRow(...).Scan(...), json.NewDecoder(r).Decode(&v).
			qual, inner, _ := lens.GoCallee(x)
			name := inner + "(...)." + method
			if qual != "" {
				name = qual + "." + name
			}
			switch {
			case method == "Scan" && (inner == "QueryRow" || inner == "QueryRowContext"):
				return name, errCallee{review.SeverityMedium, "sql.ErrNoRows and scan failures leave the destinations unchanged, and they are used as if a row had been read", true, true}, true
			case method == "Decode" && inner == "NewDecoder":
				return name, errCallee{review.SeverityMedium, effectDecode, true, true}, true
			}
		}
	}
	return "", errCallee{}, false
}
