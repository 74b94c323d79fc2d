package ybrules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// Config rule IDs. They are a contract: never rename one.
const (
	OrphanReplica        = "yb/config/orphan-replica"
	DeleteOfPendingAdd   = "yb/config/delete-of-pending-replica"
	LaggingMember        = "yb/config/lagging-member"
	RBSStuck             = "yb/rbs/stuck"
	RBSDuplicateSession  = "yb/rbs/duplicate-session"
	maxDuplicateEvidence = 20
)

// configCatalog holds the Raft config change and remote bootstrap rules.
var configCatalog = []rules.Rule{
	{
		ID: OrphanReplica, Severity: rules.Error,
		Title: "Replica left outside the Raft config with the tablet's data (orphan)",
		Explain: "A tablet replica that holds the tablet's data must either be a member of the committed Raft config or be " +
			"deleted. A replica outside the config receives no updates from the leader and belongs to no Raft group: it " +
			"serves stale data to follower reads, holds disk, and can confuse the load balancer. It arises when a remote " +
			"bootstrap finishes after the config change that added the replica was undone (the RBS vs ConfigChange race), " +
			"or when the master's delete of a removed replica was given up (its tablet server was dead, a CAS check failed). " +
			"logsleuth reports a replica whose RBS finished, that reported the tablet, or whose delete the master gave up, " +
			"while it is outside the committed config, no change that could add it is pending, and no delete of it took " +
			"effect by the end of the logs. A report made after a delete of the replica took effect proves no data: a " +
			"tombstoned replica keeps its consensus metadata and goes on reporting it, so its node's own delete outweighs " +
			"the master's later reading of its heartbeat.",
		Example: "Committing config change with OpId 3.14. Old config: { opid_index: 13 ... D PRE_VOTER } }. New config: { opid_index: 14 (A, B, C) }\n" +
			"T t P D: Remote bootstrap for tablet ended successfully",
		Upstream: []string{
			"https://github.com/yugabyte/yugabyte-db/issues/31930",
			"https://github.com/yugabyte/yugabyte-db/issues/31241",
			"https://github.com/yugabyte/yugabyte-db/issues/21069",
		},
	},
	{
		ID: DeleteOfPendingAdd, Severity: rules.Error,
		Title: "Replica deleted while the change adding it is pending, or while it is a member",
		Explain: "A replica being added to a tablet's Raft config (its ADD_SERVER pending, its remote bootstrap running) " +
			"or already in the committed config must not be tombstoned: the config then counts a member that has no data, " +
			"and the tablet can lose its majority or be left under-replicated until the change is undone. The master must " +
			"delete only replicas outside the committed config whose adding change is no longer pending. A replica " +
			"tombstoning itself after its own remote bootstrap failed, a dropped table (TABLET_DATA_DELETED) and a " +
			"deletion rolled forward at startup are not reported.",
		Example: "Setting replicate pending config ... permanent_uuid: \"D\" member_type: PRE_VOTER ..., type = ADD_SERVER\n" +
			"Processing DeleteTablet for tablet t with delete_type TABLET_DATA_TOMBSTONED (...) from 10.0.0.9:51830",
		Upstream: []string{
			"https://github.com/yugabyte/yugabyte-db/issues/31930",
			"https://github.com/yugabyte/yugabyte-db/issues/31241",
		},
	},
	{
		ID: LaggingMember, Severity: rules.Note,
		Title: "Member evicted from the Raft config as lagging or unreachable",
		Explain: "A leader removes a follower it cannot reach for longer than follower_unavailable_considered_failed_sec, " +
			"or whose missing log entries it has already garbage collected; the master then tombstones the replica and " +
			"places a new one. That is YugabyteDB healing itself, but it costs a remote bootstrap and briefly lowers the " +
			"tablet's redundancy; repeated evictions point at a slow disk, a network partition or log retention too short " +
			"for the follower's lag. logsleuth says how far behind the follower was where the logs show it.",
		Example: "Refusing update from remote peer L: Log matching property violated. Preceding OpId in replica: term: 11 index: 1337331. " +
			"Preceding OpId from leader: term: 11 index: 1347955. (index mismatch)\n" +
			"Processing DeleteTablet for tablet t with delete_type TABLET_DATA_TOMBSTONED (TS X not found in new config with opid_index 1347956) from ...",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/1307"},
	},
	{
		ID: RBSStuck, Severity: rules.Warning,
		Title: "Remote bootstrap started and never finished or cleaned up",
		Explain: "A remote bootstrap copies a tablet onto a new replica, which stays in TABLET_DATA_COPYING until the copy " +
			"finishes; if it fails, the destination tombstones the replica so it can be bootstrapped again. A session that " +
			"started and neither finished nor failed and was tombstoned by the end of the logs leaves a replica half " +
			"copied: it cannot serve, and a new bootstrap of it is refused while the old one is in progress. A failure " +
			"seen only from the source's log is not reported, since the destination's tombstone would be in its own log.",
		Example: "T t P D:  Initiating RemoteBootstrap from Peer A (10.0.0.1:9100)\n" +
			"T t P D: Remote bootstrap: Unable to fetch data from remote peer A (10.0.0.1:9100): Network error ...",
	},
	{
		ID: RBSDuplicateSession, Severity: rules.Warning,
		Title: "Remote bootstrap requested again while one is in progress",
		Explain: "A tablet server refuses StartRemoteBootstrap for a tablet whose state transition (a running bootstrap) " +
			"is in progress, and leaders keep asking. Each refusal is harmless, but a storm of them means leaders are " +
			"retrying against slow or stuck bootstraps; older versions did not count the refusal as contact, so the leader " +
			"could evict the very peer it was bootstrapping.",
		Example: "Start remote bootstrap failed: Illegal state (yb/tserver/ts_tablet_manager.cc:868): State transition of tablet " +
			"cf63aaca47a940eca865ad29751b3417 already in progress: remote bootstrapping tablet from peer 5ea77fe2333046f39cd21282dff2dec1",
		Upstream: []string{
			"https://github.com/yugabyte/yugabyte-db/issues/302",
			"https://github.com/yugabyte/yugabyte-db/issues/428",
		},
	},
}

