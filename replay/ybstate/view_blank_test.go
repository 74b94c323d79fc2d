package ybstate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// A revocation that is the first line of its tablet keeps the one shared
// view of a peer nothing is known of, which reads as that peer's own view
// would; a peer any line has shown in a term, a role or a leadership, or
// a tablet holding a lease fact, gets a view of its own.
func TestBlankViewIsShared(t *testing.T) {
	at := time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	revoke := func(r *Raft, tablet string, line int) Step {
		return r.Apply(&yb.LeaseRevoked{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "a", Line: line}, Time: at, Timed: true},
			Replica: yb.Replica{Tablet: tablet, Peer: "p1", Term: 2, Role: "LEADER"}}, Holder: "p2", HT: true, Expiry: ybval.HybridTime{Physical: 1696694400000000}})
	}
	r := NewRaft()
	st := revoke(r, "t1", 1)
	require.NotNil(t, st.Revocation)
	assert.Same(t, &blankView, st.Revocation.Before, "a revoker nothing was known of before its line")
	assert.Equal(t, []string{"raft term: unknown"}, st.Revocation.Before.Lines())

	// The view as View makes it for a fresh peer reads as the shared one.
	tr := r.Tablet("t1")
	fresh := &PeerRaft{Peer: "p9", Term: -1, High: -1, Leading: -1, LastLed: -1, lastAttempt: -1, delayed: -1}
	tr.peers = append(tr.peers, fresh)
	own := &RaftView{seen: true, p: *fresh}
	blank := blankView.Lines()
	assert.Equal(t, own.Lines(), blank)

	// Each thing a line can have said of a peer is in its view.
	for name, set := range map[string]func(p *PeerRaft){
		"term":     func(p *PeerRaft) { p.Term = 3 },
		"high":     func(p *PeerRaft) { p.High = 4 },
		"role":     func(p *PeerRaft) { p.role = roleOf("FOLLOWER") },
		"leading":  func(p *PeerRaft) { p.Leading = 2 },
		"last led": func(p *PeerRaft) { p.LastLed = 1 },
	} {
		q := NewRaft()
		revoke(q, "t", 1)
		p := &PeerRaft{Peer: "p9", Term: -1, High: -1, Leading: -1, LastLed: -1, lastAttempt: -1, delayed: -1}
		set(p)
		tab := &TabletRaft{Tablet: "x", peers: []*PeerRaft{p}}
		v := tab.View("p9")
		assert.NotSame(t, &blankView, v, name)
		assert.NotEqual(t, blank, v.Lines(), name)
	}
	// A lease fact of the tablet is in the view of a peer it says
	// nothing else of.
	revoke(r, "t1", 2)
	tr = r.Tablet("t1")
	require.NotEmpty(t, tr.Leases())
	v := tr.View("p9")
	assert.NotSame(t, &blankView, v)
	assert.Contains(t, v.Lines()[len(v.Lines())-1], "known ")
}
