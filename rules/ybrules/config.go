package ybrules

import (
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// configCatalog holds the Raft config change and remote bootstrap rules.
var configCatalog []rules.Rule

// checkConfig checks a config or remote bootstrap event against the state
// before it.
func (p *Pack) checkConfig(r *ybstate.Replica, e yb.Event) {}

// finishConfig runs the config rules that need the whole timeline
// (orphans, stuck bootstraps).
func (p *Pack) finishConfig() {}