// ConfigsOf returns the config and remote bootstrap state p replayed, for
// `logsleuth state`.
func ConfigsOf(p *Pack) *ybstate.Configs { return p.st.Configs() }

// checkConfig checks a config or remote bootstrap event against the state
// before it.
func (p *Pack) checkConfig(e yb.Event) {
	c := ConfigsOf(p)
	if ce, ok := e.(yb.ConfigEvent); ok && e.Rep().Tablet != "" {
		t := c.Tablet(e.Rep().Tablet)
		peer := c.PeerOf(e)
		switch ev := ce.(type) {
		case *yb.DeleteTablet:
			p.checkDelete(t, peer, ev, ev.DeleteType, ev.ReasonIndex)
			p.checkRemovedLagging(t, peer, ev, ev.ReasonIndex)
		case *yb.TabletDataDeleted:
			if !ev.Startup {
				p.checkDelete(t, peer, ev, ev.State, -1)
			}
		case *yb.MasterDelete:
			if ev.Outcome == yb.DeleteOK {
				p.checkDelete(t, peer, ev, "", -1)
			}
		case *yb.PeerEvicted:
			p.noteEviction(t, peer, ev)
		case *yb.ConfigCommit:
			if !ev.Ignored && !ev.New.Cut {
				for _, old := range ev.Old.Peers {
					if ev.New.Peer(old.UUID) == nil {
						p.checkRemovedLagging(t, old.UUID, ev, ev.New.Index)
					}
				}
			}
		}
	}
}

func configSubject(tablet, peer string) rules.Subject {
	return rules.Subject{System: "yb", Tablet: tablet, Peer: peer}
}

func citeMark(m *ybstate.ConfigMark) rules.Evidence {
	return rules.Evidence{Source: m.Pos.Source, Line: m.Pos.Line, Text: m.Text()}
}

