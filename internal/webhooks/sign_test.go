package webhooks

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// Sign gives the signature of the Standard Webhooks specification's example, and one the
// verifier written from the specification accepts; a changed body is refused.
func TestSignMatchesTheSpecification(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"test": 2432232314}`)
	sig, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; sig != want {
		t.Errorf("signature %s, want the specification's %s", sig, want)
	}
	h := http.Header{}
	h.Set("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
	h.Set("webhook-timestamp", "1614265330")
	h.Set("webhook-signature", "v1,bm9wZQ== "+sig)
	now := time.Unix(1614265330, 0)
	if err := verify(secret, h, body, now); err != nil {
		t.Errorf("the verifier refuses: %v", err)
	}
	if err := verify(secret, h, []byte(`{"test": 2432232315}`), now); err == nil {
		t.Error("the verifier accepts a changed body")
	}
	if _, err := Sign("whsec_%%%", "m", 1, body); err == nil {
		t.Error("a secret that is not base64 signs")
	}
	if s := NewSecret(); len(s) < 40 || s[:6] != "whsec_" {
		t.Errorf("NewSecret %q", s)
	}
}
