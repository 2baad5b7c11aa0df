// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// DAGs maps one page of GET /dags to the DAG collection. Item names and
// URIs use the file name (the key of /dags/{fileName}), never the YAML
// name. A latest run is attached only when the DAG has run (a non-empty
// run ID); its URI uses the run's DAG name, which keys run storage.
func DAGs(resp *gen.DAGListResponse) model.DAGCollection {
	if resp == nil {
		return model.DAGCollection{Items: []model.DAGItem{}}
	}
	items := make([]model.DAGItem, len(resp.Dags))
	// One backing array for every latest run instead of one allocation each.
	runs := make([]model.RunSummary, 0, countRan(resp.Dags))
	for i := range resp.Dags {
		f := &resp.Dags[i]
		items[i] = dagItem(f)
		if f.LatestDAGRun.DagRunId != "" {
			runs = append(runs, summaryOf(&f.LatestDAGRun))
			items[i].LatestRun = &runs[len(runs)-1]
		}
	}
	return model.DAGCollection{
		Items:      items,
		Pagination: pagination(resp.Pagination),
		Errors:     resp.Errors,
	}
}

// DAGNames lists the file names of one page of GET /dags, in page order.
func DAGNames(resp *gen.DAGListResponse) []string {
	if resp == nil {
		return []string{}
	}
	names := make([]string, len(resp.Dags))
	for i := range resp.Dags {
		names[i] = resp.Dags[i].FileName
	}
	return names
}

func dagItem(f *gen.DAGFile) model.DAGItem {
	return model.DAGItem{
		Name:        f.FileName,
		URI:         model.DAGSpecURI(f.FileName),
		Suspended:   f.Suspended,
		Description: str(f.Dag.Description),
		Group:       str(f.Dag.Group),
		Workspace:   str(f.Dag.Workspace),
		Labels:      labelsOr(f.Dag.Labels, f.Dag.Tags),
		Schedule:    schedules(f.Dag.Schedule),
		NextRun:     timePtr(f.NextRun),
		Errors:      f.Errors,
	}
}

func countRan(files []gen.DAGFile) int {
	n := 0
	for i := range files {
		if files[i].LatestDAGRun.DagRunId != "" {
			n++
		}
	}
	return n
}

// summaryOf is the short form of a listed run.
func summaryOf(r *gen.DAGRunSummary) model.RunSummary {
	return newRunSummary(r.Name, r.DagRunId, r.Status, r.StatusLabel, r.StartedAt, r.FinishedAt)
}

func newRunSummary(name, id string, status int, label, startedAt, finishedAt string) model.RunSummary {
	return model.RunSummary{
		DAGRunID:    id,
		Status:      status,
		StatusLabel: runLabel(status, label),
		URI:         model.RunURI(name, id, ""),
		StartedAt:   Time(startedAt),
		FinishedAt:  Time(finishedAt),
	}
}

// detailSummary is the short form of a run given in full; nil when the DAG
// never ran (Dagu then sends a placeholder run with an empty ID).
func detailSummary(r *gen.DAGRunDetails) *model.RunSummary {
	if r.DagRunId == "" {
		return nil
	}
	s := newRunSummary(r.Name, r.DagRunId, r.Status, r.StatusLabel, r.StartedAt, r.FinishedAt)
	return &s
}

// schedules lists the schedule entries: the cron expression, or for a
// one-off entry its time as Dagu wrote it.
func schedules(entries []gen.Schedule) []string {
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		switch {
		case str(e.Expression) != "":
			out = append(out, *e.Expression)
		case str(e.At) != "":
			out = append(out, *e.At)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func pagination(p gen.Pagination) model.Pagination {
	return model.Pagination{
		TotalRecords: p.TotalRecords,
		CurrentPage:  p.CurrentPage,
		TotalPages:   p.TotalPages,
		NextPage:     p.NextPage,
		PrevPage:     p.PrevPage,
	}
}

// DAGDetail maps GET /dags/{fileName}. The name and spec URI come from the
// requested file name, which may differ from the YAML name. A latest run is
// attached only when the DAG has run.
func DAGDetail(fileName string, resp *gen.DAGDetailsResponse) model.DAGDetail {
	out := model.DAGDetail{Name: fileName, SpecURI: model.DAGSpecURI(fileName)}
	if resp == nil {
		return out
	}
	out.Suspended = resp.Suspended
	out.LatestRun = detailSummary(&resp.LatestDAGRun)
	out.Errors = resp.Errors
	if d := resp.Dag; d != nil {
		out.Description = str(d.Description)
		out.Group = str(d.Group)
		out.Workspace = str(d.Workspace)
		out.Labels = labelsOr(d.Labels, d.Tags)
		out.Schedule = schedules(d.Schedule)
		out.NextRun = timePtr(d.NextRun)
		out.Params = d.Params
		out.DefaultParams = str(d.DefaultParams)
		out.Queue = str(d.Queue)
		out.MaxActiveRuns = num(d.MaxActiveRuns)
		out.Steps = stepNames(d.Steps)
	}
	return out
}

func stepNames(steps []gen.Step) []string {
	if len(steps) == 0 {
		return nil
	}
	names := make([]string, len(steps))
	for i := range steps {
		names[i] = steps[i].Name
	}
	return names
}

// DAGSpec maps GET /dags/{fileName}/spec. Errors is always an array.
func DAGSpec(fileName string, resp *gen.DAGSpecResponse) model.DAGSpec {
	out := model.DAGSpec{Name: fileName, MimeType: "application/yaml", Errors: []string{}}
	if resp == nil {
		return out
	}
	out.Spec = resp.Spec
	out.Errors = nonNil(resp.Errors)
	return out
}
