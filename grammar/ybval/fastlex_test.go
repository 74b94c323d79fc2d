package ybval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// tokens lexes s with def to the end or the first error.
func tokens(def lexer.Definition, s string) string {
	l, err := def.(lexer.StringDefinition).LexString("", s)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for {
		t, err := l.Next()
		if err != nil {
			fmt.Fprintf(&b, "error: %v", err)
			return b.String()
		}
		if t.EOF() {
			fmt.Fprintf(&b, "EOF@%s", t.Pos)
			return b.String()
		}
		fmt.Fprintf(&b, "%d:%q@%s ", t.Type, t.Value, t.Pos)
	}
}

var lexSamples = []string{
	"{ physical: 1696696747406942 }",
	"{ days: 18101 time: 05:48:43.458857 logical: 7 }",
	"SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1 } lease: { physical: 2 } } safe_time: <max> }",
	"deadline: 5413.586s -0.077s 9223372036.855s -inf +inf +infinity <uninitialized> MonoTime::kMax a::b:: c:::d",
	`{ opid_index: 12 peers { permanent_uuid: "a\"b" member_type: VOTER addr { host: "h\\x" port: 9100 } } }`,
	"[{ hybrid_time: { physical: 1 } op_id: 1.2 }, { hybrid_time: <min> op_id: 15.686817 }]",
	"1:02:03 12:34:56.7 123:45:67 1:2:3 5.5ss 5.5s_ 1.5 +1.5 -7 1. .5 +x",
	"term: 11 index: 1337331\nsecond line\ttab\r\n",
	`"unterminated`, `"bad \` + "\n" + `escape"`, "<>", "<min", "<MIN>", "#", "héllo", "\"é\\é\"",
	"", " ", "x=1,y=(2)",
}

// The hand-written lexer must give the regular-expression lexer's tokens,
// positions and errors, byte for byte.
func TestFastLexerMatchesRegexLexer(t *testing.T) {
	check := func(s string) {
		if got, want := tokens(fastLex, s), tokens(lex, s); got != want {
			t.Fatalf("lexing %q\nfast:  %s\nregex: %s", s, got, want)
		}
	}
	for _, s := range lexSamples {
		check(s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("0123456789.:+-sinfabz_<>{}[]()=,\" \\\t\nMTk")
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.IntN(24))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
}

func FuzzFastLexer(f *testing.F) {
	for _, s := range lexSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tokens(fastLex, s), tokens(lex, s); got != want {
			t.Fatalf("lexing %q\nfast:  %s\nregex: %s", s, got, want)
		}
	})
}
