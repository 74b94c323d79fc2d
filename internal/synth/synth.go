package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Options say what to generate.
type Options struct {
	// System is "yb" or "es".
	System string
	// Size is the approximate number of bytes to write.
	Size int64
	Seed uint64
	// Peers is the number of YugabyteDB peers (or Elasticsearch nodes).
	Peers int
	// Incidents is how many incidents to embed, spread evenly.
	Incidents int

	// The density knobs. Their zero values give the sparse shape of the
	// first generator (noise lines and the incidents only); Realistic sets
	// them for a busy node.

	// Tablets is the number of YugabyteDB tablets the peers host (8 when
	// zero).
	Tablets int
	// RaftShare is the share of tserver lines that are Raft and lease lines
	// logsleuth reads (elections, votes, term advances, step-downs, NO_OPs,
	// lease revocations and resets), 0 to 1. They come in election bursts,
	// so it also sets the term churn: each election advances one tablet's
	// term by one.
	RaftShare float64
	// ElectionLines is how many lines one election writes, 1 to 11 (11
	// when zero): 1 keeps only the new leader's NO_OP, so that many tablets
	// each get one line.
	ElectionLines int
	// DumpEntries is the number of entries in each incident's `Recent N
	// MVCC operations` dump (4 when zero, the founding incident's own).
	DumpEntries int
	// DaysForm prints the incident's hybrid times, in its dump and its
	// FATAL, as a YugabyteDB test build does (`{ days: D time:
	// HH:MM:SS.ffffff }`, hybrid_time.cc) instead of `{ physical: N }`.
	DaysForm bool
	// ESNoise is the share of Elasticsearch lines that are not op lines
	// (cluster state, GC, recovery chatter), 0 to 1.
	ESNoise float64
	// ESLayout is the layout of the Elasticsearch records: "" for the
	// pattern layout (`[time][LEVEL][logger] [node] message`), "ecs" for
	// 8.x ECS JSON (a containerised node's default), "esjson" for 7.x
	// ESJsonLayout. The records are the same in each.
	ESLayout string
}

// Realistic returns the options of a busy node's log: 400 tablets on
// three peers, 6% of the lines Raft and lease lines (the density of a
// tserver log of a cluster under load with periodic leader moves), one
// founding incident in the middle, and for Elasticsearch one line in five
// not an op line.
func Realistic(system string, size int64, seed uint64) Options {
	return Options{System: system, Size: size, Seed: seed, Peers: 3, Incidents: 1,
		Tablets: 400, RaftShare: 0.06, ESNoise: 0.2}
}

// RaftHeavy is the realistic tserver log with half its lines Raft and
// lease lines (`synthlog -raft 0.5`, scripts/bench.sh's yb-raft50): the
// replay's and the rules' worst case.
func RaftHeavy(size int64, seed uint64) Options {
	o := Realistic("yb", size, seed)
	o.RaftShare = 0.5
	return o
}

