package timeline

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// ybLaneKey names a replica's lane (on either pane).
// ybGroupLabel is the label of tablet's group.
func ybGroupLabel(tablet string) string {
	if tablet == "" {
		return "tablet not printed"
	}
	return "tablet " + tablet
}

func ybLaneKey(tablet, peer string) laneKey {
	return laneKey{groupKey{sys: sysYB, name: tablet, shard: -1}, peer}
}

// ybPeer is one replica's building state on the wall pane.
type ybPeer struct {
	id string
	// srcs are the logs whose own lines speak for this replica, as first
	// seen: a slice, not a set, as a replica's are one log or a few
	// (rotated files), and a node hosting many tablets has a replica
	// each.
	srcs []string
	wall *Lane
	// role is the open term/role band, -1 when none.
	role     int
	term     int64
	roleName string
	// leaderFrom is where the current (or last) leadership started, or
	// unknownStart when this peer was never seen leading.
	leaderFrom int64
	// rbs is the open remote bootstrap band, -1 when none; lastRBS the
	// last one opened.
	rbs, lastRBS int
	// pending is the open pending-config band, -1 when none.
	pending int

	ht                            *Lane
	served, propagated, forFollow *Series
	// opTerm is the term of the last op the lane's entries showed, -1
	// before one: the term an ht lease in a later entry belongs to (as
	// replay credits it).
	opTerm int64
}

// ybTablet is one tablet's config as the logs showed it.
type ybTablet struct {
	index   int64
	has     bool
	members map[string]ybMember
}

type ybMember struct {
	peer *ybPeer
	band int
	typ  string
}

type ybBuilder struct {
	b       *builder
	peers   map[[2]string]*ybPeer
	tablets map[string]*ybTablet
	// srcPeer is the peer each source's own lines speak for, to place
	// lines that print no peer.
	srcPeer map[string]string
}

func newYBBuilder(b *builder) *ybBuilder {
	return &ybBuilder{b: b, peers: map[[2]string]*ybPeer{}, tablets: map[string]*ybTablet{}, srcPeer: map[string]string{}}
}

// peer returns the building state of (tablet, peer), creating its lane;
// nil when the lane is folded (fold.go).
func (y *ybBuilder) peer(tablet, peer string) *ybPeer {
	k := [2]string{tablet, peer}
	if p := y.peers[k]; p != nil {
		return p
	}
	k2 := ybLaneKey(tablet, peer)
	if !y.b.admit(k2) {
		return nil
	}
	gl := ""
	if y.b.wall.groups[k2.group] == nil {
		// Only a new group takes the label: a tablet's later replicas
		// need not make it again.
		gl = ybGroupLabel(tablet)
	}
	label, title := short(peer), "peer "+peer
	if peer == "" {
		label, title = "peer ?", "lines of tablet "+tablet+" that name no peer"
	}
	p := &ybPeer{
		id:         peer,
		wall:       y.b.wall.lane(k2, gl, label, title),
		role:       -1,
		term:       -1,
		leaderFrom: unknownStart,
		rbs:        -1,
		lastRBS:    -1,
		pending:    -1,
		opTerm:     -1,
	}
	y.peers[k] = p
	return p
}

// speaks notes that log src speaks for p.
func (p *ybPeer) speaks(src string) {
	if slices.Contains(p.srcs, src) {
		return
	}
	p.srcs = append(p.srcs, src)
}

// wallLane is the wall lane of (tablet, peer), for events of types this
// file does not know; nil when it is folded.
func (y *ybBuilder) wallLane(tablet, peer string) *Lane {
	if p := y.peer(tablet, peer); p != nil {
		return p.wall
	}
	return nil
}

// htLane returns the replica's hybrid-time lane and its series.
func (y *ybBuilder) htLane(tablet, peer string) *ybPeer {
	p := y.peer(tablet, peer)
	if p.ht == nil {
		gl := "tablet " + tablet
		p.ht = y.b.ht.lane(ybLaneKey(tablet, peer), gl, p.wall.Label, p.wall.Title)
		p.served = y.b.newSeries(p.ht, "served safe time", "served")
		p.propagated = y.b.newSeries(p.ht, "propagated safe time", "propagated")
		p.forFollow = y.b.newSeries(p.ht, "safe time for followers", "follower-safe")
	}
	return p
}

