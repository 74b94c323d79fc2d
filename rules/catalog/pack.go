package catalog

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// Pack reads alarm events of every system into findings.
type Pack struct {
	cat   *Catalog
	rules []rules.Rule
	// found groups findings by rule, subject and message: a crash loop
	// printing the same alarm a hundred times is one finding with its
	// count.
	found map[string]*group
	order []string
	unrec map[string]*Unrecognised
}

// group is one finding and what its repeats read: how many, where the
// last was, and the smallest and largest value of each number.
type group struct {
	f        rules.Finding
	lo, hi   map[string]value
	varied   map[string]bool
	repeated int
}

// Unrecognised counts the alarms no entry read, by where they were
// raised and how their message starts: the next entries to write.
type Unrecognised struct {
	System string `json:"system"`
	Raised string `json:"raised"`
	Where  string `json:"where,omitempty"`
	// Message is the first alarm's message, cut to its first line.
	Message string `json:"message"`
	Count   int    `json:"count"`
	// First is where the first one was read.
	First parse.Pos `json:"first"`
}

// NewPack makes the alarm pack for one run. taken are the rules other
// packs define: a family rule one of them already has (the MVCC pack's
// yb/mvcc/invariant-violation) is reported under but not defined again.
func NewPack(c *Catalog, taken []rules.Rule) *Pack {
	p := &Pack{cat: c, found: map[string]*group{}, unrec: map[string]*Unrecognised{}}
	have := map[string]bool{}
	for _, r := range taken {
		have[r.ID] = true
	}
	for _, sys := range []string{"yb", "es"} {
		for _, f := range families[sys] {
			id := sys + "/" + f.name + "/invariant-violation"
			if have[id] {
				continue
			}
			p.rules = append(p.rules, rules.Rule{ID: id, Title: f.title, Severity: rules.Error,
				Explain: f.explain + " logsleuth reads the alarm with the catalogue entry that knows its message and states the numbers it printed and the comparison they break (`logsleuth rules --alarms` lists the entries)."})
		}
		p.rules = append(p.rules,
			rules.Rule{ID: sys + "/alarm/unrecognised", Title: "the database raised an alarm no catalogue entry reads", Severity: rules.Warning,
				Explain: "The database stopped or complained (a FATAL, a DFATAL or Check failed, an AssertionError, a fatal error in a thread, a failed engine) with a message the alarm catalogue has no entry for, so logsleuth cannot yet say whether an invariant broke. The finding quotes the message and its first frames, and guesses the family from the source file or class. Add an entry with --catalog to read it, and consider sending it upstream."},
			rules.Rule{ID: sys + "/alarm/operational", Title: "the database raised an alarm about the process, not replicated state", Severity: rules.Warning,
				Explain: "An alarm the catalogue knows is about the process (a flag refused at start-up, a full disk, memory, file handles) rather than an invariant of replicated state. It can explain an outage, but it is not evidence that data broke."},
			rules.Rule{ID: sys + "/alarm/false-alarm", Title: "the database raised an alarm upstream found to be a false alarm of the check", Severity: rules.Note,
				Explain: "Upstream proved this assertion wrong and loosened or removed it: firing it does not show that the invariant broke. The finding cites the fix, so the version in the log can be checked against it."},
		)
	}
	sort.Slice(p.rules, func(i, j int) bool { return p.rules[i].ID < p.rules[j].ID })
	return p
}

// Rules implements rules.Pack.
func (p *Pack) Rules() []rules.Rule { return p.rules }

// Observe implements rules.Pack: every alarm event becomes a finding.
func (p *Pack) Observe(e parse.Event) {
	a, ok := e.(parse.Alarm)
	if !ok {
		return
	}
	at := a.Alarm()
	system, _, _ := strings.Cut(e.Kind(), ".")
	subj := subjectOf(system, e)
	if subj.Tablet == "" && system == "yb" {
		// Some checks print the replica prefix after their expression
		// (`Check failed: ... T <tablet> P <peer>: ...`).
		if m := midPrefix.FindStringSubmatch(at.Message); m != nil {
			subj.Tablet, subj.Peer = m[1], m[2]
		}
	}
	if m, ok := p.cat.matchAlarm(system, at); ok {
		f := m.finding(e, at, subj)
		p.add(f.Rule+"\x00"+m.Entry.Key()+"\x00"+f.Subject.String(), f, m.Values)
		return
	}
	if mustReport(system, at) {
		f := unrecognisedFinding(system, e, at, subj)
		p.add(f.Rule+"\x00"+f.Subject.String()+"\x00"+at.Raised+"\x00"+at.Where+"\x00"+digits.ReplaceAllString(firstLine(at.Message, 200), "#"), f, nil)
	}
	msg := firstLine(at.Message, 160)
	k := system + "\x00" + at.Raised + "\x00" + at.Where + "\x00" + msg
	u := p.unrec[k]
	if u == nil {
		u = &Unrecognised{System: system, Raised: at.Raised, Where: at.Where, Message: msg, First: e.Info().Pos}
		p.unrec[k] = u
	}
	u.Count++
}

