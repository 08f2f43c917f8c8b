package secret

import "testing"

// FuzzAssignments checks the secret-keyed values found on a line, in code
// and in configuration syntax: each is the text of the line between its
// bounds, under a secret key, and no two overlap.
func FuzzAssignments(f *testing.F) {
	for _, s := range []string{"", `api_key = "abc"`, "export DB_PASSWORD=hunter2", `{"client_secret": "x", "token": 'y'}`,
		"ENV API_TOKEN abc", "password: s3cret # c", `os.Setenv("API_TOKEN", "v")`, `env['SECRET_KEY'] = "\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, cfg := range []bool{false, true} {
			as := assignments(line, cfg)
			for i, a := range as {
				if a.from < 0 || a.from > a.to || a.to > len(line) || line[a.from:a.to] != a.value ||
					a.key == "" || a.class == keyNone || secretKey(a.key) != a.class {
					t.Fatalf("cfg %v: assignment %+v of %q", cfg, a, line)
				}
				for _, b := range as[:i] {
					if a.from < b.to && b.from < a.to {
						t.Fatalf("cfg %v: assignments %+v and %+v overlap", cfg, a, b)
					}
				}
			}
		}
	})
}
