package gitdiff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Work tree content is compared with blobs after git's "clean" conversion
// (convert_to_git in git's convert.c), which is what `git add` would
// store: end-of-line conversion (core.autocrlf and the text, crlf and eol
// attributes) and the ident attribute. core.eol and the eol attribute's
// CRLF only decide what a checkout writes, so they matter here only in
// that eol=lf|crlf makes a path text. Filter drivers are never run: a path
// with a configured filter is listed with a skip reason, and its status is
// decided without running the filter where git-lfs's clean filter is
// concerned (the pointer it would write is computed) and on the raw
// content otherwise. working-tree-encoding is not converted either; such
// paths are listed with a skip reason.

// crlfAction is what end-of-line conversion does when content is checked in.
type crlfAction uint8

const (
	crlfNone crlfAction = iota // binary, or no conversion configured
	crlfText                   // text: every CRLF becomes LF
	crlfAuto                   // text=auto, core.autocrlf: CRLF becomes LF in text files not committed with CRLF
)

// conversion is how git turns the work tree content of one path into the
// blob it stores, and what the attributes say about diffing it. The zero
// value changes nothing. It is comparable.
type conversion struct {
	crlf  crlfAction
	ident bool
	// filter names the filter driver of the path when the configuration
	// defines it (a clean, smudge or process command); cleans reports a
	// clean or process command, which git runs when checking in.
	filter string
	cleans bool
	// encoding is the working-tree-encoding attribute.
	encoding string
	// diff is the diff attribute: unset ("-diff", "binary") diffs the path
	// as binary, set as text.
	diff attrKind
}

// identity reports whether checking the content in stores it unchanged.
func (c conversion) identity() bool {
	return c.crlf == crlfNone && !c.ident && !c.cleans && c.encoding == ""
}

// converter decides the conversion of the paths of one work tree. It is
// safe for concurrent use.
type converter struct {
	cfg      *gitConfig
	autocrlf string // "true", "input", or "" for false
	attrs    *attributes
}

func newConverter(cfg *gitConfig, attrs *attributes) *converter {
	cv := &converter{cfg: cfg, attrs: attrs}
	if cfg.has("core", "autocrlf") {
		switch v := cfg.get("core", "autocrlf"); {
		case strings.EqualFold(strings.TrimSpace(v), "input"):
			cv.autocrlf = "input"
		case isTrue(v):
			cv.autocrlf = "true"
		}
	}
	return cv
}

// of returns the conversion of the file at the repo-relative path rel, as
// git's convert_attrs decides it.
func (cv *converter) of(rel string) conversion {
	a := cv.attrs.lookup(rel)
	var c conversion
	act, defined := crlfAttr(a.text)
	if !defined {
		act, defined = crlfAttr(a.crlf)
	}
	if !(defined && act == crlfNone) && (a.eol.is("lf") || a.eol.is("crlf")) {
		// eol=lf|crlf makes a path text (and text=auto stays auto).
		if act != crlfAuto {
			act = crlfText
		}
		defined = true
	}
	if !defined && cv.autocrlf != "" {
		act = crlfAuto
	}
	c.crlf = act
	c.ident = a.ident.kind == attrSet
	c.diff = a.diff.kind
	if a.encoding.kind == attrString && a.encoding.value != "" {
		c.encoding = a.encoding.value
	}
	if a.filter.kind == attrString {
		name := a.filter.value
		clean := cv.cfg.getSub("filter", name, "clean") != "" || cv.cfg.getSub("filter", name, "process") != ""
		if clean || cv.cfg.getSub("filter", name, "smudge") != "" {
			c.filter, c.cleans = name, clean
		}
	}
	return c
}

// crlfAttr reads the text (or crlf) attribute: the action, and whether
// the attribute decides one.
func crlfAttr(v attrValue) (crlfAction, bool) {
	switch {
	case v.kind == attrSet, v.is("input"):
		return crlfText, true
	case v.kind == attrUnset:
		return crlfNone, true
	case v.is("auto"):
		return crlfAuto, true
	}
	return crlfNone, false
}

