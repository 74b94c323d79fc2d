package timeline

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
)

//go:embed assets/timeline.css
var css string

//go:embed assets/timeline.js
var script string

// Write writes the HTML timeline of a run: the merged events (in timeline
// order, as replay.Merge returns them) and the report whose findings it
// draws. The file is self-contained and byte-identical for the same input.
func Write(w io.Writer, events []parse.Event, rep *render.Report) error {
	return WriteModel(w, Build(events, rep))
}

// WriteModel writes the page for a model already built.
func WriteModel(w io.Writer, m *Model) error {
	data, err := marshal(m)
	if err != nil {
		return fmt.Errorf("encode timeline: %w", err)
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(css) + len(script) + 4096)
	title := "logsleuth timeline"
	if m.Title != "" {
		title += ": " + m.Title
	}
	// The policy forbids every load (nothing may come from the network,
	// so the file opens offline and leaks nothing when opened) and runs
	// only the page's own script, by hash: even if log text ever escaped
	// the JSON, a script it smuggled in would not run.
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '%s'; script-src '%s'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="logsleuth">
<title>%s</title>
<style>%s</style>
</head>
<body>
<header>
<h1><span class="brand">logsleuth</span> incident timeline</h1>
<div class="badges" id="badges"></div>
<div class="summary" id="summary"></div>
<div class="notes" id="notes"></div>
<div class="spacer"></div>
<input id="filter" type="search" placeholder="filter lanes: tablet, peer, shard, node" aria-label="filter lanes">
</header>
<div id="main">
<aside id="side">
<h2>Findings</h2>
<ul id="findings"></ul>
<details id="diags" hidden></details>
<details id="sources" hidden></details>
<div id="legend"></div>
</aside>
<div id="right">
<div id="panes"></div>
<section id="detail">
<h2>Details</h2>
<div class="body" id="detail-body"><div class="hint">Click a finding (in the list or its flag on a lane) or any mark to see the log lines behind it. Drag a lane to pan; Ctrl+wheel, or the wheel over the time axis, zooms; double-click fits everything.</div></div>
</section>
</div>
</div>
<footer id="footer"></footer>
<div id="tip"></div>
<script type="application/json" id="timeline-data">`, hashSource(css), hashSource(script), html.EscapeString(render.Sanitize(title)), css)
	b.Write(data)
	fmt.Fprintf(&b, "</script>\n<script>%s</script>\n</body>\n</html>\n", script)
	_, err = w.Write(b.Bytes())
	return err
}

// marshal encodes the model for a <script type="application/json">
// element. encoding/json's default HTML escaping writes <, > and & as
// \u003c, \u003e and \u0026 (and U+2028, U+2029 escaped), so no log text can
// close the element (`</script>`) or open a comment (`<!--`) that would
// change how the browser finds its end; render.SafeJSON then applies the
// filter every report's JSON passes (a page printed to a CI log carries
// no workflow command). JSON.parse restores the text.
func marshal(m *Model) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return render.SafeJSON(bytes.TrimRight(b.Bytes(), "\n")), nil
}

// hashSource is a CSP source for an inline element's exact content.
func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