// Write generates the log into w.
func Write(w io.Writer, o Options) error {
	if o.Peers <= 0 {
		o.Peers = 3
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	g := newGen(o)
	g.w = bw
	var err error
	switch o.System {
	case "yb":
		err = g.yb()
	case "yb-dump":
		err = g.ybDump()
	case "yb-tablets":
		err = g.ybTablets()
	case "es":
		switch o.ESLayout {
		case "", "ecs", "esjson":
		default:
			return fmt.Errorf("unknown Elasticsearch layout %q: want ecs, esjson or none", o.ESLayout)
		}
		err = g.es()
	default:
		return fmt.Errorf("unknown system %q: want yb, yb-dump, yb-tablets or es", o.System)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

func newGen(o Options) *gen {
	return &gen{o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}
}

type gen struct {
	o       Options
	w       *bufio.Writer
	rng     *rand.Rand
	written int64
	clock   time.Time
	line    []byte
}

func (g *gen) emit(s string) error {
	n, err := g.w.WriteString(s)
	g.written += int64(n)
	return err
}

func (g *gen) hex32() string {
	return fmt.Sprintf("%016x%016x", g.rng.Uint64(), g.rng.Uint64())
}

// tick advances the clock by up to max microseconds.
func (g *gen) tick(max int64) {
	g.clock = g.clock.Add(time.Duration(1+g.rng.Int64N(max)) * time.Microsecond)
}

// glog formats a glog line envelope at the current clock.
func (g *gen) glog(sev byte, tid int, file string, line int) string {
	c := g.clock
	return fmt.Sprintf("%c%02d%02d %02d:%02d:%02d.%06d %5d %s:%d] ", sev, int(c.Month()), c.Day(), c.Hour(), c.Minute(), c.Second(), c.Nanosecond()/1000, tid, file, line)
}

type peer struct {
	uuid string
	tid  int
}

// tablet is one tablet's Raft state as the generator writes it: every
// line of a peer about it shows the term the tablet is in, and the role
// the peer holds there.
type tablet struct {
	id     string
	term   int64
	leader int
	op     int64
}

func (g *gen) header() error {
	return g.emit("Log file created at: 2023/10/07 16:00:00\nRunning on machine: yb-synth\n" +
		"Application fingerprint: version 2.19.3.0 build 96 revision 0 build_type RELEASE built at 02 Oct 2023 10:00:00 UTC\n" +
		"Running duration (h:mm:ss): 0:00:00\nLog line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n")
}

func (g *gen) ybSetup() ([]*peer, []*tablet) {
	n := g.o.Tablets
	if n <= 0 {
		n = 8
	}
	tablets := make([]*tablet, n)
	for i := range tablets {
		tablets[i] = &tablet{id: g.hex32(), term: 1, op: 1000}
	}
	peers := make([]*peer, g.o.Peers)
	for i := range peers {
		peers[i] = &peer{uuid: g.hex32(), tid: 1000 + g.rng.IntN(90000)}
	}
	return peers, tablets
}

// yb writes interleaved tserver lines of several peers hosting the
// tablets: the noise of ybNoise (ybnoise.go) drawn by weight, Raft
// elections at the density RaftShare asks, and incidents at even
// intervals.
func (g *gen) yb() error {
	g.clock = time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	if err := g.header(); err != nil {
		return err
	}
	peers, tablets := g.ybSetup()
	next := int64(-1)
	if g.o.Incidents > 0 {
		next = g.o.Size / int64(g.o.Incidents+1)
	}
	incident := 0
	noise := newNoisePicker()
	lines := int64(0)
	raftLines := 0.0
	elections := 0
	for g.written < g.o.Size {
		g.tick(2000)
		lines++
		if g.o.RaftShare > 0 && raftLines < g.o.RaftShare*float64(lines) {
			// Elections visit the tablets in a fixed shuffled order, so
			// churn spreads evenly across them.
			t := tablets[(elections*7919)%len(tablets)]
			elections++
			n, err := g.election(peers, t)
			if err != nil {
				return err
			}
			raftLines += float64(n)
			lines += int64(n) - 1
			continue
		}
		s := g.noiseLine(noise.pick(g), peers, tablets[g.rng.IntN(len(tablets))])
		if err := g.emit(s); err != nil {
			return err
		}
		if next > 0 && g.written >= next*int64(incident+1) && incident < g.o.Incidents {
			incident++
			if err := g.ybIncident(peers, tablets[incident%len(tablets)]); err != nil {
				return err
			}
		}
	}
	return nil
}

// election writes one clean leader change of t, as raft_consensus.cc and
// replica_state.cc log it: a follower detects the leader's failure,
// advances the term, wins a vote, becomes leader and sends its NO_OP; the
// old leader hears of the new term and steps down, its lease long over.
// It returns the lines written.
func (g *gen) election(peers []*peer, t *tablet) (int, error) {
	old := t.leader
	c := (old + 1 + g.rng.IntN(len(peers)-1)) % len(peers)
	if len(peers) == 1 {
		c = old
	}
	v := c
	for i := range peers {
		if i != c && i != old {
			v = i
			break
		}
	}
	n, next := t.term, t.term+1
	L, C, V := peers[old], peers[c], peers[v]
	pre := func(p *peer, term int64, role string) string {
		return "T " + t.id + " P " + p.uuid + fmt.Sprintf(" [term %d %s]: ", term, role)
	}
	t.op++
	noop := fmt.Sprintf("Sending NO_OP at op %d.%d\n", next, t.op)
	t.term, t.leader = next, c
	var b strings.Builder
	if g.o.ElectionLines == 1 {
		b.WriteString(g.glog('I', C.tid, "raft_consensus.cc", 1120) + pre(C, next, "LEADER") + noop)
		return 1, g.emit(b.String())
	}
	lines := []string{
		g.glog('I', C.tid, "raft_consensus.cc", 622) + pre(C, n, "FOLLOWER") + "Fail of leader " + L.uuid + " detected. Triggering leader election, mode=NORMAL_ELECTION\n",
		g.glog('I', C.tid, "raft_consensus.cc", 3504) + pre(C, n, "FOLLOWER") + fmt.Sprintf("Advancing to term %d\n", next),
		g.glog('I', V.tid, "raft_consensus.cc", 3504) + pre(V, n, "FOLLOWER") + fmt.Sprintf("Advancing to term %d\n", next),
		g.glog('I', V.tid, "raft_consensus.cc", 2499) + pre(V, next, "FOLLOWER") + fmt.Sprintf(" Leader election vote request: Granting yes vote for candidate %s in term %d.\n", C.uuid, next),
		g.glog('I', C.tid, "raft_consensus.cc", 2600) + pre(C, next, "FOLLOWER") + fmt.Sprintf("Leader election won for term %d\n", next),
		g.glog('I', C.tid, "raft_consensus.cc", 1080) + pre(C, next, "FOLLOWER") + fmt.Sprintf("Becoming Leader. State: Replica: %s, State: 1, Role: FOLLOWER, Watermarks: {Received: %d.%d Committed: %d.%d} Leader: %d.%d\n", C.uuid, n, t.op-1, n, t.op-1, n, t.op-1),
		g.glog('I', C.tid, "raft_consensus.cc", 1120) + pre(C, next, "LEADER") + noop,
		g.glog('I', C.tid, "replica_state.cc", 1290) + pre(C, next, "LEADER") + "Revoked old leader " + L.uuid + " lease: -1.500s\n",
		g.glog('I', L.tid, "raft_consensus.cc", 3497) + pre(L, n, "LEADER") + fmt.Sprintf("Stepping down as leader of term %d since new term is %d\n", n, next),
		g.glog('I', L.tid, "consensus_meta.cc", 298) + pre(L, next, "FOLLOWER") + fmt.Sprintf("Updating active role from LEADER to FOLLOWER. Consensus state: current_term: %d leader_uuid: \"\" config { opid_index: -1 }, has_pending_config = 0\n", next),
		g.glog('I', L.tid, "replica_state.cc", 1250) + pre(L, next, "FOLLOWER") + "Reset our lease: 3.000s\n",
	}
	k := len(lines)
	if g.o.ElectionLines > 1 && g.o.ElectionLines < k {
		// Keep the NO_OP and the lines before it that the count allows.
		lines = lines[7-min(g.o.ElectionLines, 7) : 7]
		k = len(lines)
	}
	for _, l := range lines {
		b.WriteString(l)
	}
	g.tick(500)
	return k, g.emit(b.String())
}

// ybIncident writes the founding incident's shape: a term-N leader's MVCC
// dump publishing an ht lease, then a FATAL for a term N+2 op below it.
// The dump holds DumpEntries entries: before the founding four, rounds of
// an op added, replicated and a safe time served under the lease, each a
// few microseconds after the last.
func (g *gen) ybIncident(peers []*peer, t *tablet) error {
	p := peers[t.leader]
	pre := "T " + t.id + " P " + p.uuid
	phys := g.clock.UnixMicro()
	term := t.term
	entries := max(g.o.DumpEntries, 4)
	b := make([]byte, 0, 64<<10)
	b = append(b, g.glog('F', p.tid, "mvcc.cc", 395)+pre+": "+pre+": Recent "+strconv.Itoa(entries)+" MVCC operations:\n"...)
	idx := int64(686819)
	if fill := int64(entries - 4); fill > 0 {
		idx += fill
		at := phys - 4*fill - 1000
		op := idx - fill
		for i := int64(1); i <= fill; i++ {
			b = strconv.AppendInt(b, i, 10)
			switch i % 3 {
			case 1:
				op++
				at += 4
				b = fmt.Appendf(b, ". AddLeaderPending { ht: %s op_id: %d.%d }\n", g.hybridTime(at, 0), term, op)
			case 2:
				b = fmt.Appendf(b, ". Replicated { ht: %s op_id: %d.%d }\n", g.hybridTime(at, 0), term, op)
			default:
				at += 4
				b = fmt.Appendf(b, ". SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: %s lease: %s } safe_time: %s }\n", g.hybridTime(at, 0), g.hybridTime(at+2_000_000, 0), g.hybridTime(at, 0))
			}
			if len(b) > 60<<10 {
				if err := g.emit(string(b)); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	}
	n := entries - 3
	b = fmt.Appendf(b, "%d. AddLeaderPending { ht: %s op_id: %d.%d }\n", n, g.hybridTime(phys+100, 0), term, idx)
	b = fmt.Appendf(b, "%d. UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: %s lease: %s } safe_time: %s }\n", n+1, g.hybridTime(phys+200, 0), g.hybridTime(phys+1_200_000, 0), g.hybridTime(phys+99, 4095))
	b = fmt.Appendf(b, "%d. Aborted { ht: %s op_id: %d.%d }\n", n+2, g.hybridTime(phys+100, 0), term, idx)
	b = fmt.Appendf(b, "%d. LastReplicatedHybridTime { last_replicated: %s }\n", n+3, g.hybridTime(phys-5000, 0))
	b = fmt.Appendf(b, "New operation's hybrid time too low: %s, op id: %d.%d\n", g.hybridTime(phys+50, 0), term+2, idx+2)
	b = fmt.Appendf(b, "  max_safe_time_returned_with_lease_={ safe_time: %s source: kNextInQueue }\n", g.hybridTime(phys+99, 4095))
	b = append(b, "  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1\n"...)
	b = fmt.Appendf(b, "  ht.PhysicalDiff(max_safe_time_returned_with_lease_.safe_time)=%d\n  \n  queue_.size()=0\n  queue_=[]\n", -49)
	return g.emit(string(b))
}

// hybridTime prints a hybrid time of phys microseconds since the epoch
// as HybridTime::ToString does, in the days form when DaysForm is set.
func (g *gen) hybridTime(phys int64, logical int) string {
	var b []byte
	if g.o.DaysForm {
		const day = 86_400_000_000
		us := phys % day
		b = fmt.Appendf(b, "{ days: %d time: %02d:%02d:%02d.%06d", phys/day, us/3_600_000_000, us/60_000_000%60, us/1_000_000%60, us%1_000_000)
	} else {
		b = fmt.Appendf(b, "{ physical: %d", phys)
	}
	if logical != 0 {
		b = fmt.Appendf(b, " logical: %d", logical)
	}
	return string(append(b, " }"...))
}

// ybDump writes a log holding one founding incident whose dump has
// DumpEntries entries: the shape of a FATAL from a build whose trace keeps
// a long history.
func (g *gen) ybDump() error {
	g.clock = time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	if err := g.header(); err != nil {
		return err
	}
	peers, tablets := g.ybSetup()
	return g.ybIncident(peers, tablets[0])
}

// ybTablets writes Tablets tablets' elections, ElectionLines lines each
// (one, the NO_OP, when zero): the shape of a node hosting very many
// tablets that each log little.
func (g *gen) ybTablets() error {
	g.clock = time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	if err := g.header(); err != nil {
		return err
	}
	if g.o.ElectionLines == 0 {
		g.o.ElectionLines = 1
	}
	peers, tablets := g.ybSetup()
	for _, t := range tablets {
		g.tick(200)
		if _, err := g.election(peers, t); err != nil {
			return err
		}
	}
	return nil
}

// es writes an Elasticsearch 7.x TRACE test-cluster log: indexing on a
// primary and its replicas, checkpoint updates, and periodic flushes.
func (g *gen) es() error {
	g.clock = time.Date(2023, 10, 4, 10, 0, 0, 0, time.UTC)
	nodes := make([]string, g.o.Peers)
	for i := range nodes {
		nodes[i] = "node_t" + strconv.Itoa(i)
	}
	var seq int64
	lcp := map[string]int64{}
	var opLines, noise int64
	for g.written < g.o.Size {
		if g.o.ESNoise > 0 && float64(noise) < g.o.ESNoise*float64(noise+opLines) {
			noise++
			if err := g.esNoise(nodes); err != nil {
				return err
			}
			continue
		}
		g.tick(300)
		shard := g.rng.IntN(2)
		seq++
		id := strconv.FormatInt(seq*7919%1000003, 36)
		var b strings.Builder
		primary := nodes[shard%len(nodes)]
		g.esRecord(&b, "TRACE", "o.e.i.s.IndexShard", primary, fmt.Sprintf("[test][%d] index [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]", shard, id, seq, shard, primary))
		g.esRecord(&b, "TRACE", "o.e.i.s.IndexShard", primary, fmt.Sprintf("[test][%d] index-done [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] result-seq# [%d] result-term [1] failure [null]", shard, id, seq, shard, primary, seq))
		for _, n := range nodes {
			if n == primary || g.rng.IntN(3) == 0 {
				continue
			}
			g.esRecord(&b, "TRACE", "o.e.i.s.IndexShard", n, fmt.Sprintf("[test][%d] index [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [REPLICA]", shard, id, seq, shard, n))
			key := n + strconv.Itoa(shard)
			if seq > lcp[key] {
				g.esRecord(&b, "TRACE", "o.e.i.s.ReplicationTracker", primary, fmt.Sprintf("[test][%d] updated local checkpoint of [a%d%s] from [%d] to [%d]", shard, shard, n, lcp[key], seq))
				lcp[key] = seq
			}
		}
		if seq%5000 == 0 {
			g.esRecord(&b, "DEBUG", "o.e.i.e.Engine", primary, fmt.Sprintf("[test][%d] Safe commit [CommitPoint{segment[segments_%d], userData[{local_checkpoint=%d, max_seq_no=%d, translog_uuid=T%d}]}], last commit [CommitPoint{segment[segments_%d], userData[{local_checkpoint=%d, max_seq_no=%d, translog_uuid=T%d}]}]",
				shard, seq/5000, seq-1, seq-1, shard, seq/5000, seq-1, seq-1, shard))
		}
		opLines += int64(strings.Count(b.String(), "\n"))
		if err := g.emit(b.String()); err != nil {
			return err
		}
	}
	return nil
}

// esNoise writes one line an Elasticsearch node logs besides its ops:
// cluster state applied, GC overhead, a slow search, a recovery status.
func (g *gen) esNoise(nodes []string) error {
	n := nodes[g.rng.IntN(len(nodes))]
	var b strings.Builder
	switch g.rng.IntN(4) {
	case 0:
		g.esRecord(&b, "DEBUG", "o.e.c.s.ClusterApplierService", n, fmt.Sprintf("processing [ApplyCommitRequest{term=1, version=%d, sourceNode={%s}}]: took [0s] no change in cluster_state", g.rng.IntN(1e6), nodes[0]))
	case 1:
		g.esRecord(&b, "INFO", "o.e.m.j.JvmGcMonitorService", n, fmt.Sprintf("[gc][%d] overhead, spent [%dms] collecting in the last [1s]", g.rng.IntN(1e5), g.rng.IntN(900)))
	case 2:
		g.esRecord(&b, "WARN", "i.s.s.query", n, fmt.Sprintf("[test][%d] took[%d.%dms], took_millis[%d], total_hits[%d hits], search_type[QUERY_THEN_FETCH], total_shards[2]", g.rng.IntN(2), g.rng.IntN(900), g.rng.IntN(9), g.rng.IntN(900), g.rng.IntN(1e6)))
	default:
		g.esRecord(&b, "DEBUG", "o.e.t.TransportService", n, fmt.Sprintf("now connected to node [{%s}{%016x}]", nodes[g.rng.IntN(len(nodes))], g.rng.Uint64()))
	}
	return g.emit(b.String())
}

// esLoggers are the whole names of the loggers the generator writes, as
// ECS prints them (the pattern layout and ESJsonLayout abbreviate them).
var esLoggers = map[string]string{
	"o.e.i.s.IndexShard":            "org.elasticsearch.index.shard.IndexShard",
	"o.e.i.s.ReplicationTracker":    "org.elasticsearch.index.seqno.ReplicationTracker",
	"o.e.i.e.Engine":                "org.elasticsearch.index.engine.Engine",
	"o.e.c.s.ClusterApplierService": "org.elasticsearch.cluster.service.ClusterApplierService",
	"o.e.m.j.JvmGcMonitorService":   "org.elasticsearch.monitor.jvm.JvmGcMonitorService",
	"i.s.s.query":                   "index.search.slowlog.query",
	"o.e.t.TransportService":        "org.elasticsearch.transport.TransportService",
}

// esRecord writes one record at the clock's time in the options' layout:
// level, logger (abbreviated), node and message (its `[index][shard]`
// marker first, as the layouts print it).
func (g *gen) esRecord(b *strings.Builder, level, logger, node, msg string) {
	switch g.o.ESLayout {
	case "ecs":
		fmt.Fprintf(b, `{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[%s][write][T#1]","log.logger":"%s","elasticsearch.node.name":"%s","elasticsearch.cluster.name":"c"}`+"\n",
			g.clock.Format("2006-01-02T15:04:05.000Z"), level, strconv.Quote(msg), node, esLoggers[logger], node)
	case "esjson":
		fmt.Fprintf(b, `{"type": "server", "timestamp": "%s", "level": "%s", "component": "%s", "cluster.name": "c", "node.name": "%s", "message": %s}`+"\n",
			g.clock.Format("2006-01-02T15:04:05,000Z"), level, logger, node, strconv.Quote(msg))
	default:
		fmt.Fprintf(b, "[%s][%-5s][%-25s] [%s] %s\n", g.clock.Format("2006-01-02T15:04:05,000"), level, logger, node, msg)
	}
}

// ParseSize reads sizes like 100MiB, 1GiB, 512KiB, 1000.
func ParseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if strings.HasSuffix(s, u.suffix) {
			mult, s = u.m, strings.TrimSuffix(s, u.suffix)
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q: want a number with an optional KiB, MiB or GiB", s)
	}
	return int64(n * float64(mult)), nil
}
