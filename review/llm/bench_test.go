package llm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/secret"
)

// BenchmarkBuild builds the requests of a change of 40 Go files, each with
// 20 changed lines among 200, redacted with the detector the engine uses:
// the work the model reviewer adds to a run before anything is sent.
func BenchmarkBuild(b *testing.B) {
	var files []*review.File
	for i := range 40 {
		var src strings.Builder
		for n := range 200 {
			mark := " "
			if n%10 == 0 {
				mark = "+"
			}
			fmt.Fprintf(&src, "%s\tx%d := compute(a, b, %d) // step %d of the pipeline\n", mark, n, n, i)
		}
		files = append(files, llmtest.File(fmt.Sprintf("pkg%02d/file.go", i), src.String()))
	}
	opts := BuildOptions{Model: "m", MaxFindings: 3, Budget: 30000, AnswerTokens: 2048, MaxRequests: 100,
		Redactor: review.NewRedactor(nil).WithDetector(secret.Find), Secrets: secret.Values}
	for b.Loop() {
		if _, err := Build(Change{Files: files}, opts); err != nil {
			b.Fatal(err)
		}
	}
}
