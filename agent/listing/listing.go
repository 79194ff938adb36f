// Package listing fits what extensions add to a model request (the
// skills list, the agents of the task tool) into one budget of the
// context window, and searches all of it for the tool_search tool. The
// project's own entries and those the session used come first in full,
// then the others with descriptions shortened to fit, then names only,
// then "and N more: use tool_search".
package listing

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Kinds of entries.
const (
	KindSkill   = "skill"
	KindAgent   = "agent"
	KindCommand = "command"
)

// BytesPerToken is the estimate the budget is counted in.
const BytesPerToken = 4

// DefaultWindow is assumed for a model that states no window.
const DefaultWindow = 32768

// Budget is the bytes the catalog may take: 10% of the window (13,107
// bytes at 32k tokens).
func Budget(windowTokens int) int {
	if windowTokens <= 0 {
		windowTokens = DefaultWindow
	}
	return windowTokens * BytesPerToken / 10
}

// Entry is one listed thing.
type Entry struct {
	Kind, Name, Description string
	// First: the project's own or used in this session; listed first.
	First bool
	// Use says how to use it (tool_search's answer).
	Use string
	// Owner is whose entry it is (an extension's id, "user", "project"),
	// for Shares.
	Owner string
}

// Tier is how much of an entry the request shows.
type Tier int

const (
	Full     Tier = iota // name and description
	Short                // name and a shortened description
	NameOnly             // name in a list of names
	Hidden               // counted in "and N more"
)

// Placed is an entry with what the request shows of it.
type Placed struct {
	Entry
	Tier Tier
	Desc string // the description as shown ("" unless Full or Short)
}

// Fit is a catalog fitted to a budget.
type Fit struct {
	Budget, Bytes int
	Entries       []Placed // in listing order
}

// maxFullDesc bounds even a full description; minShortDesc is the
// shortest description worth showing.
const (
	maxFullDesc  = 250
	minShortDesc = 40
	kindReserve  = 150 // per kind: its "also (names only)" prefix and "and N more" line
)

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to at most n bytes on a rune boundary, with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:max(n, 0)]) + "…"
}

func lineCost(name, desc string) int { return len("\n- ") + len(name) + len(" — ") + len(desc) }
func nameCost(name string) int       { return len(name) + len(", ") }

// order puts First entries first, then the others interleaved across
// kinds in proportion, so a thousand skills do not push out every agent.
func order(entries []Entry) []Entry {
	var first []Entry
	byKind := map[string][]Entry{}
	var kinds []string
	for _, e := range entries {
		if e.First {
			first = append(first, e)
			continue
		}
		if _, ok := byKind[e.Kind]; !ok {
			kinds = append(kinds, e.Kind)
		}
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}
	type ranked struct {
		e    Entry
		pos  float64
		kind int
	}
	var rest []ranked
	for k, kind := range kinds {
		list := byKind[kind]
		for i, e := range list {
			rest = append(rest, ranked{e, (float64(i) + 0.5) / float64(len(list)), k})
		}
	}
	sort.SliceStable(rest, func(i, j int) bool {
		if rest[i].pos != rest[j].pos {
			return rest[i].pos < rest[j].pos
		}
		return rest[i].kind < rest[j].kind
	})
	out := first
	for _, r := range rest {
		out = append(out, r.e)
	}
	return out
}

// FitTo places entries within budget bytes.
func FitTo(entries []Entry, budget int) Fit {
	all := order(entries)
	f := Fit{Budget: budget, Entries: make([]Placed, len(all))}
	descs := make([]string, len(all))
	total := 0
	for i, e := range all {
		descs[i] = cut(oneLine(e.Description), maxFullDesc)
		total += lineCost(e.Name, descs[i])
		f.Entries[i] = Placed{Entry: e, Tier: Full, Desc: descs[i]}
	}
	if total <= budget {
		f.Bytes = total
		return f
	}
	kinds := map[string]bool{}
	for _, e := range all {
		kinds[e.Kind] = true
	}
	moreReserve := kindReserve * len(kinds)
	room := budget - moreReserve
	// First entries in full while they fit.
	i := 0
	for ; i < len(all) && all[i].First; i++ {
		c := lineCost(all[i].Name, descs[i])
		if c > room {
			break
		}
		room -= c
	}
	rest, restDescs := f.Entries[i:], descs[i:]
	if sum, ok := shortenAll(rest, restDescs, room); ok {
		f.Bytes = budget - (room - sum) - moreReserve
		return f
	}
	if sum, ok := shortenSome(rest, restDescs, room); ok {
		f.Bytes = budget - moreReserve - (room - sum)
		return f
	}
	f.Bytes = budget - (room - namesWhileTheyFit(rest, room))
	return f
}

// shortenAll shortens every entry of rest to one cap, the largest that
// fits room, and returns the bytes they take; false when even the
// shortest cap does not fit (rest unchanged).
func shortenAll(rest []Placed, descs []string, room int) (int, bool) {
	for _, limit := range []int{200, 160, 120, 90, 60, minShortDesc} {
		sum := 0
		for j, p := range rest {
			sum += lineCost(p.Name, cut(descs[j], limit))
		}
		if sum <= room {
			for j := range rest {
				rest[j].Tier, rest[j].Desc = Short, cut(descs[j], limit)
			}
			return sum, true
		}
	}
	return 0, false
}

