// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"slices"
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	t.Parallel()
	two := Set{Instances: []Instance{{Name: "prod"}, {Name: "staging"}}}
	withDefault := Set{Instances: []Instance{{Name: "prod"}, {Name: DefaultName}}}
	tests := []struct {
		name    string
		set     Set
		pick    string
		all     bool
		want    []string
		wantErr string
	}{
		{"by name", two, "staging", false, []string{"staging"}, ""},
		{"by name, all", two, "prod", true, []string{"prod"}, ""},
		{"every one", two, "", true, []string{"prod", "staging"}, ""},
		{"the default", withDefault, "", false, []string{DefaultName}, ""},
		{"no default", two, "", false, nil, "names prod, staging and none is default"},
		{"unknown name", two, "dev", false, nil, `--instance "dev": the instances file has no instance by that name; it names prod, staging`},
		{"empty file, all", Set{}, "", true, nil, "names no instance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Pick(tt.set, tt.pick, tt.all)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if names := (Set{Instances: got}).Names(); !slices.Equal(names, tt.want) {
				t.Fatalf("picked %v, want %v", names, tt.want)
			}
		})
	}
}