// Finish implements rules.Pack.
func (p *Pack) Finish() []rules.Finding {
	out := make([]rules.Finding, 0, len(p.order))
	for _, k := range p.order {
		g := p.found[k]
		f := g.f
		if g.repeated > 0 {
			f.Facts["occurrences"] = strconv.Itoa(g.repeated + 1)
			for n := range g.varied {
				f.Facts[n+"_range"] = g.lo[n].canonical() + ".." + g.hi[n].canonical()
			}
		}
		out = append(out, f)
	}
	return out
}

// Unrecognised returns the alarms no entry read, most frequent first.
func (p *Pack) Unrecognised() []Unrecognised {
	out := make([]Unrecognised, 0, len(p.unrec))
	for _, u := range p.unrec {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		if out[i].First.Source != out[j].First.Source {
			return out[i].First.Source < out[j].First.Source
		}
		return out[i].First.Line < out[j].First.Line
	})
	return out
}

// add keeps f, or counts it as a repeat of the finding with the same key:
// a crash loop, or a check logged every second, is one finding with how
// often it fired, where it last did, and the range of each number.
func (p *Pack) add(key string, f rules.Finding, vals map[string]value) {
	g, ok := p.found[key]
	if !ok {
		g = &group{f: f, lo: map[string]value{}, hi: map[string]value{}, varied: map[string]bool{}}
		if g.f.Facts == nil {
			g.f.Facts = map[string]string{}
		}
		g.f.Facts["occurrences"] = "1"
		for n, v := range vals {
			if v.ok && v.kind.ordered() {
				g.lo[n], g.hi[n] = v, v
			}
		}
		p.found[key] = g
		p.order = append(p.order, key)
		return
	}
	g.repeated++
	g.f.Facts["last_seen"] = f.Pos().String()
	for n, v := range vals {
		lo, ok := g.lo[n]
		if !ok || !v.ok {
			continue
		}
		if c := compareValues(v, lo); c < 0 {
			g.lo[n], g.varied[n] = v, true
		}
		if c := compareValues(v, g.hi[n]); c > 0 {
			g.hi[n], g.varied[n] = v, true
		}
	}
}

var (
	midPrefix = regexp.MustCompile(`\bT ([0-9a-f]{32}) P ([0-9a-f]{32})\b`)
	digits    = regexp.MustCompile(`[0-9]+`)
)

// mustReport says whether an alarm no entry reads is still a finding of
// its own: the database stopped or asserted (a FATAL, a DFATAL or Check
// failed, an AssertionError anywhere in the exception's chain, a fatal
// error in a thread, a failed engine). Other exceptions and error lines are
// counted among the unrecognised, but a healthy cluster logs many of them
// (a node disconnected, an index not found), and they are no evidence that
// anything broke.
func mustReport(system string, at *parse.AlarmText) bool {
	if system == "yb" {
		switch at.Raised {
		case "FATAL", "DFATAL", "Check failed":
			return true
		}
		return strings.HasPrefix(at.Message, "Check failed:")
	}
	switch {
	case strings.HasSuffix(at.Raised, "AssertionError"),
		at.Raised == "failed engine", at.Raised == "fatal error in thread":
		return true
	}
	for _, c := range at.Causes {
		class, _, _ := strings.Cut(c, ":")
		if strings.HasSuffix(strings.TrimSpace(class), "AssertionError") {
			return true
		}
	}
	return false
}

