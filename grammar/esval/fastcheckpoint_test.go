package esval

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// grammarCheckpoint is ParseCheckpoint without the fast path.
func grammarCheckpoint(s string) (Checkpoint, error) {
	v, err := ParseValue(s)
	if err != nil {
		return Checkpoint{}, err
	}
	return CheckpointOf(v)
}

// sameAsGrammar fails when the fast path reads s and the grammar does not
// give the same checkpoint.
func sameAsGrammar(t testing.TB, s string) bool {
	t.Helper()
	fast, ok := fastCheckpoint(s)
	if !ok {
		return false
	}
	slow, err := grammarCheckpoint(s)
	if err != nil {
		t.Fatalf("%q: fast path read %+v, grammar says %v", s, fast, err)
	}
	if fast != slow {
		t.Fatalf("%q: fast path read %+v, grammar %+v", s, fast, slow)
	}
	return true
}

var checkpointSeeds = []string{
	"Checkpoint{offset=266, numOps=4, generation=3, minSeqNo=0, maxSeqNo=3, globalCheckpoint=3, minTranslogGeneration=1}",
	"Checkpoint{offset=55, numOps=1, generation=7, minSeqNo=12, maxSeqNo=12, globalCheckpoint=11, minTranslogGeneration=6, trimmedAboveSeqNo=-2}",
	"Checkpoint{offset=43, numOps=0, translogFileGeneration= 5}",
	"Checkpoint{offset=43, numOps=0, translogFileGeneration=5}",
	"Checkpoint{numOps=0, offset=43, maxSeqNo=-1, generation=2, minSeqNo=-1, globalCheckpoint=0}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1, extra=9}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1, extra=x}",
	"Checkpoint{offset=1, offset=2, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=+1}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=007}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=-0}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=99999999999999999999}",
	"Checkpoint{offset=1,numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1, }",
	"Checkpoint{ offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1}",
	"Checkpoint{'offset'=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1}",
	"Checkpoint{offset=1, numOps=1, generation=1, maxSeqNo=1, globalCheckpoint=1}}",
	"Checkpoint{}", "Checkpoint{", "SeqNoStats{maxSeqNo=1, localCheckpoint=1, globalCheckpoint=1}",
}

// TestFastCheckpointMatchesGrammar holds the fast path to the grammar on
// the seeds and on random strings built from their pieces.
func TestFastCheckpointMatchesGrammar(t *testing.T) {
	read := 0
	for _, s := range checkpointSeeds {
		if sameAsGrammar(t, s) {
			read++
		}
	}
	if read < 3 {
		t.Fatalf("the fast path read only %d seeds", read)
	}
	pieces := []string{"offset", "numOps", "generation", "minSeqNo", "maxSeqNo", "globalCheckpoint",
		"minTranslogGeneration", "trimmedAboveSeqNo", "translogFileGeneration", "x", "=", ", ", ",", " ",
		"-", "0", "1", "42", "-2", "'", "{", "}", "[", "]"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		b.WriteString("Checkpoint{")
		for range rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteString("}")
		sameAsGrammar(t, b.String())
		// And well-formed ones, with fields dropped, repeated or reordered.
		b.Reset()
		b.WriteString("Checkpoint{")
		for i := range 2 + rng.IntN(9) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pieces[rng.IntN(9)] + "=" + pieces[15+rng.IntN(4)])
		}
		b.WriteString("}")
		sameAsGrammar(t, b.String())
	}
}

func FuzzFastCheckpoint(f *testing.F) {
	for _, s := range checkpointSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsGrammar(t, s)
	})
}

// BenchmarkParseCheckpoint compares ParseCheckpoint (fast path) with the
// grammar alone on a 6.4+ checkpoint.
func BenchmarkParseCheckpoint(b *testing.B) {
	const s = "Checkpoint{offset=10230, numOps=0, generation=2, minSeqNo=-1, maxSeqNo=-1, globalCheckpoint=1023, minTranslogGeneration=1, trimmedAboveSeqNo=-2}"
	for _, bc := range []struct {
		name  string
		parse func(string) (Checkpoint, error)
	}{{"ParseCheckpoint", ParseCheckpoint}, {"grammar", grammarCheckpoint}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
