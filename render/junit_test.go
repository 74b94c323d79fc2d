package render

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// parsedJUnit is JUnit XML as a CI parser reads it back.
type parsedJUnit struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failures  []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Errors []struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, r *Report) parsedJUnit {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, JUnit(&b, r))
	var p parsedJUnit
	require.NoError(t, xml.Unmarshal(b.Bytes(), &p), b.String())
	return p
}

func TestJUnitParsesBack(t *testing.T) {
	r := sampleReport() // FailOn warning: the note does not fail
	p := parseJUnit(t, r)
	require.Len(t, p.Suites, 2)
	assert.Equal(t, "es", p.Suites[0].Name)
	assert.Equal(t, "yb", p.Suites[1].Name)
	assert.Equal(t, 5, p.Tests, "one test case per rule that ran")
	assert.Equal(t, 3, p.Failures, "failing test cases: the error, the warning, the evil error")
	byName := map[string]int{}
	for si, s := range p.Suites {
		for ci, c := range s.Cases {
			byName[c.Name] = si*100 + ci
		}
	}
	get := func(name string) int { i, ok := byName[name]; require.True(t, ok, name); return i }
	c := p.Suites[1].Cases[get("yb/mvcc/ht-below-safe-time")%100]
	assert.Equal(t, "yb.mvcc", c.Classname)
	require.Len(t, c.Failures, 1)
	assert.Equal(t, "error", c.Failures[0].Type)
	assert.Equal(t, "logs/tserver.log:39: op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095", c.Failures[0].Message)
	assert.Contains(t, c.Failures[0].Body, "logs/tserver.log:41  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1\n")
	assert.Contains(t, c.Failures[0].Body, "below_us=77902\n")

	note := p.Suites[1].Cases[get("yb/mvcc/safe-time-regression")%100]
	assert.Empty(t, note.Failures, "a note is below --fail-on warning")
	assert.Contains(t, note.SystemOut, "not counted: below --fail-on")

	quiet := p.Suites[1].Cases[get("yb/mvcc/queue-order")%100]
	assert.Empty(t, quiet.Failures, "a rule with no finding passes")

	evilCase := p.Suites[1].Cases[get("yb/mvcc/invariant-violation")%100]
	require.Len(t, evilCase.Failures, 1)
	for _, s := range []string{evilCase.Failures[0].Message, evilCase.Failures[0].Body} {
		assert.Contains(t, s, "<script>alert(1)</script>", "text survives escaping intact")
		assert.Contains(t, s, "]]>", "a CDATA end in the log cannot end the CDATA")
		assert.NotContains(t, s, "\x1b")
		assert.Contains(t, s, `\x1b]0;pwned\x07`, "the escape is shown, inert")
	}
}

func TestJUnitBaselineAndUnreadable(t *testing.T) {
	r := sampleReport()
	r.HasBaseline = true
	r.Baselined = []bool{true, false, false, false}
	r.Stats.Unreadable = []string{"gone.log: no such file or directory"}
	p := parseJUnit(t, r)
	assert.Equal(t, 2, p.Failures, "the baselined error no longer fails")
	assert.Equal(t, 1, p.Errors)
	require.Len(t, p.Suites, 3)
	inputs := p.Suites[1] // es, logsleuth, yb
	assert.Equal(t, "logsleuth", inputs.Name)
	assert.Equal(t, "logsleuth/inputs", inputs.Cases[0].Name)
	require.Len(t, inputs.Cases[0].Errors, 1)
	assert.Equal(t, "gone.log: no such file or directory", inputs.Cases[0].Errors[0].Message)
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			if c.Name == "yb/mvcc/ht-below-safe-time" {
				assert.Empty(t, c.Failures)
				assert.Contains(t, c.SystemOut, "not counted: in the baseline")
			}
		}
	}
}

func TestJUnitFindingOfRuleOutsideCatalog(t *testing.T) {
	r := &Report{Findings: []rules.Finding{{Rule: "zz/a/b", Severity: rules.Error, Message: "m"}}}
	p := parseJUnit(t, r)
	require.Len(t, p.Suites, 1)
	assert.Equal(t, "zz/a/b", p.Suites[0].Cases[0].Name)
	assert.Equal(t, 1, p.Failures)
}

