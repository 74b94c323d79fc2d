package timeline_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// The browser tests open each page in headless Chromium: the page is a
// program, and only a browser shows whether it draws, answers clicks and
// keeps log text as text. They skip when no Chromium is installed (CI
// installs the Debian packages chromium and chromium-driver).

// docs asks TestBrowserSeeds to refresh the README's screenshot,
// docs/timeline.png, from the Raft seed scenario:
//
//	go test ./render/timeline -run TestBrowserSeeds -docs
var docs = flag.Bool("docs", false, "write docs/timeline.png from the Raft seed scenario")

// docsSeed is the seed whose page the README shows: the founding
// incident's root cause across three peers.
const docsSeed = "yb-raft-early-revocation"

// chromium returns the browser binary: $LOGSLEUTH_CHROME, else the first of
// the usual names on $PATH. Without one the test skips, unless
// $LOGSLEUTH_REQUIRE_BROWSER is set.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("LOGSLEUTH_CHROME"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	const why = "no Chromium binary on $PATH (install the Debian packages chromium and chromium-driver, or set LOGSLEUTH_CHROME): the HTML timeline's browser tests need one"
	if os.Getenv("LOGSLEUTH_REQUIRE_BROWSER") != "" {
		// CI sets this, so a lost Chromium fails the run instead of
		// quietly skipping every browser test.
		t.Fatal(why)
	}
	t.Skip(why)
	return ""
}

// artifacts is where pages and screenshots are kept for a human to look
// at: $LOGSLEUTH_ARTIFACTS when set (CI uploads it), else a temp dir.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LOGSLEUTH_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, "timeline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser is one headless Chromium tab and the console errors it logged.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

