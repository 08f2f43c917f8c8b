package artifacts

import "testing"

// TestAdvisoryNote checks the verdict's note on the model findings it
// leaves out: one, several, and none once the model review is blocking.
func TestAdvisoryNote(t *testing.T) {
	res := modelResult()
	if got, want := newView(res, Options{}).advisoryNote(), " (1 model finding is advisory: it counts only with model.blocking)"; got != want {
		t.Errorf("one: %q, want %q", got, want)
	}
	for _, f := range res.Findings {
		if f.Model != "" {
			second := *f
			second.Span.StartLine++
			res.Findings = append(res.Findings, &second)
			break
		}
	}
	if got, want := newView(res, Options{}).advisoryNote(), " (2 model findings are advisory: they count only with model.blocking)"; got != want {
		t.Errorf("two: %q, want %q", got, want)
	}
	res.Model.Blocking = true
	if got := newView(res, Options{}).advisoryNote(); got != "" {
		t.Errorf("blocking: %q, want none", got)
	}
}
