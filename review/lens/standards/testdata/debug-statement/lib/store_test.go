package store

import (
	"fmt"
	"testing"
)

// Near miss: tests may print.
func TestGet(t *testing.T) {
	fmt.Println("debug")
}