// newBrowser starts Chromium with the flags it needs as root in a
// container, a fresh profile, and no network chatter of its own.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1600, 1000),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, tcancel := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { tcancel(); cancel(); acancel() })
	b := &browser{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || m.Type == "assert" {
				b.mu.Lock()
				b.errs = append(b.errs, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// open loads a page file and waits until the script has drawn.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1600, 1000), chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	ready := `!!(window.__timeline && window.__timeline.ready && document.querySelector('svg.lanes').childNodes.length)`
	var err2 error
	for try := 0; try < 3; try++ {
		// Just after a navigation the poll can land in the old page's
		// execution context, which is gone; that is retried.
		if _, err2 = chromedp.Run(b.ctx, chromedp.Poll[bool](ready, chromedp.WithPollingTimeout(20*time.Second))); err2 == nil || !strings.Contains(err2.Error(), "Cannot find context") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err2 != nil {
		t.Fatalf("open %s: the page did not draw: %v", path, err2)
	}
}

func eval[T any](t *testing.T, b *browser, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// rect is an element's box in viewport coordinates.
type rect struct{ X, Y, W, H float64 }

// clickMarker clicks the flag of finding i on the timeline, where a user
// would: at the centre of its flag, through the mouse, so it fails when
// something covers the marker.
func clickMarker(t *testing.T, b *browser, i int) {
	t.Helper()
	r := eval[rect](t, b, fmt.Sprintf(`(function(){var c=document.querySelector('.finding-marker[data-finding="%d"] .flag'); if(!c) return null; var r=c.getBoundingClientRect(); return {X:r.x,Y:r.y,W:r.width,H:r.height};})()`, i))
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(r.X+r.W/2, r.Y+r.H/2)); err != nil {
		t.Fatal(err)
	}
}

// hoverMarker moves the mouse onto the flag of finding i and checks the
// tooltip names the rule, cites the first evidence line and shows a fact.
func hoverMarker(t *testing.T, b *browser, i int, f rules.Finding) {
	t.Helper()
	r := eval[rect](t, b, fmt.Sprintf(`(function(){var c=document.querySelector('.finding-marker[data-finding="%d"] .flag'); var r=c.getBoundingClientRect(); return {X:r.x,Y:r.y,W:r.width,H:r.height};})()`, i))
	if err := chromedp.Do(b.ctx, chromedp.MouseEvent(chromedp.MouseMoved, r.X+r.W/2, r.Y+r.H/2)); err != nil {
		t.Fatal(err)
	}
	tip := eval[string](t, b, `(function(){var t=document.getElementById('tip'); return t.style.display === 'block' ? t.textContent : '';})()`)
	ev := f.Evidence[0]
	if !strings.Contains(tip, f.Rule) || !strings.Contains(tip, fmt.Sprintf("%s:%d", ev.Source, ev.Line)) {
		t.Errorf("hovering the flag of %s: tooltip %q", f.Rule, tip)
	}
	keys := make([]string, 0, len(f.Facts))
	for k := range f.Facts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 && !strings.Contains(tip, keys[0]+"="+render.Sanitize(f.Facts[keys[0]])) {
		t.Errorf("hovering the flag of %s: tooltip lacks %s", f.Rule, keys[0])
	}
}

// hoverAndClickMark moves the mouse onto a mark and clicks it, checking the tooltip and the details cite a
// source:line the model holds.
func hoverAndClickMark(t *testing.T, b *browser) {
	t.Helper()
	// The first mark no flag covers: what the mouse would reach.
	r := eval[rect](t, b, `(function(){
		var ms = document.querySelectorAll('.pane svg.lanes .mark');
		for (var i = 0; i < ms.length; i++) {
			var r = ms[i].getBoundingClientRect(), e = document.elementFromPoint(r.x + r.width/2, r.y + r.height/2);
			var hit = e && e.closest && e.closest('[data-ref]');
			if (hit && hit.getAttribute('data-ref') === ms[i].getAttribute('data-ref') && !hit.closest('.finding-marker')) return {X:r.x,Y:r.y,W:r.width,H:r.height};
		}
		return null;
	})()`)
	x, y := r.X+r.W/2, r.Y+r.H/2
	if err := chromedp.Do(b.ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)); err != nil {
		t.Fatal(err)
	}
	tip := eval[string](t, b, `(function(){var t=document.getElementById('tip'); return t.style.display === 'block' ? t.textContent : '';})()`)
	if !strings.Contains(tip, ".log:") {
		t.Errorf("hovering a mark: tooltip %q has no source:line", tip)
	}
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
	ev := eval[string](t, b, `(document.querySelector('#detail-body .evidence .pos')||{textContent:''}).textContent`)
	if !strings.Contains(ev, ".log:") || !strings.Contains(tip, ev) {
		t.Errorf("clicking a mark: details cite %q, tooltip %q", ev, tip)
	}
}

func (b *browser) screenshot(t *testing.T, path string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// TestBrowserSeeds loads the report of each seed incident, finds a flag
// for every finding, clicks one and reads its evidence in the details,
// selects the others from the side list and checks their flags come into
// view, and requires a console without errors (a CSP violation, an
// exception in the script) throughout. Each page and a screenshot of it
// with the first finding open are kept as artifacts.
func TestBrowserSeeds(t *testing.T) {
	dir := artifacts(t)
	b := newBrowser(t)
	for _, s := range seeds {
		t.Run(s.name, func(t *testing.T) {
			events, rep := analyze(t, s.path)
			if len(rep.Findings) == 0 {
				t.Fatalf("seed %s has no findings: nothing to test the timeline on", s.name)
			}
			m := timeline.Build(events, rep)
			page := filepath.Join(dir, s.name+".html")
			var buf bytes.Buffer
			if err := timeline.WriteModel(&buf, m); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			b.open(t, page)
			defer func() {
				if errs := b.consoleErrors(); len(errs) > 0 {
					t.Errorf("console errors: %q", errs)
				}
			}()

			// Every finding placed on the timeline has its flag drawn in
			// the initial (fit-all) view.
			var placed []int
			for i, f := range m.Findings {
				if len(f.Locs) > 0 {
					placed = append(placed, i)
				}
			}
			if len(placed) == 0 {
				t.Fatalf("no finding of %s is placed on the timeline", s.name)
			}
			drawn := eval[[]int](t, b, `Array.from(new Set(Array.from(document.querySelectorAll('.finding-marker')).map(e => +e.getAttribute('data-finding')))).sort((a,b)=>a-b)`)
			if fmt.Sprint(drawn) != fmt.Sprint(placed) {
				t.Errorf("finding flags drawn for %v, want %v", drawn, placed)
			}

			// Click the first flag: the details show that finding, its
			// first evidence line (source:line and the text as logged).
			first := placed[0]
			f := rep.Findings[first]
			// Hovering the flag shows the finding, its first evidence line
			// and its numbers.
			hoverMarker(t, b, first, f)
			clickMarker(t, b, first)
			// Off the lanes, so the tooltip does not hide them in the shot.
			if err := chromedp.Do(b.ctx, chromedp.MouseEvent(chromedp.MouseMoved, 150, 990)); err != nil {
				t.Fatal(err)
			}
			b.screenshot(t, filepath.Join(dir, s.name+".png"))
			if *docs && s.name == docsSeed {
				b.screenshot(t, filepath.Join("..", "..", "docs", "timeline.png"))
			}
			title := eval[string](t, b, `document.querySelector('#detail-body .dtitle').textContent`)
			if !strings.Contains(title, f.Rule) {
				t.Errorf("after clicking the flag of %s, details title = %q", f.Rule, title)
			}
			ev := eval[[]string](t, b, `Array.from(document.querySelectorAll('#detail-body .evidence li')).map(li => li.textContent)`)
			if len(ev) != len(f.Evidence) {
				t.Fatalf("details list %d evidence lines, want %d: %q", len(ev), len(f.Evidence), ev)
			}
			for i, e := range f.Evidence {
				want := fmt.Sprintf("%s:%d%s", e.Source, e.Line, e.Text)
				if ev[i] != want {
					t.Errorf("evidence %d = %q, want %q", i, ev[i], want)
				}
			}
			facts := eval[string](t, b, `(document.querySelector('#detail-body table.facts')||{textContent:''}).textContent`)
			for k, v := range f.Facts {
				if !strings.Contains(facts, k+v) {
					t.Errorf("details lack fact %s=%s: %q", k, v, facts)
				}
			}

			// Hovering a mark shows what it is and its log line; clicking
			// it puts the line in the details.
			hoverAndClickMark(t, b)

			// The filter keeps the lanes whose tablet, peer, shard, node or
			// log file matches.
			if s.name == docsSeed {
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("#filter"), "ts-3.log")); err != nil {
					t.Fatal(err)
				}
				labels := eval[[]string](t, b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(Array.from(document.querySelectorAll('svg.lanes text.lbl')).map(e => e.textContent)))))`, chromedp.EvalAwaitPromise)
				if fmt.Sprint(labels) != "[3b5d7f9a]" {
					t.Errorf("filtering on ts-3.log drew lanes %q, want only ts-3's peer", labels)
				}
				// The filter stays: selecting a finding on a lane it hides
				// (ts-1's, below) must clear it to show the finding.
			}

			// Selecting each finding from the side list brings its flag
			// into view, selected.
			for _, i := range placed {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#findings li[data-finding="%d"]`, i)))); err != nil {
					t.Fatal(err)
				}
				ok := eval[bool](t, b, fmt.Sprintf(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => {
					var ms = document.querySelectorAll('.finding-marker.selected[data-finding="%d"]');
					r(ms.length > 0 && Array.from(ms).every(m => { var b = m.getBoundingClientRect(), p = m.closest('.scroll').getBoundingClientRect(); return b.bottom > p.top && b.top < p.bottom && b.right > p.left && b.left < p.right; }));
				})))`, i), chromedp.EvalAwaitPromise)
				if !ok {
					t.Errorf("selecting finding %d (%s) from the list did not show its flag", i, rep.Findings[i].Rule)
				}
				if v := eval[string](t, b, `document.getElementById('filter').value`); v != "" {
					t.Errorf("after selecting finding %d the filter still hides lanes: %q", i, v)
				}
			}
		})
	}
}

// writePage writes the page of m to dir/name.html and returns its path.
func writePage(t *testing.T, dir, name string, m *timeline.Model) string {
	t.Helper()
	var buf bytes.Buffer
	if err := timeline.WriteModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserLogTextIsText opens a page whose log text, file name, finding
// and facts hold markup and script, and checks in the browser that none of
// it ran or became an element, and that it shows, as text, where an
// engineer reads it.
func TestBrowserLogTextIsText(t *testing.T) {
	dir := artifacts(t)
	b := newBrowser(t)
	events, rep := hostileRun()
	b.open(t, writePage(t, dir, "hostile", timeline.Build(events, rep)))
	clickMarker(t, b, 0)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#findings li[data-finding="0"]`))); err != nil {
		t.Fatal(err)
	}
	// After the details and the list have shown the text: no element
	// came of it.
	if n := eval[int](t, b, `document.querySelectorAll('img, iframe, object, embed').length + document.scripts.length`); n != 2 {
		t.Errorf("the page has %d script/img/iframe elements, want its own 2 scripts", n)
	}
	if pwned := eval[bool](t, b, `window.__pwned !== undefined`); pwned {
		t.Fatal("log text ran as script")
	}
	ev := eval[string](t, b, `document.querySelector('#detail-body .evidence').textContent`)
	clean := strings.TrimSuffix(hostile, "\u2028")
	if !strings.Contains(ev, "F1007 mvcc.cc:1] "+clean) {
		t.Errorf("evidence does not show the log line as text: %q", ev)
	}
	if list := eval[string](t, b, `document.querySelector('#findings').textContent`); !strings.Contains(list, "message "+clean) {
		t.Errorf("finding list does not show the message as text: %q", list)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserConsoleErrorsSeen makes sure the console check of the other
// tests can fail: an error thrown by a page is seen.
func TestBrowserConsoleErrorsSeen(t *testing.T) {
	dir := artifacts(t)
	b := newBrowser(t)
	events, rep := hostileRun()
	b.open(t, writePage(t, dir, "console", timeline.Build(events, rep)))
	eval[bool](t, b, `setTimeout(function(){ throw new Error('planted by the test') }, 0), true`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range b.consoleErrors() {
			if strings.Contains(e, "planted by the test") {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("a thrown error did not reach the console check: %q", b.consoleErrors())
}

// TestBrowserManyLanes draws a tablet with 400 peers and 40,000 events and
// checks that the page draws only what is visible (a few lanes' worth of
// elements, not the whole model), that scrolling to the end draws the last
// lane, and that zooming on the axis narrows the visible range.
func TestBrowserManyLanes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the 400-lane page")
	}
	dir := artifacts(t)
	b := newBrowser(t)
	events, rep := manyPeers(400, 100)
	m := timeline.Build(events, rep)
	b.open(t, writePage(t, dir, "many-lanes", m))

	lanes := eval[int](t, b, `document.querySelectorAll('svg.lanes text.lbl').length`)
	if lanes == 0 || lanes > 60 {
		t.Errorf("%d lane labels drawn for 400 lanes, want only the visible ones", lanes)
	}
	elems := eval[int](t, b, `document.querySelectorAll('svg.lanes *').length`)
	if elems > 20000 {
		t.Errorf("%d SVG elements drawn: the page draws more than is visible", elems)
	}
	last := m.Panes[0].Groups[0].Lanes[len(m.Panes[0].Groups[0].Lanes)-1].Label
	ok := eval[bool](t, b, fmt.Sprintf(`new Promise(r => { var s = document.querySelector('.scroll'); s.scrollTop = s.scrollHeight;
		requestAnimationFrame(() => requestAnimationFrame(() => r(Array.from(document.querySelectorAll('svg.lanes text.lbl')).some(e => e.textContent === %q)))); })`, last), chromedp.EvalAwaitPromise)
	if !ok {
		t.Errorf("after scrolling to the end, lane %s is not drawn", last)
	}

	// Zoom: Ctrl+wheel over the lanes narrows the range the ruler shows.
	before := eval[string](t, b, `document.querySelector('.pane-head .range').textContent`)
	r := eval[rect](t, b, `(function(){var r=document.querySelector('svg.lanes').getBoundingClientRect(); return {X:r.x,Y:r.y,W:r.width,H:r.height};})()`)
	if err := chromedp.Do(b.ctx, chromedp.MouseEvent(chromedp.MouseWheel, r.X+r.W*0.6, r.Y+40, func(p *input.DispatchMouseEventParams) {
		p.DeltaY = -600
		p.DeltaX = 0.01 // the protocol wants both, and omits a zero
		p.Modifiers = 2 // Ctrl
	})); err != nil {
		t.Fatal(err)
	}
	after := eval[string](t, b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(document.querySelector('.pane-head .range').textContent))))`, chromedp.EvalAwaitPromise)
	if before == after {
		t.Errorf("Ctrl+wheel did not zoom: range still %q", after)
	}
	// Pan: dragging a lane to the left moves the axis to later times.
	firstTick := `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(Array.from(document.querySelectorAll('svg.ruler text.tick')).map(e => e.textContent).join(' ')))))`
	ticksBefore := eval[string](t, b, firstTick, chromedp.EvalAwaitPromise)
	y := r.Y + 40
	if err := chromedp.Do(b.ctx,
		chromedp.MouseEvent(chromedp.MousePressed, r.X+r.W*0.7, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, r.X+r.W*0.5, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, r.X+r.W*0.3, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, r.X+r.W*0.3, y, chromedp.ButtonLeft),
	); err != nil {
		t.Fatal(err)
	}
	if ticksAfter := eval[string](t, b, firstTick, chromedp.EvalAwaitPromise); ticksAfter == ticksBefore {
		t.Errorf("dragging did not pan: ticks still %q", ticksAfter)
	}
	b.screenshot(t, filepath.Join(dir, "many-lanes.png"))
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserSummaryRows opens a page whose lane budget left lanes out:
// the notes say what was left out and how to draw it, a summarised
// tablet shows as a row with its counts and the --tablet flag that draws
// it (the lane filter finds it by its id), and every finding can still
// be selected on its own lane.
func TestBrowserSummaryRows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the generated 200-tablet page")
	}
	events, rep, _ := synthRun(t, synth.Options{System: "yb", Size: 2 << 20, Seed: 5, Peers: 3, Tablets: 200, RaftShare: 0.3, Incidents: 1})
	defer timeline.SetBudget(64<<10, 20)()
	m := timeline.Build(events, rep)
	var sum *timeline.Group
	for _, g := range m.Panes[0].Groups {
		if g.Sum != nil && len(g.Lanes) == 0 && g.Sum.Marks > 0 {
			sum = g
			break
		}
	}
	if sum == nil || len(m.Findings) == 0 {
		t.Fatalf("want a summarised tablet and findings; notes %q, %d findings", m.Notes, len(m.Findings))
	}
	b := newBrowser(t)
	b.open(t, writePage(t, artifacts(t), "summary-rows", m))
	notes := eval[string](t, b, `document.getElementById('notes').textContent`)
	for _, want := range []string{"lanes in full", "left out entirely", "--tablet ID"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q do not say %q", notes, want)
		}
	}
	id := strings.TrimPrefix(sum.Sum.Filter, "--tablet ")
	text := eval[string](t, b, fmt.Sprintf(`new Promise(r => { var f = document.getElementById('filter'); f.value = %q; f.dispatchEvent(new Event('input'));
		requestAnimationFrame(() => requestAnimationFrame(() => r(Array.from(document.querySelectorAll('svg.lanes text')).map(e => e.textContent).join('\n')))); })`, id), chromedp.EvalAwaitPromise)
	for _, want := range []string{
		fmt.Sprintf("%d lanes not drawn", sum.Sum.Lanes),
		fmt.Sprintf("%d bands, %d marks", sum.Sum.Bands, sum.Sum.Marks),
		"to draw: logsleuth analyze --tablet " + id,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("filtered to %s, the pane shows %q, want %q", id, text, want)
		}
	}
	for i := range m.Findings {
		eval[bool](t, b, fmt.Sprintf(`(window.__timeline.select(%d), true)`, i))
		if sel := eval[int](t, b, `window.__timeline.selected()`); sel != i {
			t.Errorf("selecting finding %d selected %d", i, sel)
		}
	}
	b.screenshot(t, filepath.Join(artifacts(t), "summary-rows.png"))
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
