package yb

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

const (
	sdTab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
	sdA   = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
	sdB   = "8e2d4f6a1b3c4d5e9f0a7b6c5d4e3f21"
)

// stepDownLines are AsyncTryStepDown's two lines as async_rpc_tasks.cc
// prints them after the task's prefix: the newer description ("Stepdown
// Leader RPC for tablet ... Reason: ..."), the older fixed one ("Async
// Leader Stepdown"), with and without a new leader, an error whose text
// holds commas and a `failed=` of its own, and the 1/0 of a stream.
var stepDownLines = []struct {
	line string
	want *MasterStepDown // nil: not read
}{
	{"I0310 10:00:20.100000  2230 async_rpc_tasks.cc:1620] Stepdown Leader RPC for tablet " + sdTab + " (ysql.yugabyte.orders [id=0000]) on peer " + sdA + ". Reason: Leader move (task=0x000055d1c2e41000, state=kRunning): Stepping down leader " + sdA + " for tablet " + sdTab + " with new leader " + sdB,
		&MasterStepDown{Leader: sdA, NewLeader: sdB}},
	{"I0310 10:00:20.100000  2230 async_rpc_tasks.cc:1199] Async Leader Stepdown (task=0x1, state=kRunning): Stepping down leader " + sdA + " for tablet " + sdTab,
		&MasterStepDown{Leader: sdA}},
	{"I0310 10:00:20.180000  2231 async_rpc_tasks.cc:1647] Stepdown Leader RPC for tablet " + sdTab + " (t) on peer " + sdA + ". Reason: r (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=" + sdA + ", change_uuid=" + sdA + ", error=, failed=false, should_remove=false for tablet " + sdTab + ".",
		&MasterStepDown{Leader: sdA, Done: true, Attempt: 1, Change: sdA, FailedKnown: true}},
	{"I0310 10:00:21.180000  2231 async_rpc_tasks.cc:1230] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=" + sdA + ", change_uuid=" + sdB + ", error=code: LEADER_NOT_READY_TO_STEP_DOWN status { code: ILLEGAL_STATE message: \"not caught up, failed=0\" }, failed=1, should_remove=1 for tablet " + sdTab + ".",
		&MasterStepDown{Leader: sdA, Done: true, Attempt: 1, Change: sdB, Error: "code: LEADER_NOT_READY_TO_STEP_DOWN status { code: ILLEGAL_STATE message: \"not caught up, failed=0\" }", Failed: true, FailedKnown: true, ShouldRemove: true}},
	// A tablet server's own step-down is raft's line, not this one.
	{"I0310 10:00:21.180000  2231 raft_consensus.cc:1] T " + sdTab + " P " + sdA + " [term 3 LEADER]: Stepping down as leader of term 3 since new term is 4", nil},
	// Cut before the tablet: nothing to place it by.
	{"I0310 10:00:21.180000  2231 async_rpc_tasks.cc:1199] Async Leader Stepdown (task=0x1, state=kRunning): Stepping down leader " + sdA, nil},
}

func TestMasterStepDown(t *testing.T) {
	for _, tc := range stepDownLines {
		res, err := parse.Scan(strings.NewReader(tc.line), "m.log", []parse.System{System}, parse.Options{Year: 2026})
		if err != nil {
			t.Fatal(err)
		}
		var got *MasterStepDown
		for _, e := range res.Events {
			if sd, ok := e.(*MasterStepDown); ok {
				got = sd
			}
		}
		if tc.want == nil {
			if got != nil {
				t.Errorf("%q: read as %+v", tc.line, *got)
			}
			continue
		}
		if got == nil {
			t.Errorf("%q: not read (events %v, diags %v)", tc.line, res.Events, res.Diags)
			continue
		}
		if got.Tablet != sdTab || got.Peer != tc.want.Leader || got.Term != -1 {
			t.Errorf("%q: placed at %s/%s term %d", tc.line, got.Tablet, got.Peer, got.Term)
		}
		w := *tc.want
		w.Base = got.Base
		if *got != w {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.line, *got, w)
		}
		if got.SteppedDown() != (w.Done && w.Error == "") {
			t.Errorf("%q: SteppedDown %v", tc.line, got.SteppedDown())
		}
	}
}

// FuzzMasterStepDown feeds one line to the decoder, seeded with the
// step-down lines: it must not panic, give at most one event on that line,
// and a step-down event must name the tablet and the leader it is about.
func FuzzMasterStepDown(f *testing.F) {
	for _, tc := range stepDownLines {
		f.Add(tc.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		for _, e := range scanOneLine(t, line, 2026) {
			if sd, ok := e.(*MasterStepDown); ok && (sd.Tablet == "" || sd.Peer == "" || sd.Peer != sd.Leader) {
				t.Fatalf("step-down placed at %q/%q for leader %q", sd.Tablet, sd.Peer, sd.Leader)
			}
		}
	})
}
