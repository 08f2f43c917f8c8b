package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// CurlPipeShell finds downloaded scripts run without verification.
var CurlPipeShell = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/curl-pipe-shell",
		Perspective: review.Security,
		Category:    CatData,
		Severity:    review.SeverityMedium,
		Languages:   shellLangs,
		Depth:       review.DepthBasic,
		Skill:       "CWE-494",
		Summary:     "Downloaded script piped into a shell",
		Doc: "`curl ... | sh`, `wget -O- ... | bash`, `bash <(curl ...)` and `sh -c \"$(curl ...)\"` run whatever the server " +
			"returns at that moment, with no integrity check: a compromised or hijacked download host, a changed script " +
			"or a truncated transfer runs arbitrary code in the build, the image or the CI job (with its secrets). " +
			"Download to a file, verify a pinned checksum or signature (`echo \"<sha256>  install.sh\" | sha256sum -c`), " +
			"then run it, or install from a package manager. Checked in shell scripts, Dockerfile RUN instructions, " +
			"workflow run steps and Makefiles; downloads piped to other tools (tar, jq, sha256sum) and comments are " +
			"not reported.",
		Bad:  "RUN curl -fsSL https://example.com/install.sh | sh",
		Good: "RUN curl -fsSLo install.sh https://example.com/install.sh \\\n && echo \"<sha256>  install.sh\" | sha256sum -c - \\\n && sh install.sh",
	},
	Run: runCurlPipeShell,
}

var curlPipeRE = regexp.MustCompile(`\b(?:curl|wget)\b[^;&]*?\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:\w+=\S*\s+)*(?:/usr/bin/|/bin/|/usr/local/bin/)?((?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node)\b` +
	`|\b((?:ba|z|da|k)?sh)\s+(?:-\S+\s+)*(?:<\(\s*|-c\s+["']?\$\(\s*)(?:curl|wget)\b`)

func runCurlPipeShell(p *lens.Pass) {
	if !p.Contains("curl") && !p.Contains("wget") {
		return
	}
	cmds := syntax.ShellCommands(p.File)
	for i := range cmds {
		c := &cmds[i]
		if !strings.Contains(c.Text, "curl") && !strings.Contains(c.Text, "wget") {
			continue
		}
		m := curlPipeRE.FindStringSubmatchIndex(c.Code)
		if m == nil {
			continue
		}
		// Anchor on the line where the download starts, else on the
		// first changed line of the command.
		line := c.Line(m[0])
		if !p.Changed(line) {
			line = p.FirstChanged(c.Start, c.End)
		}
		if line == 0 {
			continue
		}
		shell := ""
		if m[2] >= 0 {
			shell = c.Text[m[2]:m[3]]
		} else {
			shell = c.Text[m[4]:m[5]]
		}
		p.Report(lens.Report{
			Line: line, EndLine: c.End,
			Message: fmt.Sprintf("`%s` runs a downloaded script in %s without checking it: whoever controls the download "+
				"(a compromised host, a hijacked domain, a changed release) runs arbitrary code here.", lens.Snippet(c.Text[m[0]:m[1]]), shell),
			Suggested: "Download to a file, verify a pinned checksum or signature (echo \"<sha256>  install.sh\" | sha256sum -c -), then run it; or install from a package manager.",
		})
	}
}
