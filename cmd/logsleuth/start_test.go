package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartLinksNoHeavyInit: a package whose init does real work runs at
// every start of logsleuth, whatever the run reads. The JSON Schema library
// compiled every draft's meta-schema there (a third of the start-up time);
// the catalogue's schema is checked by its own reader (rules/catalog), and
// the library is only the tests' reference.
func TestStartLinksNoHeavyInit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	assert.NotEmpty(t, deps)
	for _, d := range deps {
		assert.False(t, strings.HasPrefix(d, "github.com/santhosh-tekuri/jsonschema"), "logsleuth links %s", d)
	}
}
