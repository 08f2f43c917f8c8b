package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"review", "rules", "board", "baseline", "staged", "log-level"}
	for typed, want := range map[string]string{
		"reveiw":   "review", // a transposition is two edits
		"rulez":    "rules",
		"rev":      "review", // a prefix of three letters
		"stagd":    "staged",
		"log-levl": "log-level",
		"Board":    "board",
		"xy":       "",
		"frobnify": "",
		"b":        "",
	} {
		if got := Closest(typed, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", typed, got, want)
		}
	}
}
