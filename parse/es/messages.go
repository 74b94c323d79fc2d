package es

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
)

// msgErr is a message the decoder recognised but could not read.
type msgErr string

// numAfter reads the integer in the `[N]` that follows key in s.
func numAfter(s, key string) (int64, string, error) {
	i := strings.Index(s, key)
	if i < 0 {
		return 0, s, fmt.Errorf("no %q", key)
	}
	in, rest, ok := bracket(strings.TrimLeft(s[i+len(key):], " "))
	if !ok {
		return 0, s, fmt.Errorf("no [number] after %q", key)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(in), 10, 64)
	if err != nil {
		return 0, s, fmt.Errorf("%q after %q is not a number", in, key)
	}
	return n, rest, nil
}

// textAfter reads the `[...]` that follows key in s.
func textAfter(s, key string) (string, string, bool) {
	i := strings.Index(s, key)
	if i < 0 {
		return "", s, false
	}
	return bracket(strings.TrimLeft(s[i+len(key):], " "))
}

// nums reads several `[N]` values in order; it stops at the first error.
func nums(s string, keys []string, dst ...*int64) error {
	rest := s
	for i, k := range keys {
		n, r, err := numAfter(rest, k)
		if err != nil {
			return err
		}
		*dst[i], rest = n, r
	}
	return nil
}

// shardPrefix reads a `[index][n] ` the message itself starts with (component
// loggers print the shard id in the message, not the marker).
func shardPrefix(w *Where, msg string) string {
	msg = strings.TrimPrefix(msg, "--> ")
	if w.HasShard() {
		if idx, r, ok := bracket(msg); ok && idx == w.Index && isShardMarker(r) {
			_, r, _ = bracket(r)
			return strings.TrimPrefix(r, " ")
		}
		return msg
	}
	e := envelope{where: Where{Shard: -1}}
	rest := e.marker(msg)
	if e.where.HasShard() {
		w.Index, w.Shard = e.where.Index, e.where.Shard
	}
	return rest
}

// nodeName takes the name out of `{name}{id}...` or returns s.
func nodeName(s string) string {
	if strings.HasPrefix(s, "{") {
		if i := strings.IndexByte(s, '}'); i > 0 {
			return s[1:i]
		}
	}
	return s
}

// payload returns the text from the first occurrence of word (`Checkpoint{`)
// to its balanced closing brace or bracket.
func payload(s, word string) (string, bool) {
	i := strings.Index(s, word)
	if i < 0 {
		return "", false
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return s[i : j+1], true
			}
		}
	}
	return "", false
}

