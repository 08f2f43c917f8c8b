package artifacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteWaitsForTheLock holds the writers' lock as another writer
// would, with no time to wait: Write and WriteExtra fail with a clear
// error and change nothing, and succeed once the lock is free.
func TestWriteWaitsForTheLock(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	tracking, err := openTracking(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tracking.Close()
	unlock, err := lockTracking(tracking)
	if err != nil {
		t.Fatal(err)
	}
	saved := lockWait
	lockWait = 0
	defer func() { lockWait = saved }()

	const want = "lock .copilot-tracking/.lock: another reviewls process has been writing the review artifacts for over 0s"
	if _, err := Write(root, res, testOpts); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Write while the lock is held: %v, want %q", err, want)
	}
	rel := ExplanationFile("board-1", "Login")
	if _, err := WriteExtra(root, res.ChangeSet.Target, rel, []byte("x")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("WriteExtra while the lock is held: %v, want %q", err, want)
	}
	if got := tree(t, filepath.Join(root, TrackingDir)); len(got) != 1 || got[0] != lockName {
		t.Errorf("files written while the lock was held: %q", got)
	}

	unlock()
	writeOK(t, root, res)
	if _, err := WriteExtra(root, res.ChangeSet.Target, rel, []byte("x")); err != nil {
		t.Errorf("WriteExtra after unlock: %v", err)
	}
}

// TestLockRefusesNonRegular checks that a lock path that is not a regular
// file (a directory here; a FIFO is refused the same way) is an error,
// not a hang or a lock on the wrong thing.
func TestLockRefusesNonRegular(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, TrackingDir, lockName), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Write(root, interactiveResult(), testOpts)
	if err == nil || !strings.Contains(err.Error(), ".copilot-tracking/.lock") {
		t.Errorf("Write with a directory as the lock: %v, want an error naming .copilot-tracking/.lock", err)
	}
}
