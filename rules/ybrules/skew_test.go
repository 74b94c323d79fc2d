package ybrules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// transferChain is issue #19447's hand-over chain (seed-early-revocation)
// with the term-1 leader's ht lease ending at end: ts-1 led term 1 until
// 16:39:07.5, ts-2 led term 2 and held its own replicated lease when it
// stepped down at 16:39:05.650000, ts-3 revoked ts-2's lease at
// 16:39:05.720000. Only ht leases are compared: the other leases the
// logs show are left out. extra is appended to ts-3's log.
func transferChain(t *testing.T, end int64, extra string) map[string]string {
	t.Helper()
	logs := readDir(t, "seed-early-revocation")
	var ts1 []string
	for i, l := range strings.Split(logs["ts-1.log"], "\n") {
		switch {
		case i+1 == 13 || i+1 >= 15:
			// The wall-clock lease and the FATAL's dump: only the ht
			// lease the holder reset is compared.
		case i+1 == 14:
			ts1 = append(ts1, strings.Replace(l, "1696696746900000", fmt.Sprint(end), 1))
		default:
			ts1 = append(ts1, l)
		}
	}
	logs["ts-1.log"] = strings.Join(ts1, "\n") + "\n"
	// ts-2's refused read, which shows the term-1 leader's wall-clock
	// lease from ts-2's clock.
	ts2 := strings.Split(logs["ts-2.log"], "\n")
	logs["ts-2.log"] = strings.Join(append(ts2[:14:14], ts2[15:]...), "\n")
	logs["ts-3.log"] += extra
	return logs
}

const (
	// The term-2 leader held its lease at 16:39:05.650000 at the latest,
	// ts-3 revoked at 16:39:05.720000 (UTC microseconds).
	term2Held  = 1696696745650000
	revokedAt  = 1696696745720000
	defaultMax = 500000
)

func revocations(fs []rules.Finding) (replicated, revoked []rules.Finding) {
	for _, f := range fs {
		if f.Rule != ybrules.EarlyRevocation {
			continue
		}
		if f.Facts["replicated_past"] == "1" {
			replicated = append(replicated, f)
		} else {
			revoked = append(revoked, f)
		}
	}
	return replicated, revoked
}

// A new leader's lease within the max clock skew of the old lease's end
// is the hand-over YugabyteDB allows, not a break; past it, it is. The
// default skew (500 ms) applies when no log prints the flag.
func TestTransferChainAllowsClockSkew(t *testing.T) {
	for _, tc := range []struct {
		name                string
		end                 int64
		replicated, revoked int
	}{
		{"old lease ends at the skew from the new lease", term2Held + defaultMax, 0, 0},
		{"old lease ends 1 us past the skew from the new lease", term2Held + defaultMax + 1, 1, 0},
		{"old lease ends 1 us inside the skew from the revocation", revokedAt + defaultMax - 1, 1, 0},
		{"old lease ends 1 us past the skew from the revocation", revokedAt + defaultMax + 1, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, rev := revocations(analyzeLogs(t, transferChain(t, tc.end, "")))
			if len(rep) != tc.replicated || len(rev) != tc.revoked {
				t.Fatalf("want %d replicated-past and %d revocation findings, got\n%s%s", tc.replicated, tc.revoked, summarize(rep), summarize(rev))
			}
			for _, f := range append(rep, rev...) {
				if f.Facts["clock_skew_grace_us"] != "500000" || f.Facts["clock_skew_from"] != "default max_clock_skew_usec" {
					t.Errorf("grace: %v", f.Facts)
				}
			}
		})
	}
}

// The skew a log prints (the hybrid clock's alarm states the flag's
// value) replaces the default, both ways: a smaller flag makes 300 ms a
// break, a larger one makes 700 ms none.
func TestTransferChainTakesThePrintedSkew(t *testing.T) {
	alarm := func(max string) string {
		return "E1007 16:39:05.800000  5100 hybrid_clock.cc:181] Too big clock skew is detected: 0.629s, while max allowed is: " + max + "; clock_skew_force_crash_bound_usec=60000000\n"
	}
	fs := analyzeLogs(t, transferChain(t, term2Held+300000, alarm("0.200s")))
	rep, _ := revocations(fs)
	if len(rep) != 1 || rep[0].Facts["clock_skew_grace_us"] != "200000" || rep[0].Facts["clock_skew_from"] != "ts-3.log:18" {
		t.Errorf("with max 0.200s printed, 300 ms is a break: %s", summarize(rep))
	}
	rep, _ = revocations(analyzeLogs(t, transferChain(t, term2Held+300000, "")))
	if len(rep) != 0 {
		t.Errorf("with the default, 300 ms is within the skew: %s", summarize(rep))
	}
	rep, _ = revocations(analyzeLogs(t, transferChain(t, term2Held+700000, alarm("1.000s"))))
	if len(rep) != 0 {
		t.Errorf("with max 1.000s printed, 700 ms is within the skew: %s", summarize(rep))
	}
	// A value that does not read leaves the default.
	rep, _ = revocations(analyzeLogs(t, transferChain(t, term2Held+700000, alarm("soon"))))
	if len(rep) != 1 || rep[0].Facts["clock_skew_grace_us"] != "500000" {
		t.Errorf("an unreadable max leaves the default: %s", summarize(rep))
	}
}
