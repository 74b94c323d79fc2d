package esrules

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay/esstate"
	"github.com/logsleuth/logsleuth/rules"
)

// Pack is the ES rule pack and the replayed state its rules read. Replay
// keeps what it learns of each recovery (a pending suspect commit, a
// recovery shown unsafe, the docs one left out); the pack only reads it
// and decides what to report, keeping what it reported.
type Pack struct {
	st       *esstate.State
	findings []*rules.Finding
	// lostReported marks the lost docs a doc-missing finding reports.
	lostReported map[*esstate.LostDoc]bool
	// missing are reported doc-missing findings to tie to a recovery.
	missing []*missingDoc
	// rejected are the stale-term refusals noted so far.
	rejected map[rejectKey]*rules.Finding
}

type missingDoc struct {
	f    *rules.Finding
	ev   *es.DocMissing
	tied bool
}

// New returns the pack for the CLI's pack list.
func New() rules.Pack { return NewPack() }

// NewPack returns the pack with its state reachable, for `logsleuth state`.
func NewPack() *Pack {
	return &Pack{st: esstate.New(), lostReported: map[*esstate.LostDoc]bool{}, rejected: map[rejectKey]*rules.Finding{}}
}

// State is the replayed state after the events observed so far.
func (p *Pack) State() *esstate.State { return p.st }

// Rules lists the pack's rules.
func (p *Pack) Rules() []rules.Rule {
	out := make([]rules.Rule, len(catalog))
	copy(out, catalog)
	return out
}

// Observe checks the event against the state before it, then applies it.
func (p *Pack) Observe(e parse.Event) {
	switch ev := e.(type) {
	case *es.TranslogCheckpoint:
		p.translogCheckpoint(ev)
	case *es.RecoveryCommits:
		p.recoveryCommits(ev)
	case *es.CommitPolicy:
		p.commitPolicy(ev)
	case *es.RecoverySource:
		p.recoverySource(ev)
	case *es.RecoveryTarget:
		p.recoveryTarget(ev)
	case *es.Op:
		p.opConflict(ev)
	case *es.Tracker:
		p.tracker(ev)
	case *es.SeqNoStats:
		p.seqNoStats(ev)
	case *es.SeqNoStatsMismatch:
		p.seqNoStatsMismatch(ev)
	case *es.DocMissing:
		p.docMissing(ev)
	case *es.OpRejected:
		p.opRejected(ev)
	case *es.SeqNoTwice:
		p.reported(SeqNoConflict, ev, ev.Where, "", fmt.Sprintf("seq# %d was processed twice in translog generation %d with different data: %s vs %s",
			ev.SeqNo, ev.Generation, opText(ev.Prev.ID, ev.Prev.PrimaryTerm), opText(ev.New.ID, ev.New.PrimaryTerm)),
			map[string]string{"seq_no": fmt.Sprint(ev.SeqNo), "generation": fmt.Sprint(ev.Generation),
				"prev_term": fmt.Sprint(ev.Prev.PrimaryTerm), "new_term": fmt.Sprint(ev.New.PrimaryTerm),
				"prev_doc": ev.Prev.ID, "new_doc": ev.New.ID, "prev_op": ev.PrevText, "new_op": ev.NewText})
	case *es.GCPAboveLCP:
		p.reported(GCPAboveLCP, ev, ev.Where, "", gcpAboveText(ev.GCP, ev.LCP), map[string]string{"gcp": fmt.Sprint(ev.GCP), "lcp": fmt.Sprint(ev.LCP)})
	case *es.GCPBelowInSync:
		p.reported(GCPBelowInSync, ev, ev.Where, ev.AllocationID, fmt.Sprintf("primary allocation %s has global checkpoint %d, below the in-sync copies' %s",
			ev.AllocationID, ev.GCP, ev.InSync), map[string]string{"gcp": fmt.Sprint(ev.GCP), "in_sync": ev.InSync})
	case *es.ReplayGap:
		facts := map[string]string{"required_from": fmt.Sprint(ev.From), "required_to": fmt.Sprint(ev.To)}
		missing := "the first missing op is not printed"
		if ev.Missing >= 0 {
			missing = fmt.Sprintf("first missing op #%d", ev.Missing)
			facts["first_missing"] = fmt.Sprint(ev.Missing)
		}
		p.reported(OpsRange, ev, ev.Where, "", fmt.Sprintf("translog replay did not cover the required range [%d:%d); %s", ev.From, ev.To, missing), facts)
	case *es.CheckpointMismatch:
		diff := checkpointDiff(ev.Expected.String(), ev.Got.String())
		p.reported(CheckpointMismatch, ev, ev.Where, "", fmt.Sprintf("checkpoint file %s differs from the generation's checkpoint: %s", orDash(ev.File), diff),
			map[string]string{"file": ev.File, "diff": diff})
	case *es.SyncIDDocCount:
		w := ev.Where
		w.Node = ev.ReplicaNode
		p.reported(SyncIDDocCount, ev, w, "", fmt.Sprintf("copies share a sync_id but the primary on %s has %d docs and the copy on %s has %d (%s)",
			ev.PrimaryNode, ev.PrimaryDocs, ev.ReplicaNode, ev.ReplicaDocs, signedDiff(ev.ReplicaDocs, ev.PrimaryDocs)),
			map[string]string{"primary_docs": fmt.Sprint(ev.PrimaryDocs), "replica_docs": fmt.Sprint(ev.ReplicaDocs), "primary_node": ev.PrimaryNode})
	}
	p.st.Apply(e)
}

