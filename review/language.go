package review

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"
)

// Language is a file's language, from [DetectLanguage]. Everything the
// product knows of a language (how files are named, how comments and
// strings look, how tests are named, which parsers read it) is its row of
// the language table; adding a language is one row there plus, if it is
// parsed, its file in review/syntax. The zero value is [LangUnknown].
type Language uint8

// The languages. Their ids ([Language.String]) are stable: artifacts,
// the rule catalog and configuration spell them.
const (
	LangUnknown Language = iota
	LangGo
	LangPython
	LangJavaScript
	LangJSX
	LangTypeScript
	LangTSX
	LangShell
	LangDockerfile
	LangActions
	LangYAML
	LangHTML
	LangVue
	LangSvelte
	LangMarkdown
	LangJSON
	LangJava
	LangRust
	LangRuby
	LangC
	LangCPP
	LangCSharp
	LangSQL
	LangTOML
	LangMakefile
	LangGoMod
	LangText
	numLanguages
)

// LanguageInfo is one row of the language table.
type LanguageInfo struct {
	// ID is the language id ("go", "github-actions"); Name is for people
	// ("Go", "workflow").
	ID, Name string
	// Exts are the file extensions (lower case, with the dot); Names the
	// exact base names, lower case ("makefile"); Shebang the interpreter
	// names that, in the first line of an extension-less script, select
	// the language.
	Exts, Names, Shebang []string
	// Family is the language whose files reference this one's (TSX, Vue
	// and Svelte are JavaScript's): the first language of the family.
	Family Language
	// Comments is the comment syntax: ignore comments are written in it
	// and the comment scanner reads it.
	Comments CommentSyntax
	// Tokens, when Tokens.Known, are the lexical rules of the one token
	// lexer (review/syntax), whose tokens the rules, the symbol extractor,
	// the reference searches and the markup scanner read.
	Tokens TokenSyntax
	// Symbols reports that the symbol extractor of the family reads the
	// language.
	Symbols bool
	// TestFiles are base-name patterns ([path.Match], lower case) of the
	// language's test files ("*_test.go").
	TestFiles []string
	// Markup reports that the language renders UI markup (the
	// accessibility surface).
	Markup bool
	// Config reports a configuration-like language whose values may be
	// unquoted (KEY=value, key: value).
	Config bool
	// Fence is the tag of a fenced code block of the language in
	// Markdown, "" for none.
	Fence string
}

// CommentSyntax is a language's comment syntax, as the line-oriented
// comment scanner reads it.
type CommentSyntax struct {
	// Line starts a comment that runs to the end of the line ("//", "#").
	Line string
	// BlockStart and BlockEnd delimit block comments ("/*", "*/").
	BlockStart, BlockEnd string
	// Quotes are the string delimiters whose contents are not comments.
	Quotes string
	// Triple enables Python's triple-quoted strings.
	Triple bool
	// Raw are the string delimiters whose strings know no escapes and may
	// span lines (Go's raw strings).
	Raw string
	// LineAfter, when set, lists the bytes after which Line starts a
	// comment (at the start of a line it always does): a blank in YAML, a
	// blank or a metacharacter in shell, so "a#b" and "${#x}" are not
	// comments.
	LineAfter string
	// Tags makes quotes count only inside markup tags (HTML), where they
	// delimit attribute values; in text an apostrophe is just a letter.
	Tags bool
}

// TokenSyntax describes the lexical rules the token lexer needs: how
// comments and string literals look, so that neither is ever mistaken for
// code.
type TokenSyntax struct {
	// Known reports that the language is tokenized at all.
	Known bool
	// LineComment starts a comment that runs to the end of the line.
	LineComment string
	// Block enables /* */ comments; Nested makes them nest (Rust).
	Block, Nested bool
	// Quotes are the single-line string delimiters.
	Quotes string
	// Multiline lets quoted strings span lines (Rust, shell, Ruby).
	Multiline bool
	// Backtick is a Go raw string; Template is a JavaScript template
	// literal with ${} substitutions.
	Backtick, Template bool
	// Triple enables Python's triple-quoted strings and string prefixes.
	Triple bool
	// TextBlock enables Java's """ text blocks.
	TextBlock bool
	// Regex lets "/" start a regular expression literal (JavaScript).
	Regex bool
	// JSX lets "<" open a JSX element where an expression may start
	// (JSX, TSX): its text is one token, its tags and expressions code.
	JSX bool
	// Rust enables raw strings (r#"..."#), byte strings and lifetimes.
	Rust bool
	// Dollar and Hash let identifiers hold "$" and start with "#"
	// (JavaScript).
	Dollar, Hash bool
	// WordHash makes "#" start a comment only at the start of a word
	// (shell, where $# and ${#x} are code).
	WordHash bool
	// TightBraces renders a literal split over lines as {a, b} rather
	// than { a, b } (gofmt's style, not Prettier's).
	TightBraces bool
}

