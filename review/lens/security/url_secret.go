package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// credentialURLRE matches a URL whose authority carries a password:
// scheme, user (possibly empty), password, host. The password stops at the
// first "@" (a literal one must be percent-encoded) and never spans a path
// separator, a quote or white space.
var credentialURLRE = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9+.\-]{1,30})://([^:/?#\s@'"<>\\` + "`" + `]*):([^@/?#\s'"<>\\` + "`" + `]+)@([^\s'"/:?#,;<>()\[\]{}\\` + "`" + `]+)`)

// dbSchemes are the URL schemes of databases and brokers, whose findings
// say "database URL".
var dbSchemes = map[string]bool{
	"postgres": true, "postgresql": true, "mysql": true, "mariadb": true, "mongodb": true, "mongodb+srv": true,
	"redis": true, "rediss": true, "amqp": true, "amqps": true, "mssql": true, "sqlserver": true, "clickhouse": true,
}

// urlCredential is the password of a URL on one line.
type urlCredential struct {
	scheme, user, password, host string
	// from and to are the byte range of the password in the line.
	from, to int
}

// urlCredentials returns the inline passwords of the URLs on line that
// look real: a remote host that is not a documentation domain, and a
// password that is neither a placeholder nor a well-known default.
func urlCredentials(line string) []urlCredential {
	if !strings.Contains(line, "://") {
		return nil
	}
	var out []urlCredential
	for _, m := range credentialURLRE.FindAllStringSubmatchIndex(line, -1) {
		c := urlCredential{
			scheme: strings.ToLower(line[m[2]:m[3]]), user: line[m[4]:m[5]], password: line[m[6]:m[7]], host: line[m[8]:m[9]],
			from: m[6], to: m[7],
		}
		if !remoteHost(c.host) || exampleHost(c.host) || defaultPassword(c.user, c.password) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// report describes the finding of c: only the password is the secret, so
// only the password is redacted.
func (c urlCredential) report() lens.Report {
	title, target := "URL with an inline password", "the account"
	if dbSchemes[c.scheme] {
		title, target = "Database URL with an inline password", "the database"
	}
	user := ""
	if c.user != "" {
		user = fmt.Sprintf(" for user %q", c.user)
	}
	return lens.Report{
		Title: title,
		Message: fmt.Sprintf("The %s URL for %s embeds the password %s%s. Anyone who can read the repository or its "+
			"history can use %s until the password is changed.", c.scheme, c.host, review.Redact(c.password), user, target),
		Suggested: "Build the URL at run time from a password held in the environment or a secret manager, and change the exposed password.",
		Secrets:   []string{c.password},
	}
}

// exampleHost reports the domains reserved for documentation and tests
// (RFC 2606, RFC 6761): example.com, example.org, example.net and names
// under .example, .test and .invalid.
func exampleHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	for _, tld := range []string{".example", ".test", ".invalid"} {
		if strings.HasSuffix(host, tld) {
			return true
		}
	}
	return false
}
