package yb

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/parse"
)

func TestZZHang(t *testing.T) {
	b, _ := os.ReadFile("../../testdata/yb/mvcc-ht-too-low.log")
	for i := 0; i < 5; i++ {
		start := time.Now()
		parse.Scan(bytes.NewReader(b), "x", []parse.System{System}, parse.Options{})
		t.Logf("%v", time.Since(start))
	}
}
