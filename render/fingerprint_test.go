package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/logsleuth/logsleuth/rules"
)

func baseFinding() rules.Finding {
	return rules.Finding{
		Rule: "yb/mvcc/ht-below-safe-time", Severity: rules.Error, Origin: rules.Confirmed,
		Subject: rules.Subject{System: "yb", Tablet: "35ef", Peer: "daf8"},
		Message: "op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095",
		Evidence: []rules.Evidence{
			{Source: "bundle/node-1/tserver.log", Line: 39, Text: "New operation's hybrid time too low: { physical: 1696696747406942 }"},
			{Source: "bundle/node-1/tserver.log", Line: 41, Text: "  !!! ht <= x=1"},
		},
		Facts: map[string]string{"below_us": "77902"},
		State: []string{"term: 15"},
	}
}

func TestFingerprintStable(t *testing.T) {
	f := baseFinding()
	// Pinned: a change here changes every baseline and code-scanning alert,
	// and must come with a new FingerprintVersion.
	assert.Equal(t, "84820b601496b9b436295259ecd19d58", Fingerprint(&f))
}

func TestFingerprintIgnores(t *testing.T) {
	want := func() string { f := baseFinding(); return Fingerprint(&f) }()
	for name, change := range map[string]func(*rules.Finding){
		"line numbers": func(f *rules.Finding) { f.Evidence[0].Line, f.Evidence[1].Line = 1039, 1041 },
		"directory": func(f *rules.Finding) {
			f.Evidence[0].Source, f.Evidence[1].Source = "/tmp/x/tserver.log", `C:\ci\tserver.log`
		},
		"indentation":    func(f *rules.Finding) { f.Evidence[1].Text = "\t!!!  ht <= x=1  " },
		"severity":       func(f *rules.Finding) { f.Severity = rules.Warning },
		"origin":         func(f *rules.Finding) { f.Origin = rules.Derived },
		"state":          func(f *rules.Finding) { f.State = nil },
		"file base name": func(f *rules.Finding) { f.Evidence[0].Source, f.Evidence[1].Source = "-", "-" },
		"glog name": func(f *rules.Finding) {
			f.Evidence[0].Source = "yb-tserver.h.yugabyte.log.INFO.20231008-090112.28411"
			f.Evidence[1].Source = "yb-tserver.h.yugabyte.log.INFO.20231008-090112.28411"
		},
		"collector stamp": func(f *rules.Finding) { f.Evidence[0].Text = "2024-02-01T10:00:03.000023757Z " + f.Evidence[0].Text },
		"CRI stamp": func(f *rules.Finding) {
			f.Evidence[1].Text = "2024-02-01T10:00:03+00:00 stderr F " + f.Evidence[1].Text
		},
		"message whitespace": func(f *rules.Finding) {
			f.Message = "op 17.686821  at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095 "
		},
	} {
		f := baseFinding()
		change(&f)
		assert.Equal(t, want, Fingerprint(&f), name)
	}
}

func TestFingerprintDistinguishes(t *testing.T) {
	want := func() string { f := baseFinding(); return Fingerprint(&f) }()
	seven := 7
	for name, change := range map[string]func(*rules.Finding){
		"rule":   func(f *rules.Finding) { f.Rule = "yb/lease/overlap" },
		"peer":   func(f *rules.Finding) { f.Subject.Peer = "other" },
		"tablet": func(f *rules.Finding) { f.Subject.Tablet = "other" },
		"shard":  func(f *rules.Finding) { f.Subject.Shard = &seven },
		"a number": func(f *rules.Finding) {
			f.Message = "op 17.686822 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095"
		},
		"evidence text":  func(f *rules.Finding) { f.Evidence[0].Text += "1" },
		"evidence count": func(f *rules.Finding) { f.Evidence = f.Evidence[:1] },
		"a fact":         func(f *rules.Finding) { f.Facts["below_us"] = "77903" },
		"a fact's name":  func(f *rules.Finding) { f.Facts = map[string]string{"above_us": "77902"} },
		"no facts":       func(f *rules.Finding) { f.Facts = nil },
		"a clock time":   func(f *rules.Finding) { f.Message += " at 16:39:00.100" },
		// Length prefixes: moving text between fields changes the hash.
		"field boundary": func(f *rules.Finding) { f.Subject.Tablet, f.Subject.Peer = "35efdaf8", "" },
	} {
		f := baseFinding()
		change(&f)
		assert.NotEqual(t, want, Fingerprint(&f), name)
	}
}

