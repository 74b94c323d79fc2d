// Command catcheck checks alarm catalogue files: the schema, every shape
// and comparison, and every example read through its entry (and not
// taken first by a more specific entry of the built-in catalogue or the
// other files). It prints what each example's parts read as.
//
//	go run ./rules/catalog/catcheck FILE...
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules/catalog"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: catcheck FILE...")
		os.Exit(3)
	}
	base, err := catalog.Builtin()
	if err != nil {
		fmt.Fprintln(os.Stderr, "built-in catalogue:", err)
		os.Exit(1)
	}
	var extra []*catalog.Entry
	bad := false
	for _, name := range os.Args[1:] {
		b, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			bad = true
			continue
		}
		es, err := catalog.Load(b, name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			bad = true
			continue
		}
		fmt.Printf("%s: %d entries\n", name, len(es))
		extra = append(extra, es...)
	}
	c := base.Merge(extra)
	for _, p := range c.Check() {
		fmt.Fprintln(os.Stderr, p)
		bad = true
	}
	for _, e := range extra {
		for _, ex := range e.Examples {
			raised := ex.Raised
			if raised == "" && len(e.Raised) > 0 {
				raised = e.Raised[0]
			}
			m, ok := c.Match(e.System, &parse.AlarmText{Raised: raised, Message: ex.Message})
			if !ok {
				continue
			}
			fmt.Printf("  %s -> %s: %s\n", e.Key(), m.Entry.Rule(), strings.TrimSpace(m.Describe()))
		}
	}
	if bad {
		os.Exit(1)
	}
}
