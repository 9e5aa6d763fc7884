package mirror

import (
	"crypto/sha256"
	"encoding/hex"
)

// hashKey names a key without revealing it (limiter ids, metrics).
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}
