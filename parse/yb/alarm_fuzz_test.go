package yb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// alarmLayouts put an alarm message in every layout the decoder reads.
// Each takes the source file, a stamp seed and the message.
var alarmLayouts = []func(file string, st uint32, msg string) string{
	func(f string, st uint32, m string) string { return "F" + stamp(st) + " 1234 " + f + ":77] " + m },
	func(f string, st uint32, m string) string {
		return "F2023" + stamp(st)[:4] + " " + stamp(st)[5:13] + " ../../src/yb/x/" + f + ":77] " + m
	},
	func(f string, st uint32, m string) string { return "    F" + stamp(st) + " 1234 " + f + ":77] " + m },
	func(f string, st uint32, m string) string { return "  1> F" + stamp(st) + " 1234 " + f + ":77] " + m },
	func(f string, st uint32, m string) string {
		return "F" + stamp(st) + " 1234 " + f + ":77] T t1 P p1: T t1 P p1: " + m
	},
	func(f string, st uint32, m string) string {
		return "E" + stamp(st) + " 1234 " + f + ":77] T t1 P p1 [term 3 LEADER]: Adding operation with wrong index: " + m
	},
	func(f string, st uint32, m string) string { return "Check failed: " + m },
	func(f string, st uint32, m string) string {
		return "  F" + stamp(st) + " 1234 " + f + ":77] Check failed: " + m
	},
}

// stamp makes a glog stamp, mmdd hh:mm:ss.uuuuuu, from a seed: mostly a
// real time, sometimes one with an impossible field.
func stamp(st uint32) string {
	return fmt.Sprintf("%02d%02d %02d:%02d:%02d.%06d", st%14, st/14%33, st/500%25, st/13000%61, st/800000%61, st%1000000)
}

var alarmFiles = []string{"raft_consensus.cc", "mvcc.cc", "log.cc", "env_posix.cc", "tablet_bootstrap.cc", "catalog_manager.cc", "x.cc"}

// No FATAL, DFATAL or Check failed line, in any layout, from any file,
// whatever its message, gives no event.
func FuzzAlarmLine(f *testing.F) {
	for i, m := range []string{
		"Unexpected new leader in same term! Existing leader UUID: a, new leader UUID: b",
		"Check failed: pending_operations_.front()->id().index() == last_committed_op_id_.index + 1 (8197818 vs. 8197130)",
		"New operation's hybrid time too low: { physical: 1180591620717411303424 }, op id: 17.686821",
		"Recent 99999999999999999999 MVCC operations:", "Op sequence failure: 1.x followed by", "Bad ht lease",
		"5. Replicated { ht: { physical: 1 } op_id: 1.2 }", "Advancing to term 5", "Received ChangeConfig request {",
		"Log file created at: 2023/07/06", "", "]", "T x P y", "Leader election vote request: Granting yes vote for candidate c in term 3.",
	} {
		f.Add(uint8(i), uint8(i), uint32(i*7919), m)
	}
	f.Fuzz(func(t *testing.T, layout, file uint8, st uint32, msg string) {
		// A NUL makes the line binary, which Scan skips with a diagnostic.
		if strings.ContainsAny(msg, "\r\n\x00") || len(msg) > 4096 {
			return
		}
		line := alarmLayouts[int(layout)%len(alarmLayouts)](alarmFiles[int(file)%len(alarmFiles)], st, msg)
		checkAlarmLine(t, line)
	})
}

func checkAlarmLine(t *testing.T, line string) {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(line), "fuzz", []parse.System{System}, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) == 0 {
		t.Fatalf("an alarm line gave no event: %q\ndiags: %v", line, res.Diags)
	}
	if !System.Knows([]byte(line)) {
		t.Fatalf("an alarm line is not known: %q", line)
	}
}

// The table of alarm messages, each in every layout.
func TestEveryAlarmMessageInEveryLayout(t *testing.T) {
	for _, m := range alarmMessages {
		for li, layout := range alarmLayouts {
			for _, file := range []string{m.file, "env_posix.cc"} {
				line := layout(file, 1234567, m.phrase+" with more words 1.2")
				checkAlarmLine(t, line)
				// The message is found after the layout's prefixes.
				res, _ := parse.Scan(strings.NewReader(line), "t", []parse.System{System}, parse.Options{Year: 2023})
				found := false
				for _, e := range res.Events {
					if a, ok := e.(*Alarm); ok {
						found = true
						if !strings.Contains(a.Text.Message, m.phrase) {
							t.Errorf("layout %d: message %q lost %q", li, a.Text.Message, m.phrase)
						}
						if li == 5 && a.Text.Raised != RaisedDFatal {
							t.Errorf("layout %d: an E line with a DFATAL message raised %q", li, a.Text.Raised)
						}
					}
				}
				if !found && m.file != "mvcc.cc" {
					t.Errorf("layout %d, %s: %q gave no alarm: %v", li, file, line, res.Events)
				}
			}
		}
	}
}
