package catalog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/logsleuth/logsleuth/grammar/ybval"
)

// kind is what a placeholder reads.
type kind uint8

const (
	kText kind = iota
	kInt
	kHT
	kOpID
	kFloat
	kDuration
	kWord
	kShard
)

var kinds = map[string]kind{
	"text": kText, "int": kInt, "ht": kHT, "opid": kOpID, "float": kFloat,
	"duration": kDuration, "word": kWord, "shard": kShard,
}

func (k kind) String() string {
	for n, v := range kinds {
		if v == k {
			return n
		}
	}
	return "?"
}

// pattern is the regular expression of a placeholder's kind. Each is
// linear (RE2): log text is untrusted and alarms can be long.
func (k kind) pattern(last bool) string {
	switch k {
	case kInt:
		return `[-+]?[0-9]+`
	case kHT:
		return `(?:HT)?\{ ?(?:physical|days): [^{}]*\}|<(?:invalid|min|max|initial)>|[0-9]+`
	case kOpID:
		return `-?[0-9]+\.-?[0-9]+|\{ ?term: -?[0-9]+ index: -?[0-9]+ ?\}|term: -?[0-9]+ index: -?[0-9]+`
	case kFloat:
		return `[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?`
	case kDuration:
		return `[-+]?[0-9]+(?:\.[0-9]+)?(?:nanos|micros|millis|ns|us|µs|ms|s|m|h|d)?|<uninitialized>|[-+]inf`
	case kShard:
		return `\[[^\[\]\n]*\]\[[0-9]+\]`
	case kWord:
		if last {
			return `\S+`
		}
		return `\S+?`
	}
	if last {
		return `[^\n]*`
	}
	return `.*?`
}

// part is a literal run of a shape or a placeholder.
type part struct {
	lit  string
	name string // "" for a literal or an unnamed {}
	kind kind
	hole bool
}

// shape is a compiled message shape.
type shape struct {
	parts []part
	// expr is the expression that reads a message; re is it compiled,
	// at once by compileShape, on first use by a shape of the built-in
	// catalogue (whose expressions the tests compile), so a start does
	// not compile hundreds of expressions most runs never use.
	expr string
	once sync.Once
	re   *regexp.Regexp
	// needle is the shape's longest literal word run, tested with
	// strings.Contains before the expression runs.
	needle string
	// weight orders entries that read the same message: the one with
	// more literal text is the more specific.
	weight int
}

