package esrules

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
)

// logs is the project's own ES testdata.
const logs = "../../testdata/es"

// analyse drives the pipeline the CLI drives: Scan per source, Merge, Run.
func analyse(t *testing.T, sources map[string]io.Reader) ([]rules.Finding, *Pack, []parse.Diagnostic) {
	t.Helper()
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	var streams [][]parse.Event
	var diags []parse.Diagnostic
	for _, n := range names {
		res, err := parse.Scan(sources[n], n, []parse.System{es.System}, parse.Options{})
		require.NoError(t, err)
		streams = append(streams, res.Events)
		diags = append(diags, res.Diags...)
	}
	p := NewPack()
	return rules.Run(replay.Merge(streams), []rules.Pack{p}), p, diags
}

func formatFindings(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s L%d %s\n", f.Severity, f.Rule, f.Origin, f.Pos().Line, f.Subject)
		fmt.Fprintf(&b, "  %s\n", f.Message)
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, "L"+strconv.Itoa(e.Line))
		}
		fmt.Fprintf(&b, "  evidence: %s\n", strings.Join(ev, " "))
		keys := make([]string, 0, len(f.Facts))
		for k := range f.Facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var facts []string
		for _, k := range keys {
			facts = append(facts, k+"="+f.Facts[k])
		}
		if len(facts) > 0 {
			fmt.Fprintf(&b, "  facts: %s\n", strings.Join(facts, "; "))
		}
	}
	if len(fs) == 0 {
		b.WriteString("no findings\n")
	}
	return b.String()
}

// TestRules runs testdata/*.txt. `check file=<log in testdata/es>` (or an
// inline log) prints the findings; `state file=... index=... shard=...`
// prints `logsleuth state` for one shard. Regenerate with -rewrite.
func TestRules(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			var src io.Reader = strings.NewReader(d.Input + "\n")
			name := "inline.log"
			if d.HasArg("file") {
				var f string
				d.ScanArgs(t, "file", &f)
				data, err := os.ReadFile(filepath.Join(logs, f))
				require.NoError(t, err)
				src, name = strings.NewReader(string(data)), f
			}
			fs, p, diags := analyse(t, map[string]io.Reader{name: src})
			var b strings.Builder
			for _, g := range diags {
				fmt.Fprintf(&b, "diag %s\n", g)
			}
			switch d.Cmd {
			case "check":
				b.WriteString(formatFindings(fs))
			case "state":
				if !d.HasArg("index") {
					require.NoError(t, p.State().DescribeAll(&b))
					break
				}
				var index string
				var shard int
				d.ScanArgs(t, "index", &index)
				d.ScanArgs(t, "shard", &shard)
				require.NoError(t, p.State().Describe(&b, index, shard))
			default:
				return "unknown command " + d.Cmd
			}
			return b.String()
		})
	})
}

func TestCatalog(t *testing.T) {
	cat := rules.Catalog([]rules.Pack{New()})
	var ids []string
	for _, r := range cat {
		ids = append(ids, r.ID)
		want := rules.Error
		switch r.ID {
		case NodeNameReused:
			// An identity note, not a broken invariant.
			want = rules.Note
		case StaleTermRejected:
			// The fencing of a deposed primary working.
			want = rules.Note
		}
		assert.Equal(t, want, r.Severity, r.ID)
		assert.NotEmpty(t, r.Title, r.ID)
		assert.Greater(t, len(r.Explain), 200, r.ID)
		assert.NotEmpty(t, r.Example, r.ID)
	}
	assert.Equal(t, []string{
		"es/cluster/node-name-reused", "es/gcp/above-lcp", "es/gcp/primary-below-insync", "es/recovery/ops-range", "es/recovery/unsafe-safe-commit",
		"es/seqno/conflict", "es/shard/stale-term-rejected", "es/syncid/doc-count-divergence", "es/translog/checkpoint-mismatch", "es/write/acked-lost",
	}, ids)
}

// Every rule's Example must trigger that rule when read as a log: the
// catalog is documentation a support engineer will paste.
func TestExamplesAreRecognised(t *testing.T) {
	for _, r := range catalog {
		res, err := parse.Scan(strings.NewReader(r.Example+"\n"), "example", []parse.System{es.System}, parse.Options{})
		require.NoError(t, err)
		assert.NotEmpty(t, res.Events, "%s: example not parsed", r.ID)
	}
}

// A finding holds its own copies of the texts and names it quotes, not
// slices of the decoder's shared line blocks, which it would keep alive.
func TestFindingsOwnTheirStrings(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(logs, "seqno-conflict.log"))
	require.NoError(t, err)
	res, err := parse.Scan(strings.NewReader(string(data)), "t.log", []parse.System{es.System}, parse.Options{})
	require.NoError(t, err)
	// Every byte any event's strings point into.
	inLines := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		for _, e := range res.Events {
			m := e.Info()
			if q := uintptr(unsafe.Pointer(unsafe.StringData(m.Text))); len(s) > 0 && p >= q && p < q+uintptr(len(m.Text)) {
				return true
			}
		}
		return false
	}
	p := NewPack()
	for _, e := range res.Events {
		p.Observe(e)
	}
	fs := p.Finish()
	require.NotEmpty(t, fs)
	for _, f := range fs {
		require.NotEmpty(t, f.Evidence)
		for _, e := range f.Evidence {
			assert.False(t, inLines(e.Text), "evidence %s:%d", e.Source, e.Line)
		}
		for _, s := range []string{f.Subject.Index, f.Subject.Node, f.Subject.Allocation} {
			assert.False(t, inLines(s), "subject %q", s)
		}
		for k, v := range f.Facts {
			assert.False(t, inLines(v), "fact %s=%q", k, v)
		}
	}
}
