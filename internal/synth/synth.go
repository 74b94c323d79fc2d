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
}

// Write generates the log into w.
func Write(w io.Writer, o Options) error {
	if o.Peers <= 0 {
		o.Peers = 3
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	g := &gen{o: o, w: bw, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}
	var err error
	switch o.System {
	case "yb":
		err = g.yb()
	case "es":
		err = g.es()
	default:
		return fmt.Errorf("unknown system %q: want yb or es", o.System)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
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
	uuid   string
	tid    int
	term   int64
	leader bool
}

// yb writes interleaved tserver INFO lines of several peers hosting a few
// tablets, with incidents at even intervals.
func (g *gen) yb() error {
	g.clock = time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	if err := g.emit("Log file created at: 2023/10/07 16:00:00\nRunning on machine: yb-synth\n" +
		"Application fingerprint: version 2.19.3.0 build 96 revision 0 build_type RELEASE built at 02 Oct 2023 10:00:00 UTC\n" +
		"Running duration (h:mm:ss): 0:00:00\nLog line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n"); err != nil {
		return err
	}
	tablets := make([]string, 8)
	for i := range tablets {
		tablets[i] = g.hex32()
	}
	peers := make([]*peer, g.o.Peers)
	for i := range peers {
		peers[i] = &peer{uuid: g.hex32(), tid: 1000 + g.rng.IntN(90000), term: 1, leader: i == 0}
	}
	next := int64(-1)
	if g.o.Incidents > 0 {
		next = g.o.Size / int64(g.o.Incidents+1)
	}
	incident := 0
	var opIndex int64 = 1000
	for g.written < g.o.Size {
		g.tick(2000)
		p := peers[g.rng.IntN(len(peers))]
		t := tablets[g.rng.IntN(len(tablets))]
		pre := "T " + t + " P " + p.uuid
		role := "FOLLOWER"
		if p.leader {
			role = "LEADER"
		}
		var s string
		switch k := g.rng.IntN(100); {
		case k < 20:
			s = g.glog('I', p.tid, "log.cc", 1060) + pre + ": Rolled over to a new log segment at /mnt/d0/yb-data/tserver/wals/table-" + t[:16] + "/tablet-" + t + "/wal-" + fmt.Sprintf("%09d", g.rng.IntN(1e6)) + "\n"
		case k < 35:
			s = g.glog('I', p.tid, "db_impl.cc", 2570) + pre + ": [R]: [default] [JOB " + strconv.Itoa(g.rng.IntN(9999)) + "] Flushing memtable with next log file: " + strconv.Itoa(g.rng.IntN(99)) + "\n"
		case k < 45:
			s = g.glog('I', p.tid, "compaction_job.cc", 1410) + pre + ": [R]: [default] [JOB " + strconv.Itoa(g.rng.IntN(9999)) + "] Compacted 4@0 files to L0 => " + strconv.Itoa(g.rng.IntN(1e8)) + " bytes\n"
		case k < 60:
			s = g.glog('I', p.tid, "heartbeater.cc", 472) + "Connected to a leader master server at 10.0.0." + strconv.Itoa(g.rng.IntN(250)) + ":7100\n"
		case k < 65:
			s = g.glog('W', p.tid, "long_operation_tracker.cc", 125) + "UpdateReplica running for " + strconv.Itoa(1+g.rng.IntN(3)) + ".0" + strconv.Itoa(g.rng.IntN(99)) + "s in thread " + strconv.Itoa(p.tid) + ":\n" +
				"    @     0x7f0a3c2b1d4a  __GI_epoll_wait\n    @     0x7f0a3c9a2f10  yb::rpc::Reactor::RunThread()\n"
		case k < 80:
			s = g.glog('I', p.tid, "raft_consensus.cc", 3443) + pre + fmt.Sprintf(" [term %d %s]: Snoozing leader timeout detection for %d.%03ds\n", p.term, role, 3, g.rng.IntN(999))
		case k < 90:
			opIndex++
			s = g.glog('I', p.tid, "consensus_queue.cc", 1254) + pre + fmt.Sprintf(" [LEADER]: Peer %s is lagging behind. Last received: %d.%d\n", peers[g.rng.IntN(len(peers))].uuid, p.term, opIndex)
		case k < 97:
			s = g.glog('I', p.tid, "tablet_service.cc", 2113) + pre + ": Write request with " + strconv.Itoa(g.rng.IntN(64)) + " ops took " + strconv.Itoa(g.rng.IntN(900)) + "ms\n"
		default:
			s = g.glog('I', p.tid, "maintenance_manager.cc", 363) + "Scheduling FlushMRSOp(" + t + "): perf score=" + strconv.FormatFloat(g.rng.Float64(), 'f', 6, 64) + "\n"
		}
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

// ybIncident writes the founding incident's shape: a term-N leader's MVCC
// dump publishing an ht lease, then a FATAL for a term N+2 op below it.
func (g *gen) ybIncident(peers []*peer, tablet string) error {
	p := peers[0]
	pre := "T " + tablet + " P " + p.uuid
	phys := g.clock.UnixMicro()
	term := p.term + 14
	var b strings.Builder
	b.WriteString(g.glog('F', p.tid, "mvcc.cc", 395) + pre + ": " + pre + ": Recent 4 MVCC operations:\n")
	fmt.Fprintf(&b, "1. AddLeaderPending { ht: { physical: %d } op_id: %d.%d }\n", phys+100, term, 686819)
	fmt.Fprintf(&b, "2. UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: %d } lease: { physical: %d } } safe_time: { physical: %d logical: 4095 } }\n", phys+200, phys+1_200_000, phys+99)
	fmt.Fprintf(&b, "3. Aborted { ht: { physical: %d } op_id: %d.%d }\n", phys+100, term, 686819)
	fmt.Fprintf(&b, "4. LastReplicatedHybridTime { last_replicated: { physical: %d } }\n", phys-5000)
	fmt.Fprintf(&b, "New operation's hybrid time too low: { physical: %d }, op id: %d.%d\n", phys+50, term+2, 686821)
	fmt.Fprintf(&b, "  max_safe_time_returned_with_lease_={ safe_time: { physical: %d logical: 4095 } source: kNextInQueue }\n", phys+99)
	b.WriteString("  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1\n")
	fmt.Fprintf(&b, "  ht.PhysicalDiff(max_safe_time_returned_with_lease_.safe_time)=%d\n  \n  queue_.size()=0\n  queue_=[]\n", -49)
	return g.emit(b.String())
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
	for g.written < g.o.Size {
		g.tick(300)
		shard := g.rng.IntN(2)
		seq++
		id := strconv.FormatInt(seq*7919%1000003, 36)
		ts := g.clock.Format("2006-01-02T15:04:05,000")
		var b strings.Builder
		primary := nodes[shard%len(nodes)]
		fmt.Fprintf(&b, "[%s][TRACE][o.e.i.s.IndexShard       ] [%s] [test][%d] index [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]\n", ts, primary, shard, id, seq, shard, primary)
		fmt.Fprintf(&b, "[%s][TRACE][o.e.i.s.IndexShard       ] [%s] [test][%d] index-done [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] result-seq# [%d] result-term [1] failure [null]\n", ts, primary, shard, id, seq, shard, primary, seq)
		for _, n := range nodes {
			if n == primary || g.rng.IntN(3) == 0 {
				continue
			}
			fmt.Fprintf(&b, "[%s][TRACE][o.e.i.s.IndexShard       ] [%s] [test][%d] index [%s] seq# [%d] allocation-id [[id=a%d%s]] primaryTerm [1] operationPrimaryTerm [1] origin [REPLICA]\n", ts, n, shard, id, seq, shard, n)
			key := n + strconv.Itoa(shard)
			if seq > lcp[key] {
				fmt.Fprintf(&b, "[%s][TRACE][o.e.i.s.ReplicationTracker] [%s] [test][%d] updated local checkpoint of [a%d%s] from [%d] to [%d]\n", ts, primary, shard, shard, n, lcp[key], seq)
				lcp[key] = seq
			}
		}
		if seq%5000 == 0 {
			fmt.Fprintf(&b, "[%s][DEBUG][o.e.i.e.Engine           ] [%s] [test][%d] Safe commit [CommitPoint{segment[segments_%d], userData[{local_checkpoint=%d, max_seq_no=%d, translog_uuid=T%d}]}], last commit [CommitPoint{segment[segments_%d], userData[{local_checkpoint=%d, max_seq_no=%d, translog_uuid=T%d}]}]\n",
				ts, primary, shard, seq/5000, seq-1, seq-1, shard, seq/5000, seq-1, seq-1, shard)
		}
		if err := g.emit(b.String()); err != nil {
			return err
		}
	}
	return nil
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
