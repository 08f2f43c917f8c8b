module example.com/app

go 1.24

require (
	example.com/lib v1.4.0
	example.com/tools v0.3.0
)

replace example.com/lib => ../lib // want "replaces example.com/lib with the local directory ../lib"

replace (
	example.com/tools v0.3.0 => ./third_party/tools // want "local directory ./third_party/tools"
	example.com/fork => github.com/me/fork v1.0.1
)

// Near misses: a fork at a version is fine.
replace example.com/old v1.0.0 => example.com/new v1.1.0
