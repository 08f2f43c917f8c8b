package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ShellEval finds eval of variable text in shell commands.
var ShellEval = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/shell-eval",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityMedium,
		Languages:   shellLangs,
		Depth:       review.DepthBasic,
		Skill:       "CWE-95",
		Summary:     "eval of variable text in a shell command",
		Doc: "`eval \"$cmd\"`, `eval $(...)` and `eval \"$@\"` parse the value as shell code a second time: quotes, " +
			"`;`, `$(...)` and globs in a file name, an argument or a configuration value run as commands, and " +
			"words split where they should not. Call the command directly with its arguments in an array " +
			"(`\"${args[@]}\"`, `\"$@\"`). Checked in shell scripts, Dockerfile RUN instructions, workflow run steps " +
			"and Makefile recipes. Not reported: eval of constant text (escaped \\$ included), make's $(eval) function, " +
			"`eval set -- \"$(getopt ...)\"`, arguments quoted with printf %q, and the bootstraps tools tell users to " +
			"eval (`eval \"$(ssh-agent -s)\"`, pyenv, rbenv, direnv, brew shellenv, dircolors, opam, conda, " +
			"starship, zoxide, fnm, mise, keychain).",
		Bad:  "eval \"$script ${arguments[*]}\"",
		Good: "\"$script\" \"${arguments[@]}\"",
	},
	Run: runShellEval,
}

// shellEvalRE matches eval at the start of a command; group 1 is its
// argument text.
var shellEvalRE = regexp.MustCompile(`(?:^|[;&|({}!]|\$\(|\bthen|\bdo|\belse)\s*eval\s+([^;&|]*)`)

// evalBootstraps are the tools whose setup output users are told to eval.
var evalBootstraps = []string{"ssh-agent", "pyenv", "rbenv", "nodenv", "goenv", "direnv", "brew shellenv", "dircolors",
	"opam", "conda", "starship", "zoxide", "fnm", "mise", "keychain", "jenv", "plenv", "thefuck", "register-python-argcomplete",
	"minikube docker-env", "docker-machine env", "luarocks path", "gpg-agent", "homebrew"}

func runShellEval(p *lens.Pass) {
	if !p.Contains("eval") {
		return
	}
	for _, c := range syntax.ShellCommands(p.File) {
		if !strings.Contains(c.Code, "eval") {
			continue
		}
		for _, m := range shellEvalRE.FindAllStringSubmatchIndex(c.Code, -1) {
			arg := c.Text[m[2]:m[3]]
			if p.File.Language == review.LangMakefile && strings.HasSuffix(strings.TrimRight(c.Code[:m[2]], " \teval"), "$(") {
				continue // make's own $(eval ...) function
			}
			if !variable(arg) || bootstrap(arg) || strings.HasPrefix(arg, "set -- ") ||
				strings.Contains(arg, "printf '%q") || strings.Contains(arg, `printf "%q`) || strings.Contains(arg, "${@@Q}") {
				continue // constant text, getopt's quoted output, printf %q quoting
			}
			line := c.Line(m[2])
			if !p.Changed(line) {
				continue
			}
			p.Report(lens.Report{
				Line: line,
				Message: fmt.Sprintf("`eval %s` parses the value as shell code again: quotes, `;` or `$(...)` in it run "+
					"as commands.", lens.Snippet(strings.TrimSpace(arg))),
				Suggested: "Run the command directly, with its arguments in an array: \"${args[@]}\".",
			})
		}
	}
}

// variable reports text with an expansion eval would see: a $ or a
// backtick not escaped with a backslash.
func variable(arg string) bool {
	arg = strings.ReplaceAll(strings.ReplaceAll(arg, "\\$", ""), "\\`", "")
	return strings.ContainsAny(arg, "$`")
}

func bootstrap(arg string) bool {
	for _, b := range evalBootstraps {
		if strings.Contains(arg, b) {
			return true
		}
	}
	return false
}
