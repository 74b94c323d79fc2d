package render

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/logsleuth/logsleuth/parse"
)

// metaType is skipped when an event's fields are walked: its contents are
// the event line's envelope, printed once at the top of the object.
var metaType = reflect.TypeOf(parse.Meta{})

// EventsJSONL writes events as JSON Lines, one object per event, for
// people who want to grep them or load them elsewhere:
//
//	{"kind":"yb.ht-too-low","pos":"tserver.log:39","source":"tserver.log","line":39,"last":70,
//	 "time":"2023-10-07T16:39:07.497722Z","text":"...","fields":{...}}
//
// "fields" holds the event struct's exported fields, walked generically so
// every system's events print without a renderer of their own: embedded
// structs are flattened, values with a String or MarshalText method print
// as that text (a hybrid time as 1696696747406942.12, not its parts), keys
// are the json tag or the field name in snake_case, and fields at their
// zero value are left out unless a json tag without omitempty keeps them.
func EventsJSONL(w io.Writer, evs []parse.Event) error {
	var buf bytes.Buffer
	for _, e := range evs {
		buf.Reset()
		if err := eventJSON(&buf, e); err != nil {
			return err
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

type eventLine struct {
	Kind string `json:"kind"`
	// Pos is source:line, for grep; Source and Line are the same, apart.
	Pos    string         `json:"pos"`
	Source string         `json:"source"`
	Line   int            `json:"line"`
	Last   int            `json:"last,omitempty"`
	Time   string         `json:"time,omitempty"`
	Timed  bool           `json:"timed"`
	Text   string         `json:"text"`
	Fields map[string]any `json:"fields"`
}

func eventJSON(buf *bytes.Buffer, e parse.Event) error {
	m := e.Info()
	out := eventLine{Kind: e.Kind(), Pos: m.Pos.String(), Source: m.Pos.Source, Line: m.Pos.Line, Timed: m.Timed, Text: m.Text, Fields: map[string]any{}}
	if m.Last > m.Pos.Line {
		out.Last = m.Last
	}
	if !m.Time.IsZero() {
		out.Time = m.Time.UTC().Format(time.RFC3339Nano)
	}
	v := reflect.ValueOf(e)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			break
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		structFields(v, out.Fields, 0)
	}
	// No HTML escaping: the lines are for grep and jq, where <min> should
	// read as <min>.
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&out); err != nil {
		return fmt.Errorf("encode %s event at %s: %w", e.Kind(), m.Pos, err)
	}
	buf.Write(filterBody(line.Bytes(), jsonBody))
	return nil
}

// maxDepth bounds the walk, so a cyclic or very deep value cannot stall it.
const maxDepth = 8

func structFields(v reflect.Value, into map[string]any, depth int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Type == metaType {
			continue
		}
		// An embedded struct of an unexported type still promotes its
		// exported fields, as in encoding/json.
		if !sf.IsExported() && !(sf.Anonymous && indirectKind(sf.Type) == reflect.Struct) {
			continue
		}
		fv := v.Field(i)
		name, keep := fieldName(sf)
		if name == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			inner := fv
			if inner.Kind() == reflect.Pointer {
				if inner.IsNil() {
					continue
				}
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct && !hasText(inner) {
				structFields(inner, into, depth+1)
				continue
			}
		}
		if name == "" {
			name = snake(sf.Name)
		}
		if fv.IsZero() && !keep {
			continue
		}
		into[name] = plain(fv, depth+1)
	}
}

// fieldName reads a json tag: the name, and whether a zero value is kept
// (a tag without omitempty).
func fieldName(sf reflect.StructField) (string, bool) {
	tag, ok := sf.Tag.Lookup("json")
	if !ok {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	return name, !strings.Contains(opts, "omitempty")
}

// plain turns v into something encoding/json prints as intended.
func plain(v reflect.Value, depth int) (out any) {
	if depth > maxDepth {
		return fmt.Sprint(v)
	}
	if !v.IsValid() {
		return nil
	}
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return nil
	}
	if s, ok := asText(v); ok {
		return s
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return plain(v.Elem(), depth+1)
	case reflect.Struct:
		m := map[string]any{}
		structFields(v, m, depth)
		return m
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Type().Elem().Name() == "uint8" {
			return string(bytes.ToValidUTF8(v.Bytes(), []byte("\uFFFD")))
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i), depth+1)
		}
		return out
	case reflect.Map:
		m := map[string]any{}
		iter := v.MapRange()
		for iter.Next() {
			m[fmt.Sprint(iter.Key())] = plain(iter.Value(), depth+1)
		}
		return m
	case reflect.Uint8:
		// A bare byte is a letter (a glog severity) more often than a number.
		if c := v.Uint(); v.Type().PkgPath() == "" && c >= 0x21 && c < 0x7f {
			return string(rune(c))
		}
		return v.Uint()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return strings.ToValidUTF8(v.String(), "\uFFFD")
	}
	return fmt.Sprint(v)
}

// hasText reports whether v prints itself (String or MarshalText).
func hasText(v reflect.Value) bool {
	_, ok := asText(v)
	return ok
}

var (
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
	textType     = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// asText calls v's MarshalText or String, if it has one; a method that
// panics on a value the parser built is treated as absent rather than
// ending the run.
func asText(v reflect.Value) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	if !v.Type().Implements(textType) && !v.Type().Implements(stringerType) && v.CanAddr() {
		v = v.Addr() // a method on the pointer receiver
	}
	if v.Type().Implements(textType) {
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err == nil {
			return string(b), true
		}
	}
	if v.Type().Implements(stringerType) {
		return v.Interface().(fmt.Stringer).String(), true
	}
	return "", false
}

// snake turns a Go field name into snake_case: HasOp is has_op, HTLease is
// ht_lease.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func indirectKind(t reflect.Type) reflect.Kind {
	if t.Kind() == reflect.Pointer {
		return t.Elem().Kind()
	}
	return t.Kind()
}