// message classifies one message of a log line or exception. It returns
// nil, "" for a message it does not know.
func message(m parse.Meta, w Where, recoverTo, msg string, th Thrown) (parse.Event, msgErr) {
	if recoverTo != "" {
		return recoverySource(m, w, recoverTo, msg)
	}
	if strings.HasSuffix(strings.TrimSpace(msg), "seq_no_stats mismatch") {
		return seqNoStatsMismatch(m, w, msg, th)
	}
	if e, ok := indexLife(m, msg); ok {
		return e, ""
	}
	msg = shardPrefix(&w, msg)
	switch {
	case strings.HasPrefix(msg, "index [") || strings.HasPrefix(msg, "index-done [") ||
		strings.HasPrefix(msg, "delete [") || strings.HasPrefix(msg, "noop ("):
		return opTrace(m, w, msg)
	case strings.HasPrefix(msg, "detected new primary with primary term"):
		e := &TermReset{Meta: m, Where: w}
		if err := nums(msg, []string{"primary term", "from", "to"}, &e.Term, &e.FromLCP, &e.ToLCP); err != nil {
			return nil, msgErr("term reset: " + err.Error())
		}
		return e, ""
	case strings.HasPrefix(msg, "state: ["):
		e := &ShardState{Meta: m, Where: w}
		from, r, ok1 := bracket(msg[len("state: "):])
		to, r, ok2 := bracket(strings.TrimPrefix(r, "->"))
		if !ok1 || !ok2 {
			return nil, msgErr("shard state: want state: [A]->[B]")
		}
		e.From, e.To = from, to
		e.Reason, _, _ = textAfter(r, "reason")
		return e, ""
	case isOpRejected(msg):
		return opRejected(m, w, msg, th)
	case isCheckpointMismatch(msg):
		return checkpointMismatch(m, w, msg, th)
	case strings.Contains(msg, "Checkpoint{"):
		p, ok := payload(msg, "Checkpoint{")
		if !ok {
			return nil, msgErr("translog checkpoint: Checkpoint{...} is cut")
		}
		c, err := esval.ParseCheckpoint(p)
		if err != nil {
			return nil, msgErr("translog checkpoint: " + err.Error())
		}
		e := &TranslogCheckpoint{Meta: m, Where: w, Checkpoint: c}
		switch {
		case strings.HasPrefix(msg, "open uncommitted translog checkpoint"):
			e.Context = "open-uncommitted"
		case strings.HasPrefix(msg, "recovered local translog from checkpoint"):
			e.Context = "recovered"
		}
		return e, ""
	case strings.HasPrefix(msg, "preparing shard for peer recovery"):
		return &RecoveryTarget{Meta: m, Where: w, Step: TargetPreparing, Start: -2}, ""
	case strings.HasPrefix(msg, "preparing for file-based recovery from"):
		src, _, _ := textAfter(msg, "from")
		return &RecoveryTarget{Meta: m, Where: w, Step: TargetFileBased, Source: nodeName(src), Start: -2}, ""
	case strings.HasPrefix(msg, "preparing for sequence-number-based recovery"):
		e := &RecoveryTarget{Meta: m, Where: w, Step: TargetSeqNo}
		n, r, err := numAfter(msg, "local checkpoint")
		if err != nil {
			return nil, msgErr("seq#-based recovery: " + err.Error())
		}
		src, _, _ := textAfter(r, "from")
		e.Start, e.Source = n, nodeName(src)
		return e, ""
	case strings.HasPrefix(msg, "starting recovery from "):
		return &RecoveryTarget{Meta: m, Where: w, Step: TargetStarting, Source: nodeName(strings.TrimPrefix(msg, "starting recovery from ")), Start: -2}, ""
	case strings.HasPrefix(msg, "recovery done from "):
		src, _, _ := textAfter(msg, "from")
		return &RecoveryTarget{Meta: m, Where: w, Step: TargetDone, Source: nodeName(src), Start: -2}, ""
	case strings.HasPrefix(msg, "peer recovery existing commits"):
		return recoveryCommits(m, w, msg)
	case strings.HasPrefix(msg, "Safe commit ["):
		e := &CommitPolicy{Meta: m, Where: w, Action: "safe"}
		safe, r, ok := textAfter(msg, "Safe commit")
		last, _, ok2 := textAfter(r, "last commit")
		if !ok || !ok2 {
			return nil, msgErr("deletion policy: want Safe commit [..], last commit [..]")
		}
		c, err := esval.ParseCommit(safe)
		if err != nil {
			return nil, msgErr("deletion policy: safe commit: " + err.Error())
		}
		l, err := esval.ParseCommit(last)
		if err != nil {
			return nil, msgErr("deletion policy: last commit: " + err.Error())
		}
		e.Commit, e.Last = c, &l
		return e, ""
	case strings.HasPrefix(msg, "Delete index commit ["):
		d, _, ok := textAfter(msg, "Delete index commit")
		if !ok {
			return nil, msgErr("deletion policy: want Delete index commit [..]")
		}
		c, err := esval.ParseCommit(d)
		if err != nil {
			return nil, msgErr("deletion policy: deleted commit: " + err.Error())
		}
		return &CommitPolicy{Meta: m, Where: w, Action: "delete", Commit: c}, ""
	case strings.HasPrefix(msg, "updated local checkpoint of ["):
		e := &Tracker{Meta: m, Where: w, What: TrackLCP}
		aid, r, _ := textAfter(msg, "checkpoint of")
		e.AllocationID = aid
		if err := nums(r, []string{"from", "to"}, &e.From, &e.To); err != nil {
			return nil, msgErr("local checkpoint update: " + err.Error())
		}
		return e, ""
	case strings.HasPrefix(msg, "marked [") && strings.HasSuffix(msg, "as in-sync"):
		aid, _, _ := textAfter(msg, "marked")
		return &Tracker{Meta: m, Where: w, What: TrackInSync, AllocationID: aid, From: -2, To: -2}, ""
	case strings.HasPrefix(msg, "updated global checkpoint from ["):
		e := &Tracker{Meta: m, Where: w, What: TrackReplicaGCP}
		if err := nums(msg, []string{"from", "to"}, &e.From, &e.To); err != nil {
			return nil, msgErr("global checkpoint update: " + err.Error())
		}
		e.Reason, _, _ = textAfter(msg, "due to")
		return e, ""
	case strings.HasPrefix(msg, "global checkpoint updated to [") || strings.HasPrefix(msg, "updated global checkpoint to ["):
		e := &Tracker{Meta: m, Where: w, What: TrackPrimaryGCP, From: -2}
		n, _, err := numAfter(msg, "to")
		if err != nil {
			return nil, msgErr("global checkpoint update: " + err.Error())
		}
		e.To = n
		return e, ""
	case strings.HasPrefix(msg, "SeqNoStats{"):
		s, err := esval.ParseSeqNoStats(strings.TrimSpace(msg))
		if err != nil {
			return nil, msgErr("seq# stats: " + err.Error())
		}
		return &SeqNoStats{Meta: m, Where: w, Stats: &s}, ""
	// Before LocalCheckpointState{: 6.x prints the in-sync copies as
	// a map of those.
	case isGCPBelowInSync(msg):
		return gcpBelowInSync(m, w, msg, th)
	case strings.Contains(msg, "LocalCheckpointState{"):
		p, _ := payload(msg, "LocalCheckpointState{")
		s, err := esval.ParseLocalCheckpointState(p)
		if err != nil {
			return nil, msgErr("local checkpoint state: " + err.Error())
		}
		return &SeqNoStats{Meta: m, Where: w, State: &s}, ""
	case strings.HasPrefix(msg, "primary-replica resync completed with "):
		count, _, _ := strings.Cut(strings.TrimPrefix(msg, "primary-replica resync completed with "), " ")
		n, err := strconv.ParseInt(count, 10, 64)
		if err != nil {
			return nil, msgErr("resync: operation count is not a number")
		}
		return &Resync{Meta: m, Where: w, Done: true, Ops: n}, ""
	case strings.HasPrefix(msg, "sending batch of ["):
		n, _, err := numAfter(msg, "batch of")
		if err != nil {
			return nil, msgErr("resync batch: " + err.Error())
		}
		return &Resync{Meta: m, Where: w, Ops: n}, ""
	case strings.HasPrefix(msg, "resync completed"):
		return &Resync{Meta: m, Where: w, Done: true, Ops: -1}, ""
	case strings.HasPrefix(msg, "added {{") || strings.Contains(msg, "}, added {{"):
		return addedNodes(m, msg)
	case strings.HasPrefix(msg, "start disrupting (") || strings.HasPrefix(msg, "stop disrupting ("):
		return disruption(m, msg), ""
	case isDocMissing(msg):
		return docMissing(m, msg, th), ""
	case isSeqNoTwice(msg):
		return seqNoTwice(m, w, msg, th)
	case isGCPAboveLCP(msg):
		return gcpAboveLCP(m, w, msg, th)
	case isReplayGap(msg):
		return replayGap(m, w, msg, th)
	case isSyncIDDocCount(msg):
		return syncIDDocCount(m, w, msg, th)
	}
	return nil, ""
}

