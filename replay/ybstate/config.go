package ybstate

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// applyConfig folds Raft config changes, reports, deletes and remote
// bootstrap sessions into Configs.
func (s *State) applyConfig(r *Replica, e yb.Event) { s.configs.Apply(e) }

// Configs is the per-tablet Raft config and remote bootstrap state: the
// committed config, the pending change, and for each replica its RBS
// sessions, the deletes sent to it, its last report, and whether it holds
// the tablet's data. It is a pure fold over events, like State; Apply takes
// each event once, in timeline order.
//
// State holds one and feeds it every event; a Configs of its own serves
// tests of the fold alone.
type Configs struct {
	tablets map[string]*TabletConfig
	// self maps a source to the tablet server uuid its own prefixes show,
	// so a line that prints no peer (tablet_service.cc's `Processing
	// DeleteTablet`) is placed on that server. A source whose prefixes show
	// two servers (a merged excerpt) maps to "" and places nothing.
	self map[string]string
	// learnt is the last source learnSelf took and what self then held
	// for it: a source names its server on line after line, and taking
	// it again changes nothing, nor does any peer once the source maps to
	// "" (learnSelf).
	learnt struct {
		source, self string
		set          bool
	}
	// Busy holds the `already in progress` RBS refusals, in timeline order.
	Busy []BusyRefusal
	seq  int
}

// NewConfigs returns empty config state.
func NewConfigs() *Configs {
	return &Configs{tablets: map[string]*TabletConfig{}, self: map[string]string{}}
}

// ConfigMark is a line that set a value, with its place in the timeline so two
// marks can be ordered across sources.
type ConfigMark struct {
	From
	Seq int
	// Time is the line's wall time; Timed is false when the line had none
	// (a master line quoted without its envelope).
	Time  time.Time
	Timed bool
	// Why says in words what the line showed.
	Why string
}

func (m *ConfigMark) String() string {
	if m == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%s)", m.Why, m.Pos)
}

// After reports whether m came later in the timeline than o (a nil o is
// earlier than anything).
func (m *ConfigMark) After(o *ConfigMark) bool { return m != nil && (o == nil || m.Seq > o.Seq) }

// Config is a committed Raft config as the logs showed it.
type CommittedConfig struct {
	// Known is false until a commit, report or DeleteTablet reason shows
	// the tablet's config.
	Known bool
	Index int64
	Peers []yb.RaftPeer
	// PeersKnown is false when the index is known but not the members (a
	// DeleteTablet reason names only the index), or the text was cut.
	PeersKnown bool
	From       From
}

// Member reports whether peer is in c, and whether c lets one tell.
func (c *CommittedConfig) Member(peer string) (member, known bool) {
	for _, p := range c.Peers {
		if p.UUID == peer {
			return true, true
		}
	}
	return false, c.Known && c.PeersKnown
}

func (c *CommittedConfig) String() string {
	if !c.Known {
		return "unknown"
	}
	ps := make([]string, len(c.Peers))
	for i, p := range c.Peers {
		ps[i] = strings.TrimSpace(p.UUID + " " + p.MemberType)
	}
	members := "[" + strings.Join(ps, ", ") + "]"
	if !c.PeersKnown {
		members += " (members not all known)"
	}
	return fmt.Sprintf("opid_index %d %s (%s)", c.Index, members, c.From.Pos)
}

// PendingChange is a config change a leader set pending and that has not
// yet committed or aborted as far as the logs show.
type PendingChange struct {
	Type   yb.ChangeType
	Target string
	Config yb.RaftConfig
	From   ConfigMark
}

// Adds reports whether the change could add peer: an ADD_SERVER of it, or
// a pending config that lists it.
func (p *PendingChange) Adds(peer string) bool {
	if p == nil {
		return false
	}
	if p.Type == yb.AddServer && p.Target == peer {
		return true
	}
	return p.Type != yb.RemoveServer && p.Config.Peer(peer) != nil && p.Target == ""
}

// RBSSession is one remote bootstrap onto a replica, joined from both
// sides' lines.
type RBSSession struct {
	Source    string
	Session   string
	Start     *ConfigMark
	Replaced  *ConfigMark
	Done      *ConfigMark
	Failed    *ConfigMark
	Status    string
	Tombstone *ConfigMark
	// RoleChanged and RoleFailed are the source's ChangeRole after the
	// copy: the new replica promoted from PRE_VOTER or PRE_OBSERVER, or
	// not (RoleStatus says why).
	RoleChanged *ConfigMark
	RoleFailed  *ConfigMark
	RoleStatus  string
	// DestSeen is set once the destination's own log shows this session;
	// without it a failed session's tombstone could not have been seen.
	DestSeen bool
}

