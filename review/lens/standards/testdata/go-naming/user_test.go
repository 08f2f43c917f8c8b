package user

import "testing"

func TestGetUserId_empty(t *testing.T) {}

func ExampleUserInfo_name() {}

func Test_lookup(t *testing.T) {
	some_value := 1 // want "variable some_value"
	_ = some_value
}
