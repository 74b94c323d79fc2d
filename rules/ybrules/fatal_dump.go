package ybrules

import (
	"fmt"
	"sort"

	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// fatalDump is an MVCC dump printed by a FATAL line (`F... mvcc.cc:398]
// ... Recent 32 MVCC operations:`): MvccManager prints its recent
// operations first and the assertion after them, so an excerpt cut inside
// the dump keeps the FATAL but loses what it asserted. The dump waits
// here until the next event of its source shows whether the assertion
// was read.
type fatalDump struct {
	dump *yb.MvccDump
	r    *ybstate.Replica
}

// holdFatalDump keeps d if an F line printed it.
func (p *Pack) holdFatalDump(d *yb.MvccDump, r *ybstate.Replica) {
	if d.Sev != 'F' {
		return
	}
	if p.fatalDumps == nil {
		p.fatalDumps = map[string]fatalDump{}
	}
	p.fatalDumps[d.Pos.Source] = fatalDump{dump: d, r: r}
}

// settleFatalDump decides the dump held for e's source: e is the
// assertion the dump's FATAL printed after it (then that event reports
// the break), or anything else (then the assertion was cut, and the
// FATAL is reported here).
func (p *Pack) settleFatalDump(e yb.Event) {
	h, ok := p.fatalDumps[e.Info().Pos.Source]
	if !ok {
		return
	}
	delete(p.fatalDumps, e.Info().Pos.Source)
	switch e.(type) {
	case *yb.HTTooLow, *yb.CheckFailed, *yb.OpSequence, *yb.MvccFatal, *yb.LeaderSafeTimeBack, *yb.Alarm:
		return
	}
	p.reportFatalDump(h)
}

// finishFatalDumps reports the dumps no assertion followed, in source
// order.
func (p *Pack) finishFatalDumps() {
	srcs := make([]string, 0, len(p.fatalDumps))
	for s := range p.fatalDumps {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	for _, s := range srcs {
		p.reportFatalDump(p.fatalDumps[s])
	}
	p.fatalDumps = nil
}

func (p *Pack) reportFatalDump(h fatalDump) {
	d := h.dump
	n := fmt.Sprintf("%d", len(d.Items))
	if d.Declared >= 0 {
		n = fmt.Sprintf("%d of %d", len(d.Items), d.Declared)
	}
	p.add(rules.Finding{
		Rule: MvccInvariant, Severity: rules.Error, Origin: rules.Reported, Subject: subject(h.r),
		Message: fmt.Sprintf("%s raised a FATAL that printed its recent MVCC operations (%s read); the assertion printed after them is not in the log, so the bound it broke cannot be stated",
			orFile(d.Where), n),
		Evidence: []rules.Evidence{rules.Cite(d)},
		Facts:    map[string]string{"raised": "FATAL", "dump_entries": fmt.Sprintf("%d", len(d.Items))},
	}, h.r)
}

func orFile(where string) string {
	if where == "" {
		return "mvcc.cc"
	}
	return where
}
