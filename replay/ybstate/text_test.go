package ybstate

import (
	"slices"
	"strings"
	"testing"
)

// packText keeps a line's 32-hex-digit ids in half the bytes and gives
// back the same text, whatever bytes it holds.
func TestPackTextRoundTrips(t *testing.T) {
	line := "I1007 16:00:00.000122 69395 raft_consensus.cc:1120] T 82c103a376eed66c42fef924d708086e P e77d64a2cb1217b4debc456cffecc448 [term 2 LEADER]: Sending NO_OP at op 2.1001"
	p := packText(line)
	if want := len(line) + 1 - 2*(idDigits/2-1); len(p) != want {
		t.Errorf("packed %d bytes into %d, want %d", len(line), len(p), want)
	}
	for _, s := range []string{
		line, "", "no id here", strings.Repeat("a", 31), strings.Repeat("0", 32), strings.Repeat("f", 70),
		"\xff", "\xffT " + strings.Repeat("1", 32), "\xfd\xfe\xff" + strings.Repeat("b", 33) + "\xfe",
		"ABCDEF" + strings.Repeat("c", 32) + "G", "\xff\xfe\x00",
	} {
		if got := unpackText(packText(s)); got != s {
			t.Errorf("%q: packed and unpacked to %q", s, got)
		}
	}
	if p := packText("no id here"); p != "no id here" {
		t.Errorf("a text without an id is kept as it is, got %q", p)
	}
}

// packIDs packs the ids a line names, and only those, into the form
// packText gives.
func TestPackIDs(t *testing.T) {
	tab, peer := "82c103a376eed66c42fef924d708086e", "e77d64a2cb1217b4debc456cffecc448"
	line := "I1007 16:00:00.000122 69395 raft_consensus.cc:1120] T " + tab + " P " + peer + " [term 2 LEADER]: Sending NO_OP at op 2.1001"
	if p, want := packIDs(line, tab, peer), packText(line); p != want {
		t.Errorf("packIDs gave %q, packText %q", p, want)
	}
	if p := packIDs(line, peer, tab); unpackText(p) != line || len(p) != len(packText(line)) {
		t.Errorf("ids in either order: %q", p)
	}
	for _, c := range []struct{ s, a, b string }{
		{line, tab, tab}, {line, "", "not an id"}, {line, strings.ToUpper(tab), peer},
		{"\xfe" + line, tab, peer}, {"\xff" + line, tab, peer}, {"", tab, peer},
		{strings.Repeat("a", 40), strings.Repeat("a", 32), strings.Repeat("a", 32)},
	} {
		if got := unpackText(packIDs(c.s, c.a, c.b)); got != c.s {
			t.Errorf("%q with %q, %q: packed and unpacked to %q", c.s, c.a, c.b, got)
		}
	}
}

// An idCache gives what reading each id anew gives, whatever ids come
// in turn, ids that are not 32 hex digits among them.
func TestPackIDsCached(t *testing.T) {
	tab, peer := "82c103a376eed66c42fef924d708086e", "e77d64a2cb1217b4debc456cffecc448"
	other := "45dae660f5442afc08c06c304108ef6c"
	pre := "I1007 16:00:00.000122 69395 raft_consensus.cc:1120] T "
	var c idCache
	for _, ids := range [][2]string{
		{tab, peer}, {tab, peer}, {tab, other}, {other, peer}, {tab, strings.ToUpper(peer)},
		{tab, strings.ToUpper(peer)}, {"", ""}, {tab, ""}, {tab, peer}, {"not an id", peer}, {tab, peer},
	} {
		for _, s := range []string{
			pre + ids[0] + " P " + ids[1] + " [term 2 LEADER]: Sending NO_OP at op 2.1001",
			pre + tab + " P " + peer + " [term 2 LEADER]: Revoked old leader " + other + " lease",
			"a line naming " + ids[1] + " then " + ids[0],
		} {
			if got, want := packIDsWith(s, ids[0], ids[1], &c), packIDs(s, ids[0], ids[1]); got != want {
				t.Errorf("%q with %q: cached %q, anew %q", s, ids, got, want)
			}
		}
	}
}

// samePlaces fails t unless idsAt finds tablet and peer in s where a
// search for each does.
func samePlaces(t *testing.T, s, tablet, peer string) {
	t.Helper()
	var raw, want [2][idDigits / 2]byte
	at, n := idsAt(s, tablet, peer, &raw)
	wat, wn := searchIDs(s, tablet, peer, &want)
	if n != wn || !slices.Equal(at[:n], wat[:wn]) || !slices.Equal(raw[:n], want[:wn]) {
		t.Fatalf("%q with %q, %q: ids at %v (%d), a search finds them at %v (%d)", s, tablet, peer, at[:n], n, wat[:wn], wn)
	}
}