// TestJUnitUnreadableNoncharacters: an unreadable input whose name holds
// U+FFFE or U+FFFF (XML 1.0 cannot carry either, even as a reference)
// still gives well-formed XML, with the characters shown, not dropped.
func TestJUnitUnreadableNoncharacters(t *testing.T) {
	r := sampleReport()
	r.Stats.Unreadable = []string{"logs/bad\ufffe\uffff.log: read: input/output error", "x\x00\x1b\ud7ff"}
	var b bytes.Buffer
	require.NoError(t, JUnit(&b, r))
	assert.NotContains(t, b.String(), "\ufffe")
	assert.NotContains(t, b.String(), "\uffff")
	p := parseJUnit(t, r)
	var inputs []string
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			for _, e := range c.Errors {
				inputs = append(inputs, e.Message)
			}
		}
	}
	assert.Equal(t, []string{`logs/bad\ufffe\uffff.log: read: input/output error`, `x\x00\x1b` + "\ud7ff"}, inputs)
	// The error bodies too, which are CDATA.
	var doc struct {
		Bodies []string `xml:"testsuite>testcase>error"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &doc))
	assert.Equal(t, inputs, doc.Bodies)
}

// A system of which nothing was read has its rules skipped, not passed;
// an input nothing in which was recognised is an error; the artifact
// name keeps two jobs' reports apart.
func TestJUnitNeverASilentPass(t *testing.T) {
	r := sampleReport()
	r.Findings = r.Findings[2:3] // the yb note, below --fail-on
	r.Stats.Systems = []string{"yb"}
	r.Stats.Sources = append(r.Stats.Sources, parse.Stats{Source: "conf/app.yaml", Lines: 40, Unclaimed: 40})
	r.Artifact = "job-7/artifacts"
	var b bytes.Buffer
	require.NoError(t, JUnit(&b, r))
	doc := b.String()
	var p struct {
		Name    string `xml:"name,attr"`
		Skipped int    `xml:"skipped,attr"`
		Errors  int    `xml:"errors,attr"`
		Suites  []struct {
			Name    string `xml:"name,attr"`
			Skipped int    `xml:"skipped,attr"`
			Cases   []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Skipped   *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
				Errors []struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &p), doc)
	assert.Equal(t, "logsleuth", p.Name)
	require.Len(t, p.Suites, 3)
	es, lg, yb := p.Suites[0], p.Suites[1], p.Suites[2]
	assert.Equal(t, "job-7/artifacts/es", es.Name)
	assert.Equal(t, "job-7/artifacts/yb", yb.Name)
	assert.Equal(t, 1, es.Skipped)
	require.NotNil(t, es.Cases[0].Skipped, "the es rule saw nothing")
	assert.Equal(t, "no Elasticsearch input was read: no event of this system in any input", es.Cases[0].Skipped.Message)
	assert.Equal(t, "job-7/artifacts.es.seqno", es.Cases[0].Classname)
	assert.Equal(t, 0, yb.Skipped, "yb events were read")
	for _, c := range yb.Cases {
		assert.Nil(t, c.Skipped, c.Name)
	}
	assert.Equal(t, 1, p.Skipped)
	assert.Equal(t, "job-7/artifacts/logsleuth", lg.Name)
	require.Len(t, lg.Cases[0].Errors, 1)
	assert.Equal(t, "unrecognised", lg.Cases[0].Errors[0].Type)
	assert.Equal(t, "conf/app.yaml: nothing recognised (40 lines, none in a YugabyteDB or Elasticsearch format)", lg.Cases[0].Errors[0].Message)
	assert.Equal(t, 1, p.Errors)

	// A run that read nothing at all skips every rule.
	r = sampleReport()
	r.Findings = nil
	r.Stats.Systems = []string{}
	p.Suites = nil
	b.Reset()
	require.NoError(t, JUnit(&b, r))
	require.NoError(t, xml.Unmarshal(b.Bytes(), &p))
	assert.Equal(t, len(r.Rules), p.Skipped)
}

// Under --allow-unrecognised an input nothing in which was recognised
// exits 0, so JUnit does not call it an error: the inputs case is
// skipped, naming it. An unreadable input is still an error.
func TestJUnitAllowUnrecognised(t *testing.T) {
	type suites struct {
		Errors  int `xml:"errors,attr"`
		Skipped int `xml:"skipped,attr"`
		Suites  []struct {
			Name    string `xml:"name,attr"`
			Errors  int    `xml:"errors,attr"`
			Skipped int    `xml:"skipped,attr"`
			Cases   []struct {
				Name    string `xml:"name,attr"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
				Errors []struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	run := func(allow bool, unreadable ...string) suites {
		r := sampleReport()
		r.Findings = r.Findings[2:3]
		r.Stats.Systems = []string{"yb"}
		r.Stats.Sources = append(r.Stats.Sources, parse.Stats{Source: "conf/app.yaml", Lines: 40, Unclaimed: 40})
		r.Stats.Unreadable = unreadable
		r.AllowUnrecognised = allow
		var b bytes.Buffer
		require.NoError(t, JUnit(&b, r))
		var p suites
		require.NoError(t, xml.Unmarshal(b.Bytes(), &p), b.String())
		return p
	}
	inputs := func(p suites) (errors, skipped int, c int) {
		for i, s := range p.Suites {
			if s.Name == "logsleuth" {
				return s.Errors, s.Skipped, i
			}
		}
		t.Fatal("no logsleuth suite")
		return 0, 0, 0
	}

	strict := run(false)
	e, s, _ := inputs(strict)
	assert.Equal(t, 1, e, "without the flag the input is an error")
	assert.Equal(t, 0, s)
	assert.Equal(t, 1, strict.Errors)

	allowed := run(true)
	e, s, i := inputs(allowed)
	assert.Equal(t, 0, e, "the flag makes the exit status 0: no error")
	assert.Equal(t, 1, s)
	assert.Equal(t, 0, allowed.Errors)
	assert.Equal(t, strict.Skipped+1, allowed.Skipped)
	c := allowed.Suites[i].Cases[0]
	assert.Empty(t, c.Errors)
	require.NotNil(t, c.Skipped)
	assert.Equal(t, "conf/app.yaml: nothing recognised (40 lines, none in a YugabyteDB or Elasticsearch format) (allowed by --allow-unrecognised)", c.Skipped.Message)

	both := run(true, "logs/gone.log: read: input/output error")
	e, s, i = inputs(both)
	assert.Equal(t, 1, e, "an unreadable input is exit status 2 whatever the flag")
	assert.Equal(t, 0, s)
	c = both.Suites[i].Cases[0]
	require.Len(t, c.Errors, 1)
	assert.Equal(t, "unreadable", c.Errors[0].Type)
	assert.Nil(t, c.Skipped)
	assert.Contains(t, c.Out, "conf/app.yaml: nothing recognised")
}
