package risk

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
)

func TestHotspots(t *testing.T) {
	tests := []struct {
		name string
		path string
		line string // one changed line; "" changes nothing
		want []string
	}{
		// Path tokens.
		{"auth dir", "internal/auth/handler.go", "", []string{"auth"}},
		{"login file", "web/login.py", "", []string{"auth"}},
		{"oauth camel", "pkg/OAuthCallback.ts", "", []string{"auth"}},
		{"jwt", "pkg/jwt/verify.go", "", []string{"auth"}},
		{"crypto dir", "internal/crypto/box.go", "", []string{"crypto"}},
		{"tls", "net/tls_config.go", "", []string{"crypto", "networking"}},
		{"parser", "lang/parser.go", "", []string{"parsing"}},
		{"tokenizer is parsing, not secrets", "lang/tokenizer.go", "", []string{"parsing"}},
		{"decoder", "codec/decoder.go", "", []string{"deserialization"}},
		{"serializer", "api/serializers.py", "", []string{"deserialization"}},
		{"store", "internal/store/users.go", "", []string{"persistence"}},
		{"sql file", "queries/users.sql", "", []string{"persistence"}},
		{"repository", "app/user_repository.rb", "", []string{"persistence"}},
		{"token file", "auth/token.go", "", []string{"auth", "secrets"}},
		{"secret file", "config/.env", "", []string{"secrets"}},
		{"pem", "certs/server.pem", "", []string{"crypto", "secrets", "networking"}},
		{"http client", "pkg/http/client.go", "", []string{"networking"}},
		{"grpc", "svc/grpc_server.go", "", []string{"networking"}},
		{"worker", "jobs/worker.go", "", []string{"concurrency"}},
		{"queue", "internal/queue/queue.go", "", []string{"concurrency"}},
		{"lock file name", "pkg/lock.go", "", []string{"concurrency"}},
		{"nix lockfile", "flake.lock", "x", nil},

		// Added-line content.
		{"bcrypt import", "pkg/a.go", `import "golang.org/x/crypto/bcrypt"`, []string{"crypto"}},
		{"crypto/sha256", "pkg/a.go", `	"crypto/sha256"`, []string{"crypto"}},
		{"hashlib", "pkg/a.py", "import hashlib", []string{"crypto"}},
		{"jwt call", "pkg/a.js", "const t = jwt.sign(payload, key)", []string{"auth"}},
		{"password field", "pkg/a.go", "	Password string", []string{"secrets"}},
		{"api key snake", "pkg/a.py", "API_KEY = os.environ['X']", []string{"secrets"}},
		{"api key camel", "pkg/a.ts", "const apiKey = process.env.X", []string{"secrets"}},
		{"net/http", "pkg/a.go", `import "net/http"`, []string{"networking"}},
		{"fetch", "pkg/a.ts", "const r = await fetch(url)", []string{"networking"}},
		{"requests", "pkg/a.py", "r = requests.get(url)", []string{"networking"}},
		{"database/sql", "pkg/a.go", `import "database/sql"`, []string{"persistence"}},
		{"gorm", "pkg/a.go", `	"gorm.io/gorm"`, []string{"persistence"}},
		{"sqlalchemy", "pkg/a.py", "from sqlalchemy import select", []string{"persistence"}},
		{"insert", "pkg/a.go", `	q := "INSERT INTO users (id) VALUES (?)"`, []string{"persistence"}},
		{"select from", "pkg/a.go", `	q := "SELECT id FROM users"`, []string{"persistence"}},
		{"json.Unmarshal", "pkg/a.go", "	err := json.Unmarshal(b, &v)", []string{"deserialization"}},
		{"yaml.load", "pkg/a.py", "cfg = yaml.load(f)", []string{"deserialization"}},
		{"pickle", "pkg/a.py", "obj = pickle.loads(data)", []string{"deserialization"}},
		{"gob", "pkg/a.go", `	"encoding/gob"`, []string{"deserialization"}},
		{"xml", "pkg/a.py", "import xml.etree.ElementTree as ET", []string{"parsing"}},
		{"url.Parse", "pkg/a.go", "	u, err := url.Parse(raw)", []string{"parsing"}},
		{"mutex", "pkg/a.go", "	mu sync.Mutex", []string{"concurrency"}},
		{"go func", "pkg/a.go", "	go func() { done <- true }()", []string{"concurrency"}},
		{"go statement", "pkg/a.go", "	go s.loop(ctx)", []string{"concurrency"}},
		{"chan", "pkg/a.go", "	ch := make(chan int)", []string{"concurrency"}},
		{"Lock call", "pkg/a.go", "	s.mu.Lock()", []string{"concurrency"}},
		{"threading", "pkg/a.py", "import threading", []string{"concurrency"}},
		{"asyncio", "pkg/a.py", "import asyncio", []string{"concurrency"}},

		// Near misses: no hotspot.
		{"tokenize call", "pkg/a.go", "	words := tokenize(s)", nil},
		{"Tokenizer type", "pkg/a.go", "type Tokenizer struct{}", nil},
		{"token word in code", "pkg/a.go", "	tok := token.IDENT", nil},
		{"parseInt in UI", "ui/Form.tsx", "const n = parseInt(value, 10)", nil},
		{"strconv.Atoi", "pkg/a.go", "	n, err := strconv.Atoi(s)", nil},
		{"author", "pkg/author.go", "	Author string", nil},
		{"restore", "pkg/restore.go", "", nil},
		{"clock", "pkg/clock.go", "	c.blocking = true", nil},
		{"internet", "pkg/internet_speed.go", "", nil},
		{"dbg", "pkg/dbg.go", "", nil},
		{"lockfile string", "pkg/a.go", `	skip := []string{"package-lock.json", "yarn.lock"}`, nil},
		{"unlock in words", "pkg/a.go", "	unlocked := flock(fd)", nil},
		{"secret in comment", "pkg/a.go", "	// the secret sauce of this loop", nil},
		{"go word in prose", "pkg/a.go", `	msg := "let's go home"`, nil},
		{"sync in JS", "pkg/a.ts", "sync.run()", nil},
		{"session", "lsp/session.go", "", nil},
		{"trailing comment", "pkg/a.go", "	return nil // sockets, pipes and crypto are skipped", nil},
		{"hash trailing comment", "pkg/a.py", "x = 1  # the password is elsewhere", nil},
		{"URL", "pkg/a.go", `const doc = "https://example.com/auth/login"`, nil},
		{"prose string", "pkg/a.go", `	return errors.New("invalid password for this user")`, nil},
		{"sql as a language name", "pkg/a.go", `	LangSQL = "sql"`, nil},
		{"yaml prose value", "hooks.yaml", "  description: block commits that add secrets", nil},
		{"yaml key", "deploy/app.yaml", "  password: ${DB_PASSWORD}", []string{"persistence", "secrets"}},
		{"SQL in a prose string still counts", "pkg/a.go", `	rows, err := db.Query("SELECT name FROM users WHERE id = ?")`, []string{"persistence"}},
		{"sql package", "pkg/a.go", "	db, err := sql.Open(driver, dsn)", []string{"persistence"}},
		{"string without spaces is code", "pkg/a.py", `cfg["api_key"] = key`, []string{"secrets"}},
		{"prompt dir in CLI", "cli/prompt.go", "", nil},

		// Not hotspots at all: tests, docs and manifests.
		{"test file", "internal/auth/login_test.go", "	password := \"x\"", nil},
		{"docs", "docs/auth.md", "Set the password.", nil},
		{"manifest", "package.json", `"bcrypt": "^5.0.0"`, nil},
		{"lockfile", "go.sum", "golang.org/x/crypto v0.1.0 h1:abc", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := file(tt.path, review.StatusModified, tt.line+"\n")
			if tt.line != "" {
				f = file(tt.path, review.StatusModified, tt.line+"\n", 1)
			}
			r := Assess(changeSet("", f), fullHistory, Options{})
			if diff := cmp.Diff(tt.want, classesOf(r, tt.path), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("classes of %s with %q (-want +got):\n%s", tt.path, tt.line, diff)
			}
		})
	}
}

