package risk

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// A cat is a category of cue: a hotspot class, a file-risk category or a
// specialist or rollout cue.
type cat uint8

// Cue categories. The first eight are the hotspot classes, in the order of
// classNames.
const (
	catAuth cat = iota
	catCrypto
	catParsing
	catDeserialization
	catPersistence
	catSecrets
	catNetworking
	catConcurrency
	catFinancial // §7.3 High: financial logic
	catAPI       // §7.3 Medium: API boundaries
	catShared    // §7.3 Medium: core logic and widely shared utilities
	catAI        // LLM or model SDKs
	catPII       // personal data fields
	catLogging   // log or print calls (privacy: PII in logs)
	catFlag      // feature flags (rollback: reversal evidence)
	catSleep     // sleep calls (efficiency when inside a loop)
	catPolling   // tickers, intervals, pollers
	catSchedule  // cron and batch jobs
	catDDL       // destructive schema or data statements (rollback: hard)
	catDown      // down migrations (rollback: reversal evidence)
	numCats
)

const numClasses = int(catConcurrency) + 1

// catSet is a set of cue categories.
type catSet uint32

func (s catSet) has(c cat) bool { return s&(1<<c) != 0 }

func (s *catSet) add(c cat) { *s |= 1 << c }

// highClasses are the hotspot classes that §7.3 lists as High risk.
const highClasses catSet = 1<<catAuth | 1<<catCrypto | 1<<catParsing | 1<<catDeserialization |
	1<<catPersistence | 1<<catSecrets

// securityClasses are the hotspot classes that feed the security
// specialist concern (§5.3: auth, authz, crypto, secrets, token, parsing,
// deserialization).
const securityClasses = highClasses &^ (1 << catPersistence)

// hotspotClasses are the eight hotspot classes.
const hotspotClasses catSet = 1<<numClasses - 1

// A scope says where a word cue applies.
type scope uint8

const (
	inPath     scope = 1 << iota // path segments and file names
	inCode                       // added lines of reviewed files
	inManifest                   // added lines of dependency manifests
	inBoth     = inPath | inCode
)

