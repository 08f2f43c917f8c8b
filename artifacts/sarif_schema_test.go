package artifacts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// officialSARIFSchema is the SARIF 2.1.0 JSON Schema as OASIS publishes it
// (errata 01; github.com/oasis-tcs/sarif-spec at e0583813,
// sarif-2.1/schema/sarif-schema-2.1.0.json), compiled with its formats
// asserted. The schema library is a test dependency only.
func officialSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const id = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestSARIFMatchesSchema validates the SARIF of every scenario, as rendered
// and as its golden file holds it, against the SARIF 2.1.0 schema: what CI
// uploads (GitHub code scanning, say) must be a valid log.
func TestSARIFMatchesSchema(t *testing.T) {
	sch := officialSARIFSchema(t)
	validate := func(what string, data []byte) {
		t.Helper()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s does not match the SARIF 2.1.0 schema: %v", what, err)
		}
	}
	for name, build := range scenarios {
		for _, d := range render(t, build()) {
			if d.name == "sarif" {
				validate(name+" (rendered)", d.data)
			}
		}
		data, err := os.ReadFile(filepath.Join("testdata", "golden-"+name+".sarif"))
		if err != nil {
			t.Fatal(err)
		}
		validate("golden-"+name+".sarif", data)
	}

	// The schema is strict enough to catch a broken log.
	check := func(doc string) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(v)
	}
	if check(`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`) == nil {
		t.Error("a driver without a name passes the schema")
	}
}

// TestSARIFRegions checks that every result about a line says where on
// it, as the text report and the editors do: startLine, startColumn (the
// first non-blank byte for a finding about whole lines) and endLine, and
// endColumn where the finding has one.
func TestSARIFRegions(t *testing.T) {
	type region struct {
		StartLine, StartColumn, EndLine, EndColumn int
	}
	type sarifLog struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						Region *region `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	for name, build := range scenarios {
		res := build()
		data, err := SARIF(res, testOpts)
		if err != nil {
			t.Fatal(err)
		}
		// A log of its own: decoded over the last scenario's, a result
		// without a startColumn would keep the one decoded before.
		var log sarifLog
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range log.Runs[0].Results {
			reg := r.Locations[0].PhysicalLocation.Region
			if reg == nil {
				continue
			}
			n++
			if reg.StartColumn < 1 || reg.EndLine < reg.StartLine || reg.EndColumn < 0 {
				t.Errorf("%s: %s: region %+v, want a startColumn and an endLine", name, r.RuleID, *reg)
			}
		}
		if name == "workflow" && n < 3 {
			t.Errorf("workflow: %d results with a region, want the scenario's findings", n)
		}
	}
}