func TestHotspotsUseAddedLinesOnly(t *testing.T) {
	content := "package a\n\nimport \"crypto/sha256\"\n\nfunc f() {}\n"
	f := file("pkg/a.go", review.StatusModified, content, 5)
	r := Assess(changeSet("", f), fullHistory, Options{})
	if got := classesOf(r, "pkg/a.go"); got != nil {
		t.Errorf("unchanged import line made hotspot classes %v", got)
	}
}

func TestHotspotsSortedAndCanonical(t *testing.T) {
	r := Assess(changeSet("",
		file("z/auth.go", review.StatusModified, "\tgo run()\n\tpw := password\n", 1, 2),
		file("a/db.go", review.StatusModified, "x\n", 1),
	), fullHistory, Options{})
	want := []review.Hotspot{
		{Path: "a/db.go", Classes: []string{"persistence"}},
		{Path: "z/auth.go", Classes: []string{"auth", "secrets", "concurrency"}},
	}
	if diff := cmp.Diff(want, r.Hotspots); diff != "" {
		t.Errorf("hotspots (-want +got):\n%s", diff)
	}
}

func TestMaskLine(t *testing.T) {
	tests := []struct {
		line  string
		lang  review.Language
		prose bool
		want  string
	}{
		{`x := "a b" // c`, review.LangGo, false, `x := "a b"     `},
		{`x := "a b" // c`, review.LangGo, true, `x := "   "     `},
		{`x := "a/b" + y`, review.LangGo, true, `x := "a/b" + y`},
		{`u := "http://h/p"`, review.LangGo, false, `u := "          "`},
		{`x = 'it''s' # c`, review.LangPython, false, `x = 'it''s'    `},
		{`echo $# "#x"`, review.LangShell, false, `echo $# "#x"`},
		{`a /* b */ c`, review.LangGo, false, `a         c`},
		{`SELECT 1 -- note`, review.LangSQL, false, `SELECT 1        `},
		{`key: some prose here`, review.LangYAML, true, `key:                `},
		{`key: "quoted value"`, review.LangYAML, true, `key: "            "`},
		{`key: value`, review.LangYAML, true, `key: value`},
		{`don't stop`, review.LangGo, true, `don't stop`},
	}
	for _, tt := range tests {
		if got := maskLine(tt.line, tt.lang, tt.prose); got != tt.want {
			t.Errorf("maskLine(%q, %s, %v) = %q, want %q", tt.line, tt.lang, tt.prose, got, tt.want)
		}
	}
}

func TestSubwords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"userPassword", []string{"user", "Password"}},
		{"USER_PASSWORD", []string{"USER", "PASSWORD"}},
		{"HTTPServer", []string{"HTTP", "Server"}},
		{"parseInt", []string{"parse", "Int"}},
		{"tokenizer", []string{"tokenizer"}},
		{"sha256Sum", []string{"sha256", "Sum"}},
		{"oauth2Token", []string{"oauth2", "Token"}},
		{"__init__", []string{"init"}},
		{"x509", []string{"x509"}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range splitSubwords(tt.in, 0, len(tt.in), nil) {
			got = append(got, tt.in[s.start:s.end])
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("splitSubwords(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
