package esval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Sequence-number sentinels (SequenceNumbers.java). They are printed as
// numbers and compare like numbers, so rules must test for them first.
const (
	NoOpsPerformed int64 = -1
	Unassigned     int64 = -2
)

// record returns the field map of `Name{...}` when v is one named want.
func record(v *Value, want string) (*Map, error) {
	if v == nil || v.Named == nil || v.Named.Map == nil {
		return nil, fmt.Errorf("want %s{...}, got %q", want, v.String())
	}
	if v.Named.Word != want {
		return nil, fmt.Errorf("want %s{...}, got %s{...}", want, v.Named.Word)
	}
	return v.Named.Map, nil
}

// intField reads key as a decimal int64.
func intField(m *Map, key string) (int64, bool, error) {
	v := m.Get(key)
	if v == nil {
		return 0, false, nil
	}
	w := v.Word()
	n, err := strconv.ParseInt(w, 10, 64)
	if err != nil {
		return 0, true, fmt.Errorf("%s=%q is not a number", key, v.String())
	}
	return n, true, nil
}

// ints reads the keys into dst; a missing key listed in required is an error,
// other missing keys keep their default.
func ints(m *Map, name string, fields map[string]*int64, required ...string) error {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n, ok, err := intField(m, k)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if ok {
			*fields[k] = n
		}
	}
	for _, k := range required {
		if m.Get(k) == nil {
			return fmt.Errorf("%s: no %s", name, k)
		}
	}
	return nil
}

// Checkpoint is a translog checkpoint (Checkpoint.java). Legacy is the
// 2.x/5.x form, which has no sequence numbers: its seq# fields read
// Unassigned.
type Checkpoint struct {
	Offset                int64
	NumOps                int64
	Generation            int64
	MinSeqNo              int64
	MaxSeqNo              int64
	GlobalCheckpoint      int64
	MinTranslogGeneration int64
	// TrimmedAboveSeqNo is Unassigned when the version did not print it
	// (before 6.4) or nothing was trimmed.
	TrimmedAboveSeqNo int64
	Legacy            bool
}

// ParseCheckpoint reads `Checkpoint{...}` in any version's wording.
func ParseCheckpoint(s string) (Checkpoint, error) {
	if c, ok := fastCheckpoint(s); ok {
		return c, nil
	}
	v, err := ParseValue(s)
	if err != nil {
		return Checkpoint{}, err
	}
	return CheckpointOf(v)
}

// CheckpointOf decodes a parsed `Checkpoint{...}`.
func CheckpointOf(v *Value) (Checkpoint, error) {
	m, err := record(v, "Checkpoint")
	if err != nil {
		return Checkpoint{}, err
	}
	c := Checkpoint{MinSeqNo: Unassigned, MaxSeqNo: Unassigned, GlobalCheckpoint: Unassigned,
		MinTranslogGeneration: -1, TrimmedAboveSeqNo: Unassigned}
	if m.Get("translogFileGeneration") != nil {
		c.Legacy = true
		return c, ints(m, "Checkpoint", map[string]*int64{
			"offset": &c.Offset, "numOps": &c.NumOps, "translogFileGeneration": &c.Generation,
		}, "offset", "numOps")
	}
	err = ints(m, "Checkpoint", map[string]*int64{
		"offset": &c.Offset, "numOps": &c.NumOps, "generation": &c.Generation,
		"minSeqNo": &c.MinSeqNo, "maxSeqNo": &c.MaxSeqNo, "globalCheckpoint": &c.GlobalCheckpoint,
		"minTranslogGeneration": &c.MinTranslogGeneration, "trimmedAboveSeqNo": &c.TrimmedAboveSeqNo,
	}, "offset", "numOps", "generation", "maxSeqNo", "globalCheckpoint")
	if err != nil {
		return Checkpoint{}, err
	}
	if m.Get("minTranslogGeneration") == nil {
		c.MinTranslogGeneration = c.Generation
	}
	return c, nil
}

// Violations lists the invariants Checkpoint.java asserts that c breaks;
// a checkpoint file holding such values is corrupt.
func (c Checkpoint) Violations() []string {
	var out []string
	if c.Offset < 0 || c.NumOps < 0 {
		out = append(out, fmt.Sprintf("offset %d, numOps %d: negative", c.Offset, c.NumOps))
	}
	if c.Legacy {
		return out
	}
	if c.MinSeqNo > c.MaxSeqNo {
		out = append(out, fmt.Sprintf("minSeqNo %d > maxSeqNo %d", c.MinSeqNo, c.MaxSeqNo))
	}
	if c.TrimmedAboveSeqNo != Unassigned && c.TrimmedAboveSeqNo > c.MaxSeqNo {
		out = append(out, fmt.Sprintf("trimmedAboveSeqNo %d > maxSeqNo %d", c.TrimmedAboveSeqNo, c.MaxSeqNo))
	}
	if c.MinTranslogGeneration > c.Generation {
		out = append(out, fmt.Sprintf("minTranslogGeneration %d > generation %d", c.MinTranslogGeneration, c.Generation))
	}
	return out
}

