// SPDX-License-Identifier: Apache-2.0

package readtooltest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool/readtooltest"
)

// The stub is a whole Upstream, so a fake that embeds it compiles
// whatever ports are added.
var _ readtool.Upstream = readtooltest.Unsupported{}

// TestUnsupportedAnswersEveryReadWithUnsupported: each read answers the
// failure kind the read tool turns into "needs a newer Dagu".
func TestUnsupportedAnswersEveryReadWithUnsupported(t *testing.T) {
	t.Parallel()
	var u readtool.Upstream = readtooltest.Unsupported{}
	ctx := context.Background()
	reads := map[string]func() error{
		"ListDAGs":   func() error { _, err := u.ListDAGs(ctx, model.DAGListQuery{}); return err },
		"GetDAG":     func() error { _, err := u.GetDAG(ctx, "a"); return err },
		"GetDAGSpec": func() error { _, err := u.GetDAGSpec(ctx, "a"); return err },
		"DAGNames":   func() error { _, err := u.DAGNames(ctx); return err },
		"SearchDAGs": func() error { _, err := u.SearchDAGs(ctx, model.DAGSearchQuery{}); return err },
		"ListWiki":   func() error { _, err := u.ListWiki(ctx, model.WikiListQuery{}); return err },
		"GetWikiPage": func() error {
			_, err := u.GetWikiPage(ctx, "default", "a")
			return err
		},
		"SearchWiki": func() error { _, err := u.SearchWiki(ctx, model.WikiSearchQuery{}); return err },
		"ListRuns":   func() error { _, err := u.ListRuns(ctx, model.RunListQuery{}); return err },
		"GetRun":     func() error { _, err := u.GetRun(ctx, model.RunAddress{}); return err },
		"GetRunLogs": func() error {
			_, err := u.GetRunLogs(ctx, model.RunAddress{}, model.LogQuery{})
			return err
		},
		"GetStepLog": func() error {
			_, err := u.GetStepLog(ctx, model.StepAddress{}, model.LogQuery{})
			return err
		},
		"ListForeachItems": func() error {
			_, err := u.ListForeachItems(ctx, model.StepAddress{}, model.ForeachQuery{})
			return err
		},
		"GetForeachItem": func() error { _, err := u.GetForeachItem(ctx, model.StepAddress{}); return err },
	}
	for name, read := range reads {
		var f *model.Failure
		if err := read(); !errors.As(err, &f) || f.Kind != model.FailureUnsupported {
			t.Errorf("%s = %v, want an unsupported failure", name, err)
		}
	}
}
