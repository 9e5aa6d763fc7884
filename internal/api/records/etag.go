package records

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"sportsdb/internal/record"
)

// etag is a record's version: a hash of its stored form as record.EncodeDoc writes it (its
// non-null fields in field order, then its extras). It depends on the record's content
// alone, so every replica reading the same database gives the same ETag for it, as does a
// restart, without a counter to keep; a write that changes nothing keeps it. 128 bits of
// SHA-256 make two versions of a record alike only by design, never by chance.
func etag(r record.Record) string {
	sum := sha256.Sum256(record.EncodeDoc(r))
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// matches says whether an If-Match or If-None-Match header names tag: "*" names any
// version; weak tags (W/"...") never match, as strong comparison asks.
func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
