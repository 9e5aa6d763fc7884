//go:build race

package sqlite

// raceEnabled: the race detector makes each started process take about a second more.
const raceEnabled = true
