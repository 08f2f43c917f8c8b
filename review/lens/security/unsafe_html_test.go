package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestUnsafeHTMLStories checks that stories, like tests, render fixtures:
// the same markup in a component is reported.
func TestUnsafeHTMLStories(t *testing.T) {
	const src = "export const Raw = () => <div dangerouslySetInnerHTML={{ __html: props.html }} />;\n"
	if got := lenstest.Check(t, UnsafeHTML, lenstest.NewFile("src/Raw.tsx", []byte(src)), 0, nil); len(got) != 1 {
		t.Fatalf("component: got %d findings, want 1", len(got))
	}
	for _, p := range []string{"src/Raw.stories.tsx", ".storybook/Raw.tsx", "e2e/raw.tsx"} {
		if got := lenstest.Check(t, UnsafeHTML, lenstest.NewFile(p, []byte(src)), 0, nil); len(got) != 0 {
			t.Errorf("%s: got %+v, want nothing", p, got)
		}
	}
}
