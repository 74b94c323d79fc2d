package esstate

import (
	"sort"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse/es"
)

// What replay learns of a recovery's starting commit: whether the copy
// may have started from a commit it must not use (a suspect, until a line
// shows the choice), whether a line showed it did (Recovery.UnsafeAt),
// and the docs such a start left out (State.Lost). The rule pack reads
// these and decides what to report; the fold keeps them so that every
// pack sees one account of each recovery.

// Suspect is a recovering copy whose persisted global checkpoint covers
// ops it holds from a history the cluster abandoned: a commit holding
// them has max_seq_no <= the gcp and qualifies as the safe commit. A
// recovery-commits line, a file-based recovery or an ops-based start
// above the ops settles it; until then it is pending.
type Suspect struct {
	// At is the translog checkpoint line that showed the gcp.
	At  Ref
	GCP int64
	// Stale are the abandoned ops at or below the gcp, by seq#.
	Stale []OpRef
	// Lines is the copy's state when the line was read.
	Lines []string
}

// Below lists the suspect's stale ops below seq# start: the ones an
// ops-based recovery starting at start takes as already in the commit.
func (s *Suspect) Below(start int64) []OpRef {
	var out []OpRef
	for _, o := range s.Stale {
		if o.Seq < start {
			out = append(out, o)
		}
	}
	return out
}

// CommitVerdict is what the copy's known history says of the commit a
// recovery-commits diagnostic names as safe.
type CommitVerdict struct {
	// AboveGCP is set when the commit's max_seq_no is above the gcp.
	AboveGCP bool
	// Newer is a newer commit of the same translog that also qualifies.
	Newer *esval.Commit
	// ShouldDelete is the commit, when an earlier recovery started from an
	// older one while it existed and it was never deleted.
	ShouldDelete *CommitRef
	// Stale are ops of the abandoned history the commit holds.
	Stale []OpRef
}

// Unsafe reports whether the commit must not have been taken as safe.
func (v CommitVerdict) Unsafe() bool {
	return v.AboveGCP || v.Newer != nil || v.ShouldDelete != nil || len(v.Stale) > 0
}

// isCheckpoint reports whether n is a seq# or -1 (no ops).
func isCheckpoint(n int64) bool { return n >= esval.NoOpsPerformed }

// SafeCommitVerdict judges ev's safe commit by the gcp and commits it
// prints and by what replay knows of c (nil: a copy no line named yet).
func SafeCommitVerdict(c *Copy, ev *es.RecoveryCommits) CommitVerdict {
	var v CommitVerdict
	safe := ev.Safe
	if isCheckpoint(ev.GCP) && isCheckpoint(safe.MaxSeqNo) && safe.MaxSeqNo > ev.GCP {
		v.AboveGCP = true
	}
	idx := -1
	for i, cm := range ev.Commits {
		if cm.SameAs(safe) {
			idx = i
		}
	}
	for _, cm := range ev.Commits[idx+1:] {
		if idx >= 0 && cm.TranslogUUID == safe.TranslogUUID && isCheckpoint(ev.GCP) && isCheckpoint(cm.MaxSeqNo) && cm.MaxSeqNo <= ev.GCP {
			newer := cm
			v.Newer = &newer
			break
		}
	}
	if c == nil {
		return v
	}
	if cr := c.FindCommit(safe); cr != nil && cr.ShouldDelete && !cr.Deleted {
		v.ShouldDelete = cr
	}
	stale := c.StaleAtOrBelow(safe.MaxSeqNo)
	if safe.DocIDs != nil {
		var held []OpRef
		docs := map[string]bool{}
		for _, d := range safe.DocIDs {
			docs[d] = true
		}
		for _, o := range stale {
			if docs[o.Doc] {
				held = append(held, o)
			}
		}
		stale = held
	}
	v.Stale = stale
	return v
}

// SafeShouldHaveGone reports whether a deletion policy line naming commit
// k as safe, on a recovering copy, names one an earlier recovery should
// have deleted; it returns that commit.
func (c *Copy) SafeShouldHaveGone(k esval.Commit) *CommitRef {
	if c == nil || !c.Recovering() {
		return nil
	}
	cr := c.FindCommit(k)
	if cr == nil || !cr.ShouldDelete || cr.Deleted {
		return nil
	}
	return cr
}

// Judged reports whether replay already showed the copy's latest
// recovery to have started from a commit it must not use.
func (c *Copy) Judged() bool {
	r := c.Recovery()
	return r != nil && r.UnsafeAt.Line != 0
}

// LostDoc is a doc of the live history a recovery left out of a copy: the
// target's starting commit held a stale op at its seq#.
type LostDoc struct {
	Copy *Copy
	// Key is the copy's key when the loss was found.
	Key string
	Op  LostOp
	// Recovery is the line that showed the recovery's start.
	Recovery Ref
	// Lines is the copy's state then.
	Lines []string
	// Seen are the other copies whose op lines held the doc then, the
	// primary first: what the log proves of where it was written.
	Seen []DocSeen
}

// DocSeen is one copy's op line for a lost doc.
type DocSeen struct {
	Node    string
	Primary bool
	At      Ref
}

// LostDocs lists the docs recoveries left out, by shard and copy key, and
// in the order found within a copy.
func (s *State) LostDocs() []*LostDoc {
	out := append([]*LostDoc(nil), s.Lost...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Copy.Shard.Index != b.Copy.Shard.Index {
			return a.Copy.Shard.Index < b.Copy.Shard.Index
		}
		if a.Copy.Shard.Shard != b.Copy.Shard.Shard {
			return a.Copy.Shard.Shard < b.Copy.Shard.Shard
		}
		return a.Key < b.Key
	})
	return out
}