// The glog prefix names a line's tablet and peer where a search for each
// finds them first, unless the header or the tablet holds one of them
// too: idsAt takes the prefix only when it is so.
func TestIDsAtPrefix(t *testing.T) {
	tab, peer := "82c103a376eed66c42fef924d708086e", "e77d64a2cb1217b4debc456cffecc448"
	msg := "] T " + tab + " P " + peer + " [term 2 LEADER]: Revoked old leader " + peer + " lease"
	for _, c := range []struct {
		head, tablet, peer string
		prefix             bool
	}{
		{"I1007 16:00:00.000122 69395 raft_consensus.cc:1120", tab, peer, true},
		{"I1007 16:00:00.000122 69395 raft_consensus.cc:1120", tab, tab, false},
		{"I1007 16:00:00.000122 " + peer + " raft_consensus.cc:1120", tab, peer, false},
		{"I1007 16:00:00.000122 0" + tab + " raft_consensus.cc:1120", tab, peer, false},
		{"I1007 16:00:00.000122 " + strings.Repeat("1", 31) + " raft_consensus.cc:1120", tab, peer, true},
		{"I1007 16:00:00.000122 " + strings.Repeat("1", 32) + " raft_consensus.cc:1120", tab, peer, false},
		{"I1007 16:00:00.000122 69395 raft_consensus.cc:1120", peer, tab, false},
		{"I1007 16:00:00.000122 69395 raft_consensus.cc:1120", strings.ToUpper(tab), peer, false},
		{"", tab, peer, true},
		{"x]", tab, peer, false},
	} {
		s := c.head + msg
		if _, ok := prefixAt(s, c.tablet, c.peer); ok != c.prefix {
			t.Errorf("%q with %q, %q: prefixAt %v, want %v", s, c.tablet, c.peer, ok, c.prefix)
		}
		samePlaces(t, s, c.tablet, c.peer)
		samePlaces(t, s[:len(s)-10], c.tablet, c.peer)
	}
}

// hasMark finds a byte 0xfd and above wherever it is, and no other.
func TestHasMark(t *testing.T) {
	for n := 0; n < 20; n++ {
		for at := 0; at < n; at++ {
			for _, c := range []byte{0x7f, 0x80, 0xfc, 0xfd, 0xfe, 0xff, 0x7d} {
				b := []byte(strings.Repeat("\x7e", n))
				b[at] = c
				if got, want := hasMark(string(b)), c >= escMark; got != want {
					t.Errorf("%q: hasMark %v, want %v", b, got, want)
				}
			}
		}
	}
}

func FuzzPackText(f *testing.F) {
	f.Add("T 82c103a376eed66c42fef924d708086e P e77d64a2cb1217b4debc456cffecc448")
	f.Add("I1007 16:00:00.000122 69395 raft_consensus.cc:1120] T 82c103a376eed66c42fef924d708086e P e77d64a2cb1217b4debc456cffecc448 [term 2 LEADER]: x")
	f.Add("\xff\xfe\xfd")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) >= 2*idDigits {
			// The ids a decoder could have read from it.
			a, b := s[:idDigits], s[len(s)-idDigits:]
			if got := unpackText(packIDs(s, a, b)); got != s {
				t.Fatalf("%q: packIDs then unpacked to %q", s, got)
			}
		}
		// The ids of a glog prefix in it, if it has one.
		if j := strings.Index(s, "] T "); j >= 0 && len(s) >= j+4+2*idDigits+3 {
			a, b := s[j+4:j+4+idDigits], s[j+4+idDigits+3:j+4+2*idDigits+3]
			samePlaces(t, s, a, b)
		}
		if want := strings.IndexByte(s, escMark) >= 0 || strings.IndexByte(s, hexMark) >= 0 || strings.IndexByte(s, packedMark) >= 0; hasMark(s) != want {
			t.Fatalf("%q: hasMark %v", s, hasMark(s))
		}
		p := packText(s)
		if got := unpackText(p); got != s {
			t.Fatalf("%q: packed and unpacked to %q", s, got)
		}
		if len(p) > len(s)+1+strings.Count(s, "\xfd")+strings.Count(s, "\xfe")+strings.Count(s, "\xff") {
			t.Fatalf("%q: packed into %d bytes, more than it holds", s, len(p))
		}
	})
}

// packText sizes its buffer before it writes: one allocation (a size
// reckoned short would grow it again; one reckoned long shows in
// TestLiveHeapPerTablet of the rule pack).
func TestPackTextAllocatesOnce(t *testing.T) {
	for _, s := range []string{
		"T 82c103a376eed66c42fef924d708086e P e77d64a2cb1217b4debc456cffecc448 [term 2 LEADER]",
		"\xff" + strings.Repeat("a", 65) + "\xfe", strings.Repeat("0", 64),
	} {
		p := packText(s)
		if n := testing.AllocsPerRun(10, func() { _ = packText(s) }); n != 1 {
			t.Errorf("%q: %v allocations, want one of the packed size", s, n)
		}
		if len(unpackText(p)) != len(s) {
			t.Errorf("%q: round trip lost bytes", s)
		}
	}
}

// BenchmarkPackIDs packs a Raft line's tablet and peer, as every Raft
// line the state folds in has them packed.
func BenchmarkPackIDs(b *testing.B) {
	tab, peer := "82c103a376eed66c42fef924d708086e", "e77d64a2cb1217b4debc456cffecc448"
	line := "I1007 16:00:00.000517 18009 replica_state.cc:1290] T " + tab + " P " + peer + " [term 2 LEADER]: Revoked old leader 45dae660f5442afc08c06c304108ef6c lease: -1.500s"
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		packIDs(line, tab, peer)
	}
}
