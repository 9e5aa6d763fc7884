package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// secretPrefix starts every secret, as Standard Webhooks writes them.
const secretPrefix = "whsec_"

// NewSecret is a new signing secret: whsec_ and 32 random bytes in base64.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on the systems Go supports
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// newID is a new webhook id: wh_ and 16 random hex digits.
func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "wh_" + hex.EncodeToString(b)
}

// Sign is the webhook-signature header of a message as Standard Webhooks signs it:
// v1, then the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret's
// bytes (the base64 after whsec_).
func Sign(secret, msgID string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret: not base64 after %s", secretPrefix)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