// Finished reports whether the copy completed.
func (s *RBSSession) Finished() bool { return s.Done != nil || s.Replaced != nil }

// Ended reports whether the session is over: finished, or failed and
// tombstoned.
func (s *RBSSession) Ended() bool { return s.Finished() || (s.Failed != nil && s.Tombstone != nil) }

func (s *RBSSession) String() string {
	var parts []string
	if s.Source != "" {
		parts = append(parts, "from "+s.Source)
	}
	for _, m := range []struct {
		name string
		m    *ConfigMark
	}{{"started", s.Start}, {"replaced superblock", s.Replaced}, {"done", s.Done}, {"failed", s.Failed}, {"tombstoned", s.Tombstone},
		{"role changed", s.RoleChanged}, {"role change failed", s.RoleFailed}} {
		if m.m != nil {
			parts = append(parts, fmt.Sprintf("%s %s", m.name, m.m.Pos))
		}
	}
	return strings.Join(parts, ", ")
}

// DeleteAttempt is a delete of a replica as one log line showed it.
type DeleteAttempt struct {
	// By is "tserver" (DeleteTablet received), "data" (data deleted),
	// "master" (task outcome) or "rbs" (tombstone after a failed RBS).
	By         string
	DeleteType string
	Outcome    string
	// Effective: the replica's data is gone (or going) after this line.
	Effective bool
	// GivenUp: the master stopped trying (TS dead, CAS failure, ...).
	GivenUp bool
	Reason  string
	At      ConfigMark
}

func (d *DeleteAttempt) String() string {
	s := d.By + " " + d.Outcome
	if d.DeleteType != "" {
		s += " " + d.DeleteType
	}
	if d.Reason != "" {
		s += " (" + d.Reason + ")"
	}
	return s + " " + d.At.Pos.String()
}

// ReplicaReport is a replica's last tablet report as the master logged it.
type ReplicaReport struct {
	Config yb.RaftConfig
	At     ConfigMark
}

// FollowerLag is how far behind its leader a follower said it was.
type FollowerLag struct {
	Leader        string
	Mine, Leaders ybval.OpID
	At            ConfigMark
}

// Behind is the number of ops the follower lacked.
func (l *FollowerLag) Behind() int64 { return l.Leaders.Index - l.Mine.Index }

// MemberEviction is a leader removing a follower it gave up on.
type MemberEviction struct {
	Leader      string
	CommitIndex int64
	Why         yb.EvictWhy
	Seconds     float64
	Reason      string
	At          ConfigMark
}

// ReplicaConfig is one replica's config-side state.
type ReplicaConfig struct {
	Tablet, Peer string
	Sessions     []*RBSSession
	Deletes      []*DeleteAttempt
	LastReport   *ReplicaReport
	// Holds is the last line showing the replica holds the tablet's data
	// (an RBS that finished, a report, a running tablet, a delete the
	// master could not carry out); Gone the last delete that took effect.
	Holds *ConfigMark
	Gone  *ConfigMark
	// HoldsSince is the first line of the current holding: the data
	// landed there (an RBS that finished) and every later Holds only
	// confirms it.
	HoldsSince *ConfigMark
	// ReportedGone is the last tablet report of the replica made after a
	// delete of it took effect: a tombstoned replica's consensus state,
	// which proves no data.
	ReportedGone *ConfigMark
	// Outside is the last line showing the replica out of the tablet's
	// config when the config itself is not in the logs (a DeleteTablet
	// reason, a master delete).
	Outside *ConfigMark
	Lag     *FollowerLag
	Evicted *MemberEviction
	// NeedsRBS is the last `Peer needs remote bootstrap` about it.
	NeedsRBS *ConfigMark
	// LagNoted is set once a lagging-member note was given for the
	// current removal, so the eviction and the delete that follows do not
	// both report it.
	LagNoted bool
	// deleting is set while a delete is in progress (its first line
	// seen), so one delete's several lines count once.
	deleting bool
}

// HoldsData reports whether, at this point of the timeline, the replica
// holds the tablet's data.
func (r *ReplicaConfig) HoldsData() bool { return r.Holds.After(r.Gone) }

