package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestSQLInjection(t *testing.T) {
	lenstest.Run(t, SQLInjection, "testdata/sql-injection")
}
