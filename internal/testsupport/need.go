package testsupport

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// CI reports whether the tests run under continuous integration: CI is set to anything but a
// false value (GitHub and .ci/run set CI=true; some runners set CI=1).
func CI() bool {
	v := os.Getenv("CI")
	if v == "" {
		return false
	}
	off, err := strconv.ParseBool(v)
	return err != nil || off
}

// Env returns the environment variable that names a service the test needs (a database, a
// Redis). Without it the test is skipped, or fails under CI, which must never skip.
func Env(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		Unavailable(t, "%s is not set", name)
	}
	return v
}

// Unavailable ends a test whose service or tool is missing: a skip locally, a failure under
// CI. The reason should say how to provide what is missing.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("%s; CI must run this test", reason)
		return
	}
	t.Skip(reason)
}
