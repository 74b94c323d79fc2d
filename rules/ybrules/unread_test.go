package ybrules_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// tooLow is a `hybrid time too low` FATAL as mvcc.cc prints it (2.16+),
// with the op's hybrid time and the bound's printed as given: line 2 is
// the F line, line 3 the bound, line 4 YugabyteDB's own `!!!` verdict.
func tooLow(ht, bound string) string {
	return "Log file created at: 2023/10/07 16:39:07\n" +
		"F1007 16:39:07.497722 954679 mvcc.cc:395] T 35efbd0d6e8f4fa19e4e0aa8e0f5a2a1 P daf8ed30f5e54b3a9911994285a554ef: " +
		"New operation's hybrid time too low: " + ht + ", op id: 17.686821\n" +
		"  max_safe_time_returned_with_lease_={ safe_time: " + bound + " source: kNextInQueue }\n" +
		"  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1\n"
}

// scanOne runs one log through parse/yb and the pack, with its
// diagnostics.
func scanOne(t *testing.T, log string) ([]rules.Finding, []parse.Diagnostic) {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(log), "t.log", []parse.System{yb.System}, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rules.Run(res.Events, []rules.Pack{ybrules.New()}), res.Diags
}

// The numbers of issue 14: a hybrid time no build can print keeps the
// FATAL (a finding citing the F line and the `!!!` verdict), is said once
// in a diagnostic, and gives no difference, no packed difference and no
// confirmation: nothing is stated that was not read.
func TestUnreadNumbersNeverLie(t *testing.T) {
	const op, bound = "{ physical: 1696696747406942 }", "{ physical: 1696696747484844 logical: 4095 }"
	const two70 = "1180591620717411303424"
	for _, tc := range []struct {
		name, log string
		// diag is what the one diagnostic says.
		diag string
		// stated is the bound's value as the finding states it.
		stated string
	}{
		{"op physical 2^70", tooLow("{ physical: "+two70+" }", bound), "physical " + two70 + " is out of range", "1696696747484844.4095"},
		{"op physical negative", tooLow("{ physical: -1696696747406942 }", bound), "physical -1696696747406942 is out of range", "1696696747484844.4095"},
		{"bound physical 2^64-1", tooLow(op, "{ physical: 18446744073709551615 }"), "physical 18446744073709551615 is out of range", "<unread>"},
		{"bound physical 2^63-1", tooLow(op, "{ physical: "+strconv.FormatInt(math.MaxInt64, 10)+" }"), "physical 9223372036854775807 is out of range", "<unread>"},
		{"bound logical unreadable", tooLow(op, "{ physical: 1696696747484844 logical: 99999 }"), "logical 99999 is out of range", "<unread>"},
		{"bound physical negative", tooLow(op, "{ physical: -5 }"), "physical -5 is out of range", "<unread>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, diags := scanOne(t, tc.log)
			if len(diags) != 1 || !strings.Contains(diags[0].String(), tc.diag) {
				t.Errorf("want one diagnostic saying %q, got %v", tc.diag, diags)
			}
			if len(fs) != 1 {
				t.Fatalf("want one finding, got %s", summarize(fs))
			}
			f := fs[0]
			if f.Rule != ybrules.HTBelowSafeTime || f.Severity != rules.Error || f.Origin != rules.Reported {
				t.Errorf("want a reported error of %s, got %s", ybrules.HTBelowSafeTime, summarize(fs))
			}
			var lines []int
			for _, e := range f.Evidence {
				lines = append(lines, e.Line)
			}
			if fmt.Sprint(lines) != "[2 3 4]" {
				t.Errorf("want the F line, the bound and the !!! verdict cited, got %v", lines)
			}
			for _, k := range []string{"below_us", "raw_diff"} {
				if v, ok := f.Facts[k]; ok {
					t.Errorf("%s=%s stated from a number that was not read", k, v)
				}
			}
			if f.Facts["bound_value"] != tc.stated {
				t.Errorf("bound_value=%q, want %q", f.Facts["bound_value"], tc.stated)
			}
			if strings.Contains(f.Message, " us ") || strings.Contains(f.Message, "=0") {
				t.Errorf("the message states a difference it could not compute: %s", f.Message)
			}
		})
	}
}

// Read numbers at the edges of what YugabyteDB prints are exact: the
// largest physical time a hybrid time holds against the smallest, with
// no wrap of the packed form.
func TestEdgeNumbersAreExact(t *testing.T) {
	const maxPhysical = 1<<52 - 1
	fs, diags := scanOne(t, tooLow("{ physical: 0 }", fmt.Sprintf("{ physical: %d logical: 4095 }", maxPhysical)))
	if len(diags) != 0 || len(fs) != 1 {
		t.Fatalf("diags %v, findings %s", diags, summarize(fs))
	}
	f := fs[0]
	if f.Facts["below_us"] != strconv.Itoa(maxPhysical) {
		t.Errorf("below_us=%s, want %d", f.Facts["below_us"], maxPhysical)
	}
	// The packed difference, -(2^64-1), does not fit an int64: unsaid.
	if v, ok := f.Facts["raw_diff"]; ok {
		t.Errorf("raw_diff=%s does not fit an int64", v)
	}
	fs, _ = scanOne(t, tooLow("{ physical: 1 }", "{ physical: 2 logical: 1 }"))
	if len(fs) != 1 || fs[0].Facts["below_us"] != "1" || fs[0].Facts["raw_diff"] != "-4097" {
		t.Errorf("want below_us=1 raw_diff=-4097, got %s", summarize(fs))
	}
}

