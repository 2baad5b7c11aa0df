package mapping

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// recorded is the envelope of a fixture file: a recorded (or, for files
// named synthetic-*, hand-written) REST answer.
type recorded struct {
	Response struct {
		Status int             `json:"status"`
		JSON   json.RawMessage `json:"json"`
	} `json:"response"`
}

// fixtureJSON returns the response body of a fixture in testdata.
func fixtureJSON(tb testing.TB, file string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		tb.Fatal(err)
	}
	var rec recorded
	if err := json.Unmarshal(data, &rec); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	if rec.Response.Status != 200 || len(rec.Response.JSON) == 0 {
		tb.Fatalf("%s: not a JSON success answer", file)
	}
	return rec.Response.JSON
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
