package yb

import (
	"regexp"
	"slices"
	"testing"
	"time"
)

// The store's phrases are the matchers': every keyword of every reader's
// list and every alarm phrase (the catalogue's too), and nothing else.
func TestStorePhrasesAreTheKeywordTables(t *testing.T) {
	got := StorePhrases()
	var want []string
	for _, list := range keywordLists() {
		for _, k := range list {
			want = append(want, string(k))
		}
	}
	want = append(want, string(checkFailedWord))
	for _, m := range alarmMessages {
		want = append(want, m.phrase)
	}
	want = append(want, catalogPhrases...)
	slices.Sort(want)
	want = slices.Compact(want)
	if !slices.Equal(got, want) {
		t.Fatalf("StorePhrases() = %q\nwant the keyword tables %q", got, want)
	}
}

func TestStoreClock(t *testing.T) {
	c := NewClock(2000, false)
	for _, tc := range []struct{ line, want string }{
		{"Log file created at: 2023/12/31 23:59:00", "2023-12-31T23:59:00Z"},
		{"Running on machine: yb-tserver-2", ""},
		{"I1231 23:59:59.999999  4242 raft_consensus.cc:1] x", "2023-12-31T23:59:59.999999Z"},
		{"1. Replicated { ht: { physical: 1 } }", ""},
		{"I0101 00:00:01.000001  4242 raft_consensus.cc:1] the log crossed New Year", "2024-01-01T00:00:01.000001Z"},
		{"F20240101 00:00:02 ../../src/yb/tablet/mvcc.cc:395] details", "2024-01-01T00:00:02Z"},
	} {
		got, ok := c.Time([]byte(tc.line))
		s := ""
		if ok {
			s = got.Format(time.RFC3339Nano)
		}
		if s != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, s, tc.want)
		}
	}
	if f := NewClock(2019, true); true {
		f.Time([]byte("Log file created at: 2023/10/07 16:37:00"))
		if got, _ := f.Time([]byte("I1007 16:39:07.497722 1 mvcc.cc:395] x")); got.Year() != 2019 {
			t.Errorf("a fixed year lost to the header: %v", got)
		}
	}
}

// The store's patterns select what the decoder reads by shape: FATAL
// lines, standalone dump entries and the errors of alarm files.
func TestStorePatternsSelectAlarms(t *testing.T) {
	var res []*regexp.Regexp
	for _, p := range StorePatterns() {
		res = append(res, regexp.MustCompile(p))
	}
	sel := func(line string) bool {
		for _, re := range res {
			if re.MatchString(line) {
				return true
			}
		}
		return false
	}
	for line, want := range map[string]bool{
		"F1007 16:39:07.123456  1234 tablet_peer.cc:99] anything":                          true,
		"E1007 16:39:07.123456  1234 raft_consensus.cc:99] T t P p: a refusal":             true,
		"E1007 16:39:07.123456  1234 ../../src/yb/consensus/log.cc:9] segment":             true,
		"  1> E1007 16:39:07.123456  1234 ts_tablet_manager.cc:9] x":                       true,
		"E1007 16:39:07.123456  1234 tablet_service.cc:99] T t P p: an ordinary rpc error": false,
		"I1007 16:39:07.123456  1234 raft_consensus.cc:99] T t P p: info":                  false,
	} {
		if sel(line) != want {
			t.Errorf("%q selected %v, want %v", line, !want, want)
		}
	}
}
