// Command markupdump prints what the markup scanner reads in every HTML,
// JSX, TSX, Vue and Svelte file under a directory: a line per start tag
// (position, name, element, the content flags, parent and last
// descendant) and one per attribute. Two runs from two commits of
// reviewls, diffed, show every change a change to the markup readers
// brought; eval/rulediff shows what the rules make of it.
//
// Usage:
//
//	go run ./eval/markupdump DIR > out.txt
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: markupdump DIR")
		os.Exit(2)
	}
	root := os.Args[1]
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !review.DetectLanguage(rel, nil).IsMarkup() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 1<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := review.UntrackedFile(rel, b)
		for _, t := range syntax.ScanMarkup(f.Language, b).Tags {
			fmt.Fprintf(w, "%s:%d:%d-%d:%d %s el=%s self=%v spread=%v text=%v expr=%v parent=%d last=%d\n",
				rel, t.Line, t.Col, t.EndLine, t.EndCol, t.Name, t.Element, t.SelfClosing, t.Spread, t.Text, t.Expr, t.Parent, t.Last)
			for _, a := range t.Attrs {
				fmt.Fprintf(w, "  %q %q %q %d %d-%d %d-%d\n", a.Name, a.Key, a.Value, a.Kind, a.Start, a.End, a.ValStart, a.ValEnd)
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "markupdump:", err)
		os.Exit(2)
	}
}
