package app

import (
	"errors"

	pkgerrors "github.com/pkg/errors" // want "Forbidden by policy.forbidden-imports: github.com/pkg/errors"
	_ "github.com/pkg/errors/sub"     // want "forbidden-imports: github.com/pkg/errors"
	_ "github.com/pkg/errorsx"
)

var _ = errors.New
var _ = pkgerrors.New
