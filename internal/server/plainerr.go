package server

import (
	"bytes"
	"net/http"
	"strconv"

	"sportsdb/internal/api/respond"
)

// net/http answers a request it cannot read (a bad escape such as a literal % in the path, a
// malformed request line, HTTP/2.0 on this HTTP/1 port, headers too large) by itself, before
// any handler runs and with no way to change it: plain text, written straight on the
// connection in one write, "HTTP/1.1 <code> <text>" + plainErrorHeaders + "<code> <text>",
// with ": <detail>" after the text in some. answerConn sees that write go by and sends the
// same answer in the JSON shape of every other error instead. Answers of the server's own
// handlers never match: they go out through net/http's buffer with a Content-Length or
// chunked, never with exactly these headers.
var plainErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// plainMessages are the messages of the statuses net/http answers by itself, in the style of
// the server's own ("Not found").
var plainMessages = map[int]string{
	http.StatusBadRequest:                  "Bad request",
	http.StatusRequestHeaderFieldsTooLarge: "Request header fields too large",
	http.StatusNotImplemented:              "Not implemented",
	http.StatusHTTPVersionNotSupported:     "HTTP version not supported",
}

// asJSONError returns net/http's plain-text error answer p rewritten as JSON, or false when
// p is anything else. It is cheap for ordinary answers: their status is not 4xx or 5xx, or
// their headers differ.
func asJSONError(p []byte) ([]byte, bool) {
	const proto = "HTTP/1.1 "
	if len(p) < len(proto)+4 || p[len(proto)] < '4' || p[len(proto)] > '5' || string(p[:len(proto)]) != proto {
		return nil, false
	}
	i := bytes.Index(p, plainErrorHeaders)
	if i < 0 {
		return nil, false
	}
	code, err := strconv.Atoi(string(p[len(proto) : len(proto)+3]))
	if err != nil || http.StatusText(code) == "" {
		return nil, false
	}
	msg, ok := plainMessages[code]
	if !ok {
		msg = http.StatusText(code)
	}
	// The body repeats the status line; what follows the status text is the detail.
	text := p[i+len(plainErrorHeaders):]
	if _, detail, found := bytes.Cut(text, []byte(": ")); found {
		msg += ": " + string(detail)
	} else if len(text) > 0 && !bytes.HasPrefix(text, p[len(proto):len(proto)+3]) {
		msg += ": " + string(text) // "Unsupported transfer encoding"
	}
	body := respond.MessageBody(msg)
	out := make([]byte, 0, 160+len(body))
	out = append(out, proto...)
	out = strconv.AppendInt(out, int64(code), 10)
	out = append(out, ' ')
	out = append(out, http.StatusText(code)...)
	out = append(out, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, "\r\nConnection: close\r\n\r\n"...)
	return append(out, body...), true
}
