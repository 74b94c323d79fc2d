// Command synthlog writes large, realistic, deterministic logs for
// benchmarks: `go run ./cmd/synthlog -system yb -size 1GiB -seed 7 > big.log`.
//
// The defaults are a busy node's density (synth.Realistic): 400 tablets,
// 6% Raft and lease lines, one founding incident. `-raft 0 -tablets 8
// -incidents 2` gives the sparse shape of the first generator.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/logsleuth/logsleuth/internal/synth"
)

func main() {
	def := synth.Realistic("yb", 0, 1)
	system := flag.String("system", "yb", "yb (tserver INFO log), yb-dump (one long MVCC dump), yb-tablets (one election per tablet) or es (TRACE test-cluster log)")
	size := flag.String("size", "100MiB", "approximate output size (KiB, MiB, GiB); yb and es only")
	seed := flag.Uint64("seed", 1, "random seed; the same seed gives the same bytes")
	peers := flag.Int("peers", def.Peers, "YugabyteDB peers or Elasticsearch nodes")
	incidents := flag.Int("incidents", def.Incidents, "incidents to embed (YugabyteDB)")
	tablets := flag.Int("tablets", def.Tablets, "YugabyteDB tablets")
	raft := flag.Float64("raft", def.RaftShare, "share of tserver lines that are Raft and lease lines (0 to 1); sets the term churn")
	electionLines := flag.Int("election-lines", 0, "lines per election, 1 to 11 (0: all 11; yb-tablets: 1)")
	dump := flag.Int("dump-entries", 4, "entries in each incident's MVCC dump")
	esNoise := flag.Float64("es-noise", def.ESNoise, "share of Elasticsearch lines that are not op lines (0 to 1)")
	layout := flag.String("es-layout", "", "Elasticsearch records as ecs (8.x ECS JSON) or esjson (7.x ESJsonLayout) instead of the pattern layout")
	days := flag.Bool("days", false, "print the incident's hybrid times as a YugabyteDB test build does, { days: D time: HH:MM:SS.ffffff }")
	flag.Parse()
	n, err := synth.ParseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthlog:", err)
		os.Exit(3)
	}
	o := synth.Options{System: *system, Size: n, Seed: *seed, Peers: *peers, Incidents: *incidents,
		Tablets: *tablets, RaftShare: *raft, ElectionLines: *electionLines, DumpEntries: *dump, ESNoise: *esNoise, DaysForm: *days, ESLayout: *layout}
	if err := synth.Write(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "synthlog:", err)
		os.Exit(1)
	}
}
