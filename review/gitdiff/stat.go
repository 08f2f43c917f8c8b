package gitdiff

import "io/fs"

// stat is the part of a file's metadata that git records in an index entry
// and compares to tell whether a file may have changed.
type stat struct {
	size                int64
	mode                fs.FileMode
	mtimeSec, mtimeNsec uint32
	ctimeSec, ctimeNsec uint32
	ino                 uint32
	hasCtime            bool // the platform reports ctime and inode
}

// sameTime compares two timestamps as git does: nanoseconds count only when
// the index recorded them (git built without USE_NSEC writes zero).
func sameTime(sec, nsec, esec, ensec uint32) bool {
	return sec == esec && (ensec == 0 || nsec == ensec)
}

// matches reports whether the stat data is what e recorded: if so the file
// is unchanged (unless e is racily clean, see [racy]). Like git, it compares
// size, modification and change times, and the inode number.
func (s *stat) matches(e *entry) bool {
	if uint32(s.size) != e.size || !sameTime(s.mtimeSec, s.mtimeNsec, e.mtimeSec, e.mtimeNsec) {
		return false
	}
	if s.hasCtime {
		if !sameTime(s.ctimeSec, s.ctimeNsec, e.ctimeSec, e.ctimeNsec) {
			return false
		}
		if e.ino != 0 && s.ino != e.ino {
			return false
		}
	}
	return true
}

// racy reports whether e was recorded no earlier than the index file was
// written: the file may have changed again within the same timestamp, so
// matching stat data proves nothing and the content must be compared.
func racy(e *entry, indexMtime fileID) bool {
	if indexMtime.mtimeSec == 0 {
		return false
	}
	if e.mtimeSec != indexMtime.mtimeSec {
		return e.mtimeSec > indexMtime.mtimeSec
	}
	return e.mtimeNsec >= indexMtime.mtimeNsec
}

// worktreeMode returns the index mode a file of mode m would get, given the
// mode recorded in the index (used when core.fileMode is false, so that the
// executable bit is taken from the index), modeSpecial for a pipe, socket
// or device, or 0 for a directory.
func worktreeMode(m fs.FileMode, fileMode bool, recorded uint32) uint32 {
	switch {
	case m.Type() == fs.ModeSymlink:
		return modeSymlink
	case m.IsRegular():
		if !fileMode {
			if recorded == modeExecutable {
				return modeExecutable
			}
			return modeRegular
		}
		if m&0o100 != 0 {
			return modeExecutable
		}
		return modeRegular
	case !m.IsDir():
		return modeSpecial
	}
	return 0
}

// fileID identifies a version of a file cheaply: when it changes the file
// was rewritten.
type fileID struct {
	size                int64
	mtimeSec, mtimeNsec uint32
	ctimeSec, ctimeNsec uint32
	ino                 uint32
}

func (s stat) id() fileID {
	return fileID{
		size:     s.size,
		mtimeSec: s.mtimeSec, mtimeNsec: s.mtimeNsec,
		ctimeSec: s.ctimeSec, ctimeNsec: s.ctimeNsec,
		ino: s.ino,
	}
}
