//go:build race

package mirror

// raceEnabled: the race detector multiplies the memory a process takes.
const raceEnabled = true
