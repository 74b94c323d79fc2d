package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The catalogue's schema (schema.json, JSON Schema 2020-12) is the
// document's contract, published for editors and checked on every
// catalogue a user loads. It is read here by a checker of the keywords it
// uses, not by a general JSON Schema library: the library this package
// used compiles every draft's meta-schema when the program starts, which
// took about a third of the start-up time of every run (27 of 87 ms here)
// whether or not a catalogue was loaded. The tests hold this checker to
// that library (github.com/santhosh-tekuri/jsonschema/v6, now a test
// dependency), message for message, on the built-in catalogue, on broken
// variants of it and under fuzzing. A keyword the checker does not read
// fails the schema's compilation, so the schema cannot grow a rule that
// is silently not checked.

// schemaNode is one compiled (sub)schema.
type schemaNode struct {
	// types are the allowed JSON types, in the order schemaTypes lists
	// them; empty for any.
	types []string
	enum  []any
	// ref is a local reference (#/$defs/NAME), resolved into target.
	ref    string
	target *schemaNode
	// Objects.
	required     []string
	props        map[string]*schemaNode
	additional   *schemaNode
	noAdditional bool
	// Arrays.
	items    *schemaNode
	minItems int // -1 for none
	// Strings.
	minLength int // -1 for none
	pattern   *regexp.Regexp
	oneOf     []*schemaNode
}

// schemaTypes are the JSON types in the order a type error lists them.
var schemaTypes = []string{"null", "boolean", "number", "integer", "string", "array", "object"}

// schemaLeaf is one thing a document breaks: where (the JSON pointer's
// parts) and what, worded as the schema library words it.
type schemaLeaf struct {
	loc []string
	msg string
}

var catalogSchema = sync.OnceValues(func() (*schemaNode, error) {
	b, err := files.ReadFile("schema.json")
	if err != nil {
		return nil, err
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema.json: not an object")
	}
	c := &schemaCompiler{root: root, defs: map[string]*schemaNode{}}
	n, err := c.compile(root, "")
	if err != nil {
		return nil, err
	}
	if err := c.resolve(); err != nil {
		return nil, err
	}
	return n, nil
})

type schemaCompiler struct {
	root map[string]any
	defs map[string]*schemaNode
	refs []*schemaNode
}

func (c *schemaCompiler) compile(v any, at string) (*schemaNode, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema.json %s: a schema is an object here", at)
	}
	n := &schemaNode{minItems: -1, minLength: -1}
	bad := func(kw string) error { return fmt.Errorf("schema.json %s/%s: not a value the checker reads", at, kw) }
	// Keywords in sorted order, so an error names the same one each time.
	for _, kw := range slices.Sorted(maps.Keys(m)) {
		val := m[kw]
		switch kw {
		case "$schema", "$id", "title", "description":
		case "$defs":
			if at != "" {
				return nil, fmt.Errorf("schema.json %s: $defs only at the root", at)
			}
			defs, ok := val.(map[string]any)
			if !ok {
				return nil, bad(kw)
			}
			for name, d := range defs {
				dn, err := c.compile(d, "/$defs/"+name)
				if err != nil {
					return nil, err
				}
				c.defs[name] = dn
			}
		case "type":
			var want []string
			switch t := val.(type) {
			case string:
				want = []string{t}
			case []any:
				for _, x := range t {
					s, ok := x.(string)
					if !ok {
						return nil, bad(kw)
					}
					want = append(want, s)
				}
			default:
				return nil, bad(kw)
			}
			for _, t := range schemaTypes {
				if slices.Contains(want, t) {
					n.types = append(n.types, t)
				}
			}
			if len(n.types) != len(want) {
				return nil, bad(kw)
			}
		case "enum":
			e, ok := val.([]any)
			if !ok {
				return nil, bad(kw)
			}
			for _, x := range e {
				if _, ok := x.(string); !ok {
					return nil, bad(kw)
				}
			}
			n.enum = e
		case "$ref":
			s, ok := val.(string)
			if !ok || !strings.HasPrefix(s, "#/$defs/") {
				return nil, bad(kw)
			}
			n.ref = strings.TrimPrefix(s, "#/$defs/")
			c.refs = append(c.refs, n)
		case "required":
			r, ok := val.([]any)
			if !ok {
				return nil, bad(kw)
			}
			for _, x := range r {
				s, ok := x.(string)
				if !ok {
					return nil, bad(kw)
				}
				n.required = append(n.required, s)
			}
		case "properties":
			p, ok := val.(map[string]any)
			if !ok {
				return nil, bad(kw)
			}
			n.props = map[string]*schemaNode{}
			for name, ps := range p {
				pn, err := c.compile(ps, at+"/properties/"+name)
				if err != nil {
					return nil, err
				}
				n.props[name] = pn
			}
		case "additionalProperties":
			switch a := val.(type) {
			case bool:
				if a {
					return nil, bad(kw)
				}
				n.noAdditional = true
			default:
				an, err := c.compile(a, at+"/additionalProperties")
				if err != nil {
					return nil, err
				}
				n.additional = an
			}
		case "items":
			in, err := c.compile(val, at+"/items")
			if err != nil {
				return nil, err
			}
			n.items = in
		case "minItems", "minLength":
			num, ok := val.(json.Number)
			if !ok {
				return nil, bad(kw)
			}
			k, err := strconv.Atoi(num.String())
			if err != nil || k < 0 {
				return nil, bad(kw)
			}
			if kw == "minItems" {
				n.minItems = k
			} else {
				n.minLength = k
			}
		case "pattern":
			s, ok := val.(string)
			if !ok {
				return nil, bad(kw)
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("schema.json %s/pattern: %w", at, err)
			}
			n.pattern = re
		case "oneOf":
			subs, ok := val.([]any)
			if !ok || len(subs) == 0 {
				return nil, bad(kw)
			}
			for i, s := range subs {
				sn, err := c.compile(s, at+"/oneOf/"+strconv.Itoa(i))
				if err != nil {
					return nil, err
				}
				n.oneOf = append(n.oneOf, sn)
			}
		default:
			return nil, fmt.Errorf("schema.json %s: the checker does not read the keyword %q", at, kw)
		}
	}
	return n, nil
}

