package secret

import (
	"regexp"
	"strings"
)

// credentialURLRE matches a URL whose authority carries a password:
// scheme, user (possibly empty), password, host. The password stops at the
// first "@" (a literal one must be percent-encoded) and never spans a path
// separator, a quote or white space.
var credentialURLRE = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9+.\-]{1,30})://([^:/?#\s@'"<>\\` + "`" + `]*):([^@/?#\s'"<>\\` + "`" + `]+)@([^\s'"/:?#,;<>()\[\]{}\\` + "`" + `]+)`)

// dbSchemes are the URL schemes of databases and brokers.
var dbSchemes = map[string]bool{
	"postgres": true, "postgresql": true, "mysql": true, "mariadb": true, "mongodb": true, "mongodb+srv": true,
	"redis": true, "rediss": true, "amqp": true, "amqps": true, "mssql": true, "sqlserver": true, "clickhouse": true,
}

// urlPassword is the password of a URL on one line.
type urlPassword struct {
	URLPassword
	password string
	// from and to are the byte range of the password in the line.
	from, to int
}

// urlPasswords returns the inline passwords of the URLs on line that
// look real: a remote host that is not a documentation domain, and a
// password that is neither a placeholder nor a well-known default.
func urlPasswords(line string) []urlPassword {
	var out []urlPassword
	for _, m := range credentialURLRE.FindAllStringSubmatchIndex(line, -1) {
		scheme := strings.ToLower(line[m[2]:m[3]])
		c := urlPassword{
			URLPassword: URLPassword{Scheme: scheme, User: line[m[4]:m[5]], Host: line[m[8]:m[9]], Database: dbSchemes[scheme]},
			password:    line[m[6]:m[7]], from: m[6], to: m[7],
		}
		if !remoteHost(c.Host) || exampleHost(c.Host) || defaultPassword(c.User, c.password) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// remoteHost reports a host name that is neither loopback nor a bare
// service name (docker compose "db"), whose credentials are local
// development defaults.
func remoteHost(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	switch host {
	case "localhost", "127.0.0.1", "0.0.0.0", "::1", "host.docker.internal":
		return false
	}
	return strings.Contains(host, ".") && !strings.HasSuffix(host, ".local") && !strings.HasSuffix(host, ".localhost")
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