// checkDelete reports a delete of a replica whose adding change is pending
// or that is in the committed config. One delete prints several lines (the
// tablet server receives it, deletes the data, the master hears back); only
// its first is checked.
func (p *Pack) checkDelete(t *ybstate.TabletConfig, peer string, e yb.Event, deleteType string, reasonIndex int64) {
	if peer == "" || deleteType == "TABLET_DATA_DELETED" {
		return
	}
	r := t.Lookup(peer)
	if r != nil && r.Deleting() {
		return
	}
	f := rules.Finding{
		Rule: DeleteOfPendingAdd, Severity: rules.Error, Origin: rules.Derived,
		Subject:  configSubject(t.Tablet, peer),
		Evidence: []rules.Evidence{rules.Cite(e)},
		Facts:    map[string]string{"delete_type": deleteType},
	}
	switch member, _ := t.Committed.Member(peer); {
	case t.Pending.Adds(peer):
		f.Message = fmt.Sprintf("replica %s of tablet %s deleted while the %s adding it is still pending (set %s): the config will count a member with no data",
			peer, t.Tablet, t.Pending.Type, t.Pending.From.Pos)
		f.Evidence = append(f.Evidence, citeMark(&t.Pending.From))
		f.Facts["pending_type"] = string(t.Pending.Type)
	case member && (reasonIndex < 0 || reasonIndex <= t.Committed.Index):
		f.Message = fmt.Sprintf("replica %s of tablet %s deleted while it is a member of the committed Raft config (opid_index %d)",
			peer, t.Tablet, t.Committed.Index)
		f.Evidence = append(f.Evidence, rules.Evidence{Source: t.Committed.From.Pos.Source, Line: t.Committed.From.Pos.Line, Text: t.Committed.From.Text()})
		f.Facts["committed_opid_index"] = fmt.Sprint(t.Committed.Index)
	default:
		return
	}
	if r != nil && r.Session() != nil && !r.Session().Ended() {
		f.Message += "; its remote bootstrap is still running"
		if s := r.Session(); s.Start != nil {
			f.Evidence = append(f.Evidence, citeMark(s.Start))
		}
	}
	f.State = t.Lines(r)
	p.add(f, nil)
}

// noteEviction gives the lagging-member note for a leader's eviction.
func (p *Pack) noteEviction(t *ybstate.TabletConfig, peer string, ev *yb.PeerEvicted) {
	r := t.Lookup(peer)
	f := rules.Finding{
		Rule: LaggingMember, Severity: rules.Note, Origin: rules.Reported,
		Subject:  configSubject(t.Tablet, peer),
		Evidence: []rules.Evidence{rules.Cite(ev)},
		Facts:    map[string]string{"why": string(ev.Why), "commit_index": fmt.Sprint(ev.CommitIndex)},
	}
	how := "lagging"
	switch ev.Why {
	case yb.EvictUnreachable:
		how = "unreachable"
		if ev.Seconds >= 0 {
			how = fmt.Sprintf("unreachable for more than %g s", ev.Seconds)
			f.Facts["unreachable_s"] = fmt.Sprint(ev.Seconds)
		}
	case yb.EvictLogsGC:
		how = "lagging past the leader's retained log (garbage collected)"
	}
	f.Message = fmt.Sprintf("leader %s evicts %s from tablet %s's Raft config at commit index %d: %s", ev.Leader, peer, t.Tablet, ev.CommitIndex, how)
	if r != nil && r.Lag != nil {
		f.Message += fmt.Sprintf("; it was %d ops behind (at %s, leader at %s)", r.Lag.Behind(), r.Lag.Mine, r.Lag.Leaders)
		f.Facts["behind_ops"] = fmt.Sprint(r.Lag.Behind())
		f.Evidence = append(f.Evidence, citeMark(&r.Lag.At))
	}
	if r != nil {
		r.LagNoted = true
	}
	f.State = t.Lines(r)
	p.add(f, nil)
}

// checkRemovedLagging gives the lagging-member note when a follower that
// showed it was behind is removed from the config (a commit without it, or
// the master's delete naming the new config) without a logged eviction.
func (p *Pack) checkRemovedLagging(t *ybstate.TabletConfig, peer string, e yb.Event, index int64) {
	r := t.Lookup(peer)
	if r == nil || r.Lag == nil || r.LagNoted || r.Lag.Behind() <= 0 {
		return
	}
	r.LagNoted = true
	what := "removed from the Raft config"
	if index >= 0 {
		what = fmt.Sprintf("removed from the Raft config (new config opid_index %d)", index)
	}
	f := rules.Finding{
		Rule: LaggingMember, Severity: rules.Note, Origin: rules.Derived,
		Subject: configSubject(t.Tablet, peer),
		Message: fmt.Sprintf("%s was %d ops behind its leader %s (log at %s, leader sending after %s) and was %s",
			peer, r.Lag.Behind(), r.Lag.Leader, r.Lag.Mine, r.Lag.Leaders, what),
		Evidence: []rules.Evidence{citeMark(&r.Lag.At), rules.Cite(e)},
		Facts:    map[string]string{"behind_ops": fmt.Sprint(r.Lag.Behind()), "replica_op_id": r.Lag.Mine.String(), "leader_op_id": r.Lag.Leaders.String()},
	}
	if index >= 0 {
		f.Facts["new_config_opid_index"] = fmt.Sprint(index)
	}
	if m := e.Info(); m.Timed && r.Lag.At.Timed {
		if d := m.Time.Sub(r.Lag.At.Time); d >= 0 {
			f.Message += fmt.Sprintf(", %.3f s after its last refused update", d.Seconds())
			f.Facts["removed_after_s"] = fmt.Sprintf("%.3f", d.Seconds())
		}
	}
	if _, ok := e.(*yb.DeleteTablet); ok {
		f.Message += "; the master tombstoned it"
	}
	f.State = t.Lines(r)
	p.add(f, nil)
}

