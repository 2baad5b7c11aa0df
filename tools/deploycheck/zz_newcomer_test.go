package deploycheck

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestZZNewcomerRender(t *testing.T) {
	chrt := loadChart(t)
	values := readValues(t, os.Getenv("NEWCOMER_VALUES"))
	out, err := renderChart(t, chrt, values)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	names := make([]string, 0, len(out))
	for k := range out {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if len(out[k]) > 20 {
			fmt.Printf("=== %s\n%s\n", k, out[k])
		}
	}
	b := decodeRendered(t, out)
	_ = b
}
