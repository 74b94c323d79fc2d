package ybrules

import (
	"io"

	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// Raft is the merged Raft view the pack replayed, for `logsleuth state
// --tablet T`.
func (p *Pack) Raft() *ybstate.Raft { return p.st.Raft() }

// Timeline writes tablet's Raft history with the MVCC-dump leases the
// pack replayed, for `logsleuth state --tablet T`. Log text in it is the
// caller's to sanitise.
func (p *Pack) Timeline(w io.Writer, tablet string) {
	p.st.Raft().Timeline(w, tablet, p.st.Leases(tablet))
}