// finishConfig runs the config rules that need the whole timeline
// (orphans, stuck bootstraps, refusal storms).
func (p *Pack) finishConfig() {
	c := ConfigsOf(p)
	for _, t := range c.Tablets() {
		for _, r := range t.Replicas() {
			if r.Peer == "" {
				continue
			}
			p.checkOrphan(t, r)
			p.checkStuck(t, r)
		}
	}
	p.checkBusy(c)
}

func (p *Pack) checkOrphan(t *ybstate.TabletConfig, r *ybstate.ReplicaConfig) {
	if !r.HoldsData() || t.Pending.Adds(r.Peer) {
		return
	}
	member, known := t.Committed.Member(r.Peer)
	outsideBy := ""
	switch {
	case member:
		return
	case known:
		outsideBy = fmt.Sprintf("is not in the committed Raft config (%s)", t.Committed.String())
	case r.Outside != nil && !t.Committed.PeersKnown:
		outsideBy = "is outside the Raft config: " + r.Outside.Why
	default:
		return
	}
	f := rules.Finding{
		Rule: OrphanReplica, Severity: rules.Error, Origin: rules.Derived,
		Subject:  configSubject(t.Tablet, r.Peer),
		Evidence: []rules.Evidence{citeMark(r.HoldsSince)},
		Facts:    map[string]string{"holds_data": r.HoldsSince.Why},
	}
	if t.Committed.Known {
		f.Facts["committed_opid_index"] = fmt.Sprint(t.Committed.Index)
		if t.Committed.From.Pos.Line > 0 {
			f.Evidence = append(f.Evidence, rules.Evidence{Source: t.Committed.From.Pos.Source, Line: t.Committed.From.Pos.Line, Text: t.Committed.From.Text()})
		}
	}
	if r.Holds.Pos != r.HoldsSince.Pos {
		f.Evidence = append(f.Evidence, citeMark(r.Holds))
	}
	if r.Outside != nil && r.Outside.Pos != r.Holds.Pos {
		f.Evidence = append(f.Evidence, citeMark(r.Outside))
	}
	var given []string
	for _, d := range r.Deletes {
		if d.GivenUp && !d.Effective {
			given = append(given, fmt.Sprintf("%s at %s", d.Outcome, d.At.Pos))
		}
	}
	tail := "no delete of it took effect"
	f.Facts["deletes_taken_effect"] = "none"
	if d := r.LastEffectiveDelete(); d != nil {
		// HoldsData: the data came back after that delete.
		tail = fmt.Sprintf("no delete of it took effect after %s (its last delete, %s %s at %s, came before)", r.HoldsSince.Pos, d.By, d.Outcome, d.At.Pos)
		f.Facts["deletes_taken_effect"] = "none after " + r.HoldsSince.Pos.String()
		f.Evidence = append(f.Evidence, citeMark(&d.At))
	}
	if len(given) > 0 {
		tail = "the master gave up deleting it (" + strings.Join(given, "; ") + ")"
		f.Facts["delete_given_up"] = strings.Join(given, "; ")
	}
	if !known && len(given) > 0 && r.Outside.Pos == r.HoldsSince.Pos {
		// All the logs show is the master giving up (corpus 25): say it
		// in those terms.
		f.Message = fmt.Sprintf("the master gave up deleting replica %s of tablet %s (%s): the replica is outside the Raft config but keeps the tablet's data on that server, no later delete took effect and no config change that could add it is pending: it is an orphan that receives no updates",
			r.Peer, t.Tablet, strings.Join(given, "; "))
	} else {
		f.Message = fmt.Sprintf("replica %s of tablet %s holds the tablet's data (%s, %s) but %s; no config change that could add it is pending and %s: it is an orphan that receives no updates",
			r.Peer, t.Tablet, r.HoldsSince.Why, r.HoldsSince.Pos, outsideBy, tail)
	}
	f.State = t.Lines(r)
	p.add(f, nil)
}

