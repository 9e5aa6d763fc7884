package archmap

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sportsdb/internal/testsupport"
)

const (
	module = "sportsdb"
	begin  = "<!-- imports: begin (go test ./internal/archmap -update rewrites this block) -->"
	end    = "<!-- imports: end -->"
)

// pkg is what go list -json says of a package.
type pkg struct {
	ImportPath   string
	GoFiles      []string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// imports is the map as go list shows it: one line per package of the module, its path
// without the module's name (and without internal/), an arrow, and the packages of the
// module it imports. A package made only of tests (and a doc.go) shows what its tests
// import, marked so.
func imports(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var lines []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		deps, note := p.Imports, ""
		if len(p.GoFiles) == 0 || slices.Equal(p.GoFiles, []string{"doc.go"}) {
			deps, note = append(p.TestImports, p.XTestImports...), " (tests only)"
		}
		var ours []string
		for _, d := range deps {
			if d != p.ImportPath && strings.HasPrefix(d, module+"/") && !slices.Contains(ours, short(d)) {
				ours = append(ours, short(d))
			}
		}
		slices.Sort(ours)
		arrow := " → " + strings.Join(ours, ", ")
		if len(ours) == 0 {
			arrow = " → (nothing of ours)"
		}
		lines = append(lines, short(p.ImportPath)+note+arrow)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

func short(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module+"/"), "internal/")
}

// TestMapMatchesGoList: every package of the module and its imports of the module's
// packages, as go list shows them, are the lines of the map in docs/ARCHITECTURE.md.
func TestMapMatchesGoList(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "docs", "ARCHITECTURE.md")
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no block between %q and %q", file, begin, end)
	}
	block := "\n```text\n" + imports(t, root) + "```\n"
	if text[i+len(begin):j] == block {
		return
	}
	if testsupport.Update() {
		text = text[:i+len(begin)] + block + text[j:]
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the import map of docs/ARCHITECTURE.md differs from go list; run\n"+
		"go test ./internal/archmap -update, or put these lines between its markers:\n%s%s%s\n"+
		"and say in the text what a changed arrow means.", begin, block, end)
}