// The shared rows' parts.
var (
	slashComments = CommentSyntax{Line: "//", BlockStart: "/*", BlockEnd: "*/", Quotes: "\"'`"}
	hashComments  = CommentSyntax{Line: "#", Quotes: "\"'"}
	yamlComments  = CommentSyntax{Line: "#", Quotes: "\"'", LineAfter: " \t"}
	shellComments = CommentSyntax{Line: "#", Quotes: "\"'", LineAfter: " \t;&|()<>"}
	sfcComments   = CommentSyntax{Line: "//", BlockStart: "<!--", BlockEnd: "-->", Quotes: "\"'`"}
	jsTokens      = TokenSyntax{Known: true, LineComment: "//", Block: true, Quotes: `"'`, Template: true, Regex: true, Dollar: true, Hash: true}
	jsxTokens     = TokenSyntax{Known: true, LineComment: "//", Block: true, Quotes: `"'`, Template: true, Regex: true, Dollar: true, Hash: true, JSX: true}
	cTokens       = TokenSyntax{Known: true, LineComment: "//", Block: true, Quotes: `"'`}
	jsTests       = []string{"*.test.*", "*.spec.*"}
)

var languages = [numLanguages]LanguageInfo{
	// Unknown languages get a permissive comment syntax that recognises
	// "#" line comments, so the language-neutral rules still find TODOs
	// in them.
	LangUnknown: {Comments: hashComments, Config: true},
	LangGo: {ID: "go", Name: "Go", Exts: []string{".go"}, Fence: "go",
		Comments:  CommentSyntax{Line: "//", BlockStart: "/*", BlockEnd: "*/", Quotes: "\"'", Raw: "`"},
		Tokens:    TokenSyntax{Known: true, LineComment: "//", Block: true, Quotes: `"'`, Backtick: true, TightBraces: true},
		Symbols:   true,
		TestFiles: []string{"*_test.go"}},
	LangPython: {ID: "python", Name: "Python", Exts: []string{".py", ".pyi"}, Shebang: []string{"python"}, Fence: "python",
		Comments:  CommentSyntax{Line: "#", Quotes: "\"'", Triple: true},
		Tokens:    TokenSyntax{Known: true, LineComment: "#", Quotes: `"'`, Triple: true},
		Symbols:   true,
		TestFiles: []string{"test_*.py", "*_test.py"}},
	LangJavaScript: {ID: "javascript", Name: "JavaScript", Exts: []string{".js", ".mjs", ".cjs"}, Shebang: []string{"node"},
		Family: LangJavaScript, Fence: "javascript", Comments: slashComments, Tokens: jsTokens, Symbols: true, TestFiles: jsTests},
	LangJSX: {ID: "jsx", Name: "JSX", Exts: []string{".jsx"}, Family: LangJavaScript, Fence: "jsx",
		Comments: slashComments, Tokens: jsxTokens, Symbols: true, TestFiles: jsTests, Markup: true},
	LangTypeScript: {ID: "typescript", Name: "TypeScript", Exts: []string{".ts", ".mts", ".cts"}, Family: LangJavaScript, Fence: "typescript",
		Comments: slashComments, Tokens: jsTokens, Symbols: true, TestFiles: jsTests},
	LangTSX: {ID: "tsx", Name: "TSX", Exts: []string{".tsx"}, Family: LangJavaScript, Fence: "tsx",
		Comments: slashComments, Tokens: jsxTokens, Symbols: true, TestFiles: jsTests, Markup: true},
	LangShell: {ID: "shell", Name: "shell", Exts: []string{".sh", ".bash", ".zsh", ".ksh"}, Shebang: []string{"sh"}, Fence: "sh",
		Comments: shellComments, Config: true,
		Tokens: TokenSyntax{Known: true, LineComment: "#", Quotes: `"'`, Multiline: true, WordHash: true}},
	LangDockerfile: {ID: "dockerfile", Name: "Dockerfile", Names: []string{"dockerfile", "containerfile"}, Exts: []string{".dockerfile"},
		Fence: "dockerfile", Comments: shellComments, Config: true},
	LangActions: {ID: "github-actions", Name: "workflow", Fence: "yaml", Comments: yamlComments, Config: true},
	LangYAML:    {ID: "yaml", Name: "YAML", Exts: []string{".yml", ".yaml"}, Fence: "yaml", Comments: yamlComments, Config: true},
	LangHTML: {ID: "html", Name: "HTML", Exts: []string{".html", ".htm"}, Fence: "html", Markup: true,
		Comments: CommentSyntax{BlockStart: "<!--", BlockEnd: "-->", Quotes: "\"'", Tags: true}},
	LangVue: {ID: "vue", Name: "Vue", Exts: []string{".vue"}, Family: LangJavaScript, Fence: "vue", Markup: true,
		Comments: sfcComments, TestFiles: jsTests},
	LangSvelte: {ID: "svelte", Name: "Svelte", Exts: []string{".svelte"}, Family: LangJavaScript, Fence: "svelte", Markup: true,
		Comments: sfcComments, TestFiles: jsTests},
	LangMarkdown: {ID: "markdown", Name: "Markdown", Exts: []string{".md", ".mdx", ".markdown"}, Fence: "markdown",
		Comments: CommentSyntax{BlockStart: "<!--", BlockEnd: "-->"}},
	LangJSON: {ID: "json", Name: "JSON", Exts: []string{".json"}, Fence: "json"},
	LangJava: {ID: "java", Name: "Java", Exts: []string{".java"}, Fence: "java", Comments: slashComments, Symbols: true,
		Tokens:    TokenSyntax{Known: true, LineComment: "//", Block: true, Quotes: `"'`, TextBlock: true},
		TestFiles: []string{"*test.java", "*tests.java"}},
	LangRust: {ID: "rust", Name: "Rust", Exts: []string{".rs"}, Fence: "rust", Comments: slashComments, Symbols: true,
		Tokens: TokenSyntax{Known: true, LineComment: "//", Block: true, Nested: true, Quotes: `"`, Multiline: true, Rust: true}},
	LangRuby: {ID: "ruby", Name: "Ruby", Exts: []string{".rb"}, Fence: "ruby", Comments: hashComments,
		Tokens:    TokenSyntax{Known: true, LineComment: "#", Quotes: `"'`, Multiline: true},
		TestFiles: []string{"*_spec.rb", "*_test.rb"}},
	LangC:        {ID: "c", Name: "C", Exts: []string{".c", ".h"}, Fence: "c", Comments: slashComments, Tokens: cTokens},
	LangCPP:      {ID: "cpp", Name: "C++", Exts: []string{".cc", ".cpp", ".cxx", ".hpp"}, Fence: "cpp", Comments: slashComments, Tokens: cTokens},
	LangCSharp:   {ID: "csharp", Name: "C#", Exts: []string{".cs"}, Fence: "csharp", Comments: slashComments, Tokens: cTokens},
	LangSQL:      {ID: "sql", Name: "SQL", Exts: []string{".sql"}, Fence: "sql", Comments: CommentSyntax{Line: "--", BlockStart: "/*", BlockEnd: "*/", Quotes: "'"}},
	LangTOML:     {ID: "toml", Name: "TOML", Exts: []string{".toml"}, Fence: "toml", Comments: hashComments, Config: true},
	LangMakefile: {ID: "makefile", Name: "Makefile", Exts: []string{".mk"}, Names: []string{"makefile", "gnumakefile"}, Fence: "makefile", Comments: hashComments, Config: true},
	LangGoMod: {ID: "go.mod", Name: "go.mod",
		Comments: CommentSyntax{Line: "//", BlockStart: "/*", BlockEnd: "*/", Quotes: "\"'", Raw: "`"}},
	LangText: {ID: "text", Name: "text", Exts: []string{".txt", ".rst"}},
}

