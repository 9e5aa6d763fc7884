package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// post sends one signed request and returns the status and, unless it was a 2xx, what
// failed, in words a user can act on (never the secret). It holds a request slot (slot).
func (k *worker) post(ctx context.Context, cursor int64, body []byte) (status int, failure string) {
	release, ok := k.slot(ctx)
	if !ok {
		return 0, "stopped"
	}
	defer release()
	began := time.Now()
	defer func() { k.slow = time.Since(began) >= k.d.o.SlowAfter }()
	msgID := "msg_" + k.w.ID + "_" + strconv.FormatInt(cursor, 10)
	ts := k.d.o.Clock.Now().Unix()
	sig, err := Sign(k.w.Secret, msgID, ts, body)
	if err != nil {
		return 0, err.Error()
	}
	rctx, cancel := context.WithTimeout(ctx, k.d.o.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, k.w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, "bad URL"
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sportsdb-webhooks")
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := k.d.client.Do(req)
	if err != nil {
		return 0, describe(err, k.d.o.RequestTimeout)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			return resp.StatusCode, fmt.Sprintf("HTTP %d (redirects are not followed)", resp.StatusCode)
		}
		return resp.StatusCode, fmt.Sprintf("HTTP %d", resp.StatusCode)
	}
	return resp.StatusCode, ""
}

// slot takes a request slot. A webhook whose last request was quick takes one of the
// Concurrency quick slots, and gives it up once the request has taken SlowAfter: the
// request goes on without one, so that receivers slow to answer never hold back the
// others. A webhook whose last request was slow takes one of as many slots of its own
// kind, shared only with other slow ones. release gives the slot back, once.
func (k *worker) slot(ctx context.Context) (release func(), ok bool) {
	lane := k.d.quick
	if k.slow {
		lane = k.d.slow
	}
	select {
	case lane <- struct{}{}:
	case <-ctx.Done():
		return nil, false
	}
	var once sync.Once
	give := func() { once.Do(func() { <-lane }) }
	if k.slow {
		return give, true
	}
	t := time.AfterFunc(k.d.o.SlowAfter, give)
	return func() { t.Stop(); give() }, true
}

// describe says why a request got no answer, without the URL (its query may hold a
// token of the receiver's).
func describe(err error, timeout time.Duration) string {
	var oe *net.OpError
	switch {
	case errors.Is(err, errNotPublic) && errors.As(err, &oe):
		return "refused: " + oe.Err.Error() + " (--webhook-allow-private allows it)"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout)
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return fmt.Sprintf("no answer within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return "request failed: " + err.Error()
}
