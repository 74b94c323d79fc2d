package ybrules

import (
	"io"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// raftState is the pack's cross-peer Raft view and what the Raft rules
// keep between events.
type raftState struct {
	raft *ybstate.Raft
	// revState holds the revoker's replica state at each revocation.
	revState map[parse.Pos][]string
	// writes are ops a later-term leader wrote, from MVCC dumps and
	// FATALs, for the lease-overlap check against Raft-line leases.
	writes []write
}

// newRaftState returns an empty Raft view and rule memory.
func newRaftState() *raftState {
	return &raftState{raft: ybstate.NewRaft(), revState: map[parse.Pos][]string{}}
}

// raftOf returns p's Raft state.
func raftOf(p *Pack) *raftState { return p.raft }

// Raft is the merged Raft view the pack replayed, for `logsleuth state
// --tablet T`.
func (p *Pack) Raft() *ybstate.Raft { return raftOf(p).raft }

// Timeline writes tablet's Raft history with the MVCC-dump leases the
// pack replayed, for `logsleuth state --tablet T`. Log text in it is the
// caller's to sanitise.
func (p *Pack) Timeline(w io.Writer, tablet string) {
	raftOf(p).raft.Timeline(w, tablet, p.st.Leases(tablet))
}