// wordCues are matched against subwords: identifiers split at underscores
// and camelCase boundaries and lower-cased, so "userPassword", "user_password"
// and "USER_PASSWORD" all hold the subword "password" while "tokenizer"
// holds no "token". An entry with spaces matches consecutive subwords
// ("api key" matches apiKey, API_KEY and "api key"). Words too common in
// code to mean anything there ("parse", "token", "store") are path-only.
var wordCues = []struct {
	c     cat
	s     scope
	words string
}{
	{catAuth, inBoth, "auth, authn, authz, authenticate, authenticated, authentication, authenticator, " +
		"authorize, authorized, authorization, authorizer, login, logout, signin, signout, oauth, oauth2, " +
		"oidc, openid, jwt, jwk, jwks, saml, sso, mfa, totp, webauthn, passkey, rbac, csrf, xsrf, " +
		"sessionid, session id, session token, session cookie, access control"},
	// Ambiguous in code ("file permissions", "ACL" of a bucket), clear as a
	// file or package name.
	{catAuth, inPath, "permission, permissions, iam, acl, acls"},

	{catCrypto, inBoth, "crypto, cryptography, cryptographic, cipher, ciphers, ciphertext, encrypt, encrypted, " +
		"encryption, decrypt, decrypted, decryption, aes, rsa, ecdsa, ecdh, ed25519, hmac, sha1, sha256, sha384, " +
		"sha512, md5, bcrypt, scrypt, argon2, argon2id, pbkdf2, hkdf, hashlib, nacl, libsodium, openssl, x509, " +
		"tls, mtls, cert, certs, certificate, certificates, keystore, private key"},

	{catSecrets, inBoth, "secret, secrets, password, passwords, passwd, passphrase, credential, credentials, " +
		"creds, apikey, apikeys, api key, api keys, access key, private key, access token, refresh token, " +
		"auth token, bearer token, keychain, keyring, kms, vault, dotenv"},
	// "token" is a lexical token as often as a credential in code; as a
	// file or package name it is taken as credentials. "tokenizer" and
	// "tokenize" never match: subwords are compared whole.
	{catSecrets, inPath, "token, tokens"},

	// Parsing in code is recognised by parser APIs (see phraseCues), not by
	// the word "parse": parseInt in UI code converts a value, it is not a
	// parser.
	{catParsing, inPath, "parse, parser, parsers, parsing, lexer, lexers, tokenizer, tokenizers, grammar, grammars"},

	{catDeserialization, inBoth, "deserialize, deserializes, deserialized, deserializer, deserialization, " +
		"unmarshal, unmarshals, unmarshaler, unmarshaller, unmarshaling, unmarshalling, unpickle, pickle, " +
		"unserialize, serialize, serializer, serializers, serialization, serializable, jsonpickle, msgpack, " +
		"cbor, bson, serde"},
	{catDeserialization, inPath, "decode, decoder, decoders, decoding, codec, codecs, marshal, marshaling, marshalling"},

	{catPersistence, inBoth, "database, databases, db, sqlite, sqlite3, postgres, postgresql, mysql, mariadb, " +
		"mongodb, mongo, redis, dynamodb, cassandra, gorm, sqlx, sqlc, sqlalchemy, prisma, typeorm, sequelize, " +
		"mongoose, knex, bbolt, boltdb, badger, leveldb, rocksdb, pgx, jdbc, hibernate, activerecord, alembic, " +
		"flyway, liquibase, datastore"},
	// "sql" names a language as often as a database (LangSQL, ".sql"); in
	// code the sql. package and SQL statements count instead.
	{catPersistence, inPath, "sql, dbs, store, stores, storage, repository, repositories, dao, dal, persistence, " +
		"persist, migration, migrations"},

	{catNetworking, inBoth, "http, https, http2, http3, grpc, websocket, websockets, socket, sockets, tcp, udp, " +
		"dns, quic, axios, httpx, aiohttp, urllib, urllib3, rpc, jsonrpc, jsonrpc2"},
	{catNetworking, inPath, "net, network, networking, client, clients, server, servers, proxy"},

	{catConcurrency, inBoth, "goroutine, goroutines, mutex, mutexes, rwmutex, semaphore, semaphores, waitgroup, " +
		"wait group, errgroup, threading, multiprocessing, asyncio, concurrent, concurrency, deadlock, " +
		"synchronized, tokio, rayon, threadpool, thread pool, executor service"},
	{catConcurrency, inPath, "sync, lock, locks, locking, worker, workers, queue, queues, pool, pools, scheduler, parallel"},

	{catFinancial, inPath, "payment, payments, billing, invoice, invoices, invoicing, checkout, ledger, ledgers, " +
		"refund, refunds, wallet, wallets, pricing, payout, payouts, accounting"},
	{catFinancial, inBoth, "stripe, paypal, braintree, adyen"},

	{catAPI, inPath, "api, apis, handler, handlers, route, routes, router, routers, routing, middleware, " +
		"middlewares, endpoint, endpoints, controller, controllers, openapi, swagger, graphql, resolver, resolvers, proto"},
	{catShared, inPath, "util, utils, common, shared, core"},

	{catAI, inBoth, "openai, anthropic, langchain, langgraph, llamaindex, llama index, huggingface, " +
		"sentence transformers, ollama, vllm, vertexai, generativeai, genai, bedrock, cohere, mistralai, " +
		"llm, llms, gpt, claude, sklearn, chat completion, chat completions"},
	{catAI, inManifest, "openai, anthropic, langchain, langgraph, llama index, huggingface, transformers, torch, " +
		"tensorflow, keras, ollama, vllm, cohere, mistralai, sklearn, scikit learn"},
	{catAI, inPath, "ai"},

	// "last name" and "full name" are left out: lastName and fullName name
	// files and symbols in code far more often than people.
	{catPII, inCode, "email, emails, phone, phones, phone number, phonenumber, ssn, social security, " +
		"date of birth, dob, birthdate, birthday, birth date, passport number, passport no, national id, tax id, " +
		"driver license, drivers license, credit card, card number, home address, street address, postal address, " +
		"mailing address, billing address, shipping address, first name, family name, surname, given name, " +
		"gender, ethnicity"},

	{catFlag, inBoth, "feature flag, feature flags, featureflag, featureflags, feature toggle, feature toggles, " +
		"feature gate, feature gates, launchdarkly, ldclient, unleash, openfeature, flagsmith, growthbook, " +
		"kill switch, killswitch"},

	{catPolling, inCode, "poll, polling, poller"},
	{catSchedule, inBoth, "cron, crontab, cronjob, cron job"},
	{catSchedule, inPath, "batch"},
}

