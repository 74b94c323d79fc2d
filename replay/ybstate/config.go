package ybstate

import "github.com/logsleuth/logsleuth/parse/yb"

// applyConfig folds Raft config changes, reports, deletes and remote
// bootstrap sessions.
func (s *State) applyConfig(r *Replica, e yb.Event) {}