// subject is the replica an event is about, with a peer the line did not
// print taken from the source's own lines.
func (y *ybBuilder) subject(e yb.Event) (tablet, peer string, own bool) {
	r := e.Rep()
	peer = r.Peer
	src := e.Info().Pos.Source
	self := ""
	if c, ok := e.(yb.ConfigEvent); ok {
		self = c.LocalInfo().Self
	} else {
		self = peer
	}
	if self != "" {
		if _, ok := y.srcPeer[src]; !ok {
			y.srcPeer[src] = self
		}
	}
	own = self != "" && self == peer
	if peer == "" {
		peer = y.srcPeer[src]
	}
	return r.Tablet, peer, own
}

// event draws one YugabyteDB event; it reports false for other systems.
func (y *ybBuilder) event(e parse.Event) bool {
	ye, ok := e.(yb.Event)
	if !ok {
		return false
	}
	b := y.b
	tablet, peer, own := y.subject(ye)
	p := y.peer(tablet, peer)
	if p == nil {
		b.foldEvent(ybLaneKey(tablet, peer))
		return true
	}
	if own {
		p.speaks(e.Info().Pos.Source)
	}
	if r := ye.Rep(); r.Term >= 0 && r.Peer == peer {
		// A prefix is the weaker witness: a line printed mid-transition
		// still shows the old role, so a prefix only moves a peer to a
		// newer term, or names the role of a term no event named.
		switch {
		case r.Term > p.term:
			y.setRole(p, r.Term, r.Role, e)
		case r.Term == p.term && p.roleName == "" && r.Role != "":
			y.setRole(p, r.Term, r.Role, e)
		}
	}
	l := p.wall
	switch ev := ye.(type) {
	case *yb.MvccDump:
		b.mark(l, e, "dump", fmt.Sprintf("MVCC dump: %d entries", len(ev.Items)))
		y.dump(tablet, peer, ev)
	case *yb.HTTooLow:
		kind := "assert"
		what := "FATAL: new op's hybrid time too low"
		if ev.Artificial {
			kind, what = "warn", "hybrid time artificially incremented"
		}
		b.mark(l, e, kind, fmt.Sprintf("%s: op %s at ht %s", what, opText(ev.Op, ev.HasOp), ev.HT))
		y.tooLow(tablet, peer, ev)
	case *yb.CheckFailed:
		b.mark(l, e, "assert", "Check failed: "+clip(ev.Expr, 80))
		y.checkFailed(tablet, peer, ev)
	case *yb.OpSequence:
		b.mark(l, e, "assert", fmt.Sprintf("op sequence failure: %s followed by %s", ev.Prev, ev.Next))
	case *yb.FollowerSafeTimeBack:
		b.mark(l, e, "warn", fmt.Sprintf("propagated safe time %s below the old %s", ev.New, ev.Old))
	case *yb.LeaderSafeTimeBack:
		b.mark(l, e, "assert", fmt.Sprintf("safe time %s below propagated %s", ev.Safe, ev.Propagated))
	case *yb.MvccFatal:
		b.mark(l, e, "assert", clip(ev.Message, 100))
	case *yb.RoleChange:
		y.roleChange(p, ev)
	case *yb.ElectionStart:
		what := "election"
		if ev.Pre {
			what = "pre-election"
		}
		if ev.FailedLeader != "" {
			what += " (leader " + short(ev.FailedLeader) + " failed)"
		}
		b.mark(l, e, "election", "starts "+what)
	case *yb.ElectionResult:
		what := "election"
		if ev.Pre {
			what = "pre-election"
		}
		res := "lost"
		if ev.Won {
			res = "won"
		}
		b.mark(l, e, "election-"+res, fmt.Sprintf("%s %s for term %d", what, res, ev.Term))
		if ev.Won && !ev.Pre && !ev.Defunct {
			y.setRole(p, ev.Term, "LEADER", e)
		}
	case *yb.Vote:
		what := "vote"
		if ev.Pre {
			what = "pre-vote"
		}
		kind, res := "vote-no", "denied"
		if ev.Granted {
			kind, res = "vote-yes", "granted"
		}
		b.mark(l, e, kind, fmt.Sprintf("%s %s to %s for term %d", what, res, short(ev.Candidate), ev.Term))
	case *yb.NoOp:
		b.mark(l, e, "noop", fmt.Sprintf("NO_OP at %s: leader of term %d", ev.Op, ev.Op.Term))
		y.setRole(p, ev.Op.Term, "LEADER", e)
	case *yb.Transfer:
		b.mark(l, e, "event", "leadership transfer: "+string(ev.What)+" "+short(ev.To))
	case *yb.LeaseRevoked:
		y.revoked(tablet, p, ev)
	case *yb.LeaseReset:
		y.reset(p, ev)
	case *yb.OldLeaseWait:
		what := "waits: old leader's lease may be active"
		if ev.HT {
			what = "waits: old leader's ht lease may be active"
		}
		b.mark(l, e, "lease-wait", what)
	case *yb.UpdateRejected:
		b.mark(l, e, "warn", "rejected update from "+short(ev.From))
	case *yb.ActiveRole:
		b.mark(l, e, "event", "active role "+ev.From+" → "+ev.To)
	case *yb.ConfigCommit:
		y.configCommit(tablet, p, ev)
	case *yb.ConfigPending:
		y.closePending(p, b.now, false)
		p.wall.Bands = append(p.wall.Bands, Band{Row: RowRBS, From: b.now, To: b.now, Kind: "config-pending", Text: "pending " + string(ev.Type) + " " + configText(ev.Config), Open: true, Ev: []int{b.evLine(e)}})
		p.pending = len(p.wall.Bands) - 1
		b.mark(l, e, "config", "pending config change "+string(ev.Type))
	case *yb.ConfigAbort:
		y.closePendingTablet(tablet, e, true)
		b.mark(l, e, "warn", "config change "+ev.Op.String()+" aborted: "+clip(ev.Status, 60))
	case *yb.ConfigRequest:
		b.mark(l, e, "config", fmt.Sprintf("ChangeConfig %s %s requested", ev.Type, short(ev.Server)))
	case *yb.TabletReport:
		if ev.HasConfig {
			y.config(tablet, ev.Config, e)
		}
		what := "master: consensus state"
		if ev.Term >= 0 {
			what += fmt.Sprintf(" term %d", ev.Term)
		}
		if ev.LeaderUUID != "" {
			what += " leader " + short(ev.LeaderUUID)
		}
		b.mark(l, e, "config", what)
	case *yb.PeerEvicted:
		b.mark(l, e, "warn", fmt.Sprintf("evicted by %s: %s", short(ev.Leader), ev.Why))
	case *yb.PeerNeedsRBS:
		b.mark(l, e, "rbs", "needs remote bootstrap (per "+short(ev.Leader)+")")
	case *yb.MasterChangeConfig:
		res := "retrying"
		switch {
		case ev.OK:
			res = "ok"
		case ev.Final:
			res = "failed"
		}
		b.mark(l, e, "config", fmt.Sprintf("master ChangeConfig %s: %s", ev.Type, res))
	case *yb.DeleteTablet:
		b.mark(l, e, "delete", "DeleteTablet "+ev.DeleteType)
	case *yb.TabletDataDeleted:
		b.mark(l, e, "delete", "tablet data deleted "+ev.State)
	case *yb.MasterDelete:
		b.mark(l, e, "delete", "master delete: "+string(ev.Outcome))
	case *yb.RBS:
		y.rbs(p, ev)
	case *yb.RBSBusy:
		b.mark(l, e, "warn", "RBS refused: already bootstrapping from "+short(ev.From))
	case *yb.TabletStateChange:
		b.mark(l, e, "event", "state "+ev.From+" → "+ev.To)
	default:
		b.mark(l, e, "event", e.Kind())
	}
	return true
}

