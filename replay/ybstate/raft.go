package ybstate

import "github.com/logsleuth/logsleuth/parse/yb"

// applyRaft folds the Raft and lease events that applyRole does not.
func (s *State) applyRaft(r *Replica, e yb.Event) {}
