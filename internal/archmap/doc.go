// Package archmap keeps the import map of docs/ARCHITECTURE.md true: its test compares the
// map's lines with the imports go list reports, and prints the lines to paste when they
// differ (go test ./internal/archmap -update writes them in place).
package archmap