// setRole starts a new term/role band when (term, role) changes.
func (y *ybBuilder) setRole(p *ybPeer, term int64, role string, e parse.Event) {
	if term == p.term && role == p.roleName {
		if p.role >= 0 && len(p.wall.Bands[p.role].Ev) < maxEvidence {
			p.wall.Bands[p.role].Ev = addEv(p.wall.Bands[p.role].Ev, y.b.evLine(e))
		}
		return
	}
	now := y.b.now
	if term < p.term && term >= 0 {
		// Terms never go back; a line about an old term (a vote for it,
		// a step-down from it) does not reopen it.
		return
	}
	ev := []int{y.b.evLine(e)}
	if p.role >= 0 {
		bd := &p.wall.Bands[p.role]
		if bd.From == now && p.role == len(p.wall.Bands)-1 {
			// Replaced at the instant it began: one band, not a sliver.
			ev = addEv(bd.Ev, ev[0])
			p.wall.Bands = p.wall.Bands[:p.role]
		} else {
			bd.To = now
			bd.Open = false
		}
	}
	kind := "term"
	switch role {
	case "LEADER":
		kind = "leader"
		if p.roleName != "LEADER" || p.term != term {
			p.leaderFrom = now
		}
	case "FOLLOWER":
		kind = "follower"
	case "CANDIDATE":
		kind = "candidate"
	case "":
	default:
		kind = "other-role"
	}
	text := fmt.Sprintf("term %d", term)
	if term < 0 {
		text = "term ?"
	}
	if role != "" {
		text += " " + role
	}
	p.wall.Bands = append(p.wall.Bands, Band{Row: RowRole, From: now, To: now, Kind: kind, Text: text, Open: true, Ev: ev})
	p.role = len(p.wall.Bands) - 1
	p.term, p.roleName = term, role
}

