package protocol_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// structFields returns each struct type of the package in dir and its JSON
// field names in order (fields tagged "-" are never sent and left out).
func structFields(t *testing.T, dir string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string][]string{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			fields := []string{}
			for _, fl := range st.Fields.List {
				for _, id := range fl.Names {
					fields = append(fields, jsonName(t, id.Name, fl.Tag))
				}
			}
			out[ts.Name.Name] = slices.DeleteFunc(fields, func(s string) bool { return s == "-" })
			return false
		})
	}
	return out
}

// jsonName is the JSON name of the field called name with tag.
func jsonName(t *testing.T, name string, tag *ast.BasicLit) string {
	if tag == nil {
		return name
	}
	s, err := strconv.Unquote(tag.Value)
	if err != nil {
		t.Fatal(err)
	}
	n, _, _ := strings.Cut(reflect.StructTag(s).Get("json"), ",")
	if n == "" {
		return name
	}
	return n
}

var (
	rowRE  = regexp.MustCompile("^\\| `(\\w+)` \\| .* \\| (`[^|]*`) \\|$")
	codeRE = regexp.MustCompile("`([^`]*)`")
)

// documented returns the types and fields of docs/protocol.md's "Message
// reference" table.
func documented(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, ref, ok := strings.Cut(doc, "\n## Message reference\n")
	if !ok {
		t.Fatal(`docs/protocol.md has no "## Message reference"`)
	}
	ref, _, _ = strings.Cut(ref, "\n## ")
	out := map[string][]string{}
	for _, line := range strings.Split(ref, "\n") {
		m := rowRE.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "| `") {
				t.Errorf("a row of the reference does not read as | `Type` | what | `field`, ... |: %s", line)
			}
			continue
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("%s is documented twice", m[1])
		}
		fields := []string{}
		for _, f := range codeRE.FindAllStringSubmatch(m[2], -1) {
			fields = append(fields, f[1])
		}
		out[m[1]] = fields
	}
	return out
}

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocMatchesTypes checks that docs/protocol.md's message reference names
// every struct of the package with its JSON fields in order, and nothing else.
func TestDocMatchesTypes(t *testing.T) {
	code, doc := structFields(t, "."), documented(t, readDoc(t))
	if len(code) == 0 {
		t.Fatal("no struct types found")
	}
	for name, fields := range code {
		d, ok := doc[name]
		if !ok {
			t.Errorf("%s (fields %v) is not in docs/protocol.md's message reference", name, fields)
		} else if !slices.Equal(d, fields) {
			t.Errorf("%s: docs/protocol.md lists %v, the type has %v", name, d, fields)
		}
	}
	for name := range doc {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/protocol.md documents %s, which package protocol lacks", name)
		}
	}
}

// TestDocClientMessages checks that each client message docs/protocol.md
// shows ("Client → server") uses only fields of ClientMsg.
func TestDocClientMessages(t *testing.T) {
	doc := readDoc(t)
	_, sec, ok := strings.Cut(doc, "\n### Client → server\n")
	if !ok {
		t.Fatal(`docs/protocol.md has no "### Client → server"`)
	}
	sec, _, _ = strings.Cut(sec, "\n### ")
	known := structFields(t, ".")["ClientMsg"]
	n := 0
	for _, line := range strings.Split(sec, "\n") {
		m := regexp.MustCompile("^\\| `(\\{[^`]*\\})` \\|").FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(m[1]), &msg); err != nil {
			t.Errorf("%s: not JSON: %v", m[1], err)
			continue
		}
		n++
		for k := range msg {
			if !slices.Contains(known, k) {
				t.Errorf("%s: field %q is not a field of ClientMsg", m[1], k)
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d client messages in docs/protocol.md, want every one of the table", n)
	}
}
