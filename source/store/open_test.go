package store_test

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/source/store"
)

// A URL names a store by its scheme alone; anything else is a path, even
// one that looks like a URL of a store logsleuth does not speak to.
func TestOpenByScheme(t *testing.T) {
	for _, c := range []struct {
		arg    string
		isURL  bool
		errHas string
	}{
		{arg: "vlogs://127.0.0.1:9428", isURL: true},
		{arg: "vlogs+https://logs.example.com/select", isURL: true},
		{arg: "vlogs://", isURL: true, errHas: "no host"},
		{arg: "vlogs://h:1?x=1", isURL: true, errHas: "no query"},
		{arg: "loki://h:3100", errHas: "not a log store; want vlogs://HOST:PORT"},
		{arg: "bundle/vlogs://x"},
		{arg: "tserver.log"},
	} {
		if got := store.IsURL(c.arg); got != c.isURL {
			t.Errorf("IsURL(%q) = %v, want %v", c.arg, got, c.isURL)
		}
		if !c.isURL && c.errHas == "" {
			continue
		}
		s, err := store.Open(c.arg)
		switch {
		case c.errHas == "" && err != nil:
			t.Errorf("Open(%q): %v", c.arg, err)
		case c.errHas == "" && s.String() != c.arg:
			t.Errorf("Open(%q) names itself %q", c.arg, s.String())
		case c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)):
			t.Errorf("Open(%q) = %v, want an error with %q", c.arg, err, c.errHas)
		}
	}
}
