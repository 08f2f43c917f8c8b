package auth

import "testing"

func TestAssert(t *testing.T) {
	var x any = 1
	_ = x.(int)
}