// thrownMessage classifies the message of an exception: only the
// assertions and invariant exceptions ES raises (events that carry the
// thrown class) are read from one. A state a log line prints, quoted in
// an exception's message, is the alarm's text.
func thrownMessage(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	// A test's assertion continues on the lines under it (hamcrest's
	// Expected/but): its reason is the first.
	if first, _, _ := strings.Cut(msg, "\n"); strings.HasSuffix(strings.TrimSpace(first), "seq_no_stats mismatch") {
		return seqNoStatsMismatch(m, w, first, th)
	}
	msg = shardPrefix(&w, msg)
	switch {
	case isOpRejected(msg):
		return opRejected(m, w, msg, th)
	case isCheckpointMismatch(msg):
		return checkpointMismatch(m, w, msg, th)
	case isGCPBelowInSync(msg):
		return gcpBelowInSync(m, w, msg, th)
	case isDocMissing(msg):
		return docMissing(m, msg, th), ""
	case isSeqNoTwice(msg):
		return seqNoTwice(m, w, msg, th)
	case isGCPAboveLCP(msg):
		return gcpAboveLCP(m, w, msg, th)
	case isReplayGap(msg):
		return replayGap(m, w, msg, th)
	case isSyncIDDocCount(msg):
		return syncIDDocCount(m, w, msg, th)
	}
	return nil, ""
}