func (y *ybBuilder) roleChange(p *ybPeer, ev *yb.RoleChange) {
	b := y.b
	switch ev.What {
	case yb.AdvanceTerm:
		b.mark(p.wall, ev, "term", fmt.Sprintf("advances to term %d", ev.Term))
		y.setRole(p, ev.Term, "", ev)
	case yb.StepDown:
		b.mark(p.wall, ev, "stepdown", fmt.Sprintf("steps down from term %d", ev.Term))
		t := p.term
		if ev.NewTerm >= 0 {
			t = ev.NewTerm
		}
		y.setRole(p, t, "FOLLOWER", ev)
	case yb.BecomeLeader:
		t := ev.Term
		if t < 0 {
			t = p.term
		}
		b.mark(p.wall, ev, "leader", fmt.Sprintf("becomes leader of term %d", t))
		y.setRole(p, t, "LEADER", ev)
	case yb.BecomeFollower:
		b.mark(p.wall, ev, "term", "becomes follower")
		y.setRole(p, p.term, "FOLLOWER", ev)
	case yb.MasterRole:
		b.mark(p.wall, ev, "term", "master role "+ev.NewRole)
		y.setRole(p, p.term, ev.NewRole, ev)
	default:
		b.mark(p.wall, ev, "term", string(ev.What))
	}
}

// revoked draws a revocation on the revoking peer's lane and, when the
// line says how much of the old leader's lease was left, that lease on the
// old leader's lane as the revoking peer saw it.
func (y *ybBuilder) revoked(tablet string, p *ybPeer, ev *yb.LeaseRevoked) {
	b := y.b
	if ev.HT {
		b.mark(p.wall, ev, "revoke", fmt.Sprintf("revoked %s's ht lease (expiry %s)", short(ev.Holder), ev.Expiry))
		return
	}
	b.mark(p.wall, ev, "revoke", fmt.Sprintf("revoked %s's lease (%s left)", short(ev.Holder), ev.Remaining))
	if ev.Remaining.Inf == 0 && ev.Remaining.Millis > 0 && ev.Holder != "" {
		h := y.peer(tablet, ev.Holder)
		if h == nil {
			return
		}
		end := b.now + ev.Remaining.Millis*1000
		b.wall.see(end)
		h.wall.Bands = append(h.wall.Bands, Band{Row: RowLease, From: b.now, To: end, Kind: "lease-revoked",
			Text: fmt.Sprintf("lease still running %s when %s revoked it", ev.Remaining, short(p.id)), Ev: []int{b.evLine(ev)}})
	}
}

// reset draws the lease a former leader dropped: from its leadership's
// start to the expiry the line implies (now minus D).
func (y *ybBuilder) reset(p *ybPeer, ev *yb.LeaseReset) {
	b := y.b
	if ev.HT {
		b.mark(p.wall, ev, "lease-reset", fmt.Sprintf("reset own ht lease (expiry %s)", ev.Expiry))
		return
	}
	b.mark(p.wall, ev, "lease-reset", fmt.Sprintf("reset own lease (%s)", ev.Since))
	if ev.Since.Inf != 0 {
		return
	}
	end := b.now - ev.Since.Millis*1000
	from := p.leaderFrom
	if from == unknownStart || from > end {
		from = minInt(b.now, end)
	}
	b.wall.see(end)
	p.wall.Bands = append(p.wall.Bands, Band{Row: RowLease, From: from, To: end, Kind: "lease",
		Text: leaseText(ev.Since), Ev: []int{b.evLine(ev)}})
}