// LastEffectiveDelete returns the latest delete of the replica that took
// effect, or nil.
func (r *ReplicaConfig) LastEffectiveDelete() *DeleteAttempt {
	for i := len(r.Deletes) - 1; i >= 0; i-- {
		if r.Deletes[i].Effective {
			return r.Deletes[i]
		}
	}
	return nil
}

// Session returns the latest RBS session, or nil.
func (r *ReplicaConfig) Session() *RBSSession {
	if len(r.Sessions) == 0 {
		return nil
	}
	return r.Sessions[len(r.Sessions)-1]
}

// Deleting reports whether a delete of the replica is under way (its
// first line seen, its last not yet), so its later lines are not taken
// for a second delete.
func (r *ReplicaConfig) Deleting() bool { return r.deleting }

// TabletConfig is one tablet's config-side state.
type TabletConfig struct {
	Tablet    string
	Committed CommittedConfig
	Pending   *PendingChange
	// LastAbort is the last aborted config change.
	LastAbort *ConfigMark
	replicas  map[string]*ReplicaConfig
	// request is the last ChangeConfig request a leader received, to name
	// the target of the pending config that follows it.
	request *yb.ConfigRequest
}

// Replica returns peer's state, creating it.
func (t *TabletConfig) Replica(peer string) *ReplicaConfig {
	r := t.replicas[peer]
	if r == nil {
		r = &ReplicaConfig{Tablet: t.Tablet, Peer: peer}
		t.replicas[peer] = r
	}
	return r
}

// Lookup returns peer's state, or nil.
func (t *TabletConfig) Lookup(peer string) *ReplicaConfig { return t.replicas[peer] }

// Replicas returns the replicas seen, sorted by peer.
func (t *TabletConfig) Replicas() []*ReplicaConfig {
	out := make([]*ReplicaConfig, 0, len(t.replicas))
	for _, r := range t.replicas {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Peer < out[j].Peer })
	return out
}

// Tablet returns a tablet's state, creating it.
func (c *Configs) Tablet(id string) *TabletConfig {
	t := c.tablets[id]
	if t == nil {
		t = &TabletConfig{Tablet: id, Committed: CommittedConfig{Index: -1}, replicas: map[string]*ReplicaConfig{}}
		c.tablets[id] = t
	}
	return t
}

// LookupTablet returns a tablet's state, or nil.
func (c *Configs) LookupTablet(id string) *TabletConfig { return c.tablets[id] }

// Tablets returns the tablets seen, sorted.
func (c *Configs) Tablets() []*TabletConfig {
	out := make([]*TabletConfig, 0, len(c.tablets))
	for _, t := range c.tablets {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tablet < out[j].Tablet })
	return out
}

// BusyRefusal is one `already in progress` refusal of a remote bootstrap.
type BusyRefusal struct {
	Tablet, Peer, From string
	At                 ConfigMark
}

// PeerOf returns the replica an event is about: its own peer, or for a
// tablet server line that printed none (tablet_service.cc's DeleteTablet
// and RBS refusals), the tablet server its source belongs to. Master lines
// are never placed that way: a master log's prefixes name the master's own
// sys catalog peer, not a replica of the tablet.
func (c *Configs) PeerOf(e yb.Event) string {
	if p := e.Rep().Peer; p != "" {
		return p
	}
	switch e.(type) {
	case *yb.DeleteTablet, *yb.RBSBusy:
		return c.self[e.Info().Pos.Source]
	}
	return ""
}

// learnSelf records which tablet server wrote a source.
func (c *Configs) learnSelf(source, peer string) {
	if peer == "" {
		return
	}
	if l := c.learnt; l.set && l.source == source && (l.self == peer || l.self == "") {
		return
	}
	old, seen := c.self[source]
	switch {
	case !seen:
		c.self[source] = peer
	case old != peer:
		c.self[source] = ""
	}
	c.learnt.source, c.learnt.self, c.learnt.set = source, c.self[source], true
}

func (c *Configs) mark(e parse.Event, why string) ConfigMark {
	m := e.Info()
	return ConfigMark{From: fromEvent(e), Seq: c.seq, Time: m.Time, Timed: m.Timed, Why: why}
}