var placeholder = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)?(?::([a-z]+))?\}`)

// compileShape reads a shape: literal text with `{name}`, `{name:kind}`
// and `{}` placeholders; `{{` and `}}` are literal braces, and so is any
// brace that does not open a placeholder (`{ physical: ... }`).
func compileShape(s string) (*shape, error) {
	sh, err := readShape(s)
	if err != nil {
		return nil, err
	}
	if sh.re, err = regexp.Compile(sh.expr); err != nil {
		return nil, err
	}
	sh.once.Do(func() {})
	return sh, nil
}

// readShape is compileShape but for compiling the expression, which
// regexp is left to do on first use.
func readShape(s string) (*shape, error) {
	sh := &shape{}
	var lit strings.Builder
	names := map[string]bool{}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte('{')
			i += 2
			continue
		case strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte('}')
			i += 2
			continue
		}
		if s[i] == '{' {
			if m := placeholder.FindStringSubmatchIndex(s[i:]); m != nil && m[0] == 0 {
				name := ""
				if m[2] >= 0 {
					name = s[i+m[2] : i+m[3]]
				}
				k := kText
				if m[4] >= 0 {
					kn := s[i+m[4] : i+m[5]]
					var ok bool
					if k, ok = kinds[kn]; !ok {
						return nil, fmt.Errorf("{%s:%s}: unknown kind %q (want int, ht, opid, float, duration, word, text or shard)", name, kn, kn)
					}
				} else if name != "" {
					k = kInt
				}
				if name != "" {
					if names[name] {
						return nil, fmt.Errorf("{%s} appears twice", name)
					}
					names[name] = true
				}
				if lit.Len() > 0 {
					sh.parts = append(sh.parts, part{lit: lit.String()})
					lit.Reset()
				}
				if n := len(sh.parts); n > 0 && sh.parts[n-1].hole {
					return nil, fmt.Errorf("two placeholders with nothing between them cannot be told apart")
				}
				sh.parts = append(sh.parts, part{name: name, kind: k, hole: true})
				i += m[1]
				continue
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	if lit.Len() > 0 {
		sh.parts = append(sh.parts, part{lit: lit.String()})
	}
	if len(sh.parts) == 0 || len(sh.parts) == 1 && sh.parts[0].hole {
		return nil, fmt.Errorf("a shape needs literal text")
	}
	lastHole := -1
	for i, p := range sh.parts {
		if p.hole {
			lastHole = i
		}
	}
	var re strings.Builder
	re.WriteString(`(?s)^\s*`)
	for i, p := range sh.parts {
		if !p.hole {
			re.WriteString(literalPattern(p.lit))
			for _, w := range strings.Fields(p.lit) {
				sh.weight += len(w)
				if len(w) > len(sh.needle) {
					sh.needle = w
				}
			}
			continue
		}
		// The last placeholder takes as much of its line as the literal
		// after it leaves (`failed engine [{reason:text}]` reads a reason
		// that holds brackets); the others as little as they can.
		pat := p.kind.pattern(i == lastHole)
		if p.name != "" {
			re.WriteString("(?P<" + p.name + ">" + pat + ")")
		} else {
			re.WriteString("(?:" + pat + ")")
		}
	}
	sh.expr = re.String()
	return sh, nil
}

// regexp is the shape's compiled expression.
func (sh *shape) regexp() *regexp.Regexp {
	sh.once.Do(func() { sh.re = regexp.MustCompile(sh.expr) })
	return sh.re
}

// literalPattern matches s with any run of white space standing for any
// other run (a message re-wrapped by a log or a ticket).
func literalPattern(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteString(`\s+`)
			}
			space = true
			continue
		}
		space = false
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}

// match reads msg with the shape, returning each named part's value.
func (sh *shape) match(msg string) (map[string]value, bool) {
	if sh.needle != "" && !strings.Contains(msg, sh.needle) {
		return nil, false
	}
	re := sh.regexp()
	m := re.FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	vals := map[string]value{}
	for i, n := range re.SubexpNames() {
		if n == "" {
			continue
		}
		vals[n] = readValue(sh.kindOf(n), m[i])
	}
	return vals, true
}

func (sh *shape) kindOf(name string) kind {
	for _, p := range sh.parts {
		if p.name == name {
			return p.kind
		}
	}
	return kText
}

// value is what one placeholder read. ok is false when the text has the
// kind's form but its number could not be read (out of range): the value
// is then unknown, and no comparison uses it.
type value struct {
	kind  kind
	text  string
	ok    bool
	i     int64
	f     float64
	ht    ybval.HybridTime
	op    ybval.OpID
	index string
	shard int
}

func readValue(k kind, text string) value {
	v := value{kind: k, text: text, ok: true}
	var err error
	switch k {
	case kInt:
		v.i, err = strconv.ParseInt(strings.TrimPrefix(text, "+"), 10, 64)
	case kHT:
		v.ht, err = ybval.ParseHybridTime(text)
	case kOpID:
		v.op, err = ybval.ParseOpID(text)
	case kFloat:
		v.f, err = strconv.ParseFloat(text, 64)
	case kDuration:
		v.f, err = durationSeconds(text)
	case kShard:
		i := strings.LastIndex(text, "][")
		v.index = text[1:i]
		v.shard, err = strconv.Atoi(text[i+2 : len(text)-1])
	}
	if err != nil {
		v.ok = false
	}
	return v
}

// durationSeconds reads a MonoDelta (`0.077s`) or a Java TimeValue
// (`30s`, `1.2m`, `250ms`) as seconds.
func durationSeconds(s string) (float64, error) {
	switch s {
	case "<uninitialized>":
		return 0, fmt.Errorf("uninitialized")
	case "+inf", "-inf":
		return strconv.ParseFloat(s, 64)
	}
	num := strings.TrimRightFunc(s, unicode.IsLetter)
	unit := s[len(num):]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, err
	}
	scale := map[string]float64{
		"": 1, "s": 1, "nanos": 1e-9, "ns": 1e-9, "micros": 1e-6, "us": 1e-6, "µs": 1e-6,
		"millis": 1e-3, "ms": 1e-3, "m": 60, "h": 3600, "d": 86400,
	}[unit]
	if scale == 0 {
		return 0, fmt.Errorf("unit %q", unit)
	}
	return f * scale, nil
}

// canonical prints v the way examples and findings state it: integers
// as numbers, hybrid times as physical[.logical], op ids as T.I.
func (v value) canonical() string {
	if !v.ok {
		return v.text
	}
	switch v.kind {
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kHT:
		return v.ht.String()
	case kOpID:
		return v.op.String()
	}
	return v.text
}

// phrase is the shape's longest run of literal text in which words are
// one space apart, as a log prints them: what a parser can find in a line
// with a plain substring test.
func (sh *shape) phrase() string {
	best := ""
	for _, p := range sh.parts {
		if p.hole {
			continue
		}
		for _, line := range strings.Split(p.lit, "\n") {
			for _, run := range strings.Split(line, "  ") {
				if run = strings.TrimSpace(run); len(run) > len(best) && !strings.ContainsAny(run, "\t\r") {
					best = run
				}
			}
		}
	}
	return best
}
