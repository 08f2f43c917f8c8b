module example.com/app

go 1.22

require (
	github.com/pkg/errors v0.9.1 // want "Forbidden by policy.forbidden-dependencies: github.com/pkg/errors"
	golang.org/x/sync v0.7.0
)