// leaseText says how a dropped lease stood: D is now minus its expiry.
func leaseText(d ybval.Deadline) string {
	s := d.String()
	if strings.HasPrefix(s, "-") {
		return "own leader lease, " + s[1:] + " still left when reset"
	}
	return "own leader lease, expired " + s + " before the reset"
}

func minInt(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

// configCommit applies a committed config's membership, and closes the
// tablet's pending-config band.
func (y *ybBuilder) configCommit(tablet string, p *ybPeer, ev *yb.ConfigCommit) {
	b := y.b
	if ev.Ignored {
		b.mark(p.wall, ev, "config", "ignored commit of config "+opText(ev.Op, ev.HasOp))
		return
	}
	t := y.tablet(tablet)
	if !t.has && len(ev.Old.Peers) > 0 {
		// Members of the config before the first change seen were there
		// before the logs start.
		y.applyConfig(tablet, ev.Old, ev, unknownStart)
	}
	y.config(tablet, ev.New, ev)
	y.closePendingTablet(tablet, ev, false)
	b.mark(p.wall, ev, "config", "commits config "+opText(ev.Op, ev.HasOp)+": "+configText(ev.New))
}

func (y *ybBuilder) tablet(id string) *ybTablet {
	t := y.tablets[id]
	if t == nil {
		t = &ybTablet{index: -1, members: map[string]ybMember{}}
		y.tablets[id] = t
	}
	return t
}

// config applies cfg if it is newer than the tablet's config seen so far
// (every replica prints the same commit, and the master repeats it).
func (y *ybBuilder) config(tablet string, cfg yb.RaftConfig, e parse.Event) {
	t := y.tablet(tablet)
	if cfg.Cut || (t.has && cfg.Index >= 0 && cfg.Index <= t.index) {
		return
	}
	y.applyConfig(tablet, cfg, e, y.b.now)
}

func (y *ybBuilder) applyConfig(tablet string, cfg yb.RaftConfig, e parse.Event, at int64) {
	t := y.tablet(tablet)
	if cfg.Cut {
		return
	}
	if cfg.Index >= 0 {
		t.index = cfg.Index
	}
	t.has = true
	ev := y.b.evLine(e)
	in := map[string]bool{}
	for _, m := range cfg.Peers {
		in[m.UUID] = true
		typ := m.MemberType
		if typ == "" {
			typ = "member"
		}
		cur, ok := t.members[m.UUID]
		if ok && cur.typ == typ {
			continue
		}
		if ok {
			y.closeBand(cur.peer.wall, cur.band, at)
		}
		p := y.peer(tablet, m.UUID)
		if p == nil {
			continue
		}
		p.wall.Bands = append(p.wall.Bands, Band{Row: RowMember, From: at, To: at, Kind: "member-" + strings.ToLower(typ),
			Text: typ + " in config " + indexText(cfg.Index), Open: true, Ev: []int{ev}})
		t.members[m.UUID] = ybMember{peer: p, band: len(p.wall.Bands) - 1, typ: typ}
	}
	var gone []string
	for u := range t.members {
		if !in[u] {
			gone = append(gone, u)
		}
	}
	sort.Strings(gone)
	for _, u := range gone {
		m := t.members[u]
		y.closeBand(m.peer.wall, m.band, at)
		m.peer.wall.Bands[m.band].Ev = addEv(m.peer.wall.Bands[m.band].Ev, ev)
		delete(t.members, u)
	}
}

func (y *ybBuilder) closeBand(l *Lane, i int, at int64) {
	l.Bands[i].To = at
	l.Bands[i].Open = false
}

func (y *ybBuilder) closePending(p *ybPeer, at int64, aborted bool) {
	if p.pending < 0 {
		return
	}
	y.closeBand(p.wall, p.pending, at)
	if aborted {
		p.wall.Bands[p.pending].Kind = "config-aborted"
	}
	p.pending = -1
}

func (y *ybBuilder) closePendingTablet(tablet string, e parse.Event, aborted bool) {
	var keys [][2]string
	for k, p := range y.peers {
		if k[0] == tablet && p.pending >= 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][1] < keys[j][1] })
	for _, k := range keys {
		p := y.peers[k]
		p.wall.Bands[p.pending].Ev = addEv(p.wall.Bands[p.pending].Ev, y.b.evLine(e))
		y.closePending(p, y.b.now, aborted)
	}
}

