//go:build race

package pictures

// raceEnabled: under the race detector drawing is about ten times slower, so the tests
// draw a sample of the demo's pictures, not all of them.
const raceEnabled = true
