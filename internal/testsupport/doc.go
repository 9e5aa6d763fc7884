// Package testsupport holds what the tests of several packages share: the rule for tests that
// need a service or a tool (skipped on a laptop without it, failed under CI, which must run
// them all), the order-preserving JSON comparison the golden and recorded answers are checked
// with, the -update flag that rewrites golden files, and a log buffer several goroutines may
// write at once. Only tests import it.
package testsupport