// phraseCues are matched against the token stream of an added line:
// identifiers and single punctuation characters, whitespace ignored, case
// kept. A leading "^" requires that the phrase not follow a "." (so
// `hash.fetch(` is not `fetch(`); a trailing "*" on the last identifier
// matches it as a prefix (net.Dial* matches net.DialTimeout). lang, when
// set, restricts the phrase to one language.
var phraseCues = []struct {
	c       cat
	lang    review.Language
	phrases string
}{
	{catParsing, review.LangUnknown, "go/parser, go/scanner, text/scanner, encoding/csv, csv.NewReader(, csv.reader(, url.Parse(, " +
		"url.ParseRequestURI(, html.Parse(, ParseMultipartForm(, ParseForm(, mime.ParseMediaType(, DOMParser, " +
		"ast.parse(, ast.literal_eval(, urllib.parse, html.parser, BeautifulSoup, lxml, xml.etree, ElementTree, " +
		"xml2js, xmltodict, SAXParser"},
	{catDeserialization, review.LangUnknown, "encoding/gob, encoding/xml, json.NewDecoder(, yaml.NewDecoder(, xml.NewDecoder(, " +
		"gob.NewDecoder(, yaml.load(, yaml.unsafe_load(, yaml.full_load(, yaml.load_all(, YAML.load(, yaml.parse(, " +
		"YAML.parse(, JSON.parse(, json.loads(, json.load(, marshal.loads(, shelve.open(, ObjectInputStream, " +
		"readObject(, XMLDecoder, Marshal.load(, torch.load(, joblib.load(, dill.load*, serde_json::from_*"},
	{catPersistence, review.LangUnknown, "^sql., INSERT INTO, DELETE FROM, CREATE TABLE, CREATE INDEX, ALTER TABLE, DROP TABLE, " +
		"QueryContext(, ExecContext(, QueryRowContext(, QueryRow(, cursor.execute(, .executemany(, " +
		"objects.filter(, objects.get(, findOne(, findById(, findByPk("},
	{catNetworking, review.LangUnknown, "^fetch(, ^requests., import requests, net.Dial*, net.Listen*, new WebSocket("},
	// "lock" is a call, never a word: "package-lock.json" is no mutex.
	{catConcurrency, review.LangUnknown, "sync/atomic, ^atomic., std::thread, thread::spawn, new Thread(, new Worker(, " +
		"Lock(, Unlock(, RLock(, RUnlock(, TryLock(, lock(, unlock(, threading.Lock, asyncio.Lock"},
	{catConcurrency, review.LangGo, "chan, ^sync."},
	{catAI, review.LangUnknown, "import transformers, from transformers, @huggingface/transformers, import torch, from torch, " +
		"^torch., import tensorflow, from tensorflow, import keras, from keras"},
	{catLogging, review.LangUnknown, "log., slog., logger., logging., console.log(, console.info(, console.warn(, console.error(, " +
		"console.debug(, fmt.Print*, fmt.Fprint*, ^print(, println!(, eprintln!(, System.out.print*, log::, " +
		"Rails.logger, logrus., zap.L("},
	{catSleep, review.LangUnknown, "Sleep(, sleep(, usleep(, Thread.sleep("},
	{catSleep, review.LangShell, "sleep"},
	{catPolling, review.LangUnknown, "time.NewTicker(, time.Tick(, setInterval(, schedule.every("},
	{catSchedule, review.LangUnknown, "@Scheduled"},
	// Destructive schema statements in code (SQL kept in strings is upper
	// case by convention; in .sql files the line is upper-cased first).
	{catDDL, review.LangUnknown, "ALTER TABLE, DROP TABLE, DROP COLUMN, DROP INDEX, DROP SCHEMA, DROP DATABASE, DROP VIEW, " +
		"DROP CONSTRAINT, TRUNCATE TABLE, RENAME COLUMN, op.drop_column(, op.drop_table(, op.alter_column(, " +
		"remove_column, drop_table, rename_column, migrations.RemoveField(, migrations.AlterField(, " +
		"migrations.DeleteModel(, migrations.RenameField("},
	{catDDL, review.LangSQL, "TRUNCATE, DELETE FROM"},
	{catDown, review.LangUnknown, "def downgrade, def down, exports.down"},
}

