package user

import "strings"

const MAX_RETRY_COUNT = 3 // want "constant MAX_RETRY_COUNT uses ALL_CAPS with underscores"

const default_timeout = 30 // want "constant default_timeout uses underscores"

type UserInfo struct {
	UserId     string   // want "field UserId uses a mixed-case initialism"
	HomeUrl    string   // want "field HomeUrl uses a mixed-case"
	ApiKeys    []string // want "field ApiKeys uses a mixed-case"
	first_name string   // want "field first_name uses underscores"
}

func GetUserId(u UserInfo) string { // want "function GetUserId uses a mixed-case initialism"
	return u.UserId
}

func ServeHttp() {} // want "function ServeHttp"

func Normalize(user_name string) string { // want "parameter user_name uses underscores"
	trimmed_name := strings.TrimSpace(user_name) // want "variable trimmed_name uses underscores"
	return strings.ToLower(trimmed_name)
}

func Lookup(ids []string) map[string]bool {
	seen_ids := map[string]bool{} // want "variable seen_ids"
	for _, id := range ids {
		seen_ids[id] = true
	}
	return seen_ids
}

// Near misses.

const MaxRetryCount = 3

const EOF = -1

type client struct {
	userId  string
	baseURL string
}

func (c *client) userID() string { return c.userId }

func parseJSON(b []byte) {}

func Identity(idx int) int {
	_ = idx
	return idx
}

func ServeHTTP() {}

var _ = Identity(0)

func IDs(userIDs []string) []string { return userIDs }

func runtime_procPin() int

func keyword(type_ string) string { return type_ }

const (
	s_IFMT  = 0xf000
	s_IFDIR = 0x4000
)