// Apply folds one event in.
func (c *Configs) Apply(e parse.Event) {
	ye, ok := e.(yb.Event)
	if !ok {
		return
	}
	c.seq++
	src := e.Info().Pos.Source
	if ce, ok := ye.(yb.ConfigEvent); ok {
		c.learnSelf(src, ce.LocalInfo().Self)
	} else {
		c.learnSelf(src, ye.Rep().Peer)
		if strings.Contains(e.Info().Text, "Log matching property violated") {
			c.applyLag(ye)
		}
		return
	}
	tablet := ye.Rep().Tablet
	if tablet == "" {
		return
	}
	t := c.Tablet(tablet)
	peer := c.PeerOf(ye)
	switch ev := ye.(type) {
	case *yb.ConfigRequest:
		t.request = ev
	case *yb.ConfigPending:
		p := &PendingChange{Type: ev.Type, Config: ev.Config, From: c.mark(ev, "pending "+string(ev.Type))}
		p.Target = pendingTarget(t, ev)
		t.Pending = p
	case *yb.ConfigCommit:
		if ev.Ignored {
			return
		}
		idx := ev.New.Index
		if idx < 0 && ev.HasOp {
			idx = ev.Op.Index
		}
		if t.Committed.Known && idx <= t.Committed.Index {
			// Another replica printing a commit already folded in (every
			// replica logs each commit), or a lagging one catching up: it
			// says nothing new and must not end a newer pending change.
			return
		}
		t.Committed = CommittedConfig{Known: true, Index: idx, Peers: ev.New.Peers, PeersKnown: !ev.New.Cut, From: fromEvent(ev)}
		// Only one change is pending at a time: a new commit ends it.
		t.Pending = nil
		// A member again may be noted again when it is next removed.
		for _, r := range t.replicas {
			if m, _ := t.Committed.Member(r.Peer); m {
				r.LagNoted = false
			}
		}
	case *yb.ConfigAbort:
		t.Pending = nil
		m := c.mark(ev, "config change "+ev.Op.String()+" aborted")
		t.LastAbort = &m
	case *yb.MasterChangeConfig:
		if !ev.OK || peer == "" {
			return
		}
		member, known := t.Committed.Member(peer)
		switch {
		case ev.Type == yb.AddServer && !member && t.Committed.Known:
			t.Committed.Peers = append(append([]yb.RaftPeer(nil), t.Committed.Peers...), yb.RaftPeer{UUID: peer})
			t.Committed.From = fromEvent(ev)
		case ev.Type == yb.RemoveServer && (member || !known) && t.Committed.Known:
			t.Committed.Peers = withoutPeer(t.Committed.Peers, peer)
			t.Committed.From = fromEvent(ev)
		}
		if t.Pending != nil && t.Pending.Target == peer {
			t.Pending = nil
		}
	case *yb.TabletReport:
		if ev.HasConfig && ev.Config.Index >= 0 && (!t.Committed.Known || ev.Config.Index > t.Committed.Index) {
			t.Committed = CommittedConfig{Known: true, Index: ev.Config.Index, Peers: ev.Config.Peers, PeersKnown: !ev.Config.Cut, From: fromEvent(ev)}
		}
		if peer != "" {
			r := t.Replica(peer)
			r.LastReport = &ReplicaReport{Config: ev.Config, At: c.mark(ev, "report")}
			if r.Gone.After(r.Holds) {
				// A tombstoned replica keeps its consensus metadata (it
				// may still vote) and goes on reporting it: a report says
				// nothing of data that a delete of it already removed.
				// Only a line that shows the data again (a finished
				// remote bootstrap, the tablet running, the master
				// giving its delete up) outweighs that delete.
				m := c.mark(ev, "reported its consensus state after its delete "+r.Gone.Pos.String())
				r.ReportedGone = &m
				break
			}
			c.holds(r, ev, "reported the tablet to the master")
		}
	case *yb.DeleteTablet:
		if peer == "" {
			return
		}
		r := t.Replica(peer)
		if ev.ReasonIndex >= 0 && strings.Contains(ev.Reason, "not found in new config") {
			m := c.mark(ev, fmt.Sprintf("not in the config with opid_index %d", ev.ReasonIndex))
			r.Outside = &m
			if !t.Committed.Known || ev.ReasonIndex > t.Committed.Index {
				// The master saw a config these logs did not: keep its
				// index, and that this peer is not in it.
				t.Committed = CommittedConfig{Known: true, Index: ev.ReasonIndex, Peers: withoutPeer(t.Committed.Peers, peer), From: fromEvent(ev)}
			}
		}
		c.deleted(r, ev, &DeleteAttempt{By: "tserver", DeleteType: ev.DeleteType, Outcome: "received", Effective: true, Reason: ev.Reason})
	case *yb.TabletDataDeleted:
		if peer == "" {
			return
		}
		r := t.Replica(peer)
		d := &DeleteAttempt{By: "data", DeleteType: ev.State, Outcome: "deleting", Effective: true}
		switch {
		case ev.Startup:
			d.Outcome = "rolled forward at startup"
		case ev.Done:
			d.Outcome = "deleted"
		}
		c.deleted(r, ev, d)
		if ev.Done {
			r.deleting = false
		}
	case *yb.MasterDelete:
		if peer == "" {
			return
		}
		r := t.Replica(peer)
		d := &DeleteAttempt{By: "master", Outcome: string(ev.Outcome), GivenUp: ev.Final, Reason: ev.Detail}
		switch ev.Outcome {
		case yb.DeleteOK, yb.DeleteNotFound:
			d.Effective, d.GivenUp = true, false
			c.deleted(r, ev, d)
			r.deleting = false
			return
		}
		d.At = c.mark(ev, "master delete "+string(ev.Outcome))
		r.Deletes = append(r.Deletes, d)
		if ev.Final {
			// The master only deletes a replica it knows is there and
			// outside the config; it has stopped trying.
			m := c.mark(ev, "master gave up deleting it ("+string(ev.Outcome)+")")
			r.Outside = &m
			c.holds(r, ev, "its delete was given up ("+string(ev.Outcome)+")")
		}
	case *yb.RBS:
		if peer == "" {
			return
		}
		c.applyRBS(t.Replica(peer), ev)
	case *yb.RBSBusy:
		c.Busy = append(c.Busy, BusyRefusal{Tablet: tablet, Peer: peer, From: ev.From, At: c.mark(ev, "remote bootstrap already in progress")})
	case *yb.PeerEvicted:
		t.Replica(peer).Evicted = &MemberEviction{Leader: ev.Leader, CommitIndex: ev.CommitIndex, Why: ev.Why, Seconds: ev.Seconds, Reason: ev.Reason, At: c.mark(ev, "evicted")}
	case *yb.PeerNeedsRBS:
		m := c.mark(ev, "needs remote bootstrap")
		t.Replica(peer).NeedsRBS = &m
	case *yb.TabletStateChange:
		if ev.To == "RUNNING" && peer != "" {
			c.holds(t.Replica(peer), ev, "tablet running")
		}
	}
}

