package cluster

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Collectors returns the node's metrics for Prometheus: tables owned,
// takeovers, lease renewals (done, failed), leases lost, log writes (done,
// refused) and the NATS round-trip time.
func (n *Node) Collectors() []prometheus.Collector {
	stat := func(f func(Stats) float64) func() float64 { return func() float64 { return f(n.Stats()) } }
	counter := func(name, help string, f func(Stats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, stat(f))
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_cluster_tables_owned", Help: "Tables whose lease this node holds."},
			stat(func(s Stats) float64 { return float64(s.Owned) })),
		counter("felt_cluster_takeovers_total", "Tables this node took over after their lease expired.", func(s Stats) float64 { return float64(s.Takeovers) }),
		counter("felt_cluster_lease_renewals_total", "Lease renewals done.", func(s Stats) float64 { return float64(s.Renewals) }),
		counter("felt_cluster_lease_renewal_errors_total", "Lease renewals that failed without being refused (NATS unreachable).", func(s Stats) float64 { return float64(s.RenewalErrors) }),
		counter("felt_cluster_leases_lost_total", "Leases lost: refused, or not renewed in time.", func(s Stats) float64 { return float64(s.Lost) }),
		counter("felt_cluster_log_writes_total", "Records written to the hands' write-ahead log.", func(s Stats) float64 { return float64(s.LogWrites) }),
		counter("felt_cluster_log_refused_total", "Log writes refused: the table's lease lost or its log fenced by another owner.", func(s Stats) float64 { return float64(s.LogRefused) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_cluster_nats_rtt_seconds", Help: "The round-trip time to the NATS server (0 when disconnected)."},
			func() float64 {
				rtt, err := n.nc.RTT()
				if err != nil {
					return 0
				}
				return rtt.Seconds()
			}),
	}
}
