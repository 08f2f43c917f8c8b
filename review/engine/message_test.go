package engine

import (
	"fmt"
	"slices"
	"testing"
)

// TestMessageSecrets: a commit message's secrets are found in every line
// git keeps. Comment lines are dropped only when git strips them (an
// edited message, cleanup default or strip, the repository's comment
// string), the scissors line and what follows only in an edited message.
func TestMessageSecrets(t *testing.T) {
	const token = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
	edited := MessageCleanup{Edited: true, Comment: "#"}
	for _, tt := range []struct {
		name string
		msg  string
		c    MessageCleanup
		want []int // lines of the secrets found
	}{
		{"subject", "add " + token + "\n", MessageCleanup{Comment: "#"}, []int{1}},
		{"body, CRLF", "subject\r\n\r\nuse " + token + "\r\n", MessageCleanup{Comment: "#"}, []int{3}},
		{"clean", "subject\n\nbody\n# " + token + "\n", edited, nil},
		// git commit -m "# ..." records the line: only an editor strips it.
		{"comment, not edited", "subject\n# " + token + "\n", MessageCleanup{Comment: "#"}, []int{2}},
		{"comment, edited", "subject\n# " + token + "\n", edited, nil},
		{"comment, edited, whitespace", "subject\n# " + token + "\n", MessageCleanup{Edited: true, Comment: "#", Mode: "whitespace"}, []int{2}},
		{"comment, edited, verbatim", "subject\n# " + token + "\n", MessageCleanup{Edited: true, Comment: "#", Mode: "verbatim"}, []int{2}},
		{"comment, edited, strip", "subject\n# " + token + "\n", MessageCleanup{Edited: true, Comment: "#", Mode: "strip"}, nil},
		{"other comment char", "subject\n; " + token + "\n# " + token + "\n", MessageCleanup{Edited: true, Comment: ";"}, []int{3}},
		{"auto comment char", "subject\n# " + token + "\n", MessageCleanup{Edited: true}, []int{2}},
		{"below the scissors", "subject\n# ------------------------ >8 ------------------------\n+var t = \"" + token + "\"\n", edited, nil},
		{"scissors, not edited", "subject\n# ------------------------ >8 ------------------------\n" + token + "\n", MessageCleanup{Comment: "#"}, []int{3}},
		{"above the scissors", "subject " + token + "\n# ------------------------ >8 ------------------------\n", edited, []int{1}},
	} {
		var got []int
		for _, s := range MessageSecrets(tt.msg, tt.c) {
			if s.Value != token {
				t.Errorf("%s: found %q, want the token", tt.name, s.Value)
			}
			got = append(got, s.Line)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: secrets on lines %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMessageSecretsKinds: the message scan is the secret rules' detector,
// so every kind of credential they know is found in a message.
func TestMessageSecretsKinds(t *testing.T) {
	for _, line := range []string{
		"AWS key AKIAZ7Q2R5T6W3X4Y6B2 for the deploy",
		"slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		"db postgres://app:Zq8vN3xR7tK2mW9p@db.internal.corp:5432/app",
	} {
		if got := MessageSecrets(fmt.Sprintf("subject\n\n%s\n", line), MessageCleanup{Comment: "#"}); len(got) != 1 || got[0].Line != 3 {
			t.Errorf("%q: found %+v, want one secret on line 3", line, got)
		}
	}
}

// TestMessageSecretsKeyBlock: a private key pasted into a message is
// found line by line, each line of key material at its own line.
func TestMessageSecretsKeyBlock(t *testing.T) {
	const (
		l1 = "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oW8vB2K2lqmMoAoGCCqGSM49"
		l2 = "AwEHoUQDQgAEYzp8mR4Ek3QvT7rN1sLdW2eH9kXcJ0uV6aB5yZ3fGhPqLmNsTtUv"
	)
	msg := "subject\n\n-----BEGIN EC PRIVATE KEY-----\n" + l1 + "\n" + l2 + "\n-----END EC PRIVATE KEY-----\n"
	got := MessageSecrets(msg, MessageCleanup{Comment: "#"})
	if want := []MessageSecret{{Line: 4, Value: l1}, {Line: 5, Value: l2}}; !slices.Equal(got, want) {
		t.Errorf("found %+v, want %+v", got, want)
	}
}