type wordRule struct {
	c     cat
	s     scope
	seq   []string
	label string
}

type phraseRule struct {
	c           cat
	lang        review.Language
	toks        []string
	prefixLast  bool
	notAfterDot bool
	label       string
}

// cueTable is the compiled form of wordCues and phraseCues, indexed by the
// first subword or token. It is built once and never modified.
type cueTable struct {
	words   map[string][]wordRule
	phrases map[string][]phraseRule
}

var cues = compileCues()

func compileCues() *cueTable {
	t := &cueTable{words: map[string][]wordRule{}, phrases: map[string][]phraseRule{}}
	for _, w := range wordCues {
		for _, entry := range strings.Split(w.words, ",") {
			entry = strings.TrimSpace(entry)
			seq := strings.Fields(entry)
			t.words[seq[0]] = append(t.words[seq[0]], wordRule{c: w.c, s: w.s, seq: seq, label: entry})
		}
	}
	for _, p := range phraseCues {
		for _, entry := range strings.Split(p.phrases, ",") {
			entry = strings.TrimSpace(entry)
			r := phraseRule{c: p.c, lang: p.lang}
			if strings.HasPrefix(entry, "^") {
				r.notAfterDot = true
				entry = entry[1:]
			}
			if strings.HasSuffix(entry, "*") {
				r.prefixLast = true
				entry = strings.TrimSuffix(entry, "*")
			}
			for _, tk := range lexLine(entry, nil) {
				r.toks = append(r.toks, entry[tk.start:tk.end])
			}
			r.label = strings.TrimRight(entry, "(")
			t.phrases[r.toks[0]] = append(t.phrases[r.toks[0]], r)
		}
	}
	return t
}

// A span is a byte range of a line.
type span struct{ start, end int }