// pendingTarget names the peer a pending config adds, removes or promotes:
// the one that differs from the committed config, else the peer of the
// ChangeConfig request the leader received just before.
func pendingTarget(t *TabletConfig, ev *yb.ConfigPending) string {
	if t.Committed.Known && t.Committed.PeersKnown && !ev.Config.Cut {
		var diff []string
		for _, p := range ev.Config.Peers {
			old := t.Committed.peer(p.UUID)
			if old == nil || (ev.Type == yb.ChangeRole && old.MemberType != p.MemberType) {
				diff = append(diff, p.UUID)
			}
		}
		for _, p := range t.Committed.Peers {
			if ev.Config.Peer(p.UUID) == nil {
				diff = append(diff, p.UUID)
			}
		}
		if len(diff) == 1 {
			return diff[0]
		}
	}
	if r := t.request; r != nil && (r.Type == ev.Type || r.Type == "") && r.Info().Pos.Source == ev.Info().Pos.Source {
		return r.Server
	}
	return ""
}

func (c *CommittedConfig) peer(u string) *yb.RaftPeer {
	for i := range c.Peers {
		if c.Peers[i].UUID == u {
			return &c.Peers[i]
		}
	}
	return nil
}

func withoutPeer(ps []yb.RaftPeer, u string) []yb.RaftPeer {
	var out []yb.RaftPeer
	for _, p := range ps {
		if p.UUID != u {
			out = append(out, p)
		}
	}
	return out
}

func (c *Configs) holds(r *ReplicaConfig, e parse.Event, why string) {
	m := c.mark(e, why)
	if !r.HoldsData() {
		r.HoldsSince = &m
	}
	r.Holds = &m
	r.deleting = false
}

func (c *Configs) deleted(r *ReplicaConfig, e parse.Event, d *DeleteAttempt) {
	d.At = c.mark(e, d.By+" "+d.Outcome)
	r.Deletes = append(r.Deletes, d)
	if d.Effective {
		m := d.At
		r.Gone = &m
		r.deleting = true
	}
}

