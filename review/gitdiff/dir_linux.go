package gitdiff

import (
	"encoding/binary"
	"io/fs"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory of the work tree. On Linux it is a raw
// descriptor read with getdents64: os.File costs several extra system calls
// per directory (non-blocking mode, poller registration) and an allocation
// per entry, which add up over thousands of directories.
type dirHandle struct {
	fd  int // -1 when the directory is not open
	abs string
	buf *[]byte // the entries' names point into it until close
}

// direntBufSize is the initial getdents64 buffer: large enough for a
// typical directory in one call.
const direntBufSize = 16 << 10

var direntBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, direntBufSize)
	return &b
}}

// openDir opens directory abs and reads its entries, sorted in git's order.
// The entries are valid until the caller closes the handle.
func openDir(abs string) (*dirHandle, []dirent, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	d := &dirHandle{fd: fd, abs: abs, buf: direntBufs.Get().(*[]byte)}
	// Read the whole directory into one buffer, so that names can point
	// into it without a copy each.
	buf := (*d.buf)[:0]
	for {
		if cap(buf)-len(buf) < 4096 {
			buf = append(buf[:cap(buf)], make([]byte, cap(buf))...)[:len(buf)]
		}
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = unix.Getdents(fd, buf[len(buf):cap(buf)])
			return err
		})
		if err != nil {
			*d.buf = buf
			d.close()
			return nil, nil, &fs.PathError{Op: "readdirent", Path: abs, Err: err}
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	*d.buf = buf
	ents := parseDirents(buf, nil, d)
	sortDirents(ents)
	return d, ents, nil
}

// parseDirents appends the entries of a getdents64 buffer, whose records
// are: inode (8 bytes), offset (8), record length (2), type (1), name
// (NUL-terminated). The layout is the same on every Linux architecture.
func parseDirents(b []byte, ents []dirent, d *dirHandle) []dirent {
	if len(b) == 0 {
		return ents
	}
	// Names are substrings of the buffer, which the handle keeps until it
	// is closed.
	s := unsafe.String(&b[0], len(b))
	for off := 0; off+19 <= len(b); {
		reclen := int(binary.NativeEndian.Uint16(b[off+16:]))
		if reclen == 0 || off+reclen > len(b) {
			break
		}
		ino := binary.NativeEndian.Uint64(b[off:])
		typ := b[off+18]
		name := s[off+19 : off+reclen]
		for i := 0; i < len(name); i++ {
			if name[i] == 0 {
				name = name[:i]
				break
			}
		}
		off += reclen
		if ino == 0 || name == "." || name == ".." {
			continue
		}
		var t fs.FileMode
		switch typ {
		case unix.DT_REG:
		case unix.DT_DIR:
			t = fs.ModeDir
		case unix.DT_LNK:
			t = fs.ModeSymlink
		case unix.DT_UNKNOWN:
			// Some file systems do not report types: ask.
			st, err := d.lstat(name)
			if err != nil {
				continue
			}
			t = st.mode.Type()
			if t != 0 && t != fs.ModeDir && t != fs.ModeSymlink {
				t = fs.ModeIrregular
			}
		default:
			t = fs.ModeIrregular
		}
		ents = append(ents, dirent{name: name, typ: t})
	}
	return ents
}

func (d *dirHandle) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
	if d.buf != nil {
		if cap(*d.buf) <= 1<<20 { // do not keep a huge directory's buffer
			direntBufs.Put(d.buf)
		}
		d.buf = nil
	}
}
