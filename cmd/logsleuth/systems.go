package main

import (
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// systems are the parsers, in the order a line is offered to them. Adding
// a database means one parser package and one rule pack, listed here.
var systems = []parse.System{yb.System, es.System}

// newPacks returns fresh rule packs for one run.
func newPacks() []rules.Pack {
	return []rules.Pack{ybrules.New(), esrules.New()}
}
