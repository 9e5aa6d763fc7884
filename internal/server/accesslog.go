package server

import (
	"io"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// AccessLog writes the line logged for every request, in the form slog's text or JSON
// handler gives it (time, level, msg "request", then method, path, route, status, bytes, ms
// and remote), formatted by hand into a reused buffer: through slog, with its records and
// attribute walks, the access log was a measurable share of the server's CPU under load
// (docs/PERFORMANCE.md, "Measured decisions in the code"). Each line reaches
// the writer in one Write.
type AccessLog struct {
	w    io.Writer
	json bool
	bufs sync.Pool
}

// NewAccessLog returns an access log writing to w, as JSON lines when json is set and as
// key=value text otherwise.
func NewAccessLog(w io.Writer, json bool) *AccessLog {
	return &AccessLog{w: w, json: json, bufs: sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}}
}

// accessEntry is what the access log says of one request.
type accessEntry struct {
	method, path, route string
	status, bytes       int
	took                time.Duration
	remote              string
}

func (a *AccessLog) write(at time.Time, e accessEntry) {
	bp := a.bufs.Get().(*[]byte)
	b := (*bp)[:0]
	if a.json {
		b = e.appendJSON(b, at)
	} else {
		b = e.appendText(b, at)
	}
	_, _ = a.w.Write(b)
	*bp = b
	a.bufs.Put(bp)
}

func (e accessEntry) ms() float64 { return float64(e.took.Microseconds()) / 1000 }

func (e accessEntry) appendText(b []byte, at time.Time) []byte {
	b = append(b, "time="...)
	b = appendRFC3339Millis(b, at)
	b = append(b, " level=INFO msg=request method="...)
	b = appendTextString(b, e.method)
	b = append(b, " path="...)
	b = appendTextString(b, e.path)
	b = append(b, " route="...)
	b = appendTextString(b, e.route)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(e.status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(e.bytes), 10)
	b = append(b, " ms="...)
	b = strconv.AppendFloat(b, e.ms(), 'g', -1, 64)
	b = append(b, " remote="...)
	b = appendTextString(b, e.remote)
	return append(b, '\n')
}

func (e accessEntry) appendJSON(b []byte, at time.Time) []byte {
	b = append(b, `{"time":"`...)
	b = at.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"request","method":`...)
	b = appendJSONString(b, e.method)
	b = append(b, `,"path":`...)
	b = appendJSONString(b, e.path)
	b = append(b, `,"route":`...)
	b = appendJSONString(b, e.route)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(e.status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(e.bytes), 10)
	b = append(b, `,"ms":`...)
	b = strconv.AppendFloat(b, e.ms(), 'f', -1, 64)
	b = append(b, `,"remote":`...)
	b = appendJSONString(b, e.remote)
	return append(b, "}\n"...)
}

// appendRFC3339Millis is the time as slog's text handler writes it: RFC 3339 with exactly
// three digits of milliseconds, truncated.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefix = len("2006-01-02T15:04:05.000")
	n := len(b)
	// The added tenth of a millisecond keeps RFC3339Nano from dropping trailing zeros.
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefix], b[n+prefix+1:]...)
}

// appendTextString writes s bare, or quoted as slog's text handler quotes a value: when it is
// empty or holds a space, '=', a quote, a control or non-printing character, or bad UTF-8.
func appendTextString(b []byte, s string) []byte {
	if textNeedsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func textNeedsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// appendJSONString writes s as a JSON string the way slog's JSON handler escapes it: quotes,
// backslashes and control characters escaped, bad UTF-8 as U+FFFD, U+2028 and U+2029
// escaped; HTML characters left as they are.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
