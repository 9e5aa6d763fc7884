package testsupport

import "flag"

var update = flag.Bool("update", false, "rewrite golden files from the current answers")

// Update reports whether the test run was asked to rewrite its golden files
// (go test ./internal/x -update).
func Update() bool { return *update }
