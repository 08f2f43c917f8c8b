// Package risk is step 3 of the review pipeline: the Tier 0 change-risk
// assessment of a [review.ChangeSet] (hve-spec §3, §4, §5, §7.3). [Assess]
// returns a [review.Risk]: a factual change brief, the six change-risk
// evidence entries, an advisory recommended depth with its reason, a scope
// tier, hotspots, specialist signals and a per-file risk class. It never
// computes a score or a defect probability, and every statement names the
// files and lines it rests on, so a human can check and correct it.
//
// # Inputs and bounds
//
// Assess works on the change set in memory: paths, statuses, hunks and the
// added lines (Content and Lines). Cues come from paths and ADDED lines
// only; unchanged code and whole-line comments carry none. On disk it stats
// only the conventional test paths of each changed source file (at most six
// each), the coverage profile candidates and, when a profile exists, the
// changed files (for staleness); it reads only coverage profiles (at most
// maxProfileSize) and the root go.mod. It never walks or lists a
// directory, so it is cheap enough to run on every save (about a
// millisecond for a 20-file change). The same inputs and files on disk
// give the same output, and Assess is safe for concurrent use: the cue
// tables are built once and never modified.
//
// # Evidence (one entry per signal, in review.AllSignals order)
//
//   - change-scope, observed: exact counts of files, directories, top-level
//     areas, statuses, added and deleted lines of reviewed files, skipped
//     files with their reasons, and which changes are behaviour-changing,
//     tests, documentation or mechanical (rename only, whitespace only,
//     comments only, no content change). Mechanical detection errs towards
//     "may change behaviour": Go directives, shebangs and migration-tool
//     annotations are code.
//   - path-criticality, observed: derived from the diff with the §7.3
//     classes, naming each High and Medium file with the cue that put it
//     there; "no critical path touched" is an observation too.
//   - history, observed from [review.History]: how many of the examined
//     commits touch the changed paths (renames follow their old path), the
//     most-churned changed files and files often changed with them, as
//     attention cues only, never as evidence of defects; "no prior commits
//     touch these paths in the last N commits" when none do. Unavailable
//     when hist is nil or not Available, with its reason (unborn HEAD,
//     shallow clone, unreadable).
//   - test-presence, observed: the changed test files
//     ([review.IsTestPath]); for each behaviour-changing source file, a
//     test by convention in the change or on disk (see testCandidates; a
//     changed _test.go of the same Go package counts; Rust's inline
//     #[cfg(test)] counts), none, or "not checked" when the language has no
//     convention or the work tree is unknown. Presence is not effectiveness.
//   - coverage, observed only when a profile exists: Go cover profiles
//     ("mode:" header) and LCOV reports (SF:/DA: records) are parsed by
//     content, whatever their name; the entry reports the share of
//     statements (Go) or lines (LCOV) on changed lines that ran, the
//     whole-file share, files under coverageWeak, changed source files the
//     profile does not list, and a staleness note when the profile is older
//     than changed files of its languages. Otherwise unavailable: "no
//     coverage profile (coverage.out, lcov.info) found", or the reason a
//     profile could not be used.
//   - rollback: observed when the change shows hard-to-reverse markers
//     (files under migrations/, db/migrate/, alembic/versions/, Flyway
//     scripts, *.up.sql; schema definitions such as schema.sql and
//     schema.prisma; ALTER TABLE, DROP …, TRUNCATE, RENAME COLUMN and ORM
//     schema operations in added lines; in .sql files also DELETE FROM) or
//     reversal evidence (feature-flag cues, down migrations). Qualitative
//     otherwise: "reverts with the change" is then a judgement from the
//     file kinds. Data format definitions (.proto, .avsc, .thrift, …) are
//     noted as possibly hard to reverse, qualitatively. Irreversible
//     configuration (retention, key rotation) is not detected.
//
// # Recommended depth (§3.4)
//
// The comprehensive triggers are: a critical path (a behaviour-changing
// High file, backed by path-criticality); broad behavioural spread
// (behaviour-changing product files in more than broadMaxAreas top-level
// areas or over spreadMinLines lines, backed by change-scope); weak
// detection for important logic (a High or Medium source file with no test
// found, or a fresh profile covering its changed code below coverageWeak);
// hard rollback (observed markers; a data format change is a qualitative
// trigger); and material ambiguity (a source file listed but not reviewed,
// such as one over the size cap). The evaluation order is:
//
//  1. an observed trigger → comprehensive;
//  2. an unavailable entry (history, coverage) or a stale coverage profile
//     → standard: missing evidence never escalates by itself;
//  3. a qualitative trigger → comprehensive;
//  4. narrow (TRIVIAL or LOCAL), reversible (no rollback marker), tested
//     (every behaviour-changing source file has a test and at least
//     coverageGood of its changed code covered) and non-critical → basic;
//  5. otherwise standard, naming what kept it from basic.
//
// Churn never enters the decision. Incomplete is set when any entry is
// unavailable.
//
// # Scope tier
//
// HIGH_RISK: a behaviour-changing High file or a hard-to-reverse marker.
// TRIVIAL: no hotspot, supply-chain file, unreadable source or rollback
// marker, and either no behaviour change (docs, comments, whitespace,
// renames) or at most trivialMaxFiles file with at most trivialMaxLines
// changed lines. BROAD: more than broadMaxAreas top-level areas (docs
// aside), more than broadMinLines changed lines, broadMinFiles files or
// more, or a dependency manifest or lockfile. LOCAL: the rest.
//
// # Hotspots and file risk
//
// A hotspot class (auth, crypto, parsing, deserialization, persistence,
// secrets, networking, concurrency) fires on a word of the path (directory
// and file names) or a cue in an added line. Words are compared whole after
// splitting identifiers at underscores and camelCase boundaries, so
// "userPassword" holds "password" but "tokenizer" holds no "token" and
// "parseInt" no parser; some words count only in paths ("token", "store",
// "client", "sync", "parse", "sql") because in code they are too common.
// Trailing comments and URLs carry no cue, and prose in string literals
// (messages, descriptions, unquoted YAML values) carries no word cue. Library
// and call cues (crypto/…, json.Unmarshal, yaml.load, pickle, url.Parse,
// fetch(, requests., database/sql, INSERT INTO, SELECT … FROM, sync.Mutex,
// go statements, chan, Lock() …) are matched on tokens, never substrings.
// Value conversions such as parseInt and strconv.Atoi are not parsing.
// Tests, documentation, manifests and lockfiles are not hotspots. Classes
// are listed in that canonical order, hotspots sorted by path. File risk
// follows §7.3, see fileRisk.
//
// # Specialist signals
//
// security (auth, crypto, secrets, parsing, deserialization hotspots),
// supply-chain (dependency manifests, lockfiles even when skipped,
// Dockerfiles and compose files, CI workflows, build config), ai (LLM and
// model SDKs in code or manifests, prompt files), accessibility (markup,
// stylesheets, templates), efficiency (sleep or database call inside a
// loop, polling, cron and batch jobs) and privacy (personal-data fields in
// added lines, and such a field in a log call) are reported only when
// their signals fire.
package risk
