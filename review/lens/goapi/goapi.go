// Package goapi answers, without type-checking, what Go calls return and
// what fields and variables hold: a signature index of the standard
// library (generated from its sources, embedded) and of the declarations
// of the package a reviewed file belongs to (from the shared parse).
//
// Types are strings as go/types prints them with full package paths
// ("*net/http.Response", "io.ReadCloser", "[]byte", "error"); a type
// declared in the reviewed package has no path ("*Store").
package goapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

//go:generate go run gen.go

//go:embed std.txt.gz
var stdGz []byte

// An API is a set of declarations.
type API struct {
	// Funcs maps "path.Name" (or a local "Name") to the result types.
	Funcs map[string][]string
	// Vars maps "path.Name" to the variable's type.
	Vars map[string]string
	// Methods maps a named type ("os.File", "Store") to its methods'
	// result types; the methods of T and *T are merged.
	Methods map[string]map[string][]string
	// Fields maps a named struct type to its fields' types.
	Fields map[string]map[string]string
	// Zeros maps a named type to its zero value: "nil", "0", `""`,
	// "false", or "{}" for an empty composite literal of the type. A type
	// declared in the reviewed package as another named type maps to "="
	// and that type ("=Celsius", "=time.Duration").
	Zeros map[string]string
}

func newAPI() *API {
	return &API{Funcs: map[string][]string{}, Vars: map[string]string{},
		Methods: map[string]map[string][]string{}, Fields: map[string]map[string]string{}, Zeros: map[string]string{}}
}

func (a *API) addMethod(typ, name string, results []string) {
	if a.Methods[typ] == nil {
		a.Methods[typ] = map[string][]string{}
	}
	a.Methods[typ][name] = results
}

func (a *API) addField(typ, name, t string) {
	if a.Fields[typ] == nil {
		a.Fields[typ] = map[string]string{}
	}
	a.Fields[typ][name] = t
}

// Std returns the index of the standard library's exported API.
var Std = sync.OnceValue(func() *API {
	a := newAPI()
	zr, err := gzip.NewReader(bytes.NewReader(stdGz))
	if err != nil {
		panic("goapi: std.txt.gz: " + err.Error()) // embedded at build time
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "F" && len(f) >= 3:
			a.Funcs[f[1]] = resultList(f[2:])
		case f[0] == "V" && len(f) == 3:
			a.Vars[f[1]] = f[2]
		case f[0] == "M" && len(f) >= 4:
			a.addMethod(f[1], f[2], resultList(f[3:]))
		case f[0] == "D" && len(f) == 4:
			a.addField(f[1], f[2], f[3])
		case f[0] == "Z" && len(f) == 3:
			a.Zeros[f[1]] = f[2]
		}
	}
	return a
})

func resultList(f []string) []string {
	if len(f) == 1 && f[0] == "-" {
		return nil
	}
	return f
}

// Named returns the named type a type string refers to, through one
// pointer: "os.File" for "*os.File"; "" for a composite type.
func Named(t string) string {
	t = strings.TrimPrefix(t, "*")
	if t == "" || strings.ContainsAny(t, "[]{}() ") || strings.HasPrefix(t, "map") || strings.HasPrefix(t, "chan") || strings.HasPrefix(t, "func") {
		return ""
	}
	return t
}

// ReturnsError reports whether the last of results is error.
func ReturnsError(results []string) bool {
	return len(results) > 0 && results[len(results)-1] == "error"
}
