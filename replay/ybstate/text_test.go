package ybstate

import (
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

func FuzzPackText(f *testing.F) {
	f.Add("T 82c103a376eed66c42fef924d708086e P e77d64a2cb1217b4debc456cffecc448")
	f.Add("\xff\xfe\xfd")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) >= 2*idDigits {
			// The ids a decoder could have read from it.
			a, b := s[:idDigits], s[len(s)-idDigits:]
			if got := unpackText(packIDs(s, a, b)); got != s {
				t.Fatalf("%q: packIDs then unpacked to %q", s, got)
			}
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
