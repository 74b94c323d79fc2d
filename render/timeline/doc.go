// Package timeline writes the HTML timeline of an incident: one
// self-contained file (inline CSS, JS and SVG, nothing fetched) that draws
// each YugabyteDB tablet replica and each Elasticsearch shard copy as a lane
// of intervals, steps and marks, with the findings drawn where they happen
// and their evidence one click away.
//
// The page is a picture of the same facts the text report states: a lease
// overlap or a stale safe time is easier to see as two intervals on one
// axis than to read as numbers. Build turns the merged events and the
// findings into a Model (lanes, bands, marks, series, evidence lines);
// Write embeds the Model as JSON in the page, whose script draws only what
// is visible, so hundreds of peers and thousands of events stay usable.
//
// Two axes are drawn, each labelled: wall time (the times the log lines
// printed, as printed, no zone conversion) for everything, and hybrid time
// (physical microseconds) for MVCC dump entries, which carry no wall time.
//
// Log text is untrusted. It reaches the page only inside the JSON, which
// encoding/json escapes so that no `</script>` or `<!--` can end the script
// element, and the script puts it into the document only as text nodes.
//
// The builder folds the events itself rather than reading replay's state:
// replay keeps each replica's state now, the page needs its history (when
// a term began, how long a lease or a session ran). It follows replay's
// conventions where they meet (an ht lease belongs to the term of the last
// op before it; terms never go back).
//
// timeline may import render, rules, parse, grammar and internal/units;
// never cmd or the OS. The output is deterministic: the same events and findings give a
// byte-identical file.
package timeline
