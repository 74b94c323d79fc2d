// Command genbuiltin writes rules/catalog/builtin.gen.json, the built-in
// alarm catalogue's YAML files as the JSON logsleuth reads at start
// (catalog.BuiltinDocuments), after checking each in full: the schema,
// every entry and every example. A test in rules/catalog fails when the
// file is stale.
//
//	go generate ./rules/catalog
package main

import (
	"fmt"
	"os"

	"github.com/logsleuth/logsleuth/rules/catalog"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genbuiltin OUT.json")
		os.Exit(3)
	}
	b, err := catalog.BuiltinDocuments()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
