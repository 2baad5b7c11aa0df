// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"net/http"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// NewRegistry returns a Prometheus registry holding the Go runtime and
// process collectors; each wired gateway registers its own metrics there.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// MetricsHandler serves reg in the Prometheus exposition format, for
// /metrics.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// GathererHandler serves what g gathers (several registries, such as one
// per Dagu instance) for /metrics; reg receives the handler's own metrics.
func GathererHandler(g prometheus.Gatherer, reg prometheus.Registerer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{Registry: reg})
}

// WithLabel returns a Gatherer that gathers g's metrics with one more
// label, name=value (the instance of a gateway's per-instance registry),
// so several registries of the same metrics can be served side by side.
func WithLabel(g prometheus.Gatherer, name, value string) prometheus.Gatherer {
	return labelled{g: g, name: name, value: value}
}

// labelled adds its label to every metric g gathers.
type labelled struct {
	g           prometheus.Gatherer
	name, value string
}

func (l labelled) Gather() ([]*dto.MetricFamily, error) {
	families, err := l.g.Gather()
	for _, f := range families {
		for _, m := range f.Metric {
			m.Label = append(m.Label, &dto.LabelPair{Name: proto.String(l.name), Value: proto.String(l.value)})
			slices.SortFunc(m.Label, func(a, b *dto.LabelPair) int { return strings.Compare(a.GetName(), b.GetName()) })
		}
	}
	return families, err
}
