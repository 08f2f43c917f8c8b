package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// UnsafeDeserialization finds object deserializers fed with data that
// looks like it comes from outside the process.
var UnsafeDeserialization = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/unsafe-deserialization",
		Perspective: review.Security,
		Category:    CatParsing,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-502",
		Summary:     "Untrusted data deserialized into objects",
		Doc: "pickle, cPickle, dill, marshal, shelve and jsonpickle in Python, and node-serialize's unserialize in Node, " +
			"rebuild objects by running code named in the data itself, so whoever can shape the bytes (a request body, a " +
			"cookie, a message from a socket or a queue, a cache entry) runs arbitrary code in the process. Exchange " +
			"plain data (JSON, MessagePack, protobuf) and validate it; if objects must travel, sign them (HMAC) and " +
			"verify before loading. In Python only loads whose argument looks untrusted are reported: it mentions a " +
			"request, body, payload, cookie, header, form, query, params, message, recv, upload, b64decode, " +
			"urlopen or a response; loading a local model or cache file is not. node-serialize's unserialize is " +
			"reported for any non-literal argument. Test files and round trips (pickle.loads(pickle.dumps(x))) are not reported, and Go's encoding/gob, which builds no code, never is.",
		Bad:  "session = pickle.loads(base64.b64decode(request.cookies[\"session\"]))",
		Good: "session = json.loads(signer.unsign(request.cookies[\"session\"]))",
	},
	Run: runUnsafeDeserialization,
}

var (
	pyDeserializeRE = regexp.MustCompile(`\b(pickle|cPickle|_pickle|dill|marshal|shelve|jsonpickle)\s*\.\s*(loads|load|open|decode|Unpickler)\s*\(`)
	// untrustedRE matches names that suggest data from outside the process.
	untrustedRE = regexp.MustCompile(`(?i)\b(?:request|req|body|payload|cookies?|headers?|form|query|params|message|msg|recv|recvfrom|recv_into|upload(?:ed)?(?:_file)?|b64decode|urlsafe_b64decode|urlopen|response|resp)\b`)
)

// pyDeserializers lists module.function pairs that rebuild objects.
var pyDeserializers = map[string]bool{
	"pickle.loads": true, "pickle.load": true, "pickle.Unpickler": true, "cPickle.loads": true, "cPickle.load": true,
	"_pickle.loads": true, "_pickle.load": true, "dill.loads": true, "dill.load": true, "marshal.loads": true,
	"marshal.load": true, "shelve.open": true, "jsonpickle.decode": true,
}

func runUnsafeDeserialization(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // tests handle fixtures, not attacker input
	}
	switch lang := p.File.Language; {
	case lang == review.LangPython:
		pyUnsafeDeserialization(p)
	case lang.IsJS():
		jsUnsafeDeserialization(p)
	}
}

func pyUnsafeDeserialization(p *lens.Pass) {
	if !p.Contains("pickle") && !p.Contains("dill") && !p.Contains("marshal") && !p.Contains("shelve") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		for _, m := range pyDeserializeRE.FindAllStringSubmatchIndex(code, -1) {
			fn := code[m[2]:m[3]] + "." + code[m[4]:m[5]]
			if !pyDeserializers[fn] {
				continue
			}
			args := py.Args(py.Offset(n) + m[1] - 1)
			if len(args) == 0 {
				continue
			}
			arg := py.Src[args[0].Off:args[0].End]
			// Match on the code (strings masked) so a key such as "body"
			// in a subscript does not count, then on the whole argument.
			if code := py.Code[args[0].Off:args[0].End]; !untrustedRE.MatchString(code) || strings.Contains(code, "dumps(") {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: m[0] + 1, Symbol: lens.PyFuncName(py, n),
				Message: fmt.Sprintf("%s(%s) rebuilds objects from data that appears to come from outside the process: "+
					"whoever shapes those bytes runs arbitrary code in it (a pickle's __reduce__ calls any function).", fn, lens.Snippet(arg)),
				Suggested: "Exchange plain data (json.loads) and validate it; if objects must travel, sign them with an HMAC and verify before loading.",
			})
		}
	})
}

func jsUnsafeDeserialization(p *lens.Pass) {
	if !p.Contains("node-serialize") {
		return
	}
	var ns []string
	named := map[string]bool{}
	for _, im := range syntax.JSImports(p.File) {
		if im.Module != "node-serialize" {
			continue
		}
		switch im.Name {
		case "*", "default":
			ns = append(ns, im.Local)
		case "unserialize":
			named[im.Local] = true
		}
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			if !js.Is(i+1, "(") || js.Kind(i) != syntax.TokIdent {
				continue
			}
			switch {
			case js.Is(i, "unserialize") && js.Is(i-1, "."):
				recv := js.Text(i - 2)
				ok := false
				for _, l := range ns {
					ok = ok || l == recv
				}
				if !ok {
					continue
				}
			case named[js.Text(i)] && !js.Is(i-1, "."):
			default:
				continue
			}
			args := js.Args(i + 1)
			if len(args) == 0 || js.ConstExpr(args[0][0], args[0][1]) {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: js.Col(i),
				Message: fmt.Sprintf("node-serialize's unserialize(%s) evaluates functions embedded in the data "+
					"(`_$$ND_FUNC$$_`): whoever shapes the string runs arbitrary code in the server (CVE-2017-5941).",
					strings.TrimSpace(lens.Snippet(js.Span(args[0][0], args[0][1])))),
				Suggested: "Use JSON.parse and validate the result; never deserialize functions from data.",
			})
		}
	})
}
