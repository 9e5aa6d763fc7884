package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Requests net/http refuses before any handler runs get the JSON error shape, not Go's
// plain text, on a connection from Listener.
func TestRequestsNetHTTPRefusesGetJSON(t *testing.T) {
	_, addr := serveCounted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot) // never reached
	}))
	cases := []struct {
		name, request string
		status        int
		body          string
	}{
		{"literal % in the path", "GET /api/v2/json/search/team/100% HTTP/1.1\r\nHost: t\r\n\r\n", 400, `{"Message":"Bad request"}`},
		{"HTTP/2.0 request line", "GET /api/v1/json/123/all_sports.php HTTP/2.0\r\nHost: t\r\n\r\n", 505,
			`{"Message":"HTTP version not supported: unsupported protocol version"}`},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, `{"Message":"Bad request: missing required Host header"}`},
		{"malformed line", "GARBAGE\r\n\r\n", 400, `{"Message":"Bad request"}`},
		{"headers too large", "GET / HTTP/1.1\r\nHost: t\r\nX: " + strings.Repeat("a", 2<<20) + "\r\n\r\n", 431,
			`{"Message":"Request header fields too large"}`},
		{"unknown transfer encoding", "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: zip\r\n\r\n", 501,
			`{"Message":"Not implemented: Unsupported transfer encoding"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rc := dialRaw(t, addr)
			go io.WriteString(rc.c, tc.request)
			resp, err := http.ReadResponse(rc.br, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || string(body) != tc.body || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %q %s, want %d %s as JSON", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status, tc.body)
			}
		})
	}
}
