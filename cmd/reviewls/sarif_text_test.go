package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["sarifattext"] = cmdSarifAtText
}

// cmdSarifAtText fails unless every result of a SARIF log that has a
// line starts where the text report puts the same finding: each region's
// path:startLine:startColumn is a "path:line:col: severity rule" line of
// the text, and each carries an endLine.
//
//	sarifattext sarif-file text-file
func cmdSarifAtText(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sarifattext sarif-file text-file")
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine, StartColumn, EndLine int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &log))
	text := ts.ReadFile(args[1])
	n := 0
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		if loc.Region == nil {
			continue
		}
		n++
		at := fmt.Sprintf("%s:%d:%d: ", loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn)
		if !strings.Contains(text, "\n"+at) {
			ts.Fatalf("%s: the SARIF result starts at %s, which the text report does not show:\n%s", r.RuleID, at, text)
		}
		if loc.Region.EndLine < loc.Region.StartLine {
			ts.Fatalf("%s: the SARIF result at %s has no endLine", r.RuleID, at)
		}
	}
	if n == 0 {
		ts.Fatalf("%s: no result with a region", args[0])
	}
}
