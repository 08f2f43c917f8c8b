package security

import (
	"go/ast"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// TLSVerifyDisabled finds TLS clients that do not verify the server's
// certificate.
var TLSVerifyDisabled = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/tls-verify-disabled",
		Perspective: review.Security,
		Category:    CatAuth,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-295",
		Fixable:     true,
		Summary:     "TLS certificate verification disabled",
		Doc: "Turning off certificate verification (Go's InsecureSkipVerify: true, Python's verify=False or " +
			"ssl.CERT_NONE, Node's rejectUnauthorized: false or NODE_TLS_REJECT_UNAUTHORIZED=0) makes the client " +
			"accept any certificate, so anyone on the network path (public Wi-Fi, a compromised router, a " +
			"malicious proxy) can impersonate the server, read the traffic and steal the credentials it carries. " +
			"Remove the option; for a private CA, trust it explicitly (Go RootCAs, Python verify=\"/path/ca.pem\", " +
			"Node ca). Test files are not reported (test servers use self-signed certificates), nor is a Go " +
			"config that sets VerifyPeerCertificate or VerifyConnection (custom verification such as pinning), " +
			"nor a value taken from a flag or setting rather than the literal true/False.",
		Bad:  "client := &http.Client{Transport: &http.Transport{\n\tTLSClientConfig: &tls.Config{InsecureSkipVerify: true},\n}}",
		Good: "client := &http.Client{Transport: &http.Transport{\n\tTLSClientConfig: &tls.Config{RootCAs: pool},\n}}",
	},
	Run: runTLSVerifyDisabled,
}

const tlsMessage = "Certificate verification is disabled: anyone on the network path (public Wi-Fi, a compromised router or " +
	"proxy) can present their own certificate for this host, then read and modify the traffic and capture the " +
	"credentials it carries."

func runTLSVerifyDisabled(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return
	}
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		if p.Contains("InsecureSkipVerify") {
			tlsGo(p)
		}
	case lang == review.LangPython:
		if p.Contains("False") || p.Contains("CERT_NONE") || p.Contains("_create_unverified_context") {
			tlsPython(p)
		}
	case lang.IsJS():
		if p.Contains("rejectUnauthorized") || p.Contains("NODE_TLS_REJECT_UNAUTHORIZED") || p.Contains("strictSSL") {
			tlsJS(p)
		}
	}
}

func tlsGo(p *lens.Pass) {
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	decls := lens.GoDeclsWithChangedLine(p.File, func(line string) bool {
		return strings.Contains(line, "InsecureSkipVerify")
	})
	for _, d := range decls {
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				for i, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok || !isIdent(kv.Key, "InsecureSkipVerify") || !isIdent(kv.Value, "true") || customVerify(n) {
						continue
					}
					if line := g.Line(kv.Pos()); p.Changed(line) {
						p.Report(lens.Report{
							Line: line, Col: g.Col(kv.Pos()), EndLine: g.Line(kv.End()), EndCol: g.Col(kv.End()),
							Message:   tlsMessage,
							Suggested: "Delete `InsecureSkipVerify: true`. To trust a private CA, load it into RootCAs (x509.NewCertPool, AppendCertsFromPEM).",
							Fix:       deleteElementFix(p, g, n, i),
						})
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != 1 || len(n.Rhs) != 1 || !isIdent(n.Rhs[0], "true") {
					return true
				}
				sel, ok := n.Lhs[0].(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "InsecureSkipVerify" || !p.Changed(g.Line(n.Pos())) {
					return true
				}
				if fd, ok := d.(*ast.FuncDecl); ok && setsCustomVerify(fd) {
					return true
				}
				line := g.Line(n.Pos())
				var fix *review.Fix
				if strings.TrimSpace(codeOf(p.File, line, p.Line(line))) == lens.GoText(p.File, n) {
					fix = deleteLinesFix(p.File.Path, line, line, "Delete the assignment")
				}
				p.Report(lens.Report{
					Line:      line,
					Message:   tlsMessage,
					Suggested: "Delete the assignment. To trust a private CA, load it into RootCAs (x509.NewCertPool, AppendCertsFromPEM).",
					Fix:       fix,
				})
			}
			return true
		})
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// customVerify reports a tls.Config literal that verifies certificates its
// own way.
func customVerify(lit *ast.CompositeLit) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && (isIdent(kv.Key, "VerifyPeerCertificate") || isIdent(kv.Key, "VerifyConnection")) {
			return true
		}
	}
	return false
}

func setsCustomVerify(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "VerifyPeerCertificate" || sel.Sel.Name == "VerifyConnection") {
			found = true
		}
		return !found
	})
	return found
}

func deleteLinesFix(path string, from, to int, title string) *review.Fix {
	return &review.Fix{Title: title, Edits: []review.TextEdit{{Span: review.Span{Path: path, StartLine: from, EndLine: to}}}}
}

