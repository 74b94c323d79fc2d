package ybval

import "testing"

const benchItem = "UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: 1696696747485783 } lease: { physical: 1696696748602112 } } safe_time: { physical: 1696696747484844 logical: 4095 } }"

const benchConfig = `{ opid_index: 14 peers { permanent_uuid: "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59" member_type: VOTER last_known_private_addr { host: "10.0.0.1" port: 9100 } cloud_info { placement_cloud: "aws" placement_region: "us-west-2" placement_zone: "us-west-2a" } } peers { permanent_uuid: "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50" member_type: PRE_VOTER last_known_private_addr { host: "10.0.0.4" port: 9100 } cloud_info { placement_cloud: "aws" placement_region: "us-west-2" placement_zone: "us-west-2b" } } }`

// BenchmarkTraceItem parses one MVCC dump entry.
func BenchmarkTraceItem(b *testing.B) {
	b.SetBytes(int64(len(benchItem)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseTraceItem(benchItem); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConfig parses a two-peer Raft config protobuf.
func BenchmarkConfig(b *testing.B) {
	b.SetBytes(int64(len(benchConfig)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseValue(benchConfig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValues reads a hybrid time in a test build's days form and an
// op id in the old brace-less form through their fast paths and through
// the grammar alone.
func BenchmarkValues(b *testing.B) {
	const ht, op = "{ days: 18512 time: 12:14:35.813689 logical: 4095 }", "term: 11 index: 1337331"
	for _, c := range []struct {
		name string
		in   string
		fn   func(string) error
	}{
		{"ht-days", ht, func(s string) error { _, err := ParseHybridTime(s); return err }},
		{"ht-days-grammar", ht, func(s string) error { _, err := parseHybridTimeGrammar(s); return err }},
		{"opid-fields", op, func(s string) error { _, err := ParseOpID(s); return err }},
		{"opid-fields-grammar", op, func(s string) error { _, err := parseOpIDGrammar(s); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.fn(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
