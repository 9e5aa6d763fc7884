package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// cacheUse is what a server's response cache did over one run: lookups answered from it
// (hits), answered by the store (misses), and answers refreshed in the background. CPUus is
// the servers' CPU time (process_cpu_seconds_total, every replica's) per lookup, in
// microseconds: what one answer cost the server, a figure that does not move with the
// reference server's rate as a ratio to it does. Both are read before the warm-up and after
// the run, so they include the warm-up's requests.
type cacheUse struct {
	Hits      int64   `json:"hits"`
	Misses    int64   `json:"misses"`
	Refreshes int64   `json:"refreshes"`
	HitRatio  float64 `json:"hit_ratio"`
	CPUus     float64 `json:"server_cpu_us,omitempty"`
}

// cpuKey is the key under which cacheCounts gives the servers' CPU time, in microseconds.
const cpuKey = "cpu_us"

// cacheCounts sums sportsdb_response_cache_total by result, and the processes' CPU time
// (under cpuKey), over the /metrics pages of the given URLs (one per replica).
func cacheCounts(ctx context.Context, urls []string) (map[string]int64, error) {
	client := &http.Client{Timeout: 10 * time.Second}
	total := map[string]int64{}
	for _, u := range urls {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, fmt.Errorf("cache metrics: %w", err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("cache metrics: %w", err)
		}
		counts, err := parseCacheCounts(bufio.NewScanner(resp.Body))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("cache metrics %s: %w", u, err)
		}
		for k, v := range counts {
			total[k] += v
		}
	}
	return total, nil
}

// The push workload's counters, read by cacheCounts under their own names.
const (
	webhookDelivered = "sportsdb_webhook_delivered_total"
	webhookFailures  = "sportsdb_webhook_failures_total"
	mqttPublished    = "sportsdb_mqtt_published_total"
)

// plainCounters are the unlabelled counters cacheCounts keeps, with the key and the factor
// each is kept under: the CPU in microseconds, the push counters as they are.
var plainCounters = map[string]struct {
	key   string
	scale float64
}{
	"process_cpu_seconds_total": {cpuKey, 1e6},
	webhookDelivered:            {webhookDelivered, 1},
	webhookFailures:             {webhookFailures, 1},
	mqttPublished:               {mqttPublished, 1},
}

// parseCacheCounts reads lines like sportsdb_response_cache_total{result="hit"} 42, and
// the plainCounters (process_cpu_seconds_total 12.5 kept under cpuKey, in microseconds).
func parseCacheCounts(sc *bufio.Scanner) (map[string]int64, error) {
	const prefix = `sportsdb_response_cache_total{result="`
	out := map[string]int64{}
	for sc.Scan() {
		name, v, _ := strings.Cut(sc.Text(), " ")
		if c, ok := plainCounters[name]; ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sc.Text(), err)
			}
			out[c.key] = int64(f * c.scale)
			continue
		}
		rest, ok := strings.CutPrefix(sc.Text(), prefix)
		if !ok {
			continue
		}
		result, value, ok := strings.Cut(rest, `"} `)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc.Text(), err)
		}
		out[result] = int64(f)
	}
	return out, sc.Err()
}

// cacheDelta is the cache's use between two readings. Answers that do not go through the
// response cache (images) have no lookups: their CPU time is per answered request, of which
// the run counts answered (its warm-up's not among them, so run those without one).
func cacheDelta(before, after map[string]int64, answered int64) *cacheUse {
	c := &cacheUse{Hits: after["hit"] - before["hit"], Misses: after["miss"] - before["miss"],
		Refreshes: after["refresh"] - before["refresh"]}
	n := c.Hits + c.Misses
	if n > 0 {
		c.HitRatio = round(float64(c.Hits)/float64(n), 3)
	} else {
		n = answered
	}
	if cpu := after[cpuKey] - before[cpuKey]; cpu > 0 && n > 0 {
		c.CPUus = round(float64(cpu)/float64(n), 1)
	}
	return c
}
