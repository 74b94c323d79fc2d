package es

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// claimTests are the functions whose string tests decide which lines the
// decoder claims outside a record: the message shapes and the decoder's
// own blocks. (recoverySource reads only lines with the `[recover to X]`
// marker, which "recover to " selects whatever its tests.)
var claimTests = map[string]map[string]bool{
	"messages.go": {"message": true, "thrownMessage": true, "isOpRejected": true, "isCheckpointMismatch": true,
		"isGCPBelowInSync": true, "isDocMissing": true, "isSeqNoTwice": true, "isGCPAboveLCP": true,
		"isReplayGap": true, "isSyncIDDocCount": true},
	"alarm.go":   {"raisedBy": true},
	"decoder.go": {"Line": true, "maybeES": true, "envelope": true},
}

// literal is the string a strings or bytes HasPrefix, Contains or
// HasSuffix call tests for, if n is one.
func literal(n ast.Node) (string, bool) {
	c, ok := n.(*ast.CallExpr)
	if !ok || len(c.Args) != 2 {
		return "", false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || (x.Name != "strings" && x.Name != "bytes") {
		return "", false
	}
	switch sel.Sel.Name {
	case "HasPrefix", "Contains", "HasSuffix":
	default:
		return "", false
	}
	lit, ok := c.Args[1].(*ast.BasicLit)
	if !ok {
		if call, ok := c.Args[1].(*ast.CallExpr); ok && len(call.Args) == 1 {
			lit, _ = call.Args[0].(*ast.BasicLit)
		}
	}
	if lit == nil || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func covered(s string) bool {
	for _, p := range StorePhrases() {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// Literals these functions test that claim no line by themselves: the
// line's first byte (maybeES), the continuation of an open block (the
// stack frames and hamcrest lines of an exception, gcp[ ending a commit
// list), and the node rows' JSON-like opening, which nodeLine reads only
// with "}{" in the line.
var notClaims = map[string]bool{"{": true, `{"`: true, "gcp[": true, "routing_": true, "elasticsearch[": true, "opensearch[": true}

// TestStorePhrasesCoverDecoder holds storePhrases to the decoder's code:
// every literal a claiming function tests a message for (HasPrefix,
// Contains, HasSuffix) must hold one of the phrases, so a line passing
// that test passes the store's filter. A new message test fails here
// until its phrase is listed.
func TestStorePhrasesCoverDecoder(t *testing.T) {
	fs := token.NewFileSet()
	checked := 0
	for file, funcs := range claimTests {
		f, err := parser.ParseFile(fs, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !funcs[fn.Name.Name] {
				continue
			}
			// A test joined by && to a covered one needs no phrase of
			// its own: a line passing both holds the other's phrase.
			excused := map[token.Pos]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				b, ok := n.(*ast.BinaryExpr)
				if !ok || b.Op != token.LAND {
					return true
				}
				any := false
				ast.Inspect(b, func(m ast.Node) bool {
					if s, ok := literal(m); ok && covered(s) {
						any = true
					}
					return true
				})
				if any {
					ast.Inspect(b, func(m ast.Node) bool {
						if _, ok := literal(m); ok {
							excused[m.Pos()] = true
						}
						return true
					})
				}
				return true
			})
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				s, ok := literal(n)
				if !ok || notClaims[s] {
					return true
				}
				checked++
				if !covered(s) && !excused[n.Pos()] {
					t.Errorf("%s: %s tests %q, which holds none of storePhrases: add a phrase of it", fs.Position(n.Pos()), fn.Name.Name, s)
				}
				return true
			})
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d literals; the decoder's claiming functions were not found", checked)
	}
}

func TestStoreClock(t *testing.T) {
	c := NewClock()
	for _, tc := range []struct {
		line string
		want string
	}{
		{"[2018-01-27T10:58:33,091][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] msg", "2018-01-27T10:58:33.091Z"},
		{"  1> [2018-01-27T10:58:33,091][INFO ][o.e.x] [n] msg", "2018-01-27T10:58:33.091Z"},
		{`{"type": "server", "timestamp": "2020-05-01T10:00:00,123Z", "level": "INFO", "message": "m"}`, "2020-05-01T10:00:00.123Z"},
		{"\tat org.elasticsearch.Foo(Foo.java:1)", ""},
	} {
		got, ok := c.Time([]byte(tc.line))
		s := ""
		if ok {
			s = got.Format("2006-01-02T15:04:05.000Z07:00")
		}
		if s != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, s, tc.want)
		}
		if OpensRecord([]byte(tc.line)) != (tc.want != "") {
			t.Errorf("%q: OpensRecord = %v", tc.line, !(tc.want != ""))
		}
	}
}