// Finish turns what is still pending into findings and returns them all.
func (p *Pack) Finish() []rules.Finding {
	// A suspect nothing later settled: report the stale commit's chance.
	for _, c := range p.st.Suspects() {
		p.fireSuspect(c, c.Suspect, nil, nil)
	}
	p.tieMissing()
	p.reportLost()
	p.confirm()
	p.nameReuses()
	out := make([]rules.Finding, len(p.findings))
	for i, f := range p.findings {
		out[i] = *f
	}
	rules.Sort(out)
	return out
}

func (p *Pack) add(rule string, origin rules.Origin, subj rules.Subject, msg string, ev []rules.Evidence, facts map[string]string, state []string) *rules.Finding {
	f := &rules.Finding{Rule: rule, Severity: severity[rule], Origin: origin, Subject: subj, Message: msg,
		Evidence: dedupe(ev), Facts: facts, State: state}
	own(f)
	p.findings = append(p.findings, f)
	return f
}

// own gives a finding its own copies of the strings it took from log
// lines. parse/es hands out the texts of op and tracker lines from blocks
// shared with the lines around them; a finding outlives the op windows,
// and must not keep a block alive for each of its quotes.
func own(f *rules.Finding) {
	s := &f.Subject
	s.Index, s.Node, s.Allocation = strings.Clone(s.Index), strings.Clone(s.Node), strings.Clone(s.Allocation)
	for i := range f.Evidence {
		f.Evidence[i].Text = strings.Clone(f.Evidence[i].Text)
	}
	for k, v := range f.Facts {
		f.Facts[k] = strings.Clone(v)
	}
}

// reported files a break the database asserted itself.
func (p *Pack) reported(rule string, e parse.Event, w es.Where, alloc, msg string, facts map[string]string) *rules.Finding {
	var state []string
	subj := subject(w, alloc)
	if id, ok := shardOf(w); ok {
		if c := p.st.LookupFor(id, e, w.Node); c != nil {
			state = c.Lines()
			if alloc == "" {
				subj.Allocation = c.AllocID
			}
			subj.NodeID = c.NodeID
		}
	}
	return p.add(rule, rules.Reported, subj, msg, []rules.Evidence{rules.Cite(e)}, facts, state)
}

