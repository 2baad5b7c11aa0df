// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net"
)

// StartMetrics binds o.Addr and serves o.Handler's metrics there alone (see
// MetricsOnly) in the background until ctx ends or stop is called. The
// address is bound before it returns, so one the metrics cannot have fails
// the start as the main listener's does; addr is the bound address.
func StartMetrics(ctx context.Context, o ServerOptions) (stop func(), addr string, err error) {
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, "", err
	}
	o.Handler = MetricsOnly(o.Handler)
	srv := NewServer(o)
	ctx, stop = context.WithCancel(ctx)
	go func() {
		srv.logger.Info("metrics serving", "listen", o.Addr)
		if err := srv.Serve(ctx, ln); err != nil {
			srv.logger.Error("metrics listener stopped", "error", err)
		}
	}()
	return stop, ln.Addr().String(), nil
}