// indexLife reads the master's `[name] creating index, cause [..]...` and
// `[name/uuid] deleting index`.
func indexLife(m parse.Meta, msg string) (*IndexLife, bool) {
	in, rest, ok := bracket(msg)
	if inner, _, ok := bracket(in); ok {
		// `[[name/uuid]]`: an Index printed inside the message's brackets.
		in = inner
	}
	if !ok || in == "" {
		return nil, false
	}
	switch {
	case strings.HasPrefix(rest, " creating index, cause ["):
		name, _, _ := strings.Cut(in, "/")
		return &IndexLife{Meta: m, Index: name}, true
	case strings.TrimSpace(rest) == "deleting index":
		name, uuid, _ := strings.Cut(in, "/")
		return &IndexLife{Meta: m, Index: name, UUID: uuid, Deleted: true}, true
	}
	return nil, false
}

func isOpRejected(msg string) bool { return strings.Contains(msg, "is too old (current [") }

func isCheckpointMismatch(msg string) bool {
	return strings.Contains(msg, "Checkpoint{") && (strings.Contains(msg, "but got:") || strings.Contains(msg, "already exists but has corrupted content"))
}

func isGCPBelowInSync(msg string) bool {
	return strings.HasPrefix(msg, "global checkpoint [") && strings.Contains(msg, "less than in-sync global checkpoints")
}

func isDocMissing(msg string) bool {
	return strings.HasPrefix(msg, "doc [") && strings.Contains(msg, "] indexed via node [")
}

func isSeqNoTwice(msg string) bool {
	return strings.HasPrefix(msg, "seqNo [") && strings.Contains(msg, "was processed twice")
}

func isGCPAboveLCP(msg string) bool {
	return strings.HasPrefix(msg, "supposedly in-sync shard copy received a global checkpoint")
}

func isReplayGap(msg string) bool {
	return strings.Contains(msg, "translog replay failed to cover required sequence numbers")
}

func isSyncIDDocCount(msg string) bool {
	return strings.HasPrefix(msg, "try to recover [") && strings.Contains(msg, "with sync id but number of docs differ")
}

func seqNoStatsMismatch(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	r, err := esval.ParseRouting(strings.TrimSpace(msg))
	if err != nil {
		return nil, msgErr("seq_no_stats mismatch: " + err.Error())
	}
	return &SeqNoStatsMismatch{Meta: m, Where: Where{Node: w.Node, Index: r.Index, Shard: r.Shard}, Thrown: th, Routing: r}, ""
}

func opRejected(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &OpRejected{Meta: m, Where: w, Thrown: th}
	// 5.x IndexShard says `operation term [o]`, 6.x+ and OpenSearch
	// `operation primary term [o]`.
	key := "operation primary term"
	if !strings.Contains(msg, key) {
		key = "operation term"
	}
	if err := nums(msg, []string{key, "current"}, &e.OpTerm, &e.Current); err != nil {
		return nil, msgErr("stale-term rejection: " + err.Error())
	}
	return e, ""
}

func gcpBelowInSync(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &GCPBelowInSync{Meta: m, Where: w, Thrown: th}
	n, r, err := numAfter(msg, "global checkpoint")
	if err != nil {
		return nil, msgErr("gcp below in-sync assertion: " + err.Error())
	}
	e.GCP = n
	e.AllocationID, r, _ = textAfter(r, "allocation ID")
	e.InSync, _, _ = textAfter(r, "global checkpoints")
	return e, ""
}

