package security

import (
	"fmt"
	"go/ast"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// InsecureRandom finds secrets made with a predictable random number
// generator.
var InsecureRandom = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/insecure-random",
		Perspective: review.Security,
		Category:    CatSecrets,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-338",
		Summary:     "Predictable random value used as a secret",
		Doc: "Go's math/rand, Python's random module and JavaScript's Math.random() are not cryptographically " +
			"secure: their output is predictable from a few observed values (or from the seed), so tokens, " +
			"passwords, session ids, nonces or keys made with them can be guessed, and an attacker takes over the " +
			"sessions or accounts they protect. Use crypto/rand (rand.Text, rand.Read), Python's secrets module, " +
			"or crypto.randomUUID / crypto.getRandomValues. The rule reports only when the statement or its " +
			"function names a secret (token, password, secret, nonce, salt, session, api key, reset code, ...); " +
			"jitter, backoff, shuffling, sampling and test data are left alone, and so are test files.",
		Bad:  "func newToken() string {\n\tb := make([]byte, 16)\n\tfor i := range b {\n\t\tb[i] = letters[rand.Intn(len(letters))]\n\t}\n\treturn string(b)\n}",
		Good: "func newToken() string {\n\treturn rand.Text() // crypto/rand\n}",
	},
	Run: runInsecureRandom,
}

// benignWords mark a random value whose predictability is harmless.
var benignWords = []string{"jitter", "backoff", "shuffle", "sample", "sampling", "delay", "retry", "sleep", "color", "colour", "mock", "fake", "demo"}

func benign(texts ...string) bool {
	for _, t := range texts {
		for _, w := range identWords(t) {
			for _, b := range benignWords {
				if w == b {
					return true
				}
			}
		}
	}
	return false
}

func insecureRandomMessage(gen, noun string) string {
	return fmt.Sprintf("%s makes a %s here, but its output is predictable: an attacker who sees a few values (or "+
		"knows the seed) can compute the next ones, guess the %s and take over what it protects.", gen, noun, noun)
}

func runInsecureRandom(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return
	}
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		insecureRandomGo(p)
	case lang == review.LangPython:
		if p.Contains("random") {
			insecureRandomScript(p, pyRandom, "Python's random module",
				"Use the secrets module: secrets.token_urlsafe(32), secrets.token_hex, secrets.choice.")
		}
	case lang.IsJS():
		if p.Contains("Math.random") {
			insecureRandomScript(p, jsRandom, "Math.random()",
				"Use crypto.randomUUID(), crypto.getRandomValues(new Uint8Array(32)) or Node's crypto.randomBytes(32).")
		}
	}
}

func insecureRandomGo(p *lens.Pass) {
	g := syntax.Go(p.File)
	pkgs, decls := lens.GoUses(p.File, []string{"math/rand", "math/rand/v2"})
	for _, d := range decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		} else if gd, ok := d.(*ast.GenDecl); ok {
			// Package-level variables: their names are the context.
			for _, s := range gd.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						fn += n.Name + " "
					}
				}
			}
		}
		reported := map[int]bool{}
		ast.Inspect(d, func(n ast.Node) bool {
			call, _, name := pkgCall(n, pkgs)
			if call == nil || strings.HasPrefix(name, "New") || name == "Seed" {
				return true
			}
			line := g.Line(call.Pos())
			if !p.Changed(line) || reported[line] {
				return true
			}
			code := codeOf(p.File, line, p.Line(line))
			word := secretContext(code, fn)
			if word == "" || benign(code, fn) {
				return true
			}
			reported[line] = true
			noun := secretNoun(word)
			p.Report(lens.Report{
				Line: line, Col: g.Col(call.Pos()), EndLine: g.Line(call.End()), EndCol: g.Col(call.End()),
				Symbol:    fn,
				Title:     fmt.Sprintf("math/rand makes a %s", noun),
				Message:   insecureRandomMessage("math/rand", noun),
				Suggested: "Use crypto/rand: rand.Text() for a token, rand.Read for key material, rand.Int for a bounded number.",
			})
			return true
		})
	}
}

var (
	pyRandom = regexp.MustCompile(`\brandom\.(choice|choices|randint|random|getrandbits|randrange|randbytes|sample|uniform)\s*\(`)
	jsRandom = regexp.MustCompile(`\bMath\.random\s*\(\s*\)`)
)

func insecureRandomScript(p *lens.Pass, re *regexp.Regexp, gen, suggested string) {
	lines := p.Lines()
	lens.EachChangedLine(p.File, func(n int, line string) {
		code := codeOf(p.File, n, line)
		loc := re.FindStringIndex(code)
		if loc == nil || strings.Contains(code, "SystemRandom") {
			return
		}
		fn := enclosingScriptFunc(lines, n, p.File.Language)
		word := secretContext(code, fn)
		if word == "" || benign(code, fn) {
			return
		}
		noun := secretNoun(word)
		p.Report(lens.Report{
			Line: n, Col: loc[0] + 1, EndCol: loc[1] + 1,
			Title:     fmt.Sprintf("%s makes a %s", gen, noun),
			Message:   insecureRandomMessage(gen, noun),
			Suggested: suggested,
		})
	})
}