// String prints c in the 6.4+ wording (the legacy wording for Legacy).
func (c Checkpoint) String() string {
	if c.Legacy {
		return fmt.Sprintf("Checkpoint{offset=%d, numOps=%d, translogFileGeneration=%d}", c.Offset, c.NumOps, c.Generation)
	}
	return fmt.Sprintf("Checkpoint{offset=%d, numOps=%d, generation=%d, minSeqNo=%d, maxSeqNo=%d, globalCheckpoint=%d, minTranslogGeneration=%d, trimmedAboveSeqNo=%d}",
		c.Offset, c.NumOps, c.Generation, c.MinSeqNo, c.MaxSeqNo, c.GlobalCheckpoint, c.MinTranslogGeneration, c.TrimmedAboveSeqNo)
}

// SeqNoStats is a copy's (maxSeqNo, localCheckpoint, globalCheckpoint).
type SeqNoStats struct {
	MaxSeqNo         int64
	LocalCheckpoint  int64
	GlobalCheckpoint int64
}

// ParseSeqNoStats reads `SeqNoStats{...}`.
func ParseSeqNoStats(s string) (SeqNoStats, error) {
	v, err := ParseValue(s)
	if err != nil {
		return SeqNoStats{}, err
	}
	return SeqNoStatsOf(v)
}

// SeqNoStatsOf decodes a parsed `SeqNoStats{...}`.
func SeqNoStatsOf(v *Value) (SeqNoStats, error) {
	m, err := record(v, "SeqNoStats")
	if err != nil {
		return SeqNoStats{}, err
	}
	var s SeqNoStats
	err = ints(m, "SeqNoStats", map[string]*int64{
		"maxSeqNo": &s.MaxSeqNo, "localCheckpoint": &s.LocalCheckpoint, "globalCheckpoint": &s.GlobalCheckpoint,
	}, "maxSeqNo", "localCheckpoint", "globalCheckpoint")
	return s, err
}

func (s SeqNoStats) String() string {
	return fmt.Sprintf("SeqNoStats{maxSeqNo=%d, localCheckpoint=%d, globalCheckpoint=%d}", s.MaxSeqNo, s.LocalCheckpoint, s.GlobalCheckpoint)
}

// LocalCheckpointState is the primary's view of one copy in its
// ReplicationTracker (6.0+). InSync false marks a copy still recovering,
// for which lcp below gcp is expected.
type LocalCheckpointState struct {
	LocalCheckpoint  int64
	GlobalCheckpoint int64
	InSync           bool
	Tracked          bool
}

// ParseLocalCheckpointState reads `LocalCheckpointState{...}`.
func ParseLocalCheckpointState(s string) (LocalCheckpointState, error) {
	v, err := ParseValue(s)
	if err != nil {
		return LocalCheckpointState{}, err
	}
	return LocalCheckpointStateOf(v)
}

// LocalCheckpointStateOf decodes a parsed `LocalCheckpointState{...}`.
func LocalCheckpointStateOf(v *Value) (LocalCheckpointState, error) {
	m, err := record(v, "LocalCheckpointState")
	if err != nil {
		return LocalCheckpointState{}, err
	}
	s := LocalCheckpointState{GlobalCheckpoint: Unassigned}
	if err := ints(m, "LocalCheckpointState", map[string]*int64{
		"localCheckpoint": &s.LocalCheckpoint, "globalCheckpoint": &s.GlobalCheckpoint,
	}, "localCheckpoint", "inSync"); err != nil {
		return s, err
	}
	for key, dst := range map[string]*bool{"inSync": &s.InSync, "tracked": &s.Tracked} {
		if b := m.Get(key); b != nil {
			switch b.Word() {
			case "true":
				*dst = true
			case "false":
			default:
				return s, fmt.Errorf("LocalCheckpointState: %s=%q is not a boolean", key, b.String())
			}
		}
	}
	return s, nil
}

// Commit is an index commit as its user data describes it. Segment and
// Generation come from a `CommitPoint{segment[segments_N], ...}` rendering
// and are empty / -1 when only the user-data map was printed.
type Commit struct {
	Segment            string
	Generation         int64
	LocalCheckpoint    int64
	MaxSeqNo           int64
	TranslogUUID       string
	HistoryUUID        string
	TranslogGeneration int64
	SyncID             string
	// DocIDs is the test-only `docIds={...}` set, when printed; nil otherwise.
	DocIDs []string
	// UserData keeps every key as printed, for quoting.
	UserData map[string]string
}

// ParseCommit reads a `CommitPoint{...}` or a bare user-data map.
func ParseCommit(s string) (Commit, error) {
	v, err := ParseValue(s)
	if err != nil {
		return Commit{}, err
	}
	return CommitOf(v)
}