// lexLine appends the tokens of line to toks: identifier runs (letters,
// digits, underscore and any non-ASCII byte) and single punctuation bytes.
func lexLine(line string, toks []span) []span {
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case isIdentByte(c):
			j := i + 1
			for j < len(line) && isIdentByte(line[j]) {
				j++
			}
			toks = append(toks, span{i, j})
			i = j
		default:
			toks = append(toks, span{i, i + 1})
			i++
		}
	}
	return toks
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// splitSubwords appends the subwords of the identifier s[start:end]: it
// splits at underscores, before an upper-case letter that follows a
// lower-case letter or digit, and before the last capital of an acronym
// that runs into a word ("HTTPServer" → HTTP, Server). Digits stay with the
// letters before them ("sha256", "oauth2").
func splitSubwords(s string, start, end int, out []span) []span {
	i := start
	for i < end {
		for i < end && s[i] == '_' {
			i++
		}
		if i >= end {
			break
		}
		j := i + 1
		for j < end && s[j] != '_' {
			prev, c := s[j-1], s[j]
			if isUpper(c) && (isLower(prev) || prev >= '0' && prev <= '9') {
				break
			}
			if isUpper(prev) && isUpper(c) && j+1 < end && isLower(s[j+1]) {
				break
			}
			j++
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

// A hit is one matched cue: its category, what matched, and the line it
// matched on (0 for the path).
type hit struct {
	c     cat
	label string
	line  int
}

// scanner matches cues; it reuses its buffers between lines and is not
// safe for concurrent use.
type scanner struct {
	toks  []span
	words []span
	lower []byte
}

// scanPath returns the path cues of p: its directory and file names split
// into subwords.
func (sc *scanner) scanPath(p string) []hit {
	sc.lower = appendLower(sc.lower[:0], p)
	sc.words = sc.words[:0]
	sc.toks = lexLine(p, sc.toks[:0])
	for _, t := range sc.toks {
		if isIdentByte(p[t.start]) {
			sc.words = splitSubwords(p, t.start, t.end, sc.words)
		}
	}
	return sc.matchWords(nil, inPath, 0)
}

// scanLine appends to hits the cues of one added line. scope selects the
// word cues (inCode or inManifest); phrases apply to code only. Trailing
// comments and URLs carry no cue; prose in string literals (a message, a
// description) carries no word cue, though its SQL still counts.
func (sc *scanner) scanLine(hits []hit, line string, n int, s scope, lang review.Language) []hit {
	code := maskLine(line, lang, false)
	words := maskLine(code, lang, true)
	sc.toks = lexLine(words, sc.toks[:0])
	sc.lower = appendLower(sc.lower[:0], words)
	sc.words = sc.words[:0]
	for _, t := range sc.toks {
		if isIdentByte(words[t.start]) {
			sc.words = splitSubwords(words, t.start, t.end, sc.words)
		}
	}
	hits = sc.matchWords(hits, s, n)
	if s != inCode {
		return hits
	}
	if words != code {
		sc.toks = lexLine(code, sc.toks[:0])
	}
	line = code
	hits = matchPhrases(hits, line, sc.toks, n, lang)
	if lang == review.LangSQL {
		// SQL keywords are case-insensitive and the phrases are written in
		// upper case, so match the upper-cased line too (hits are deduped
		// per file).
		hits = matchPhrases(hits, asciiUpper(line), sc.toks, n, lang)
	}
	if lang == review.LangGo && len(sc.toks) > 1 && line[sc.toks[0].start:sc.toks[0].end] == "go" && isIdentByte(line[sc.toks[1].start]) {
		hits = append(hits, hit{catConcurrency, "go statement", n})
	}
	return hits
}

func matchPhrases(hits []hit, line string, toks []span, n int, lang review.Language) []hit {
	for i, t := range toks {
		for _, r := range cues.phrases[line[t.start:t.end]] {
			if r.lang != review.LangUnknown && r.lang != lang {
				continue
			}
			if r.notAfterDot && i > 0 && line[toks[i-1].start] == '.' {
				continue
			}
			if matchTokens(line, toks[i:], r) {
				hits = append(hits, hit{r.c, r.label, n})
			}
		}
	}
	return sqlPairs(hits, line, toks, n)
}

func matchTokens(line string, toks []span, r phraseRule) bool {
	if len(toks) < len(r.toks) {
		return false
	}
	last := len(r.toks) - 1
	for k, want := range r.toks {
		got := line[toks[k].start:toks[k].end]
		if k == last && r.prefixLast {
			if !strings.HasPrefix(got, want) {
				return false
			}
			continue
		}
		if got != want {
			return false
		}
	}
	return true
}

// sqlPairs recognises SELECT … FROM and UPDATE … SET, which are
// persistence only as a pair (alone they are ordinary words).
func sqlPairs(hits []hit, line string, toks []span, n int) []hit {
	var sel, upd bool
	for _, t := range toks {
		switch line[t.start:t.end] {
		case "SELECT":
			sel = true
		case "UPDATE":
			upd = true
		case "FROM":
			if sel {
				hits = append(hits, hit{catPersistence, "SELECT … FROM", n})
				sel = false
			}
		case "SET":
			if upd {
				hits = append(hits, hit{catPersistence, "UPDATE … SET", n})
				upd = false
			}
		}
	}
	return hits
}

func (sc *scanner) matchWords(hits []hit, s scope, n int) []hit {
	for i, w := range sc.words {
		for _, r := range cues.words[string(sc.lower[w.start:w.end])] {
			if r.s&s == 0 || i+len(r.seq) > len(sc.words) {
				continue
			}
			ok := true
			for k := 1; k < len(r.seq); k++ {
				nw := sc.words[i+k]
				if string(sc.lower[nw.start:nw.end]) != r.seq[k] {
					ok = false
					break
				}
			}
			if ok {
				hits = append(hits, hit{r.c, r.label, n})
			}
		}
	}
	return hits
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// asciiUpper upper-cases the ASCII letters of s only, so token spans of s
// stay valid in the result.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if isLower(c) {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// maskLine blanks out (with spaces, keeping byte offsets) what is not code
// in an added line: a trailing comment, URLs, and, when prose is set, the
// content of string literals that hold a space and the unquoted prose
// values of YAML, TOML and INI keys. It returns line itself when nothing
// is masked.
func maskLine(line string, lang review.Language, prose bool) string {
	var b []byte
	blank := func(from, to int) {
		if b == nil {
			b = []byte(line)
		}
		for k := from; k < to; k++ {
			b[k] = ' '
		}
	}
	k := commentSyntax(lang)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := closingQuote(line, i)
			if j < 0 {
				continue // an apostrophe, a Rust lifetime: not a string
			}
			if prose && strings.IndexByte(line[i+1:j], ' ') >= 0 {
				blank(i+1, j)
			}
			i = j
		case k&slashComments != 0 && c == '/' && i+1 < len(line) && line[i+1] == '/',
			k&hashComments != 0 && c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'),
			k&dashComments != 0 && c == '-' && i+1 < len(line) && line[i+1] == '-':
			blank(i, len(line))
			i = len(line)
		case k&slashComments != 0 && c == '/' && i+1 < len(line) && line[i+1] == '*':
			end := strings.Index(line[i+2:], "*/")
			if end < 0 {
				blank(i, len(line))
				i = len(line)
			} else {
				blank(i, i+2+end+2)
				i += 2 + end + 1
			}
		}
	}
	// URLs, in strings or not: "https://example.com/auth" is no auth code.
	for off := 0; ; {
		i := strings.Index(line[off:], "://")
		if i < 0 {
			break
		}
		i += off
		from := i
		for from > 0 && isIdentByte(line[from-1]) {
			from--
		}
		to := i + 3
		for to < len(line) && !strings.ContainsRune(" \t\"'`()<>[]", rune(line[to])) {
			to++
		}
		blank(from, to)
		off = to
	}
	if prose {
		switch lang {
		case review.LangYAML, review.LangActions, review.LangTOML, review.LangUnknown:
			maskProseValue(line, blank)
		}
	}
	if b == nil {
		return line
	}
	return string(b)
}

// maskProseValue blanks the unquoted value of a "key: value" or
// "key = value" line when the value is prose (holds a space).
func maskProseValue(line string, blank func(from, to int)) {
	i := strings.Index(line, ": ")
	if j := strings.Index(line, " = "); i < 0 || j >= 0 && j < i {
		i = j
	}
	if i < 0 {
		return
	}
	from := i + 2
	for from < len(line) && line[from] == ' ' {
		from++
	}
	v := line[from:]
	if v == "" || strings.IndexByte(v, ' ') < 0 || strings.ContainsAny(v[:1], "\"'`{[|>&*!") {
		return
	}
	blank(from, len(line))
}

// closingQuote returns the index of the quote that closes the string
// opened at line[i], or -1. Backslash escapes apply to " and '.
func closingQuote(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j
		}
	}
	return -1
}