// Suspects lists the copies with a pending suspect, live and parked
// incarnations alike, by shard and copy key.
func (s *State) Suspects() []*Copy {
	var out []*Copy
	add := func(sh *Shard) {
		for _, c := range sh.byNode {
			if c.Suspect != nil {
				out = append(out, c)
			}
		}
	}
	for _, id := range s.ShardIDs() {
		add(s.Shards[id])
	}
	uuids := make([]string, 0, len(s.parked))
	for u := range s.parked {
		uuids = append(uuids, u)
	}
	sort.Strings(uuids)
	for _, u := range uuids {
		for _, sh := range s.parked[u] {
			add(sh)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Shard.Index != b.Shard.Index {
			return a.Shard.Index < b.Shard.Index
		}
		if a.Shard.Shard != b.Shard.Shard {
			return a.Shard.Shard < b.Shard.Shard
		}
		return a.Key < b.Key
	})
	return out
}

// noteLost records the live-history ops a recovery starting above lcp
// left out of c because its commit held stale ops at their seq#s.
func (s *State) noteLost(sh *Shard, c *Copy, stale []OpRef, lcp int64, at Ref, lines []string) {
	for _, o := range stale {
		if o.Seq > lcp {
			continue
		}
		live, ok := sh.History.Get(o.Seq)
		if !ok || live.Doc == o.Doc || live.Doc == "" {
			continue
		}
		s.Lost = append(s.Lost, &LostDoc{Copy: c, Key: c.Key, Op: LostOp{Primary: live, Stale: o}, Recovery: at, Lines: lines, Seen: seenOn(sh, c, live)})
	}
}

// seenOn lists the copies other than lost whose op lines hold op's doc at
// its seq# (a 6.x primary's line, which prints no seq#, at any estimated
// one), primary first.
func seenOn(sh *Shard, lost *Copy, op OpRef) []DocSeen {
	var out []DocSeen
	for _, cc := range sh.CopiesSorted() {
		if cc == lost {
			continue
		}
		for o := range cc.Ops.All() {
			if o.Doc == op.Doc && (o.Seq == op.Seq || o.Estimated) {
				out = append(out, DocSeen{Node: cc.Node, Primary: cc.Key == sh.Primary, At: o.At})
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Primary && !out[j].Primary })
	return out
}

// noteSuspect notes, before a translog checkpoint is applied, a
// recovering copy whose persisted gcp now covers stale ops.
func (c *Copy) noteSuspect(ev *es.TranslogCheckpoint) {
	ck := ev.Checkpoint
	if c.Suspect != nil || ck.Legacy || ck.GlobalCheckpoint < 0 || !c.Recovering() {
		return
	}
	stale := c.StaleAtOrBelow(ck.GlobalCheckpoint)
	if len(stale) == 0 {
		return
	}
	c.Suspect = &Suspect{At: RefOf(ev), GCP: ck.GlobalCheckpoint, Stale: stale, Lines: c.Lines()}
}

// opsStart settles, before an ops-based start at seq# start is applied,
// the copy's suspect: a file-based recovery drops it, an already judged
// recovery too, and a start above some of its stale ops shows a commit
// holding them was used (the recovery is judged, and the live ops at
// their seq#s are lost).
func (s *State) opsStart(sh *Shard, c *Copy, at Ref, start int64) {
	if start < 0 {
		return
	}
	r := c.Recovery()
	if r != nil && r.Kind == "file" {
		c.Suspect = nil
		return
	}
	sp := c.Suspect
	if sp == nil {
		return
	}
	if r != nil && r.UnsafeAt.Line != 0 {
		c.Suspect = nil
		return
	}
	covered := sp.Below(start)
	if len(covered) == 0 {
		return
	}
	c.Suspect = nil
	if r != nil {
		r.UnsafeAt = at
	}
	s.noteLost(sh, c, covered, start-1, at, sp.Lines)
}

// judgeCommits settles, before a recovery-commits diagnostic is applied,
// the copy's suspect and, when the commit it names was unsafe, judges the
// recovery and notes the docs it left out. It returns what the applied
// line then marks: the recovery it starts or continues is judged too.
func (s *State) judgeCommits(sh *Shard, c *Copy, ev *es.RecoveryCommits) (judged bool) {
	c.Suspect = nil
	v := SafeCommitVerdict(c, ev)
	if !v.Unsafe() {
		return false
	}
	r := c.Recovery()
	if r != nil && r.Safe == nil && r.UnsafeAt.Line != 0 {
		return false
	}
	at := RefOf(ev)
	if r != nil {
		r.UnsafeAt = at
	}
	s.noteLost(sh, c, v.Stale, ev.Safe.LocalCheckpoint, at, c.Lines())
	return true
}

// judgePolicy judges, before a deletion policy line is applied, the
// recovery of a copy that names as safe a commit it should have deleted.
func (c *Copy) judgePolicy(ev *es.CommitPolicy) {
	if ev.Action != "safe" || c.SafeShouldHaveGone(ev.Commit) == nil || c.Judged() {
		return
	}
	if r := c.Recovery(); r != nil {
		r.UnsafeAt = RefOf(ev)
	}
	c.Suspect = nil
}