func (c *schemaCompiler) resolve() error {
	for _, n := range c.refs {
		t, ok := c.defs[n.ref]
		if !ok {
			return fmt.Errorf("schema.json: $ref #/$defs/%s names no definition", n.ref)
		}
		n.target = t
	}
	return nil
}

// check appends to out what v breaks of n, v at loc. It tests the
// keywords in the order the schema library does and, like it, stops at a
// wrong type or a value outside an enum.
func (n *schemaNode) check(v any, loc []string, out []schemaLeaf) []schemaLeaf {
	leaf := func(msg string) { out = append(out, schemaLeaf{slices.Clone(loc), msg}) }
	t := jsonType(v)
	if len(n.types) > 0 && !slices.Contains(n.types, t) && !(t == "number" && slices.Contains(n.types, "integer") && isInteger(v)) {
		leaf(fmt.Sprintf("got %s, want %s", t, strings.Join(n.types, " or ")))
		return out
	}
	if s, ok := v.(string); n.enum != nil && !(ok && slices.Contains(n.enum, any(s))) {
		want := make([]string, len(n.enum))
		for i, e := range n.enum {
			want[i] = schemaQuote(e.(string))
		}
		if len(want) == 1 {
			leaf("value must be " + want[0])
		} else {
			leaf("value must be one of " + strings.Join(want, ", "))
		}
		return out
	}
	if n.target != nil {
		out = n.target.check(v, loc, out)
	}
	switch v := v.(type) {
	case map[string]any:
		var missing []string
		for _, r := range n.required {
			if _, ok := v[r]; !ok {
				missing = append(missing, r)
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			leaf("missing property " + schemaQuote(missing[0]))
		default:
			leaf("missing properties " + quoteAll(missing))
		}
		var extra []string
		for _, name := range slices.Sorted(maps.Keys(v)) {
			switch {
			case n.props[name] != nil:
				out = n.props[name].check(v[name], append(loc, name), out)
			case n.additional != nil:
				out = n.additional.check(v[name], append(loc, name), out)
			case n.noAdditional:
				extra = append(extra, name)
			}
		}
		if len(extra) > 0 {
			leaf("additional properties " + quoteAll(extra) + " not allowed")
		}
	case []any:
		if n.minItems >= 0 && len(v) < n.minItems {
			leaf(fmt.Sprintf("minItems: got %d, want %d", len(v), n.minItems))
		}
		if n.items != nil {
			for i, x := range v {
				out = n.items.check(x, append(loc, strconv.Itoa(i)), out)
			}
		}
	case string:
		if k := utf8.RuneCountInString(v); n.minLength >= 0 && k < n.minLength {
			leaf(fmt.Sprintf("minLength: got %d, want %d", k, n.minLength))
		}
		if n.pattern != nil && !n.pattern.MatchString(v) {
			leaf(schemaQuote(v) + " does not match pattern " + schemaQuote(n.pattern.String()))
		}
	}
	if len(n.oneOf) > 0 {
		matched := -1
		var failed []schemaLeaf
		for i, sub := range n.oneOf {
			got := sub.check(v, loc, nil)
			switch {
			case len(got) > 0:
				if matched < 0 {
					failed = append(failed, got...)
				}
			case matched < 0:
				matched = i
			default:
				leaf(fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", matched, i))
				return out
			}
		}
		if matched < 0 {
			out = append(out, failed...)
		}
	}
	return out
}

// jsonType is the JSON type of a value decoded with UseNumber.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "invalid"
}

// isInteger reports whether a number has no fraction (1.0 is one).
func isInteger(v any) bool {
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	return ok && r.IsInt()
}

// schemaQuote quotes s in single quotes, as the schema library's messages
// do.
func schemaQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = schemaQuote(s)
	}
	return strings.Join(q, ", ")
}

// checkSchema checks a catalogue document, as JSON, against the schema.
func checkSchema(js []byte) ([]schemaLeaf, error) {
	sch, err := catalogSchema()
	if err != nil {
		return nil, fmt.Errorf("catalogue schema: %w", err)
	}
	var inst any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&inst); err != nil {
		return nil, err
	}
	return sch.check(inst, nil, nil), nil
}
