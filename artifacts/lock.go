package artifacts

import (
	"fmt"
	"os"
	"time"
)

// lockName is the writers' lock file inside TrackingDir.
const lockName = ".lock"

// lockWait bounds how long a writer waits for another one. A write takes
// milliseconds (a second for a diff of many megabytes), so a writer that
// holds the lock for ten seconds is stuck, and a pre-commit hook must not
// hang behind it. A variable for tests.
var lockWait = 10 * time.Second

// lockTracking takes the writers' lock of the tracking folder r. Every
// Write and WriteExtra, of the CLI and of the server alike, holds it while
// it changes the folder, so writers take turns: none removes another's
// temporary files, and a review folder is never a mix of two reviews. It
// waits up to lockWait for another writer. The lock is an advisory file
// lock that the system drops when the file is closed or its process dies,
// so a crash never leaves the folder locked. The caller must call unlock.
func lockTracking(r *os.Root) (unlock func(), err error) {
	name := TrackingDir + "/" + lockName
	f, err := r.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", name, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", name)
	}
	deadline := time.Now().Add(lockWait)
	for delay := time.Millisecond; err == nil; delay = min(2*delay, 50*time.Millisecond) {
		var busy bool
		if busy, err = tryLock(f); err != nil {
			err = fmt.Errorf("lock %s: %w", name, err)
			break
		}
		if !busy {
			return func() { f.Close() }, nil
		}
		if time.Now().After(deadline) {
			err = fmt.Errorf("lock %s: another reviewls process has been writing the review artifacts for over %s", name, lockWait)
			break
		}
		time.Sleep(delay)
	}
	f.Close()
	return nil, err
}
