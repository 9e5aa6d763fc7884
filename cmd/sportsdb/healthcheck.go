package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// healthcheckTimeout bounds one check; a container runtime runs it again at its interval.
const healthcheckTimeout = 3 * time.Second

// healthcheckCmd asks the server at --addr whether it is ready. The container image has no
// shell or curl, so its HEALTHCHECK runs this.
func healthcheckCmd(ctx context.Context, inv *invocation) error {
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	url := "http://" + dialable(inv.cfg.Addr) + "/readyz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s: %s", url, resp.Status, body)
	}
	fmt.Fprintf(inv.stdout, "ready: %s\n", body)
	return nil
}

// dialable turns a listening address into one to connect to: a server listening on every
// address (":8080", "0.0.0.0:8080", "[::]:8080") is asked on loopback.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
