package review

import (
	"bytes"
	"path"
	"strings"
)

// Language ids returned by [DetectLanguage].
const (
	LangGo         = "go"
	LangPython     = "python"
	LangJavaScript = "javascript"
	LangJSX        = "jsx"
	LangTypeScript = "typescript"
	LangTSX        = "tsx"
	LangShell      = "shell"
	LangDockerfile = "dockerfile"
	LangActions    = "github-actions"
	LangYAML       = "yaml"
	LangHTML       = "html"
	LangVue        = "vue"
	LangSvelte     = "svelte"
	LangMarkdown   = "markdown"
	LangJSON       = "json"
	LangJava       = "java"
	LangRust       = "rust"
	LangRuby       = "ruby"
	LangC          = "c"
	LangCPP        = "cpp"
	LangCSharp     = "csharp"
	LangSQL        = "sql"
	LangTOML       = "toml"
	LangMakefile   = "makefile"
	LangGoMod      = "go.mod"
	LangText       = "text"
)

var extLanguages = map[string]string{
	".go": LangGo, ".py": LangPython, ".pyi": LangPython,
	".js": LangJavaScript, ".mjs": LangJavaScript, ".cjs": LangJavaScript, ".jsx": LangJSX,
	".ts": LangTypeScript, ".mts": LangTypeScript, ".cts": LangTypeScript, ".tsx": LangTSX,
	".sh": LangShell, ".bash": LangShell, ".zsh": LangShell, ".ksh": LangShell,
	".yml": LangYAML, ".yaml": LangYAML,
	".html": LangHTML, ".htm": LangHTML, ".vue": LangVue, ".svelte": LangSvelte,
	".md": LangMarkdown, ".mdx": LangMarkdown, ".markdown": LangMarkdown,
	".json": LangJSON, ".java": LangJava, ".rs": LangRust, ".rb": LangRuby,
	".c": LangC, ".h": LangC, ".cc": LangCPP, ".cpp": LangCPP, ".cxx": LangCPP, ".hpp": LangCPP,
	".cs": LangCSharp, ".sql": LangSQL, ".toml": LangTOML, ".mk": LangMakefile,
	".txt": LangText, ".rst": LangText,
}

// DetectLanguage returns the language id of a file from its path and, for
// extension-less scripts, its first line. It returns "" when unknown.
func DetectLanguage(p string, content []byte) string {
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case lower == "dockerfile" || strings.HasPrefix(lower, "dockerfile.") || strings.HasSuffix(lower, ".dockerfile") || lower == "containerfile":
		return LangDockerfile
	case lower == "makefile" || lower == "gnumakefile":
		return LangMakefile
	case base == "go.mod":
		return LangGoMod
	}
	ext := strings.ToLower(path.Ext(base))
	if lang, ok := extLanguages[ext]; ok {
		if lang == LangYAML && isWorkflowPath(p) {
			return LangActions
		}
		return lang
	}
	if ext == "" && bytes.HasPrefix(content, []byte("#!")) {
		line, _, _ := bytes.Cut(content, []byte("\n"))
		switch {
		case bytes.Contains(line, []byte("python")):
			return LangPython
		case bytes.Contains(line, []byte("node")):
			return LangJavaScript
		case bytes.Contains(line, []byte("sh")): // sh, bash, zsh, ksh, dash
			return LangShell
		}
	}
	return ""
}

func isWorkflowPath(p string) bool {
	return strings.HasPrefix(p, ".github/workflows/") || strings.Contains(p, "/.github/workflows/")
}

// IsMarkup reports whether the language renders UI markup (accessibility
// surface).
func IsMarkup(lang string) bool {
	switch lang {
	case LangHTML, LangJSX, LangTSX, LangVue, LangSvelte:
		return true
	}
	return false
}

// IsTestPath reports whether p follows a test-file convention of its
// language (foo_test.go, test_foo.py, foo.test.ts, __tests__/, ...).
func IsTestPath(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lower, "_test.go"),
		strings.HasPrefix(lower, "test_") && strings.HasSuffix(lower, ".py"),
		strings.HasSuffix(lower, "_test.py"),
		strings.Contains(lower, ".test.") || strings.Contains(lower, ".spec."),
		strings.HasSuffix(lower, "test.java") || strings.HasSuffix(lower, "tests.java"),
		strings.HasSuffix(lower, "_spec.rb"), strings.HasSuffix(lower, "_test.rb"):
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "__tests__", "test", "tests", "testdata", "spec":
			return true
		}
	}
	return false
}
