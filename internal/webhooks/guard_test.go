package webhooks

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"sportsdb/internal/clock"
)

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "2606:4700:4700::1111": true, "127.0.0.1": false, "::1": false, "10.1.2.3": false,
		"192.168.0.1": false, "172.16.0.1": false, "169.254.169.254": false, "fe80::1": false, "fc00::1": false,
		"224.0.0.1": false, "ff02::1": false, "0.0.0.0": false, "::": false, "100.64.0.1": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "255.255.255.255": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

// Registration refuses a URL that is no http(s) URL or whose host is, or resolves to, an
// address that is not public; --webhook-allow-private lifts the address check only.
func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"http://127.0.0.1/hook", "http://localhost:8080/", "http://[::1]/", "http://10.0.0.1/",
		"http://169.254.169.254/latest/meta-data", "http://0.0.0.0/", "http://[fe80::1]/", "http://224.0.0.1/"} {
		if err := (Guard{}).CheckURL(ctx, u); err == nil || !strings.Contains(err.Error(), "not a public address") {
			t.Errorf("%s: %v, want refused as not public", u, err)
		}
		if err := (Guard{AllowPrivate: true}).CheckURL(ctx, u); err != nil {
			t.Errorf("%s with private addresses allowed: %v", u, err)
		}
	}
	for _, u := range []string{"ftp://example.com/", "/hook", "http:///x", "https://user:pw@example.com/", "http://x.example/#f",
		"mailto:a@b", "http://" + strings.Repeat("a", 3000)} {
		if err := (Guard{AllowPrivate: true}).CheckURL(ctx, u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	if err := (Guard{}).CheckURL(ctx, "https://93.184.215.14/hook"); err != nil {
		t.Errorf("a public address refused: %v", err)
	}
}

// At delivery the address dialled is checked after resolving: a webhook whose name now
// resolves to loopback (as if its DNS changed since it was registered) is refused and
// retried, and the receiver gets nothing; a redirect is not followed.
func TestDeliveryGuard(t *testing.T) {
	st := openStore(t)
	rcv := newReceiver(t)
	url := strings.Replace(rcv.URL, "127.0.0.1", "localhost", 1)
	h := register(t, st, url, Definition{})
	d := start(t, st, testOptions(clock.System{}, false))
	write(t, st, team("1", "A", "4328"))
	e := d.next(t)
	if e.Status != 0 || !strings.Contains(e.Err, "refused") || !strings.Contains(e.Err, "not a public address") {
		t.Fatalf("attempt %+v, want refused", e)
	}
	rcv.none(t)
	w, _ := st.Webhook(context.Background(), h.ID)
	if w.Failures != 1 || !strings.Contains(w.LastError, "not a public address") {
		t.Errorf("state %+v", w.WebhookState)
	}
}

func TestRedirectNotFollowed(t *testing.T) {
	st := openStore(t)
	target := newReceiver(t)
	redirect := newReceiver(t)
	redirect.Config.Handler = http.RedirectHandler(target.URL, http.StatusTemporaryRedirect)
	register(t, st, redirect.URL, Definition{})
	d := start(t, st, testOptions(clock.System{}, true))
	write(t, st, team("1", "A", "4328"))
	if e := d.next(t); e.Status != http.StatusTemporaryRedirect || !strings.Contains(e.Err, "redirects are not followed") {
		t.Fatalf("attempt %+v", e)
	}
	target.none(t)
}
