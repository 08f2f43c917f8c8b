// Copyright 2026 The Authors.
// Licensed under the Apache License, Version 2.0;
// you may not use this file except in compliance with the License.
// x := compute();
package retry

import "time"

// Do calls f until it succeeds.
func Do(f func() error) error {
	// for i := 0; i < 3; i++ { // want "Commented-out code"
	// 	if err := f(); err == nil {
	// 		return nil
	// 	}
	// }
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Near misses: none of these is reported.

// Backoff returns the delay before attempt n. For example:
//
//	d := Backoff(3)
//	time.Sleep(d)
//	fmt.Println(d)
func Backoff(n int) time.Duration {
	// The delay doubles with each attempt, up to a minute, so that a
	// flapping service gets time to recover before the next call; see
	// the retry section of the design document.
	d := time.Second << n
	// d = min(d, time.Minute)
	// return d
	return min(d, time.Minute)
}

// Example usage:
// r := New();
// r.Do(work);
// r.Close();
func New() {}
