package yb

import "testing"

// The layouts a ticket gives a glog line, built from glog's own format
// (`[IWEF]mmdd hh:mm:ss.uuuuuu tid file:line] msg`, the FATAL-details
// form, a stack frame `@ 0x...`, MvccOpTrace's `N. Kind { ... }`), and
// lines that only look like them.
func TestExcerptLayouts(t *testing.T) {
	const glog = "W1007 16:39:07.123456  4321 log_reader.cc:238] Segment sequence numbers are not consecutive."
	const details = "F20231007 16:39:07 ../../src/yb/tablet/mvcc.cc:398] T t P p: Recent 2 MVCC operations:"
	for _, tc := range []struct {
		line      string
		clock     bool
		sev       byte
		file, msg string
	}{
		{glog, true, 'W', "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{"```" + glog, true, 'W', "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{"> " + glog, true, 'W', "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{`"` + glog, true, 'W', "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{"  12 " + glog, true, 'W', "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{"21240 | " + details, true, 'F', "mvcc.cc:398", "T t P p: Recent 2 MVCC operations:"},
		{"1 " + details, true, 'F', "mvcc.cc:398", "T t P p: Recent 2 MVCC operations:"},
		{"  3 2. SetPropagatedSafeTimeOnFollower { ht: { physical: 1 } }", false, 0, "", "2. SetPropagatedSafeTimeOnFollower { ht: { physical: 1 } }"},
		{"21241 | @ 0x7f47b08f9c34 yb::LogFatalHandlerSink::send()", false, 0, "", "@ 0x7f47b08f9c34 yb::LogFatalHandlerSink::send()"},
		{"log_reader.cc:238] Segment sequence numbers are not consecutive.", false, 0, "log_reader.cc:238", "Segment sequence numbers are not consecutive."},
		{"../../src/yb/consensus/log_reader.cc:238] x", false, 0, "log_reader.cc:238", "x"},
		// Not numbered layouts: the words stay the message.
		{"3 pending operations in the queue", false, 0, "", "3 pending operations in the queue"},
		{"12. AddPending { provided_ht: <invalid> final_ht: { physical: 1 } }", false, 0, "", "12. AddPending { provided_ht: <invalid> final_ht: { physical: 1 } }"},
		{"2 Warnings were printed", false, 0, "", "2 Warnings were printed"},
		{"1 2 3 4", false, 0, "", "1 2 3 4"},
	} {
		e := splitEnvelope([]byte(tc.line))
		if e.hasClock != tc.clock || e.sev != tc.sev || string(e.file) != tc.file || string(e.msg) != tc.msg {
			t.Errorf("%q: clock %v sev %q file %q msg %q, want %v %q %q %q", tc.line, e.hasClock, e.sev, e.file, e.msg, tc.clock, tc.sev, tc.file, tc.msg)
		}
	}
}