func docMissing(m parse.Meta, msg string, th Thrown) *DocMissing {
	e := &DocMissing{Meta: m, Thrown: th}
	e.DocID, _, _ = textAfter(msg, "doc")
	e.Via, _, _ = textAfter(msg, "via node")
	e.Checked, _, _ = textAfter(msg, "checked via node")
	if e.Checked == "" {
		// The message has no closing parenthesis; a cut line may
		// lose the bracket too.
		if i := strings.Index(msg, "checked via node ["); i >= 0 {
			e.Checked = strings.TrimRight(msg[i+len("checked via node ["):], "])")
		}
	}
	return e
}

func gcpAboveLCP(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &GCPAboveLCP{Meta: m, Where: w, Thrown: th}
	if err := nums(msg, []string{"global checkpoint", "local checkpoint"}, &e.GCP, &e.LCP); err != nil {
		return nil, msgErr("gcp above lcp assertion: " + err.Error())
	}
	return e, ""
}

func replayGap(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &ReplayGap{Meta: m, Where: w, Thrown: th}
	rng, _, ok := textAfter(msg, "required range")
	if !ok {
		// The range is printed half-open: `[R:E)`.
		if i := strings.Index(msg, "required range ["); i >= 0 {
			rng, _, _ = strings.Cut(msg[i+len("required range ["):], ")")
			ok = true
		}
	}
	a, b, ok2 := strings.Cut(rng, ":")
	from, err1 := strconv.ParseInt(a, 10, 64)
	to, err2 := strconv.ParseInt(strings.TrimRight(b, ")]"), 10, 64)
	if !ok || !ok2 || err1 != nil || err2 != nil {
		return nil, msgErr("replay gap: want required range [R:E)")
	}
	e.From, e.To = from, to
	e.Missing = -2
	if n, _, err := numAfter(msg, "first missing op is"); err == nil {
		e.Missing = n
	}
	return e, ""
}

func opTrace(m parse.Meta, w Where, msg string) (parse.Event, msgErr) {
	e := &Op{Meta: m, Where: w, Term: -1, OpTerm: -1, SeqNo: esval.Unassigned}
	word, rest, _ := strings.Cut(msg, " ")
	switch word {
	case "index", "index-done", "delete":
		e.Op = "index"
		if word == "delete" {
			e.Op = "delete"
		}
		e.Done = word == "index-done"
		id, r, ok := bracket(rest)
		if !ok {
			return nil, msgErr(word + " trace: want [id]")
		}
		// 6.x prints [type][id].
		if id2, r2, ok := bracket(r); ok {
			e.Type, id, r = id, id2, r2
		}
		e.DocID = id
		rest = r
	case "noop":
		e.Op = "noop"
	}
	var (
		n   int64
		err error
	)
	switch {
	case e.Done && strings.Contains(rest, "result-seq#"):
		n, _, err = numAfter(rest, "result-seq#")
	case strings.Contains(rest, "seq#"):
		n, _, err = numAfter(rest, "seq#")
	case strings.Contains(rest, "seq no"):
		n, _, err = numAfter(rest, "seq no")
	default:
		return nil, msgErr(word + " trace: no seq#")
	}
	if err != nil {
		return nil, msgErr(word + " trace: " + err.Error())
	}
	e.SeqNo = n
	if aid, _, ok := textAfter(rest, "allocation-id"); ok {
		if a, ok := strings.CutPrefix(aid, "[id="); ok {
			aid, _, _ = strings.Cut(strings.TrimSuffix(a, "]"), ",")
		}
		e.AllocationID = aid
	}
	key := "primaryTerm"
	if e.Done && strings.Contains(rest, "result-term") {
		key = "result-term"
	}
	if t, _, err := numAfter(rest, key); err == nil {
		e.Term = t
	}
	if t, _, err := numAfter(rest, "operationPrimaryTerm"); err == nil {
		e.OpTerm = t
	}
	e.Origin, _, _ = textAfter(rest, "origin")
	if f, _, ok := textAfter(rest, "failure"); ok && f != "null" {
		e.Failure = f
	}
	return e, ""
}

