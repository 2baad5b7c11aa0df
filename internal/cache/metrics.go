// SPDX-License-Identifier: Apache-2.0

package cache

import "github.com/prometheus/client_golang/prometheus"

// Metric names. Every series carries the const label cache=<Options.Name>.
const (
	metricHits      = "dagu_gateway_cache_hits_total"
	metricMisses    = "dagu_gateway_cache_misses_total"
	metricEvictions = "dagu_gateway_cache_evictions_total"
	metricEntries   = "dagu_gateway_cache_entries"
	metricBytes     = "dagu_gateway_cache_bytes"
)

// collector exports a cache's Stats at scrape time, so the hit path only
// bumps an atomic counter and never touches Prometheus.
type collector struct {
	stats                                    func() Stats
	hits, misses, evictions, entries, bytesD *prometheus.Desc
}

func newCollector(name string, stats func() Stats) *collector {
	labels := prometheus.Labels{"cache": name}
	desc := func(fq, help string) *prometheus.Desc {
		return prometheus.NewDesc(fq, help, nil, labels)
	}
	return &collector{
		stats:     stats,
		hits:      desc(metricHits, "Cache lookups answered from the cache."),
		misses:    desc(metricMisses, "Cache lookups the cache could not answer."),
		evictions: desc(metricEvictions, "Cached values dropped to make room."),
		entries:   desc(metricEntries, "Values the cache holds."),
		bytesD:    desc(metricBytes, "Bytes the cache holds, as its size function measures them."),
	}
}

// Describe sends the descriptors of every metric the collector exports.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.hits, c.misses, c.evictions, c.entries, c.bytesD} {
		ch <- d
	}
}

// Collect sends the current values.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(s.Hits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(s.Misses))
	ch <- prometheus.MustNewConstMetric(c.evictions, prometheus.CounterValue, float64(s.Evictions))
	ch <- prometheus.MustNewConstMetric(c.entries, prometheus.GaugeValue, float64(s.Entries))
	ch <- prometheus.MustNewConstMetric(c.bytesD, prometheus.GaugeValue, float64(s.Bytes))
}
