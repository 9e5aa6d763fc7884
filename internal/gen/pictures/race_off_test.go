//go:build !race

package pictures

const raceEnabled = false