func recoverySource(m parse.Meta, w Where, target, msg string) (parse.Event, msgErr) {
	e := &RecoverySource{Meta: m, Where: w, Target: target, Start: -2, End: -2, ReqFrom: -2, ReqTo: -2}
	fail := func(err error) (parse.Event, msgErr) {
		return nil, msgErr("recovery source: " + err.Error())
	}
	switch {
	case strings.HasPrefix(msg, "performing sequence numbers based recovery"):
		e.Step = StepSeqNoStart
		n, _, err := numAfter(msg, "starting at")
		if err != nil {
			return fail(err)
		}
		e.Start = n
	case strings.HasPrefix(msg, "performing file-based recovery followed by history replay"):
		// 7.4+: the files, then the ops from the safe commit's
		// local checkpoint + 1.
		e.Step = StepFileBasedStart
		n, _, err := numAfter(msg, "starting at")
		if err != nil {
			return fail(err)
		}
		e.Start = n
	case strings.HasPrefix(msg, "testing sequence numbers in range: ["):
		// 6.x: whether the translog still holds [S, lcp] decides an
		// ops-based recovery.
		e.Step = StepSeqNoRange
		from, to, ok := numRange(strings.TrimSuffix(strings.TrimPrefix(msg, "testing sequence numbers in range: ["), "]"), ", ")
		if !ok {
			return fail(fmt.Errorf("want a range [S, E]"))
		}
		e.Start, e.End = from, to
	case strings.HasPrefix(msg, "history is retained by "):
		// 7.4+: what keeps the ops the recovery sends. With a lease the
		// line prints it (`RetentionLease{id='..', retainingSequenceNumber=N,
		// timestamp=T, source='..'}`): the history is kept from #N on, and
		// T is the lease's time in ms, no seq#.
		e.Step = StepHistoryRetained
		by := strings.TrimSpace(strings.TrimPrefix(msg, "history is retained by "))
		if lease, ok := strings.CutPrefix(by, "RetentionLease{"); ok {
			e.RetainedBy = "lease"
			if id, ok := strings.CutPrefix(lease, "id='"); ok {
				e.LeaseID, _, _ = strings.Cut(id, "'")
			}
			_, n, ok := strings.Cut(lease, ", retainingSequenceNumber=")
			n, _, _ = strings.Cut(n, ",")
			seq, err := strconv.ParseInt(n, 10, 64)
			if !ok || err != nil {
				return fail(fmt.Errorf("retention lease: want retainingSequenceNumber=N"))
			}
			e.Start = seq
			return e, ""
		}
		e.RetainedBy = by
	case strings.HasPrefix(msg, "skipping [phase1]"):
		e.Step = StepSkipPhase1
		e.SyncID, _, _ = textAfter(msg, "sync id")
	case strings.HasPrefix(msg, "recovery [phase1]: recovering_files"):
		e.Step = StepPhase1Files
		if err := nums(msg, []string{"recovering_files", "reusing_files"}, &e.Files, &e.Reused); err != nil {
			return fail(err)
		}
	case strings.HasPrefix(msg, "recovery [phase1]: took"):
		e.Step = StepPhase1Took
	case strings.HasPrefix(msg, "recovery [phase1]: prepare remote engine"):
		e.Step = StepPhase1Engine
	case strings.HasPrefix(msg, "all operations up to ["):
		e.Step = StepEndSeqNo
		n, _, err := numAfter(msg, "up to")
		if err != nil {
			return fail(err)
		}
		e.End = n
	case strings.HasPrefix(msg, "recovery [phase2]: sending transaction log operations"):
		e.Step = StepPhase2Send
		if !strings.Contains(msg, "seq# from") {
			// 7.x+: `(from [S] to [E]`, the required range unprinted.
			if err := nums(msg, []string{"from", "to"}, &e.Start, &e.End); err != nil {
				return fail(err)
			}
			return e, ""
		}
		n, r, err := numAfter(msg, "seq# from")
		if err != nil {
			return fail(err)
		}
		e.Start = n
		rng, _, ok := textAfter(r, "required")
		from, to, ok2 := numRange(rng, ":")
		if !ok || !ok2 {
			return fail(fmt.Errorf("want required [R:E]"))
		}
		e.ReqFrom, e.ReqTo = from, to
	case strings.HasPrefix(msg, "sent batch of [") || strings.HasPrefix(msg, "sent final batch of ["):
		e.Step = StepBatch
		e.Final = strings.HasPrefix(msg, "sent final")
		n, _, err := numAfter(msg, "batch of")
		if err != nil {
			return fail(err)
		}
		e.Ops = n
	case strings.HasPrefix(msg, "recovery [phase2]: took"):
		e.Step = StepPhase2Took
	case strings.HasPrefix(msg, "finalizing recovery"):
		e.Step = StepFinalize
	default:
		return nil, ""
	}
	return e, ""
}

