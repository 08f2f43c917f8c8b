package security

import (
	"github.com/reviewls/reviewls/review"
)

// shellLangs are the languages whose lines hold shell commands: scripts,
// Dockerfile RUN instructions, workflow run steps and Makefile recipes.
var shellLangs = []review.Language{review.LangShell, review.LangDockerfile, review.LangActions, review.LangMakefile}