// rbs draws a remote bootstrap session as a band on the destination's
// lane, from its first line to the line that ends it.
func (y *ybBuilder) rbs(p *ybPeer, ev *yb.RBS) {
	b := y.b
	ln := b.evLine(ev)
	if role := ev.Phase == yb.RBSRoleChanged || ev.Phase == yb.RBSRoleFailed; role && p.rbs < 0 && p.lastRBS >= 0 {
		// The source's ChangeRole after the copy: part of the session
		// that ended, which it does not reopen.
		bd := &p.wall.Bands[p.lastRBS]
		bd.Ev = addEv(bd.Ev, ln)
		bd.To = max(bd.To, b.now)
		b.placeLines(ev.Pos.Source, ev.Pos.Line, ev.Last, place{pane: 0, lane: p.wall, at: b.now})
		if ev.Phase == yb.RBSRoleFailed {
			b.mark(p.wall, ev, "warn", "remote bootstrap: ChangeRole failed: "+clip(ev.Status, 60))
		}
		return
	}
	if p.rbs < 0 && p.lastRBS >= 0 && ev.Phase != yb.RBSStart && ev.Phase != yb.RBSSession {
		// The other side's line of a session already ended (the source
		// says completed, then the destination says so): the same
		// session, not a new one.
		p.rbs = p.lastRBS
		p.wall.Bands[p.rbs].Open = true
	}
	if p.rbs < 0 {
		text := "remote bootstrap from " + short(ev.Other)
		if ev.SourceSide {
			text = "remote bootstrap served by " + short(ev.Self)
		}
		p.wall.Bands = append(p.wall.Bands, Band{Row: RowRBS, From: b.now, To: b.now, Kind: "rbs", Text: text, Open: true})
		p.rbs = len(p.wall.Bands) - 1
		p.lastRBS = p.rbs
	}
	bd := &p.wall.Bands[p.rbs]
	bd.Ev = addEv(bd.Ev, ln)
	bd.To = b.now
	b.placeLines(ev.Pos.Source, ev.Pos.Line, ev.Last, place{pane: 0, lane: p.wall, at: b.now})
	switch ev.Phase {
	case yb.RBSDone:
		bd.Open = false
		p.rbs = -1
	case yb.RBSFailed, yb.RBSExpired, yb.RBSTombstone:
		bd.Open = false
		if bd.Kind != "rbs-failed" {
			bd.Kind = "rbs-failed"
			bd.Text += " (" + string(ev.Phase) + ")"
		}
		p.rbs = -1
		b.mark(p.wall, ev, "warn", "remote bootstrap "+string(ev.Phase)+": "+clip(ev.Status, 60))
	}
}

