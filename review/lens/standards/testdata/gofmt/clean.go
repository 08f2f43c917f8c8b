package p

import (
	"fmt"
	"strings"
)

// Config is aligned the way gofmt aligns it.
type Config struct {
	Name    string            // shown in logs
	Timeout int               // seconds
	Labels  map[string]string `json:"labels"`
	inner   struct {
		a, b int
	}
}

const (
	modeA = iota
	modeBB
	modeCCC = 10 // explicit
)

var usage = `Usage:
    tool [flags]
  trailing spaces inside raw strings are kept   
`

/*
   A block comment indented with spaces.
*/

func run(cfg Config, args []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	x := 1  // one
	yy := 2 // two
	if x > 0 &&
		yy > 0 {
		fmt.Println(x, yy)
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		// A comment before a case.
		case strings.HasPrefix(a, "-"):
			continue
		default:
		}
	}
retry:
	for {
		break retry
	}
	m := map[string]int{
		"a":   1,
		"bcd": 2,
	}
	s := fmt.Sprintf("%d,%d;%s", x, m["a"], "a,b ( c )")
	_ = strings.Join([]string{
		s,
		cfg.Name,
	}, ",")
	return call(func() {
		fmt.Println("done")
	})
}

func call(fn func()) error { fn(); return nil }