// numRange reads `A<sep>B`, two integers.
func numRange(s, sep string) (from, to int64, ok bool) {
	a, b, ok := strings.Cut(s, sep)
	from, err1 := strconv.ParseInt(a, 10, 64)
	to, err2 := strconv.ParseInt(b, 10, 64)
	return from, to, ok && err1 == nil && err2 == nil
}

// recoveryCommits reads the whole (joined) diagnostic.
func recoveryCommits(m parse.Meta, w Where, msg string) (parse.Event, msgErr) {
	e := &RecoveryCommits{Meta: m, Where: w}
	list, r, ok := textAfter(msg, "existing commits")
	if !ok {
		return nil, msgErr("peer recovery commits: want existing commits[[...]]")
	}
	v, err := esval.ParseValue("[" + list + "]")
	if err != nil || v.List == nil || len(v.List.Items) != 1 || v.List.Items[0].Key.List == nil {
		return nil, msgErr(fmt.Sprintf("peer recovery commits: existing commits: %v", err))
	}
	for i, it := range v.List.Items[0].Key.List.Items {
		c, err := esval.CommitOf(it.Key)
		if err != nil {
			return nil, msgErr(fmt.Sprintf("peer recovery commits: commit %d: %v", i+1, err))
		}
		e.Commits = append(e.Commits, c)
	}
	safe, r, ok := textAfter(r, "safe commit")
	if !ok {
		return nil, msgErr("peer recovery commits: want safe commit [...]")
	}
	c, err := esval.ParseCommit(safe)
	if err != nil {
		return nil, msgErr("peer recovery commits: safe commit: " + err.Error())
	}
	e.Safe = c
	g, _, err := numAfter(r, "gcp")
	if err != nil {
		return nil, msgErr("peer recovery commits: " + err.Error())
	}
	e.GCP = g
	return e, ""
}

func disruption(m parse.Meta, msg string) *Disruption {
	e := &Disruption{Meta: m, Start: strings.HasPrefix(msg, "start")}
	inner := strings.TrimSuffix(msg[strings.IndexByte(msg, '(')+1:], ")")
	if t, rest, ok := strings.Cut(inner, ", disrupted links: "); ok {
		_, e.Type, _ = strings.Cut(t, ": ")
		e.Links = rest
	}
	rest := e.Links
	for {
		i := strings.Index(rest, "partition ")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], ": [")
		if j < 0 {
			break
		}
		list, r, ok := bracket(rest[i+j+2:])
		if !ok {
			break
		}
		var names []string
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		e.Partitions = append(e.Partitions, names)
		rest = r
	}
	return e
}

func seqNoTwice(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &SeqNoTwice{Meta: m, Where: w, Thrown: th}
	if err := nums(msg, []string{"seqNo", "generation"}, &e.SeqNo, &e.Generation); err != nil {
		return nil, msgErr("seq# processed twice: " + err.Error())
	}
	for _, k := range []struct {
		key  string
		dst  *esval.Op
		text *string
	}{{"prvOp", &e.Prev, &e.PrevText}, {"newOp", &e.New, &e.NewText}} {
		in, _, ok := textAfter(msg, k.key)
		if !ok {
			return nil, msgErr("seq# processed twice: no " + k.key + " [...]")
		}
		o, err := esval.ParseOp(in)
		if err != nil {
			return nil, msgErr("seq# processed twice: " + k.key + ": " + err.Error())
		}
		*k.dst, *k.text = o, in
	}
	return e, ""
}

