package main

import (
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// systems are the parsers, in the order a line is offered to them. Adding
// a database means one parser package and one rule pack, listed here, and
// its alarm catalogue file in rules/catalog.
var systems = []parse.System{yb.System, es.System}

// newPacks returns fresh rule packs for one run with the built-in alarm
// catalogue.
func newPacks() []rules.Pack { return newPacksWith(builtinCatalog()) }

// newPacksWith returns fresh rule packs for one run; the alarm pack reads
// alarms with cat.
func newPacksWith(cat *catalog.Catalog) []rules.Pack {
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	return append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
}

// builtinCatalog is the embedded alarm catalogue, read when a run first
// needs an entry; its tests keep it loadable, so a failure to load is a
// bug in logsleuth.
func builtinCatalog() *catalog.Catalog { return catalog.BuiltinDeferred() }
