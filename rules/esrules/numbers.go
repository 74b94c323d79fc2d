package esrules

import (
	"math"
	"math/big"
	"strconv"

	"github.com/logsleuth/logsleuth/grammar/esval"
)

// Sequence numbers and checkpoints are int64s read from untrusted text,
// with two values that are not numbers of operations: NO_OPS_PERFORMED
// (-1), the checkpoint of a copy that processed nothing, one below #0;
// and UNASSIGNED_SEQ_NO (-2), no number at all (replay's Unknown, -3, is
// the same). These helpers keep every comparison and count of the rules
// exact over the whole int64 range and never count from a value that
// is not a checkpoint.

// checkpoint reports whether n is a checkpoint: a seq#, or -1 for none.
func checkpoint(n int64) bool { return n >= esval.NoOpsPerformed }

// after is the first seq# above checkpoint n; false when n is no
// checkpoint or no seq# is above it.
func after(n int64) (int64, bool) {
	if !checkpoint(n) || n == math.MaxInt64 {
		return 0, false
	}
	return n + 1, true
}

// opsAbove counts the seq#s in (lo, hi] for checkpoints lo < hi: the
// difference of two int64s, exact (it may exceed MaxInt64).
func opsAbove(hi, lo int64) string {
	return strconv.FormatUint(uint64(hi)-uint64(lo), 10)
}

// signedDiff is a-b with its sign, exact for any int64s.
func signedDiff(a, b int64) string {
	d := new(big.Int).Sub(big.NewInt(a), big.NewInt(b))
	if d.Sign() > 0 {
		return "+" + d.String()
	}
	return d.String()
}

// seqText names a checkpoint as printed, and says what a sentinel is.
func seqText(n int64) string {
	switch {
	case n == esval.NoOpsPerformed:
		return "-1 (no operations processed)"
	case n == esval.Unassigned:
		return "-2 (unassigned)"
	}
	return strconv.FormatInt(n, 10)
}

// read reports whether a fact holds a number the line printed: not
// empty, not UNASSIGNED_SEQ_NO or below. A break is confirmed only on
// numbers both sides read.
func read(fact string) bool {
	if fact == "" {
		return false
	}
	n, err := strconv.ParseInt(fact, 10, 64)
	return err != nil || checkpoint(n)
}
