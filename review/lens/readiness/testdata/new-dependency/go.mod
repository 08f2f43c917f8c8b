module example.com/app

go 1.24

require github.com/google/uuid v1.6.0 // want "New dependency github.com/google/uuid"

require (
	golang.org/x/sync v0.10.0 // want "adds the dependency golang.org/x/sync v0.10.0"
	golang.org/x/text v0.21.0 // indirect
	example.com/app/api v0.0.0
)

replace example.com/app/api => ./api