// The lookups derived from the table.
var (
	extLanguages  = map[string]Language{}
	nameLanguages = map[string]Language{}
	idLanguages   = map[string]Language{}
)

func init() {
	for l := range numLanguages {
		row := &languages[l]
		if row.Family == LangUnknown {
			row.Family = l
		}
		for _, e := range row.Exts {
			extLanguages[e] = l
		}
		for _, n := range row.Names {
			nameLanguages[n] = l
		}
		if row.ID != "" {
			idLanguages[row.ID] = l
		}
	}
}

// Info returns the language's row of the table (the unknown language's for
// an out-of-range value).
func (l Language) Info() *LanguageInfo {
	if l >= numLanguages {
		l = LangUnknown
	}
	return &languages[l]
}

// String returns the language id, "" for [LangUnknown].
func (l Language) String() string { return l.Info().ID }

// MarshalText encodes the language as its id.
func (l Language) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText decodes a language id ("" is [LangUnknown]).
func (l *Language) UnmarshalText(b []byte) error {
	v, ok := ParseLanguage(string(b))
	if !ok {
		return fmt.Errorf("unknown language %q", b)
	}
	*l = v
	return nil
}

// ParseLanguage returns the language of an id ("" is [LangUnknown]).
func ParseLanguage(id string) (Language, bool) {
	if id == "" {
		return LangUnknown, true
	}
	l, ok := idLanguages[id]
	return l, ok
}

