package catalog

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// FuzzCatalogMatch reads arbitrary alarm text with the built-in
// catalogue: it never panics, a match reads only text the message holds
// (its quoted wraps joined), and every comparison either evaluates or says
// which value it could not read.
func FuzzCatalogMatch(f *testing.F) {
	c, err := Builtin()
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range c.Entries() {
		for _, ex := range e.Examples {
			f.Add(ex.Message)
		}
	}
	f.Add("supposedly in-sync shard copy received a global checkpoint [99999999999999999999] that is higher than its local checkpoint [-1]")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, sys := range []string{"yb", "es"} {
			m, ok := c.Match(sys, &parse.AlarmText{Message: msg})
			if !ok {
				continue
			}
			// A line break inside a quoted string is read as the space
			// a terminal's wrap took (joinQuotedWraps).
			joined := joinQuotedWraps(msg)
			for n, v := range m.Values {
				if !strings.Contains(joined, v.text) {
					t.Fatalf("%s: %s read %q, which %q does not hold", m.Entry.Key(), n, v.text, msg)
				}
			}
			for _, cmp := range m.Entry.holds {
				if o, err := cmp.eval(m.Values); err == nil {
					_ = o.statement()
				} else if err.Error() == "" {
					t.Fatal("an unread value must be named")
				}
			}
			_ = m.finding(&ybAlarm{Meta: meta(1, msg)}, &parse.AlarmText{Message: msg}, subjectOf(sys, &ybAlarm{}))
		}
	})
}

// FuzzShape compiles arbitrary shapes and reads arbitrary text with them:
// a shape either fails to compile with an error or matches without
// panicking.
func FuzzShape(f *testing.F) {
	f.Add("global checkpoint [{gcp}] above [{lcp:int}] {}", "global checkpoint [1] above [2] x")
	f.Add("{a:ht} {{ {b:opid} }} {c:duration}", "{ physical: 1 } { 1.2 } 3s")
	f.Add("x {y:shard} {z:word}", "x [i][1] w")
	f.Fuzz(func(t *testing.T, shape, msg string) {
		sh, err := compileShape(shape)
		if err != nil {
			return
		}
		if vals, ok := sh.match(msg); ok {
			for _, v := range vals {
				_ = v.canonical()
			}
		}
	})
}
