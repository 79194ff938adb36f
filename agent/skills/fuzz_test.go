package skills

import (
	"strings"
	"testing"
)

// FuzzSplitFrontMatter splits a SKILL.md or command file as the skill and
// slash-command loaders do and reads its plain fields: no panic, and
// nothing longer than the input comes back.
func FuzzSplitFrontMatter(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ndescription: b\n---\nbody", "\uFEFF---\r\ndescription: \"q\"\r\n---\r\n", "---", "---\n",
		"---\nunclosed", "--- \t\nx: 'y'\n  indented: z\n---\t\n", "no front matter",
		"---\na: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n---\n", // aliases: stays text here
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		header, body, err := SplitFrontMatter(data)
		if len(header)+len(body) > len(data)+1 {
			t.Fatalf("%d bytes split into a %d-byte header and a %d-byte body", len(data), len(header), len(body))
		}
		if err != nil {
			return
		}
		size := 0
		for k, v := range PlainFields(header) {
			size += len(k) + len(v)
			if strings.Contains(k, "\n") || strings.Contains(v, "\n") {
				t.Fatalf("field %q: %q spans lines", k, v)
			}
		}
		if size > len(header) {
			t.Fatalf("a %d-byte header gave %d bytes of fields", len(header), size)
		}
	})
}