// dump stacks a dump's entries on the replica's hybrid-time lane: ops as
// marks, ht leases as bands, safe times as step lines.
func (y *ybBuilder) dump(tablet, peer string, d *yb.MvccDump) {
	b := y.b
	p := y.htLane(tablet, peer)
	src := d.Pos.Source
	for _, it := range d.Items {
		row := p.ht.Rows
		p.ht.Rows++
		ln := b.line(src, it.Line, it.Text)
		at, ok := itemAt(it)
		if ok {
			b.ht.see(at)
			b.placeLine(src, it.Line, it.Line, place{pane: 1, lane: p.ht, at: at, row: row})
		}
		num := fmt.Sprintf("%d. %s", it.No, it.Kind)
		if it.HasOp && (it.Kind == yb.AddLeaderPending || it.Kind == yb.AddFollowerPending || it.Kind == yb.AddPending || it.Kind == yb.Replicated) {
			p.opTerm = it.Op.Term
		}
		switch it.Kind {
		case yb.AddLeaderPending, yb.AddFollowerPending, yb.AddPending:
			y.htItemMark(p, it, row, ln, "op-pending", fmt.Sprintf("%s: op %s added at ht %s", num, opText(it.Op, it.HasOp), it.HT))
		case yb.Replicated:
			y.htItemMark(p, it, row, ln, "op-replicated", fmt.Sprintf("%s: op %s replicated at ht %s", num, opText(it.Op, it.HasOp), it.HT))
		case yb.Aborted:
			y.htItemMark(p, it, row, ln, "op-aborted", fmt.Sprintf("%s: op %s aborted at ht %s", num, opText(it.Op, it.HasOp), it.HT))
		case yb.SetLastReplicated, yb.LastReplicatedHybridTime:
			y.htItemMark(p, it, row, ln, "last-replicated", fmt.Sprintf("%s: last replicated %s", num, it.HT))
		case yb.SetLeaderOnlyMode:
			y.htItemMark(p, it, row, ln, "event", fmt.Sprintf("%s: leader-only mode %v", num, it.LeaderOnly))
		case yb.SafeTime, yb.UpdatePropagatedSafeTimeOnLeader:
			s := p.served
			if it.Kind == yb.UpdatePropagatedSafeTimeOnLeader {
				s = p.propagated
			}
			y.point(s, it.SafeTime, row, ln)
		case yb.SafeTimeForFollower:
			y.point(p.forFollow, it.SafeTime, row, ln)
		case yb.SetPropagatedSafeTimeOnFollower:
			y.point(p.propagated, it.HT, row, ln)
		}
		if it.HasLease && it.Lease.Lease.Valid() && !it.Lease.Lease.IsMin() {
			to := int64(it.Lease.Lease.Physical)
			from := to
			if !it.Lease.Bare && it.Lease.Time.Valid() && !it.Lease.Time.IsMin() {
				from = int64(it.Lease.Time.Physical)
			}
			b.ht.see(from)
			b.ht.see(to)
			kind := "ht-lease"
			if from > to {
				// Read after its own expiry: the lease had run out.
				kind, from, to = "ht-lease-expired", to, from
			}
			term := "term ?"
			if p.opTerm >= 0 {
				term = fmt.Sprintf("term %d", p.opTerm)
			}
			p.ht.Bands = append(p.ht.Bands, Band{Row: row, From: from, To: to, Kind: kind,
				Text: fmt.Sprintf("%s: ht lease (%s) taken at %s, expiry %s", num, term, it.Lease.Time, it.Lease.Lease), Ev: []int{ln}})
		}
	}
}

func (y *ybBuilder) htItemMark(p *ybPeer, it yb.Item, row, ln int, kind, text string) {
	at, ok := itemAt(it)
	if !ok {
		return
	}
	if t, ok := y.b.keepMark(p.ht, kind, at); ok {
		y.b.addMark(p.ht, t, Mark{At: at, Row: row, Kind: kind, Text: text, Ev: []int{ln}})
	}
}

func (y *ybBuilder) point(s *Series, ht ybval.HybridTime, row, ln int) {
	if ht.Special != ybval.Normal {
		return
	}
	y.b.ht.see(int64(ht.Physical))
	y.b.addPoint(s, [3]int64{int64(ht.Physical), int64(row), int64(ln)})
}

// itemAt is where an entry sits on the hybrid-time axis: its own hybrid
// time, else the safe time it published, else when its lease was read.
func itemAt(it yb.Item) (int64, bool) {
	for _, h := range []ybval.HybridTime{it.HT, it.SafeTime, it.Lease.Time} {
		if h.Special == ybval.Normal && h.Physical != 0 {
			return int64(h.Physical), true
		}
	}
	return 0, false
}