// deleteElementFix deletes element i of a composite literal: its whole
// line when it stands alone, else its text and one neighbouring comma on
// a one-line literal.
func deleteElementFix(p *lens.Pass, g *syntax.GoFile, lit *ast.CompositeLit, i int) *review.Fix {
	const title = "Delete InsecureSkipVerify"
	e := lit.Elts[i]
	line := g.Line(e.Pos())
	if t := strings.TrimSuffix(strings.TrimSpace(codeOf(p.File, line, p.Line(line))), ","); t == lens.GoText(p.File, e) {
		return deleteLinesFix(p.File.Path, line, line, title)
	}
	if g.Line(lit.Lbrace) != g.Line(lit.Rbrace) {
		return nil
	}
	from, to := g.Col(e.Pos()), g.Col(e.End())
	switch {
	case len(lit.Elts) == 1:
	case i+1 < len(lit.Elts):
		to = g.Col(lit.Elts[i+1].Pos())
	default:
		from = g.Col(lit.Elts[i-1].End())
	}
	return &review.Fix{Title: title, Edits: []review.TextEdit{{
		Span: review.Span{Path: p.File.Path, StartLine: line, StartCol: from, EndLine: line, EndCol: to},
	}}}
}

var (
	pyVerifyFalse  = regexp.MustCompile(`\bverify\s*=\s*False\b`)
	pyCertNone     = regexp.MustCompile(`\bCERT_NONE\b|\b_create_unverified_context\s*\(`)
	pyAiohttpSSL   = regexp.MustCompile(`\b(?:verify_ssl|ssl)\s*=\s*False\b`)
	jsRejectUnauth = regexp.MustCompile(`\b(?:rejectUnauthorized|strictSSL)['"]?\s*:\s*false\b`)
	jsNodeTLSEnv   = regexp.MustCompile(`NODE_TLS_REJECT_UNAUTHORIZED['"]?\]?\s*=\s*['"]?0\b`)
)

func tlsPython(p *lens.Pass) {
	requests := p.Contains("requests") || p.Contains("httpx")
	aiohttp := p.Contains("aiohttp")
	lens.EachChangedLine(p.File, func(n int, line string) {
		code := codeOf(p.File, n, line)
		switch {
		case requests && pyVerifyFalse.MatchString(code):
			loc := pyVerifyFalse.FindStringIndex(code)
			p.Report(lens.Report{
				Line: n, Col: loc[0] + 1, EndCol: loc[1] + 1,
				Message:   tlsMessage,
				Suggested: "Delete `verify=False`. To trust a private CA, pass its bundle: verify=\"/path/to/ca.pem\".",
				Fix:       pyDeleteKwarg(p.File.Path, n, code, loc),
			})
		case aiohttp && pyAiohttpSSL.MatchString(code):
			p.Report(lens.Report{
				Line: n, Message: tlsMessage,
				Suggested: "Drop ssl=False; to trust a private CA, pass ssl=ssl.create_default_context(cafile=...).",
			})
		case pyCertNone.MatchString(code):
			p.Report(lens.Report{
				Line: n, Message: tlsMessage,
				Suggested: "Use ssl.create_default_context() (it verifies certificates and host names); load a private CA with cafile=....",
			})
		}
	})
}

// pyDeleteKwarg deletes the keyword argument at loc of line n together
// with one neighbouring comma, or the whole line when it stands alone.
func pyDeleteKwarg(path string, n int, line string, loc []int) *review.Fix {
	const title = "Delete verify=False"
	if t := strings.TrimSuffix(strings.TrimSpace(line), ","); t == line[loc[0]:loc[1]] {
		return deleteLinesFix(path, n, n, title)
	}
	from, to := loc[0], loc[1]
	before := strings.TrimRight(line[:from], " \t")
	after := strings.TrimLeft(line[to:], " \t")
	switch {
	case strings.HasSuffix(before, ","):
		from = len(before) - 1
	case strings.HasPrefix(after, ","):
		to = len(line) - len(strings.TrimLeft(after[1:], " \t"))
	case strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")"):
	default:
		return nil
	}
	return &review.Fix{Title: title, Edits: []review.TextEdit{{
		Span: review.Span{Path: path, StartLine: n, StartCol: from + 1, EndLine: n, EndCol: to + 1},
	}}}
}

func tlsJS(p *lens.Pass) {
	lens.EachChangedLine(p.File, func(n int, line string) {
		code := codeOf(p.File, n, line)
		switch {
		case jsRejectUnauth.MatchString(code):
			p.Report(lens.Report{
				Line: n, Message: tlsMessage,
				Suggested: "Delete `rejectUnauthorized: false`; to trust a private CA, pass it with the `ca` option.",
			})
		case jsNodeTLSEnv.MatchString(code):
			p.Report(lens.Report{
				Line: n,
				Message: "Setting NODE_TLS_REJECT_UNAUTHORIZED to 0 disables certificate verification for every TLS " +
					"connection of the process: anyone on the network path can impersonate any server it talks to and " +
					"capture the credentials it sends.",
				Suggested: "Remove the assignment; to trust a private CA, use NODE_EXTRA_CA_CERTS or the `ca` option.",
			})
		}
	})
}
