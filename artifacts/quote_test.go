package artifacts

import "testing"

// TestQuotePath checks paths against what git prints for them with
// core.quotePath=false (git status --porcelain, git diff --name-only).
func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"a.go":               "a.go",
		"with space.go":      "with space.go",
		"-leading-dash":      "-leading-dash",
		"ünïcödé/日本.go":      "ünïcödé/日本.go",
		"tab\there":          `"tab\there"`,
		"new\nline":          `"new\nline"`,
		"\x1b[31mred\x1b[0m": `"\033[31mred\033[0m"`,
		`quote"d`:            `"quote\"d"`,
		`back\slash`:         `"back\\slash"`,
		"bell\a cr\r":        `"bell\a cr\r"`,
		"latin1-\xe9.txt":    `"latin1-\351.txt"`,
		"csi-\u009b31m":      `"csi-\302\23331m"`,
		"del\x7f":            `"del\177"`,
		// Format characters: a right-to-left override would print the
		// name backwards, the others hide or join what is read.
		"invoice-\u202egpj.exe":  `"invoice-\u202egpj.exe"`,
		"\u2066isolate\u2069.go": `"\u2066isolate\u2069.go"`,
		"mark\u200e\u200f\u061c": `"mark\u200e\u200f\u061c"`,
		"zero\u200bwidth\ufeff":  `"zero\u200bwidth\ufeff"`,
		"pay\u200dpal.go":        `"pay\u200dpal.go"`,
		"soft\u00adhyphen":       `"soft\u00adhyphen"`,
		"tag\U000e0041":          `"tag\U000e0041"`,
		"line\u2028sep":          `"line\u2028sep"`,
		// Kept: joiners inside a Persian word and an emoji sequence, and
		// the Arabic number sign, which shows.
		"می\u200cخواهم.md": "می\u200cخواهم.md",
		"👩\u200d💻.txt":     "👩\u200d💻.txt",
		"\u0600١٢.txt":     "\u0600١٢.txt",
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestEscapeControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":               "plain text",
		"two\nlines\tand a tab":    "two\nlines\tand a tab",
		"color \x1b[31mred\x1b[0m": `color \033[31mred\033[0m`,
		`"quotes" and \ stay`:      `"quotes" and \ stay`,
		"cr\r and \u009b and \xff": `cr\r and \302\233 and \377`,
		// Trojan Source: the override and isolates of a line of code.
		"access /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */": `access /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */`,
		"\u200dat the edge": `\u200dat the edge`,
	} {
		if got := EscapeControls(in); got != want {
			t.Errorf("EscapeControls(%q) = %s, want %s", in, got, want)
		}
	}
}