func TestBaselineIsAMultiset(t *testing.T) {
	a, b := baseFinding(), baseFinding()
	b.Rule = "yb/lease/overlap"
	bl := NewBaseline([]rules.Finding{a, b})
	shifted := baseFinding()
	shifted.Evidence[0].Line += 10
	assert.Equal(t, []bool{true, true, false}, bl.Match([]rules.Finding{shifted, b, a}), "a second copy of a needs a second copy in the baseline")
	assert.Equal(t, []bool{true}, bl.Match([]rules.Finding{a}), "Match does not consume the baseline")
	assert.Equal(t, []bool{false}, NewBaseline(nil).Match([]rules.Finding{a}))
}

// A message that cites a position must keep its fingerprint when the log
// gains lines, whether it names the source as given or by base name.
func TestFingerprintIgnoresCitedPositions(t *testing.T) {
	f := func(line int, cited string) *rules.Finding {
		return &rules.Finding{
			Rule: "es/write/acked-lost", Subject: rules.Subject{System: "es", Index: "test", Node: "node_t1"},
			Message:  "doc 30 is missing: the recovery at " + cited + " started above #1",
			Evidence: []rules.Evidence{{Source: "logs/es.log", Line: line, Text: "doc [30] not found"}},
		}
	}
	a := Fingerprint(f(108, "logs/es.log:108"))
	assert.Equal(t, a, Fingerprint(f(109, "logs/es.log:109")))
	assert.Equal(t, a, Fingerprint(f(7, "es.log:7")))
	assert.Equal(t, a, Fingerprint(f(7, "other.log:7")), "a position of a source the evidence does not quote")
	assert.Equal(t, a, Fingerprint(f(7, "bundle.tar.gz!node-1/es.log:7")))
	// Numbers that are not positions still count.
	g := f(108, "logs/es.log:108")
	g.Message = strings.Replace(g.Message, "#1", "#2", 1)
	assert.NotEqual(t, a, Fingerprint(g))
}

// Two clock times and a position keep apart what they should: only the
// position is reduced.
func TestNormalizeFingerprintText(t *testing.T) {
	for in, want := range map[string]string{
		"led until 16:39:00.100000 (tserver.log:12)":                "led until 16:39:00.100000 (#)",
		"the recovery at -:57 started":                              "the recovery at # started",
		"revoked_at 2023-10-07T16:39:00.000000Z":                    "revoked_at Y-10-07T16:39:00.000000Z",
		"op 17.686821 at ht 1696696747406942":                       "op 17.686821 at ht 1696696747406942",
		"none after C:\\ci\\yb-tserver.INFO.20231007-163000.5100:4": "none after #",
		"shard [idx][3]: lcp 2 / max_seq_no 2":                      "shard [idx][3]: lcp 2 / max_seq_no 2",
	} {
		assert.Equal(t, want, normalizeFingerprintText(in, nil), in)
	}
}

// The head a log4j record's evidence loses: the runner's stream prefix
// and the record's time, which the pattern layout prints in the JVM's
// zone and the ECS layout in UTC. What the record says is kept.
func TestEvidenceText(t *testing.T) {
	const rec = "[INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] --> [test][1] peer recovery existing commits[["
	for in, want := range map[string]string{
		"  1> [2018-01-27T10:58:33,091]" + rec:                          rec,
		"[2018-01-27T09:58:33,091]" + rec:                               rec,
		"2024-02-01T10:00:03Z stderr F [2018-01-27T10:58:33.091]" + rec: rec,
		"   > Throwable #1: java.lang.AssertionError: doc [30]":         "   > Throwable #1: java.lang.AssertionError: doc [30]",
		"--------[test][1], node[SXrylrbnSOqpFvbIzKORgg], [P]":          "--------[test][1], node[SXrylrbnSOqpFvbIzKORgg], [P]",
		"I1007 16:39:00.100000 5100 tablet.cc:1] T 35ef P daf8: x":      "I1007 16:39:00.100000 5100 tablet.cc:1] T 35ef P daf8: x",
		// A time in brackets inside a message is not the record's.
		"msg at [2018-01-27T10:58:33,091][x]": "msg at [2018-01-27T10:58:33,091][x]",
	} {
		assert.Equal(t, want, evidenceText(in), in)
	}
}

// An evidence source is matched as the bytes it was given: a name that is
// not valid UTF-8 (a file name on Linux may be any bytes) or that holds a
// pattern's metacharacters has its positions reduced, and nothing panics.
func TestNormalizeFingerprintTextOddSources(t *testing.T) {
	for _, c := range []struct{ source, in, want string }{
		{"\x80", "\x80:12 and \x80:7", "# and #"},
		{"a(b)+.log", "led at a(b)+.log:3, not a(b)+.logx:4", "led at #, not a(b)#"},
		{"n.log", "n.log: no line, n.log:5", "n.log: no line, #"},
		{"n.log", "n.log:", "n.log:"},
	} {
		got := normalizeFingerprintText(c.in, []rules.Evidence{{Source: c.source, Line: 1}})
		assert.Equal(t, c.want, got, "%q", c.in)
	}
}
