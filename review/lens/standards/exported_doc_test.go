package standards

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestExportedUndocumented(t *testing.T) {
	lenstest.Run(t, ExportedUndocumented, "testdata/exported-undocumented")
}
