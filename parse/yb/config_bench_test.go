package yb_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// configBenchLog is a tablet server log of n lines: ordinary traffic, and
// every `every` lines a config change or remote bootstrap line with a full
// three-peer config (every 20: a node under heavy rebalancing; 0: none).
func configBenchLog(n, every int) (string, int) {
	const tab, a, d = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58", "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59", "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
	peer := func(u, mt string) string {
		return `peers { permanent_uuid: "` + u + `" member_type: ` + mt + ` last_known_private_addr { host: "10.0.0.1" port: 9100 } cloud_info { placement_cloud: "c" placement_region: "r" placement_zone: "z" } }`
	}
	cfg := peer(a, "VOTER") + " " + peer("8e2d4f6a1b3c4d5e9f0a7b6c5d4e3f21", "VOTER") + " " + peer(d, "PRE_VOTER")
	var b strings.Builder
	b.WriteString("Log file created at: 2026/03/10 10:00:00\n")
	events := 0
	for i := 0; i < n; i++ {
		ts := fmt.Sprintf("I0310 10:%02d:%02d.%06d  4411 ", i/60000%60, i/1000%60, i%1000*1000)
		k := -1
		if every > 0 && i%every < 3 {
			k = i % every
			events++
		}
		switch k {
		case 0:
			fmt.Fprintf(&b, "%sreplica_state.cc:731] T %s P %s [term 3 LEADER]: Committing config change with OpId 3.%d. Old config: { opid_index: %d %s }. New config: { opid_index: %d %s }\n", ts, tab, a, i, i-1, cfg, i, cfg)
		case 1:
			fmt.Fprintf(&b, "%sraft_consensus.cc:3412] T %s P %s [term 3 LEADER]: Setting replicate pending config %s, type = ADD_SERVER\n", ts, tab, a, cfg)
		case 2:
			fmt.Fprintf(&b, "%sts_tablet_manager.cc:1480] T %s P %s:  Initiating RemoteBootstrap from Peer %s (10.0.0.1:9100)\n", ts, tab, d, a)
		default:
			fmt.Fprintf(&b, "%swrite_query.cc:1100] T %s P %s [term 3 LEADER]: Write request processed, ops: 12, bytes: 4096\n", ts, tab, a)
		}
	}
	return b.String(), events
}

// BenchmarkConfigScan compares a log without config lines with logs where
// they are rare (every 1000 lines) and frequent (every 20): the grammar runs
// only on the lines the byte test selects, so the cost follows their share.
func BenchmarkConfigScan(b *testing.B) {
	for _, every := range []int{0, 1000, 20} {
		log, want := configBenchLog(20000, every)
		b.Run(fmt.Sprintf("config-every-%d", every), func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := parse.Scan(strings.NewReader(log), "bench.log", []parse.System{yb.System}, parse.Options{})
				if err != nil || res.Stats.Events != want {
					b.Fatalf("events %d, want %d, err %v", res.Stats.Events, want, err)
				}
			}
		})
	}
}
