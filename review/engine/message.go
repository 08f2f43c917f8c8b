package engine

import (
	"strings"

	"github.com/reviewls/reviewls/review/secret"
)

// MessageCleanup is how git will clean up a commit message before it
// records it, as far as a commit-msg hook can tell; only the lines git
// drops are left out of the secret scan.
type MessageCleanup struct {
	// Edited reports that git opened an editor on the message. git runs
	// the hook with GIT_EDITOR=: when it did not (git commit -m or -F),
	// and then keeps comment lines: `git commit -m "# ..."` records them.
	Edited bool
	// Comment is the comment string of the repository (core.commentChar
	// or core.commentString; "#" by default), "" when git chooses it per
	// message ("auto"): then no line is taken for a comment.
	Comment string
	// Mode is commit.cleanup ("" or "default" when unset).
	Mode string
}

// scissors is the line below which git drops an edited message (git commit
// --verbose puts the diff there), after the comment string and a space.
const scissors = "------------------------ >8 ------------------------"

// MessageSecret is a secret in a commit message: the raw value and its
// 1-based line.
type MessageSecret struct {
	Line  int
	Value string
}

// MessageSecrets returns the secrets in the commit message msg (the file a
// commit-msg hook is given) that git would record: in an edited message,
// everything from the scissors line on is dropped, and so are the comment
// lines when the cleanup mode strips them (default and strip). A secret
// in a line git keeps is never let through.
func MessageSecrets(msg string, c MessageCleanup) []MessageSecret {
	stripComments := c.Edited && c.Comment != "" && (c.Mode == "" || c.Mode == "default" || c.Mode == "strip")
	lines := strings.Split(msg, "\n")
	var kept []string
	var nums []int
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if c.Edited && c.Comment != "" && l == c.Comment+" "+scissors {
			break
		}
		if stripComments && strings.HasPrefix(l, c.Comment) {
			continue
		}
		kept = append(kept, l)
		nums = append(nums, i+1)
	}
	var out []MessageSecret
	seen := map[string]bool{}
	for _, v := range secret.Find(strings.Join(kept, "\n")) {
		if seen[v] {
			continue
		}
		seen[v] = true
		// A value lies within one line (a private key's is each line of
		// key material): the first line that holds it places it.
		line := 0
		for i, l := range kept {
			if strings.Contains(l, v) {
				line = nums[i]
				break
			}
		}
		out = append(out, MessageSecret{Line: line, Value: v})
	}
	return out
}