func (p *Pack) checkStuck(t *ybstate.TabletConfig, r *ybstate.ReplicaConfig) {
	s := r.Session()
	if s == nil || s.Ended() || s.Start == nil && s.Failed == nil {
		return
	}
	start := s.Start
	if start == nil {
		start = s.Failed
	}
	// Deleted (by the master) after the session began: not left copying.
	if r.Gone.After(start) {
		return
	}
	f := rules.Finding{
		Rule: RBSStuck, Severity: rules.Warning, Origin: rules.Derived,
		Subject:  configSubject(t.Tablet, r.Peer),
		Evidence: []rules.Evidence{citeMark(start)},
		Facts:    map[string]string{"source": s.Source},
	}
	from := ""
	if s.Source != "" {
		from = " from " + s.Source
	}
	switch {
	case s.Failed != nil:
		if !s.DestSeen {
			return
		}
		f.Evidence = append(f.Evidence, citeMark(s.Failed))
		f.Facts["status"] = s.Status
		// The whole replay saw no tombstone line of this session.
		f.Facts["tombstoned"] = "no"
		f.Message = fmt.Sprintf("remote bootstrap of tablet %s onto %s%s failed (%s) and the replica was never tombstoned: it is left copying (TABLET_DATA_COPYING)",
			t.Tablet, r.Peer, from, clip(s.Status))
	default:
		f.Message = fmt.Sprintf("remote bootstrap of tablet %s onto %s%s started at %s and neither finished nor failed by the end of the logs: the replica is left copying",
			t.Tablet, r.Peer, from, start.Pos)
	}
	f.State = t.Lines(r)
	p.add(f, nil)
}

// checkBusy reports, per source, repeated refusals of a remote bootstrap
// already in progress.
func (p *Pack) checkBusy(c *ybstate.Configs) {
	bySource := map[string][]ybstate.BusyRefusal{}
	var sources []string
	for _, b := range c.Busy {
		s := b.At.Pos.Source
		if _, ok := bySource[s]; !ok {
			sources = append(sources, s)
		}
		bySource[s] = append(bySource[s], b)
	}
	sort.Strings(sources)
	for _, s := range sources {
		bs := bySource[s]
		if len(bs) < 2 {
			continue
		}
		seen, seenFrom := map[string]bool{}, map[string]bool{}
		var tablets, froms []string
		for _, b := range bs {
			if !seen[b.Tablet] {
				seen[b.Tablet] = true
				tablets = append(tablets, b.Tablet)
			}
			if b.From != "" && !seenFrom[b.From] {
				seenFrom[b.From] = true
				froms = append(froms, b.From)
			}
		}
		sort.Strings(tablets)
		sort.Strings(froms)
		f := rules.Finding{
			Rule: RBSDuplicateSession, Severity: rules.Warning, Origin: rules.Reported,
			Subject: rules.Subject{System: "yb"},
			Facts:   map[string]string{"rejections": fmt.Sprint(len(bs)), "tablets": strings.Join(tablets, ",")},
		}
		if len(froms) > 0 {
			// The peers the running bootstraps copy from.
			f.Facts["sources"] = strings.Join(froms, ",")
		}
		if len(tablets) == 1 {
			f.Subject.Tablet = tablets[0]
		}
		// At most maxDuplicateEvidence lines, in order: the first and the
		// last (the span is theirs), the first of each tablet and of each
		// source the facts name, then the others from the start.
		pick := map[int]bool{0: true, len(bs) - 1: true}
		tabSeen, srcSeen := map[string]bool{}, map[string]bool{}
		for i, b := range bs {
			if len(pick) >= maxDuplicateEvidence {
				break
			}
			if !tabSeen[b.Tablet] {
				tabSeen[b.Tablet], pick[i] = true, true
			}
			if b.From != "" && !srcSeen[b.From] {
				srcSeen[b.From], pick[i] = true, true
			}
		}
		for i := 0; i < len(bs) && len(pick) < maxDuplicateEvidence; i++ {
			pick[i] = true
		}
		for i := range bs {
			if pick[i] {
				f.Evidence = append(f.Evidence, citeMark(&bs[i].At))
			}
		}
		span := ""
		first, last := bs[0].At, bs[len(bs)-1].At
		if first.Timed && last.Timed {
			span = fmt.Sprintf(" in %.3f s", last.Time.Sub(first.Time).Seconds())
			f.Facts["span_s"] = fmt.Sprintf("%.3f", last.Time.Sub(first.Time).Seconds())
		}
		f.Message = fmt.Sprintf("%d remote bootstrap requests refused as already in progress%s, for %d tablet(s): %s",
			len(bs), span, len(tablets), strings.Join(tablets, ", "))
		p.add(f, nil)
	}
}