func shardOf(w es.Where) (esstate.ShardID, bool) {
	return esstate.ShardID{Index: w.Index, Shard: w.Shard}, w.HasShard()
}

func subject(w es.Where, alloc string) rules.Subject {
	s := rules.Subject{System: "es", Index: w.Index, Node: w.Node, Allocation: alloc}
	if w.HasShard() {
		n := w.Shard
		s.Shard = &n
	}
	return s
}

func copySubject(c *esstate.Copy) rules.Subject {
	n := c.Shard.Shard
	return rules.Subject{System: "es", Index: c.Shard.Index, Shard: &n, Node: c.Node, NodeID: c.NodeID, Allocation: c.AllocID}
}

func cite(r esstate.Ref) rules.Evidence {
	return rules.Evidence{Source: r.Source, Line: r.Line, Text: r.Text}
}

// dedupe keeps the first citation of each line, in order.
func dedupe(ev []rules.Evidence) []rules.Evidence {
	seen := map[string]bool{}
	var out []rules.Evidence
	for _, e := range ev {
		if e.Line == 0 {
			continue
		}
		k := fmt.Sprintf("%s:%d", e.Source, e.Line)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func opText(doc string, term int64) string {
	return fmt.Sprintf("doc %s term %d", doc, term)
}

func opsText(ops []esstate.OpRef) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}

func seqList(ops []esstate.OpRef) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = fmt.Sprint(o.Seq)
	}
	return strings.Join(parts, ",")
}

func docList(ops []esstate.OpRef) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.Doc
	}
	return strings.Join(parts, ",")
}

// checkpointDiff names the fields two Checkpoint renderings disagree on.
func checkpointDiff(a, b string) string {
	fa := strings.Split(strings.TrimSuffix(strings.TrimPrefix(a, "Checkpoint{"), "}"), ", ")
	fb := strings.Split(strings.TrimSuffix(strings.TrimPrefix(b, "Checkpoint{"), "}"), ", ")
	var out []string
	for i := range min(len(fa), len(fb)) {
		if fa[i] != fb[i] {
			k, va, _ := strings.Cut(fa[i], "=")
			_, vb, _ := strings.Cut(fb[i], "=")
			out = append(out, fmt.Sprintf("%s %s vs %s", k, va, vb))
		}
	}
	if len(out) == 0 {
		return "no field differs"
	}
	return strings.Join(out, ", ")
}

// gcpAboveText says what ES's gcp-above-lcp assertion printed: how many
// ops the copy is counted as holding that it has not processed, when the
// two numbers are checkpoints and the gcp is the higher.
func gcpAboveText(gcp, lcp int64) string {
	head := fmt.Sprintf("in-sync copy received global checkpoint %d above its local checkpoint %s", gcp, seqText(lcp))
	switch {
	case !checkpoint(lcp) || !checkpoint(gcp):
		return head + ": a value printed is no checkpoint, so no count of the ops it lacks is given"
	case gcp <= lcp:
		return head + ": the numbers printed do not put the global checkpoint above the local one (a cut or edited line), so no count is given"
	}
	first, _ := after(lcp)
	return head + fmt.Sprintf(" (%s ops, #%d..#%d, counted as present that are not)", opsAbove(gcp, lcp), first, gcp)
}

// nameReuses notes the node names the node lines gave more than one id.
func (p *Pack) nameReuses() {
	for _, r := range p.st.NameReuses {
		var ids []string
		var ev []rules.Evidence
		for i, id := range r.IDs {
			ids = append(ids, fmt.Sprintf("%s (%s)", id, r.At[i]))
			ev = append(ev, cite(r.At[i]))
		}
		p.add(NodeNameReused, rules.Derived, rules.Subject{System: "es", Node: r.Name},
			fmt.Sprintf("node name %s names %d node ids: %s; the shard copies on each id are kept apart", r.Name, len(r.IDs), strings.Join(ids, ", ")),
			ev, map[string]string{"node_ids": strings.Join(r.IDs, ",")}, nil)
	}
}