// CommitOf decodes a commit point or a bare user-data map. It requires
// local_checkpoint and max_seq_no: without them the commit cannot be judged
// safe or not, which is the only reason logsleuth reads commits.
func CommitOf(v *Value) (Commit, error) {
	c := Commit{Generation: -1, TranslogGeneration: -1}
	var ud *Map
	switch {
	case v == nil:
		return c, fmt.Errorf("no commit")
	case v.Map != nil:
		ud = v.Map
	case v.Named != nil && v.Named.Word == "CommitPoint" && v.Named.Map != nil:
		for _, e := range v.Named.Map.Entries {
			n := e.Key.Named
			if n == nil || n.List == nil || e.Val != nil {
				continue
			}
			switch n.Word {
			case "segment":
				if len(n.List.Items) == 1 {
					c.Segment = n.List.Items[0].Key.Word()
				}
			case "userData":
				if len(n.List.Items) == 1 && n.List.Items[0].Key.Map != nil {
					ud = n.List.Items[0].Key.Map
				}
			}
		}
		if ud == nil {
			return c, fmt.Errorf("CommitPoint: no userData[{...}]")
		}
		if g, ok := strings.CutPrefix(c.Segment, "segments_"); ok {
			// Lucene prints the generation in base 36.
			if n, err := strconv.ParseInt(g, 36, 64); err == nil {
				c.Generation = n
			}
		}
	default:
		return c, fmt.Errorf("want CommitPoint{...} or {k=v, ...}, got %q", v.String())
	}
	c.UserData = map[string]string{}
	for _, e := range ud.Entries {
		if e.Val == nil {
			return c, fmt.Errorf("commit user data: %q has no value", e.Key.String())
		}
		k := e.Key.Word()
		if k == "docIds" && e.Val.Map != nil {
			c.DocIDs = []string{}
			for _, d := range e.Val.Map.Entries {
				c.DocIDs = append(c.DocIDs, d.Key.Word())
			}
			sort.Strings(c.DocIDs)
			continue
		}
		c.UserData[k] = e.Val.Word()
	}
	err := ints(ud, "commit user data", map[string]*int64{
		"local_checkpoint": &c.LocalCheckpoint, "max_seq_no": &c.MaxSeqNo, "translog_generation": &c.TranslogGeneration,
	}, "local_checkpoint", "max_seq_no")
	if err != nil {
		return c, err
	}
	c.TranslogUUID = c.UserData["translog_uuid"]
	c.HistoryUUID = c.UserData["history_uuid"]
	c.SyncID = c.UserData["sync_id"]
	return c, nil
}

// SameAs reports whether c and o describe the same commit. Two renderings
// of one commit may differ in key order and in whether the segment was
// printed, so the comparison uses what both show.
func (c Commit) SameAs(o Commit) bool {
	if c.Segment != "" && o.Segment != "" {
		return c.Segment == o.Segment && c.TranslogUUID == o.TranslogUUID
	}
	return c.LocalCheckpoint == o.LocalCheckpoint && c.MaxSeqNo == o.MaxSeqNo &&
		c.TranslogUUID == o.TranslogUUID && c.HistoryUUID == o.HistoryUUID &&
		(c.TranslogGeneration == o.TranslogGeneration || c.TranslogGeneration < 0 || o.TranslogGeneration < 0)
}

// String is a short, stable rendering for state dumps.
func (c Commit) String() string {
	var b strings.Builder
	if c.Segment != "" {
		b.WriteString(c.Segment + " ")
	}
	fmt.Fprintf(&b, "lcp=%d max_seq_no=%d", c.LocalCheckpoint, c.MaxSeqNo)
	if c.TranslogGeneration >= 0 {
		fmt.Fprintf(&b, " translog_gen=%d", c.TranslogGeneration)
	}
	if c.TranslogUUID != "" {
		fmt.Fprintf(&b, " translog_uuid=%s", c.TranslogUUID)
	}
	if c.DocIDs != nil {
		fmt.Fprintf(&b, " docs={%s}", strings.Join(c.DocIDs, ","))
	}
	return b.String()
}

// Op is a translog operation as Translog.Index/Delete/NoOp print it
// (`Index{id='..', type='doc', seqNo=133, primaryTerm=1, ...}`).
type Op struct {
	Kind        string // Index, Delete or NoOp
	ID          string
	SeqNo       int64
	PrimaryTerm int64
	Version     int64
}

// ParseOp reads one printed translog operation.
func ParseOp(s string) (Op, error) {
	v, err := ParseValue(s)
	if err != nil {
		return Op{}, err
	}
	return OpOf(v)
}

// OpOf decodes a parsed translog operation.
func OpOf(v *Value) (Op, error) {
	if v == nil || v.Named == nil || v.Named.Map == nil {
		return Op{}, fmt.Errorf("want Index{...}, Delete{...} or NoOp{...}, got %q", v.String())
	}
	o := Op{Kind: v.Named.Word, Version: -1}
	switch o.Kind {
	case "Index", "Delete", "NoOp":
	default:
		return Op{}, fmt.Errorf("%s{...} is not a translog operation", o.Kind)
	}
	m := v.Named.Map
	if id := m.Get("id"); id != nil {
		o.ID = id.Word()
	}
	err := ints(m, o.Kind, map[string]*int64{"seqNo": &o.SeqNo, "primaryTerm": &o.PrimaryTerm, "version": &o.Version},
		"seqNo", "primaryTerm")
	return o, err
}