// shortenSome gives the first k entries of rest the shortest description
// and the others their names only, for the largest k that fits room;
// false when the names alone do not fit (rest unchanged).
func shortenSome(rest []Placed, descs []string, room int) (int, bool) {
	sum := 0
	for _, p := range rest {
		sum += nameCost(p.Name)
	}
	if sum > room {
		return 0, false
	}
	k := 0
	for ; k < len(rest); k++ {
		extra := lineCost(rest[k].Name, cut(descs[k], minShortDesc)) - nameCost(rest[k].Name)
		if sum+extra > room {
			break
		}
		sum += extra
	}
	for j := range rest {
		if j < k {
			rest[j].Tier, rest[j].Desc = Short, cut(descs[j], minShortDesc)
		} else {
			rest[j].Tier, rest[j].Desc = NameOnly, ""
		}
	}
	return sum, true
}

// namesWhileTheyFit lists names while they fit room and hides the rest
// ("and N more"), returning the bytes the names take.
func namesWhileTheyFit(rest []Placed, room int) int {
	sum := 0
	for j := range rest {
		c := nameCost(rest[j].Name)
		if sum+c <= room {
			sum += c
			rest[j].Tier, rest[j].Desc = NameOnly, ""
		} else {
			rest[j].Tier, rest[j].Desc = Hidden, ""
		}
	}
	return sum
}

// Render is the list of kind's entries as the request shows it: full
// and shortened lines, a line of names, and how many are left for
// tool_search. "" when f has none of kind. plural names the kind
// ("skills", "agents").
func (f Fit) Render(kind, plural string) string {
	var b strings.Builder
	var names []string
	hidden, any := 0, false
	sep := separator(kind)
	for _, p := range f.Entries {
		if p.Kind != kind {
			continue
		}
		any = true
		switch p.Tier {
		case Full, Short:
			b.WriteString("\n- " + p.Name + sep + p.Desc)
		case NameOnly:
			names = append(names, p.Name)
		case Hidden:
			hidden++
		}
	}
	if !any {
		return ""
	}
	if len(names) > 0 {
		b.WriteString("\n- also (names only; tool_search describes them): " + strings.Join(names, ", "))
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "\n- and %d more %s: use tool_search to find them", hidden, plural)
	}
	return b.String()
}

// Share is what one owner's entries take of a fitted catalog.
type Share struct {
	Bytes                              int // of the rendered lists
	Full, Shortened, NamesOnly, Hidden int // entries by tier
}

// Shares is each owner's share of f, by Entry.Owner: its bytes as Render
// writes them and how many of its entries each tier holds, so a user can
// see why an entry is not listed in full.
func (f Fit) Shares() map[string]Share {
	out := map[string]Share{}
	for _, p := range f.Entries {
		sh := out[p.Owner]
		switch p.Tier {
		case Full, Short:
			sh.Bytes += len("\n- ") + len(p.Name) + len(separator(p.Kind)) + len(p.Desc)
			if p.Tier == Full {
				sh.Full++
			} else {
				sh.Shortened++
			}
		case NameOnly:
			sh.Bytes += nameCost(p.Name)
			sh.NamesOnly++
		default:
			sh.Hidden++
		}
		out[p.Owner] = sh
	}
	return out
}

// separator is between an entry's name and description in Render.
func separator(kind string) string {
	if kind == KindAgent {
		return ": " // the task tool's format
	}
	return " — "
}

// Counts says how a kind fared: listed in full or shortened, by name
// only, not listed.
func (f Fit) Counts() (described, namesOnly, hidden int) {
	for _, p := range f.Entries {
		switch p.Tier {
		case Full, Short:
			described++
		case NameOnly:
			namesOnly++
		default:
			hidden++
		}
	}
	return
}

// Search ranks entries against query over names and descriptions: an
// exact name first, then names containing the query or its words, then
// descriptions; at most limit results.
func Search(entries []Entry, query string, limit int) []Entry {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	words := strings.Fields(q)
	type scored struct {
		e     Entry
		score int
		i     int
	}
	var hits []scored
	for i, e := range entries {
		name, desc := strings.ToLower(e.Name), strings.ToLower(e.Description)
		s := 0
		switch {
		case name == q:
			s += 1000
		case strings.Contains(name, q):
			s += 300
		}
		if strings.Contains(desc, q) {
			s += 100
		}
		for _, w := range words {
			if strings.Contains(name, w) {
				s += 50
			}
			if strings.Contains(desc, w) {
				s += 10
			}
		}
		if s > 0 {
			hits = append(hits, scored{e, s, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].score != hits[b].score {
			return hits[a].score > hits[b].score
		}
		return hits[a].e.Name < hits[b].e.Name
	})
	var out []Entry
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.e)
	}
	return out
}

// Close lists names near name (same prefix, containing it, or a small
// edit distance), for an error that helps: at most 5.
func Close(names []string, name string) []string {
	n := strings.ToLower(name)
	type c struct {
		s string
		d int
	}
	var cs []c
	for _, s := range names {
		l := strings.ToLower(s)
		d := distance(l, n)
		if strings.Contains(l, n) || strings.Contains(n, l) {
			d = min(d, 1)
		}
		if d <= max(2, len(n)/3) {
			cs = append(cs, c{s, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].s < cs[j].s })
	var out []string
	for _, x := range cs[:min(5, len(cs))] {
		out = append(out, x.s)
	}
	return out
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
