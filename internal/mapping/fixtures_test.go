// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtureJSON returns the response body of a fixture: a recording kept
// with the fake Dagu, or for files named synthetic-* a hand-written answer
// in testdata.
func fixtureJSON(tb testing.TB, file string) []byte {
	tb.Helper()
	rec, err := recordingOf(file)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	if rec.Response.Status != 200 || len(rec.Response.JSON) == 0 {
		tb.Fatalf("%s: not a JSON success answer", file)
	}
	return rec.Response.JSON
}

func recordingOf(file string) (fakedagu.Recording, error) {
	var rec fakedagu.Recording
	if !strings.HasPrefix(file, "synthetic-") {
		recs, err := fakedagu.Recordings()
		if err != nil {
			return rec, err
		}
		r, ok := recs[file]
		if !ok {
			return rec, fmt.Errorf("no such recording")
		}
		return r, nil
	}
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(data, &rec)
}

// decodeJSON decodes a REST body the way the upstream adapter should: with
// UseNumber, so free-form objects keep their numbers' text.
func decodeJSON[T any](tb testing.TB, body []byte) *T {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v T
	if err := dec.Decode(&v); err != nil {
		tb.Fatalf("decode into %T: %v", v, err)
	}
	return &v
}

// fixture decodes the response body of a fixture into a generated type.
func fixture[T any](tb testing.TB, file string) *T {
	tb.Helper()
	return decodeJSON[T](tb, fixtureJSON(tb, file))
}

// checkGolden compares got, as indented JSON, with testdata/golden/<name>.json,
// or rewrites that file under -update.
func checkGolden(t *testing.T, name string, got any) []byte {
	t.Helper()
	out, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, '\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("%s differs from its golden file (run go test -update and review the diff):\n%s", name, out)
	}
	return out
}
