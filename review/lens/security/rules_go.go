package security

import "github.com/reviewls/reviewls/review/lens"

// goRules returns the security rules for Go. The four rules also cover
// Python and JavaScript/TypeScript: they are one check per weakness, so a
// finding reads the same in every language.
func goRules() []*lens.Rule {
	return []*lens.Rule{
		TLSVerifyDisabled,
		WeakCrypto,
		InsecureRandom,
		SQLInjection,
		GoTemplateUnescaped,
		CORSCredentials,
	}
}