// Languages returns every known language, in table order.
func Languages() []Language {
	out := make([]Language, 0, numLanguages-1)
	for l := LangUnknown + 1; l < numLanguages; l++ {
		out = append(out, l)
	}
	return out
}

// Family returns the first language of l's family.
func (l Language) Family() Language { return l.Info().Family }

// IsJS reports a language of JavaScript's token syntax: JavaScript,
// TypeScript and their JSX forms (not the single-file components, whose
// scripts sit inside markup).
func (l Language) IsJS() bool { return l.Family() == LangJavaScript && l.Info().Tokens.Known }

// IsMarkup reports whether the language renders UI markup (accessibility
// surface).
func (l Language) IsMarkup() bool { return l.Info().Markup }

// DetectLanguage returns the language of a file from its path and, for
// extension-less scripts, its first line: [LangUnknown] when unknown.
func DetectLanguage(p string, content []byte) Language {
	base := path.Base(p)
	lower := strings.ToLower(base)
	if l, ok := nameLanguages[lower]; ok {
		return l
	}
	switch {
	case strings.HasPrefix(lower, "dockerfile."):
		return LangDockerfile
	case base == "go.mod":
		return LangGoMod
	}
	ext := strings.ToLower(path.Ext(base))
	if l, ok := extLanguages[ext]; ok {
		if l == LangYAML && (isWorkflowPath(p) || lower == "action.yml" || lower == "action.yaml") {
			return LangActions
		}
		return l
	}
	if ext == "" && bytes.HasPrefix(content, []byte("#!")) {
		line, _, _ := bytes.Cut(content, []byte("\n"))
		for l := range numLanguages {
			for _, s := range languages[l].Shebang {
				if bytes.Contains(line, []byte(s)) {
					return l
				}
			}
		}
	}
	return LangUnknown
}

func isWorkflowPath(p string) bool {
	return strings.HasPrefix(p, ".github/workflows/") || strings.Contains(p, "/.github/workflows/")
}

// testDirs are directories whose files are tests, in any language.
var testDirs = map[string]bool{"__tests__": true, "test": true, "tests": true, "testdata": true, "spec": true}

// IsTestPath reports whether p follows a test-file convention of a
// language (foo_test.go, test_foo.py, foo.test.ts, __tests__/, ...).
func IsTestPath(p string) bool {
	lower := strings.ToLower(path.Base(p))
	for _, m := range testMatchers() {
		if m.match(lower) {
			return true
		}
	}
	for dir := path.Dir(p); dir != ""; {
		var elem string
		elem, dir, _ = strings.Cut(dir, "/")
		if testDirs[elem] {
			return true
		}
	}
	return false
}

// A nameMatcher matches a file name against one test-file pattern: by
// prefix and suffix for one '*', by substring for "*x*", else with
// path.Match. Every rule asks IsTestPath of every file it reads, so the
// patterns are compiled once, and each only once however many languages
// share it.
type nameMatcher struct {
	pattern        string
	prefix, suffix string
	kind           int // 0 path.Match, 1 prefix*suffix, 2 *substring*
}

func (m nameMatcher) match(name string) bool {
	switch m.kind {
	case 1:
		return len(name) >= len(m.prefix)+len(m.suffix) && strings.HasPrefix(name, m.prefix) && strings.HasSuffix(name, m.suffix)
	case 2:
		return strings.Contains(name, m.prefix)
	}
	ok, _ := path.Match(m.pattern, name)
	return ok
}

var testMatchers = sync.OnceValue(func() []nameMatcher {
	var out []nameMatcher
	seen := map[string]bool{}
	for l := range numLanguages {
		for _, pat := range languages[l].TestFiles {
			if seen[pat] {
				continue
			}
			seen[pat] = true
			m := nameMatcher{pattern: pat}
			switch stars := strings.Count(pat, "*"); {
			case strings.ContainsAny(pat, "?[\\"):
			case stars == 1:
				m.kind = 1
				m.prefix, m.suffix, _ = strings.Cut(pat, "*")
			case stars == 2 && len(pat) > 2 && pat[0] == '*' && pat[len(pat)-1] == '*':
				m.kind, m.prefix = 2, pat[1:len(pat)-1]
			}
			out = append(out, m)
		}
	}
	return out
})