// textStats counts what git's gather_stats counts to tell text from binary.
type textStats struct {
	nul, loneCR, crlf, printable, nonPrintable int
}

func gatherStats(data []byte) textStats {
	var s textStats
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
		case c == '\n':
		case c == 127:
			s.nonPrintable++
		case c < 32:
			switch c {
			case '\b', '\t', '\033', '\014':
				s.printable++
			case 0:
				s.nul++
				s.nonPrintable++
			default:
				s.nonPrintable++
			}
		default:
			s.printable++
		}
	}
	// A trailing ^Z (DOS end of file) does not count.
	if len(data) > 0 && data[len(data)-1] == '\032' {
		s.nonPrintable--
	}
	return s
}

// binary is git's convert_is_binary: what text=auto takes for binary.
func (s textStats) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || s.printable>>7 < s.nonPrintable
}

// hasTextCRLF reports whether blob data holds CRLF and is text, as git's
// has_crlf_in_index asks of the index version of a path.
func hasTextCRLF(data []byte) bool {
	if bytes.IndexByte(data, '\r') < 0 {
		return false
	}
	s := gatherStats(data)
	return s.crlf > 0 && !s.binary()
}

// clean returns data as git would store it (data itself when nothing
// changes). indexCRLF reports whether the index version of the path holds
// CRLF; it is called only for text=auto content that has CRLF. Filters and
// working-tree-encoding are not applied.
func (c conversion) clean(data []byte, indexCRLF func() bool) []byte {
	if c.crlf != crlfNone && bytes.IndexByte(data, '\r') >= 0 {
		s := gatherStats(data)
		convert := s.crlf > 0
		if convert && c.crlf == crlfAuto && (s.binary() || indexCRLF()) {
			// git leaves binary files alone, and files committed with
			// CRLF stay so.
			convert = false
		}
		if convert {
			data = stripCR(data, c.crlf == crlfAuto)
		}
	}
	if c.ident {
		data = identToGit(data)
	}
	return data
}

// stripCR removes the CR of each CRLF, or every CR when all is set (text
// auto-detected as such has no lone CR).
func stripCR(data []byte, all bool) []byte {
	out := make([]byte, 0, len(data))
	for i, c := range data {
		if c == '\r' && (all || i+1 < len(data) && data[i+1] == '\n') {
			continue
		}
		out = append(out, c)
	}
	return out
}

// identToGit collapses each "$Id: ... $" (on one line) to "$Id$", as git's
// ident_to_git does.
func identToGit(data []byte) []byte {
	if !bytes.Contains(data, []byte("$Id:")) {
		return data
	}
	out := make([]byte, 0, len(data))
	src := data
	for {
		d := bytes.IndexByte(src, '$')
		if d < 0 {
			break
		}
		out = append(out, src[:d+1]...)
		src = src[d+1:]
		if len(src) > 3 && string(src[:3]) == "Id:" {
			end := bytes.IndexByte(src[3:], '$')
			if end < 0 {
				break
			}
			if bytes.IndexByte(src[3:3+end], '\n') >= 0 {
				continue // a line break before the closing '$'
			}
			out = append(out, "Id$"...)
			src = src[3+end+1:]
		}
	}
	return append(out, src...)
}

// Git LFS pointer files (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md).
const (
	lfsVersion    = "version https://git-lfs.github.com/spec/v1\n"
	lfsOldVersion = "version https://hawser.github.com/spec/v1\n"
	// lfsMaxPointer bounds the size of a pointer file.
	lfsMaxPointer = 1024
)

// isLFSPointer reports whether data is a Git LFS pointer file.
func isLFSPointer(data []byte) bool {
	_, _, ok := parseLFSPointer(data)
	return ok
}