func (c *Configs) applyRBS(r *ReplicaConfig, ev *yb.RBS) {
	s := r.Session()
	m := c.mark(ev, "remote bootstrap "+string(ev.Phase))
	open := s != nil && !s.Ended() && s.Failed == nil
	switch ev.Phase {
	case yb.RBSStart, yb.RBSSession:
		// A destination's `Initiating` opens a new attempt; the session
		// lines that follow (either side) join the open one.
		if !open || (ev.Phase == yb.RBSStart && !ev.SourceSide && s.Start != nil && s.DestSeen) {
			s = &RBSSession{Start: &m}
			r.Sessions = append(r.Sessions, s)
		}
		if s.Start == nil {
			s.Start = &m
		}
		if ev.Other != "" && s.Source == "" && !ev.SourceSide {
			s.Source = ev.Other
		}
		if ev.SourceSide && ev.Other != "" && s.Source == "" {
			s.Source = ev.Other
		}
		if ev.Session != "" {
			s.Session = ev.Session
		}
		// A replica being copied holds no usable data yet.
	default:
		if s == nil {
			s = &RBSSession{}
			r.Sessions = append(r.Sessions, s)
		}
		switch ev.Phase {
		case yb.RBSReplaced:
			s.Replaced = &m
			c.holds(r, ev, "remote bootstrap replaced its superblock")
		case yb.RBSDone:
			if s.Done == nil {
				s.Done = &m
			}
			if !ev.SourceSide || r.Holds == nil || r.Gone.After(r.Holds) {
				c.holds(r, ev, "remote bootstrap finished")
			}
		case yb.RBSFailed, yb.RBSExpired:
			if s.Failed == nil {
				s.Failed = &m
				s.Status = ev.Status
				if ev.Phase == yb.RBSExpired {
					s.Status = "session expired"
				}
			}
		case yb.RBSRoleChanged:
			s.RoleChanged = &m
		case yb.RBSRoleFailed:
			s.RoleFailed, s.RoleStatus = &m, ev.Status
		case yb.RBSTombstone:
			s.Tombstone = &m
			c.deleted(r, ev, &DeleteAttempt{By: "rbs", DeleteType: "TABLET_DATA_TOMBSTONED", Outcome: "tombstoned after failed remote bootstrap", Effective: true})
		}
	}
	if !ev.SourceSide {
		s.DestSeen = true
	}
}

func (c *Configs) applyLag(e yb.Event) {
	leader, mine, leaders, ok := yb.LogMatchingLag(e.Info().Text)
	if !ok || e.Rep().Tablet == "" || e.Rep().Peer == "" {
		return
	}
	r := c.Tablet(e.Rep().Tablet).Replica(e.Rep().Peer)
	r.Lag = &FollowerLag{Leader: leader, Mine: mine, Leaders: leaders, At: c.mark(e, "log matching refused")}
}

// Lines describes one replica's config state as "name: value" lines, in a
// fixed order, for a finding's state.
func (t *TabletConfig) Lines(r *ReplicaConfig) []string {
	out := []string{"committed config: " + t.Committed.String()}
	if t.Pending != nil {
		out = append(out, fmt.Sprintf("pending config: %s of %s (%s)", t.Pending.Type, cfgPeerOrUnknown(t.Pending.Target), t.Pending.From.Pos))
	} else {
		out = append(out, "pending config: none")
	}
	if r == nil {
		return out
	}
	for i, s := range r.Sessions {
		out = append(out, fmt.Sprintf("rbs session %d: %s", i+1, s))
	}
	for _, d := range r.Deletes {
		out = append(out, "delete: "+d.String())
	}
	if r.LastReport != nil {
		out = append(out, fmt.Sprintf("last report: opid_index %d (%s)", r.LastReport.Config.Index, r.LastReport.At.Pos))
	}
	if r.Lag != nil {
		out = append(out, fmt.Sprintf("behind its leader: %d ops at %s, leader at %s (%s)", r.Lag.Behind(), r.Lag.Mine, r.Lag.Leaders, r.Lag.At.Pos))
	}
	if r.HoldsData() {
		out = append(out, "holds data: yes, "+r.Holds.String())
	} else if r.Gone != nil {
		s := "holds data: no, deleted " + r.Gone.Pos.String()
		if r.ReportedGone.After(r.Gone) {
			s += fmt.Sprintf("; reported after that (%s), as a tombstoned replica does", r.ReportedGone.Pos)
		}
		out = append(out, s)
	} else {
		out = append(out, "holds data: not seen")
	}
	return out
}

func cfgPeerOrUnknown(s string) string {
	if s == "" {
		return "an unknown peer"
	}
	return s
}
