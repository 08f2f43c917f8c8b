package security

import "github.com/reviewls/reviewls/review/lens"

// scriptRules returns the security rules for scripting, configuration and build languages.
func scriptRules() []*lens.Rule {
	return []*lens.Rule{
		ShellInjection, Eval, ShellEval, PathTraversal, JWTNoVerify, UnsafeHTML, UnsafeYAMLLoad, UnsafeDeserialization,
		ActionsPullRequestTarget, ActionsScriptInjection, ActionsUnpinned, CurlPipeShell, WorldWritable,
	}
}