// parseLFSPointer returns the sha256 and size recorded in a Git LFS
// pointer file.
func parseLFSPointer(data []byte) (oid string, size int64, ok bool) {
	if len(data) >= lfsMaxPointer || !(bytes.HasPrefix(data, []byte(lfsVersion)) || bytes.HasPrefix(data, []byte(lfsOldVersion))) {
		return "", 0, false
	}
	size = -1
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:] {
		key, value, found := strings.Cut(line, " ")
		switch {
		case !found:
			return "", 0, false
		case key == "oid":
			h, isSHA := strings.CutPrefix(value, "sha256:")
			if !isSHA || len(h) != 64 {
				return "", 0, false
			}
			if _, err := hex.DecodeString(h); err != nil {
				return "", 0, false
			}
			oid = h
		case key == "size":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 0 {
				return "", 0, false
			}
			size = n
		}
	}
	return oid, size, oid != "" && size >= 0
}

// lfsClean returns the blob git-lfs's clean filter stores for content
// read from r: the content itself when it is a pointer already, else the
// pointer to it.
func lfsClean(r io.Reader) ([]byte, error) {
	head := make([]byte, lfsMaxPointer)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		if isLFSPointer(head) {
			return head, nil
		}
	} else if err != nil {
		return nil, err
	}
	d := sha256.New()
	d.Write(head)
	m, err := io.Copy(d, r)
	if err != nil {
		return nil, err
	}
	return []byte(lfsVersion + "oid sha256:" + hex.EncodeToString(d.Sum(nil)) + "\nsize " + strconv.FormatInt(int64(n)+m, 10) + "\n"), nil
}

// cleanContent returns the work tree content data of path rel as git
// would store it after conversion conv. The clean filter of a driver other
// than git-lfs's is not run: the content is taken as it is.
func (st *state) cleanContent(rel string, data []byte, conv conversion) []byte {
	if conv.cleans && st.lfsFilter(rel, conv) {
		p, _ := lfsClean(bytes.NewReader(data))
		return p
	}
	return conv.clean(data, func() bool { return st.indexCRLF(rel) })
}

// cleanHash returns the blob hash of [state.cleanContent].
func (st *state) cleanHash(rel string, data []byte, conv conversion) plumbing.Hash {
	return hashObject(plumbing.BlobObject, st.cleanContent(rel, data, conv))
}

// lfsFilter reports whether the clean filter of path rel is git-lfs's: the
// driver is called lfs, or the index holds a Git LFS pointer.
func (st *state) lfsFilter(rel string, conv conversion) bool {
	if conv.filter == "lfs" {
		return true
	}
	v, ok := st.indexBlob(rel)
	if !ok {
		return false
	}
	if n, err := st.repo.blobSize(v); err != nil || n >= lfsMaxPointer {
		return false
	}
	data, err := st.repo.readBlob(v)
	return err == nil && isLFSPointer(data)
}

// indexCRLF reports whether the index version of path rel is text with
// CRLF (git's has_crlf_in_index).
func (st *state) indexCRLF(rel string) bool {
	v, ok := st.indexBlob(rel)
	if !ok {
		return false
	}
	data, err := st.repo.readBlob(v)
	return err == nil && hasTextCRLF(data)
}

// indexBlob returns the blob the index holds for path rel, as git's
// read_blob_data_from_index finds it: the entry of stage 0, or during a
// merge the one of stage 2 (ours).
func (st *state) indexBlob(rel string) (version, bool) {
	i, ok := st.idx.find(rel)
	if !ok {
		return version{}, false
	}
	for ; i < len(st.idx.entries) && st.idx.entries[i].name == rel; i++ {
		if e := &st.idx.entries[i]; e.stage == 0 || e.stage == 2 {
			if e.mode == modeGitlink || e.intentAdd {
				return version{}, false
			}
			return version{hash: e.hash, mode: e.mode}, true
		}
	}
	return version{}, false
}
