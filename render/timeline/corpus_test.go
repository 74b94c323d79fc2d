package timeline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/logsleuth/logsleuth/render/timeline"
)

// TestCorpusPages builds the page of every real incident excerpt in
// testdata/corpus: none may fail, and every finding
// must be drawn where it happens, on at least one pane.
func TestCorpusPages(t *testing.T) {
	logs, _ := filepath.Glob("../../testdata/corpus/*/*.log")
	if len(logs) == 0 {
		t.Fatal("testdata/corpus holds no excerpt")
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			events, rep := analyze(t, path)
			m := timeline.Build(events, rep)
			var buf bytes.Buffer
			if err := timeline.WriteModel(&buf, m); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(buf.String(), "</script>"); n != 2 {
				t.Errorf("%d </script> in the page, want 2", n)
			}
			for i, f := range m.Findings {
				if len(f.Locs) == 0 {
					t.Errorf("finding %d (%s, evidence %v) is not drawn", i, f.Rule, rep.Findings[i].Evidence)
				}
			}
		})
	}
}

// TestBrowserAllIncidents opens the page of every incident the project
// holds (the corpus excerpts, each config and Raft scenario directory, the
// Elasticsearch logs) in Chromium: each must draw, flag every finding it
// placed, and log no console error. Unusual data (no wall times, no
// findings, a single event) breaks scripts; this is where it would show.
func TestBrowserAllIncidents(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the page of every incident")
	}
	var paths []string
	for _, pat := range []string{"../../testdata/corpus/*/*.log", "../../testdata/yb/config/*", "../../testdata/yb/raft/*", "../../testdata/es/*.log"} {
		m, _ := filepath.Glob(pat)
		for _, p := range m {
			if fi, err := os.Stat(p); err == nil && (fi.IsDir() || strings.HasSuffix(p, ".log")) {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		t.Skip("no incident logs found")
	}
	dir := artifacts(t)
	b := newBrowser(t)
	for _, path := range paths {
		name := filepath.Base(filepath.Dir(path)) + "-" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			events, rep := analyze(t, path)
			m := timeline.Build(events, rep)
			b.open(t, writePage(t, dir, "all-"+name, m))
			placed := 0
			for _, f := range m.Findings {
				if len(f.Locs) > 0 {
					placed++
				}
			}
			drawn := eval[int](t, b, `new Set(Array.from(document.querySelectorAll('.finding-marker')).map(e => e.getAttribute('data-finding'))).size`)
			if drawn != placed {
				t.Errorf("%d findings flagged, want %d", drawn, placed)
			}
			if placed > 0 {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#findings li[data-finding="0"]`))); err != nil {
					t.Fatal(err)
				}
			}
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("console errors: %q", errs)
			}
		})
	}
}