// checkpointMismatch reads Translog's check of the newest generation's
// checkpoint copy: up to 6.x `Checkpoint file F already exists but has
// corrupted content expected: C but got: C` (IllegalStateException),
// from 7.0 `translog from source [P] is corrupted, checkpoint file F
// already exists but has corrupted content: expected C but got C`
// (TranslogCorruptedException).
func checkpointMismatch(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &CheckpointMismatch{Meta: m, Where: w, Thrown: th}
	for _, k := range []string{"Checkpoint file ", "checkpoint file "} {
		if i := strings.Index(msg, k); i >= 0 {
			e.File, _, _ = strings.Cut(msg[i+len(k):], " ")
			break
		}
	}
	i := strings.Index(msg, "expected")
	j := strings.Index(msg, "but got")
	if i < 0 || j < i {
		return nil, msgErr("checkpoint mismatch: want expected Checkpoint{..} but got Checkpoint{..}")
	}
	exp, ok1 := payload(msg[i:j], "Checkpoint{")
	got, ok2 := payload(msg[j:], "Checkpoint{")
	if !ok1 || !ok2 {
		return nil, msgErr("checkpoint mismatch: cut Checkpoint{...}")
	}
	var err error
	if e.Expected, err = esval.ParseCheckpoint(exp); err != nil {
		return nil, msgErr("checkpoint mismatch: expected: " + err.Error())
	}
	if e.Got, err = esval.ParseCheckpoint(got); err != nil {
		return nil, msgErr("checkpoint mismatch: got: " + err.Error())
	}
	return e, ""
}

func syncIDDocCount(m parse.Meta, w Where, msg string, th Thrown) (parse.Event, msgErr) {
	e := &SyncIDDocCount{Meta: m, Where: w, Thrown: th}
	rest := shardPrefix(&e.Where, strings.TrimPrefix(msg, "try to recover "))
	_, counts, ok := strings.Cut(rest, "number of docs differ: ")
	if !ok {
		return nil, msgErr("sync id doc count: no counts")
	}
	// `59432 (10.1.1.189, primary) vs 60034(10.1.1.190)`
	a, b, ok := strings.Cut(counts, " vs ")
	if !ok {
		return nil, msgErr("sync id doc count: want N (node, primary) vs M(node)")
	}
	read := func(s string) (int64, string, error) {
		num, node, _ := strings.Cut(s, "(")
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		node, _, _ = strings.Cut(strings.TrimSuffix(strings.TrimSpace(node), ")"), ",")
		return n, strings.TrimSpace(node), err
	}
	var err1, err2 error
	e.PrimaryDocs, e.PrimaryNode, err1 = read(a)
	e.ReplicaDocs, e.ReplicaNode, err2 = read(b)
	if err1 != nil || err2 != nil {
		return nil, msgErr("sync id doc count: counts are not numbers")
	}
	return e, ""
}

// addedNodes reads the node list after `added `.
func addedNodes(m parse.Meta, msg string) (parse.Event, msgErr) {
	i := strings.Index(msg, "added {{")
	list, ok := balanced(msg[i+len("added "):])
	if !ok {
		return nil, msgErr("added nodes: cut node list")
	}
	e := &NodesAdded{Meta: m}
	for _, row := range splitNodes(list[1 : len(list)-1]) {
		n, err := esval.ParseNode(row)
		if err != nil {
			return nil, msgErr("added nodes: " + err.Error())
		}
		e.Nodes = append(e.Nodes, n)
	}
	return e, ""
}

// balanced returns the `{...}` group at the start of s.
func balanced(s string) (string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[:i+1], true
			}
		}
	}
	return "", false
}

// splitNodes splits `{a}{1}...,{b}{2}...` at the commas between nodes.
func splitNodes(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
