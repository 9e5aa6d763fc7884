// Package testsupport holds what the tests of several packages share: the rule for tests that
// need a service or a tool (skipped on a laptop without it, failed under CI, which must run
// them all), the order-preserving JSON comparison the golden and recorded answers are checked
// with, and the -update flag that rewrites golden files. Only tests import it.
package testsupport