func (m *Match) finding(e parse.Event, at *parse.AlarmText, subj rules.Subject) rules.Finding {
	en := m.Entry
	f := rules.Finding{
		Rule: en.Rule(), Severity: en.Sev(), Origin: rules.Reported, Subject: subj,
		Evidence: []rules.Evidence{rules.Cite(e)},
		Facts:    alarmFacts(at),
	}
	for _, n := range en.Names() {
		v := m.Values[n]
		f.Facts[factName(n)] = v.canonical()
		fillSubject(&f.Subject, n, v)
	}
	f.Facts["entry"] = en.Key()
	if en.Frame != "" {
		f.Facts["frame"] = en.Frame
	}
	var broke, held, unread []string
	for _, c := range en.holds {
		o, err := c.eval(m.Values)
		switch {
		case err != nil:
			unread = append(unread, err.Error())
		case o.holds:
			held = append(held, c.text)
		default:
			broke = append(broke, o.statement()+", where "+c.text+" should hold")
		}
	}
	msg := en.Title
	if en.Frame != "" {
		msg += " (a message-less assertion in " + en.Frame + ")"
	}
	switch {
	case en.FalseAlarm != nil:
		msg += ": a false alarm of the check, loosened upstream (" + en.FalseAlarm.Fix + "): " + en.FalseAlarm.Note
		f.Facts["fix"] = en.FalseAlarm.Fix
	case len(broke) > 0:
		msg += ": " + strings.Join(broke, "; ")
	case len(unread) > 0:
		msg += ": " + strings.Join(unread, "; ")
	case len(held) > 0:
		msg += ": the numbers printed satisfy " + strings.Join(held, ", ") + "; the check failed on something the message does not show"
	default:
		if d := m.Describe(); d != "" {
			msg += " (" + d + ")"
		}
	}
	if len(unread) > 0 {
		f.Facts["unread"] = strings.Join(unread, "; ")
	}
	f.Message = msg
	return f
}

// packFacts are the facts the pack itself writes on an alarm finding.
var packFacts = map[string]bool{
	"entry": true, "raised": true, "where": true, "frames": true, "causes": true,
	"occurrences": true, "last_seen": true, "unread": true, "fix": true, "family_guess": true, "frame": true,
}

// factName is the fact a named part is stated under: its name, unless the
// pack writes a fact of that name (an entry's `{last_seen}`), which a
// number of the message must not overwrite nor be overwritten by.
func factName(n string) string {
	if packFacts[n] || strings.HasSuffix(n, "_range") {
		return "part_" + n
	}
	return n
}

func unrecognisedFinding(system string, e parse.Event, at *parse.AlarmText, subj rules.Subject) rules.Finding {
	f := rules.Finding{
		Rule: system + "/alarm/unrecognised", Severity: rules.Warning, Origin: rules.Reported, Subject: subj,
		Evidence: []rules.Evidence{rules.Cite(e)},
		Facts:    alarmFacts(at),
	}
	where := ""
	if at.Where != "" {
		where = " at " + at.Where
	}
	f.Message = fmt.Sprintf("%s%s that no catalogue entry reads: %s", raisedName(at.Raised), where, firstLine(at.Message, 200))
	if fam := guessFamily(system, at.Where); fam != "" {
		f.Facts["family_guess"] = fam
	}
	return f
}

func raisedName(r string) string {
	if r == "" {
		return "an alarm"
	}
	return r
}

// alarmFacts are the facts every alarm finding carries: how it was
// raised, where, and its first frames and causes.
func alarmFacts(at *parse.AlarmText) map[string]string {
	f := map[string]string{"raised": at.Raised}
	if at.Where != "" {
		f["where"] = at.Where
	}
	if n := min(len(at.Frames), 3); n > 0 {
		f["frames"] = strings.Join(at.Frames[:n], " | ")
	}
	if len(at.Causes) > 0 {
		f["causes"] = strings.Join(at.Causes, " | ")
	}
	return f
}

// firstLine is s up to its first line end, cut to n bytes on a rune
// boundary.
func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// subjectOf is the subject an alarm event names.
func subjectOf(system string, e parse.Event) rules.Subject {
	s := rules.Subject{System: system}
	if t, ok := e.(interface{ Subject() (string, string) }); ok {
		s.Tablet, s.Peer = t.Subject()
	}
	if t, ok := e.(interface {
		ShardSubject() (string, int, string)
	}); ok {
		idx, shard, node := t.ShardSubject()
		s.Index, s.Node = idx, node
		if idx != "" && shard >= 0 {
			s.Shard = &shard
		}
	}
	return s
}

// fillSubject lets a named part the message printed say the subject
// where the envelope did not.
func fillSubject(s *rules.Subject, name string, v value) {
	if !v.ok {
		return
	}
	switch name {
	case "tablet":
		if s.Tablet == "" {
			s.Tablet = v.text
		}
	case "peer":
		if s.Peer == "" {
			s.Peer = v.text
		}
	case "index":
		if s.Index == "" {
			s.Index = v.text
		}
	case "node":
		if s.Node == "" {
			s.Node = v.text
		}
	case "allocation":
		if s.Allocation == "" {
			s.Allocation = v.text
		}
	case "shard":
		if s.Shard != nil {
			return
		}
		switch v.kind {
		case kShard:
			n := v.shard
			s.Shard = &n
			if s.Index == "" {
				s.Index = v.index
			}
		case kInt:
			n := int(v.i)
			s.Shard = &n
		}
	}
}
