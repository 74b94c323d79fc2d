// Command synthlog writes large, realistic, deterministic logs for
// benchmarks: `go run ./cmd/synthlog -system yb -size 1GiB -seed 7 > big.log`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/logsleuth/logsleuth/internal/synth"
)

func main() {
	system := flag.String("system", "yb", "yb (tserver INFO logs) or es (TRACE test-cluster log)")
	size := flag.String("size", "100MiB", "approximate output size (KiB, MiB, GiB)")
	seed := flag.Uint64("seed", 1, "random seed; the same seed gives the same bytes")
	peers := flag.Int("peers", 3, "YugabyteDB peers or Elasticsearch nodes")
	incidents := flag.Int("incidents", 2, "incidents to embed (YugabyteDB)")
	flag.Parse()
	n, err := synth.ParseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthlog:", err)
		os.Exit(3)
	}
	if err := synth.Write(os.Stdout, synth.Options{System: *system, Size: n, Seed: *seed, Peers: *peers, Incidents: *incidents}); err != nil {
		fmt.Fprintln(os.Stderr, "synthlog:", err)
		os.Exit(1)
	}
}
