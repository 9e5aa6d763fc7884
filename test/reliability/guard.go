package main

import (
	"context"
	"fmt"
	"time"
)

// ownServer starts a server on a demo database of its own, stopped when the check ends.
func ownServer(ctx context.Context, cfg *config, name string, args ...string) (*fixture, *server, error) {
	fx, err := demoDB(ctx, cfg, name)
	if err != nil {
		return nil, nil, err
	}
	srv, err := startServer(ctx, cfg, name, append([]string{"--db", fx.db}, args...)...)
	if err != nil {
		return nil, nil, err
	}
	return fx, srv, nil
}

// wrongKey starts every wrong key the guard checks send; the last check searches every log
// for it.
const wrongKey = "RelWrongKey"

// status sends one request and returns its status, 0 on a transport error.
func status(t *T, addr, path string, headers ...string) int {
	a, err := rawExchange(addr, request(path, headers...), 10*time.Second)
	if err != nil {
		t.Fail("%s: %v", path, err)
		return 0
	}
	if p := a.problem(); p != "" {
		t.Fail("%s: %s", path, p)
	}
	return a.status
}

// checkForgedXFF: behind a trusted proxy (127.0.0.1 here) the client address is the one the
// proxy saw, the rightmost X-Forwarded-For entry; forged entries to its left change nothing.
func checkForgedXFF(ctx context.Context, cfg *config, t *T) {
	args := []string{"--trust-proxy=true"}
	if knowsFlag(ctx, cfg, "trusted-proxies") {
		args = append(args, "--trusted-proxies", "127.0.0.1/32")
	} else {
		t.Logf("serve has no --trusted-proxies flag; running with --trust-proxy alone")
	}
	_, srv, err := ownServer(ctx, cfg, "xff", args...)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	// A client at 203.0.113.9 rotates a forged leftmost entry with every wrong key.
	refused := 0
	for i := 0; i < 100; i++ {
		xff := fmt.Sprintf("X-Forwarded-For: 198.51.%d.%d, 203.0.113.9", i/250, i%250+1)
		if status(t, srv.addr, "/api/v1/json/"+wrongKey+fmt.Sprint(i)+"/all_sports.php", xff) == 429 {
			refused++
		}
	}
	t.Figure("wrong keys with forged entries", "100")
	t.Figure("429 answers (want at least 79)", "%d", refused)
	if refused < 79 {
		t.Fail("100 wrong keys with rotating forged X-Forwarded-For entries got %d × 429: the guard counted the forged addresses", refused)
	}
	// An attacker at 203.0.113.10 forges the victim's address 192.0.2.50 as the leftmost entry.
	for i := 0; i < 40; i++ {
		status(t, srv.addr, "/api/v1/json/"+wrongKey+fmt.Sprint(i)+"/all_sports.php", "X-Forwarded-For: 192.0.2.50, 203.0.113.10")
	}
	got := status(t, srv.addr, "/api/v1/json/"+wrongKey+"victim/all_sports.php", "X-Forwarded-For: 192.0.2.50")
	t.Figure("victim's own wrong key after 40 forged ones", "%d (want 400)", got)
	if got != 400 {
		t.Fail("after 40 wrong keys forging its address, the victim's own first wrong key got %d, want 400", got)
	}
}

// checkValidAfterWrong: 25 wrong keys from one address block the failed attempts, never a
// valid key from the same address (everyone behind one NAT).
func checkValidAfterWrong(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "nat")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	blocked := 0
	for i := 0; i < 25; i++ {
		if status(t, srv.addr, "/api/v1/json/"+wrongKey+"typo"+fmt.Sprint(i)+"/all_sports.php") == 429 {
			blocked++
		}
	}
	t.Figure("429 among 25 wrong keys", "%d", blocked)
	if blocked == 0 {
		t.Fail("25 wrong keys from one address were never refused with 429: the guard does not work")
	}
	valid := status(t, srv.addr, "/api/v1/json/"+fx.premium+"/all_sports.php")
	v2 := status(t, srv.addr, "/api/v2/json/all/sports", "X-API-KEY: "+fx.premium)
	t.Figure("valid premium key from that address", "v1 %d, v2 %d (want 200)", valid, v2)
	if valid != 200 || v2 != 200 {
		t.Fail("a valid premium key from an address blocked for wrong keys got v1 %d, v2 %d, want 200", valid, v2)
	}
	if again := status(t, srv.addr, "/api/v1/json/"+wrongKey+"again/all_sports.php"); again != 429 {
		t.Fail("a further wrong key from the blocked address got %d, want 429", again)
	}
}

// checkRefusedFree: a free key's v2 calls are refused (400 Premium API key required) and
// cost no quota: its v1 calls still answer.
func checkRefusedFree(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "freev2")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	refused := 0
	for i := 0; i < 30; i++ {
		if status(t, srv.addr, "/api/v2/json/all/sports", "X-API-KEY: "+fx.free) == 400 {
			refused++
		}
	}
	after := status(t, srv.addr, "/api/v1/json/"+fx.free+"/all_sports.php")
	t.Figure("v2 calls refused with 400", "%d of 30", refused)
	t.Figure("then the key's v1 call", "%d (want 200)", after)
	if refused != 30 {
		t.Fail("a free key's v2 calls got %d × 400 of 30", refused)
	}
	if after != 200 {
		t.Fail("after 30 refused v2 calls the free key's v1 call got %d, want 200: refused calls used up its quota", after)
	}
}
