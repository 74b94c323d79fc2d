package yb_test

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// The phrases of a user's catalogue make a line an alarm at any level but
// INFO, from any file, and in an excerpt that lost its envelope; nothing
// else changes.
func TestAddedPhrasesMakeAlarms(t *testing.T) {
	const phrase = "immutable memtables (waiting for flush)"
	const msg = "[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2"
	for _, tc := range []struct {
		line   string
		alarm  bool
		raised string
	}{
		{"W1007 16:39:07.123456  4321 column_family.cc:671] " + msg, true, yb.RaisedWarning},
		{"E1007 16:39:07.123456  4321 column_family.cc:671] " + msg, true, yb.RaisedError},
		{"I1007 16:39:07.123456  4321 column_family.cc:671] " + msg, false, ""},
		{"W1007 16:39:07.123456  4321 column_family.cc:671] Stopping writes for another reason", false, ""},
		// Pasted without its envelope: only the words make it an alarm,
		// and its level is unknown.
		{"  " + msg, true, yb.RaisedUnknown},
	} {
		for _, opts := range []parse.Options{{}, {AlarmPhrases: []string{phrase}}} {
			res, err := parse.Scan(strings.NewReader("Log file created at: 2023/10/07 16:30:00\n"+tc.line+"\n"), "t.log", []parse.System{yb.System}, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Events {
				if a, ok := e.(*yb.Alarm); ok {
					got = append(got, a.Text.Raised)
				}
			}
			want := tc.alarm && len(opts.AlarmPhrases) > 0
			if !want && len(got) != 0 || want && (len(got) != 1 || got[0] != tc.raised) {
				t.Errorf("%q with %d phrases: alarms %q, want alarm %v raised %q", tc.line, len(opts.AlarmPhrases), got, want, tc.raised)
			}
		}
	}
}