// A FATAL whose excerpt was cut after its first line still raises a
// finding, stating the op's numbers, with the diagnostic that says the
// bounds are missing.
func TestTooLowCutBeforeTheBounds(t *testing.T) {
	log := "Log file created at: 2023/10/07 16:39:07\n" +
		"F1007 16:39:07.497722 954679 mvcc.cc:395] T 35efbd0d6e8f4fa19e4e0aa8e0f5a2a1 P daf8ed30f5e54b3a9911994285a554ef: " +
		"New operation's hybrid time too low: { physical: 1696696747406942 }, op id: 17.686821\n"
	fs, diags := scanOne(t, log)
	if len(diags) != 1 || !strings.Contains(diags[0].String(), "no bound follows") {
		t.Errorf("want the cut said once, got %v", diags)
	}
	if len(fs) != 1 || fs[0].Rule != ybrules.MvccInvariant || fs[0].Origin != rules.Reported || fs[0].Pos().Line != 2 ||
		fs[0].Facts["ht"] != "1696696747406942" || fs[0].Facts["op_id"] != "17.686821" {
		t.Errorf("want one reported %s at line 2 with the op's numbers, got %s", ybrules.MvccInvariant, summarize(fs))
	}
	// Bounds printed but none marked violated and none that reads as
	// one: the FATAL stands, citing every verdict line kept.
	log += "  max_safe_time_returned_with_lease_={ safe_time: <min> source: kUnknown }\n" +
		"  ht <= max_safe_time_returned_with_lease_.safe_time=0\n"
	fs, _ = scanOne(t, log)
	if len(fs) != 1 || fs[0].Rule != ybrules.MvccInvariant || len(fs[0].Evidence) != 2 || fs[0].Evidence[1].Line != 4 ||
		fs[0].Facts["bounds_printed"] != "max_safe_time_returned_with_lease_" {
		t.Errorf("want the FATAL citing its verdict line, got %s", summarize(fs))
	}
}

// A check whose operands are out of range stands, with the operands
// unread and no difference stated; a queue check states both QueueItems.
func TestCheckFailedOperands(t *testing.T) {
	const prefix = "Log file created at: 2023/10/07 16:39:07\nF1007 16:39:07.497722 954679 mvcc.cc:395] "
	fs, diags := scanOne(t, prefix+"Check failed: result >= enforced_min_time ({ physical: 18446744073709551615 } vs. { physical: 1570720505667409 }) T abecd1b22804401089bb206116ea31d0 P 878fbc7cb51f4c8d9a2786380e48828a: : has_lease=1\n")
	if len(diags) != 1 || len(fs) != 1 || fs[0].Rule != ybrules.SafeTimeRegression {
		t.Fatalf("diags %v, findings %s", diags, summarize(fs))
	}
	if v, ok := fs[0].Facts["below_us"]; ok || strings.Contains(fs[0].Message, " us ") {
		t.Errorf("below_us=%q stated from an operand that was not read: %s", v, fs[0].Message)
	}
	fs, diags = scanOne(t, prefix+"Check failed: queue_.front() == (QueueItem{ .hybrid_time = ht, .op_id = op_id }) "+
		"({ hybrid_time: { physical: 1700000000100000 } op_id: 5.1200 } vs. { hybrid_time: { physical: 1700000000150000 } op_id: 5.1201 }) "+
		"T 0a60fb5e642e492084f82650995e3947 P 3fd4871553e9465fbb533179a590d89d: \n")
	if len(diags) != 0 || len(fs) != 1 {
		t.Fatalf("diags %v, findings %s", diags, summarize(fs))
	}
	want := map[string]string{"front_ht": "1700000000100000", "front_op_id": "5.1200", "ht": "1700000000150000", "op_id": "5.1201"}
	for k, v := range want {
		if fs[0].Facts[k] != v {
			t.Errorf("%s=%q, want %q", k, fs[0].Facts[k], v)
		}
	}
	if !strings.Contains(fs[0].Message, "op 5.1201 at ht 1700000000150000 while the queue front op 5.1200 at ht 1700000000100000 (50000 us older)") {
		t.Errorf("message: %s", fs[0].Message)
	}
	// An op id beyond int64 leaves that operand unread, not 0.
	fs, diags = scanOne(t, prefix+"Check failed: queue_.back() == (QueueItem{ .hybrid_time = ht, .op_id = op_id }) "+
		"({ hybrid_time: { physical: 1700000000150000 } op_id: 5.99999999999999999999 } vs. { hybrid_time: { physical: 1700000000100000 } op_id: 5.1200 })\n")
	if len(diags) != 1 || len(fs) != 1 || fs[0].Facts["back_op_id"] != "<unread>" || fs[0].Facts["op_id"] != "5.1200" {
		t.Errorf("diags %v, findings %s", diags, summarize(fs))
	}
}