// tooLow draws the new op and each bound it was compared with on one row
// below the dump, so the op sits visibly left of a violated bound.
func (y *ybBuilder) tooLow(tablet, peer string, ev *yb.HTTooLow) {
	b := y.b
	if ev.HT.Special != ybval.Normal {
		return
	}
	p := y.htLane(tablet, peer)
	row := p.ht.Rows
	p.ht.Rows++
	src := ev.Pos.Source
	kind := "op-too-low"
	if ev.Artificial {
		kind = "op-incremented"
	}
	b.htMark(p.ht, int64(ev.HT.Physical), row, kind, fmt.Sprintf("new op %s at ht %s: too low", opText(ev.Op, ev.HasOp), ev.HT), src, ev.Pos.Line, ev.Text)
	for _, bd := range ev.Bounds {
		if bd.Value.Special != ybval.Normal {
			continue
		}
		k := "bound"
		state := "held"
		if bd.Violated {
			k, state = "bound-violated", "violated"
		}
		// Only a violated bound widens the axis: a held one can lie minutes
		// away (the follower safe time) and would squeeze the picture.
		lo, hi, has := b.ht.lo, b.ht.hi, b.ht.has
		b.htMark(p.ht, int64(bd.Value.Physical), row, k, fmt.Sprintf("%s = %s (%s)", bd.Name, bd.Value, state), src, bd.Line, bd.Text)
		if !bd.Violated {
			b.ht.lo, b.ht.hi, b.ht.has = lo, hi, has
		}
		if bd.VerdictLine > 0 {
			b.placeLine(src, bd.VerdictLine, bd.Line, place{pane: 1, lane: p.ht, at: int64(bd.Value.Physical), row: row})
		}
	}
	for _, q := range ev.Queue {
		if q.HT.Special != ybval.Normal {
			continue
		}
		if t, ok := b.keepMark(p.ht, "op-pending", int64(q.HT.Physical)); ok {
			b.addMark(p.ht, t, Mark{At: int64(q.HT.Physical), Row: row, Kind: "op-pending", Text: "queued op " + opText(q.Op, q.HasOp) + " at " + q.HT.String(), Ev: []int{b.evLine(ev)}})
		}
	}
}

// checkFailed draws a `Check failed: A vs. B` with hybrid-time values as
// the two times compared.
func (y *ybBuilder) checkFailed(tablet, peer string, ev *yb.CheckFailed) {
	if !ev.HasValues || ev.Left.Special != ybval.Normal || ev.Right.Special != ybval.Normal {
		return
	}
	p := y.htLane(tablet, peer)
	row := p.ht.Rows
	p.ht.Rows++
	y.b.htMark(p.ht, int64(ev.Left.Physical), row, "op-too-low", "check failed, left: "+ev.Left.String()+" ("+clip(ev.Expr, 60)+")", ev.Pos.Source, ev.Pos.Line, ev.Text)
	y.b.htMark(p.ht, int64(ev.Right.Physical), row, "bound-violated", "check failed, right: "+ev.Right.String(), ev.Pos.Source, ev.Pos.Line, ev.Text)
}

// finish closes what is still open at the end of the logs.
func (y *ybBuilder) finish() {
	end := y.b.wall.hi
	// Each replica is finished on its own, so the map's order does not
	// matter.
	for _, p := range y.peers {
		switch len(p.srcs) {
		case 0:
		case 1:
			p.wall.Sub = p.srcs[0]
		default:
			srcs := slices.Clone(p.srcs)
			sort.Strings(srcs)
			p.wall.Sub = strings.Join(srcs, ", ")
		}
		if p.ht != nil {
			p.ht.Sub = p.wall.Sub
		}
		for i := range p.wall.Bands {
			if bd := &p.wall.Bands[i]; bd.Open && bd.To < end {
				bd.To = end
			}
		}
		if p.ht != nil {
			for _, s := range []*Series{p.served, p.propagated, p.forFollow} {
				if len(s.Pts) > 0 {
					p.ht.Series = append(p.ht.Series, s)
				}
			}
			if p.ht.Rows == 0 {
				p.ht.Rows = 1
			}
		}
	}
}

func opText(op ybval.OpID, has bool) string {
	if !has {
		return "?"
	}
	return op.String()
}

func indexText(i int64) string {
	if i < 0 {
		return "(pending, no index)"
	}
	return fmt.Sprintf("%d", i)
}

func configText(c yb.RaftConfig) string {
	var parts []string
	for _, m := range c.Peers {
		t := m.MemberType
		if t == "" {
			t = "?"
		}
		parts = append(parts, short(m.UUID)+":"+t)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// bandRefs calls f with every band index the builder holds, and the lane
// it indexes, so the band sampling can renumber them.
func (y *ybBuilder) bandRefs(f func(*Lane, *int)) {
	for _, p := range y.peers {
		for _, i := range []*int{&p.role, &p.rbs, &p.lastRBS, &p.pending} {
			f(p.wall, i)
		}
	}
	for _, t := range y.tablets {
		for id, m := range t.members {
			f(m.peer.wall, &m.band)
			t.members[id] = m
		}
	}
}
