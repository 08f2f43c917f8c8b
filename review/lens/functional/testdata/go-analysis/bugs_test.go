package bugs

import "testing"

func TestReport(t *testing.T) {
	go func() {
		t.Fatal("boom") // want "testinggoroutine: call to \(\*testing.T\).Fatal from a non-test goroutine"
	}()
}
