package ybrules

import (
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// raftCatalog holds the Raft term, vote, leader and lease rules.
var raftCatalog []rules.Rule

// checkRaft checks a Raft or lease event against the state before it.
func (p *Pack) checkRaft(r *ybstate.Replica, e yb.Event) {}

// finishRaft runs the Raft rules that need the whole timeline.
func (p *Pack) finishRaft() {}
