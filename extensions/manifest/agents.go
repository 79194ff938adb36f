package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// Agent is one subagent type of the package: a Markdown file whose front
// matter describes it and whose body is its system prompt.
type Agent struct {
	Name        string // front matter "name", else the file stem
	Path        string // package-relative, slash-separated
	Description string
	// Tools is the allowlist as written (Claude Code's names); nil means
	// every tool the host gives a child.
	Tools           []string `json:",omitempty"`
	DisallowedTools []string `json:",omitempty"`
	Model           string   `json:",omitempty"` // inherit, sonnet, opus, haiku, a model id, or any word
	MaxTurns        int      `json:",omitempty"` // 0: the host's ceiling
	Skills          []string `json:",omitempty"`
	Color           string   `json:",omitempty"`
	Body            string   // the system prompt, variables unexpanded
}

// Limits on agents: a bigger file is skipped with a note, never cut.
const (
	MaxAgentBytes = skills.MaxFileBytes
	maxAgents     = 500
)

// defaultAgentsDir is read whether or not the manifest names more agent
// paths: in Claude Code custom paths add to agents/.
const defaultAgentsDir = "agents"

// loadAgents reads agents/ and the paths the manifest's "agents" names.
// A file without front matter or without a description is reported and
// not offered: the model could not know when to use it.
func (l *loader) loadAgents(manifestPath string, raw json.RawMessage) error {
	files, err := l.collectMarkdown("agents", defaultAgentsDir, raw)
	if err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		real, err := filepath.EvalSymlinks(f)
		if err != nil || !l.root.inside(f) {
			return fmt.Errorf("%s: agent %s resolves outside the package", manifestPath, l.rel(f))
		}
		if !seen[real] {
			seen[real] = true
			l.addAgent(real, l.rel(f))
		}
	}
	return nil
}

// addAgent reads one agent file; the first file of each name wins.
func (l *loader) addAgent(real, rel string) {
	a, problem := readAgent(real, rel)
	if problem != "" {
		l.note("skipped agent %s: %s", rel, problem)
		return
	}
	for _, kept := range l.pkg.Agents {
		if kept.Name == a.Name {
			l.note("agent %s is defined twice (%s and %s); using the first", a.Name, kept.Path, rel)
			return
		}
	}
	if len(l.pkg.Agents) >= maxAgents {
		l.note("skipped agent %s: more than %d agents", rel, maxAgents)
		return
	}
	if !knownModel(a.Model) {
		l.note("agent %s asks for model %q, which AgentDesk does not map: it runs on the session's model", a.Name, a.Model)
	}
	l.pkg.Agents = append(l.pkg.Agents, a)
}

// knownModel: no model, inherit, or an alias Preferences maps (sonnet,
// opus, haiku). Anything else runs on the session's model.
func knownModel(m string) bool {
	switch strings.ToLower(m) {
	case "", "inherit", "sonnet", "opus", "haiku":
		return true
	}
	return false
}

// readAgent parses one agent file; problem says why it is not offered.
func readAgent(real, rel string) (Agent, string) {
	data, err := readRegular(real, rel, MaxAgentBytes)
	if err != nil {
		return Agent{}, err.Error()
	}
	header, body, err := skills.SplitFrontMatter(data)
	if errors.Is(err, skills.ErrNoFrontMatter) {
		return Agent{}, "it has no front matter (---), so it has no description telling the model when to use it"
	}
	if err != nil {
		return Agent{}, err.Error()
	}
	fields, err := frontMatterFields(header)
	if err != nil {
		return Agent{}, err.Error()
	}
	a := Agent{Name: scalarText(fields["name"]), Path: rel, Body: strings.TrimSpace(body)}
	if a.Name == "" {
		a.Name = strings.TrimSuffix(filepath.Base(rel), ".md")
	}
	if !commandName.MatchString(a.Name) {
		return Agent{}, fmt.Sprintf("%q is not a usable agent name (letters, digits, '.', '_', '-')", a.Name)
	}
	a.Description = truncateForDisplay(scalarText(fields["description"]))
	switch {
	case a.Description == "":
		return Agent{}, "its front matter has no description telling the model when to use it"
	case a.Body == "":
		return Agent{}, "its body (the agent's instructions) is empty"
	}
	if _, ok := fields["tools"]; ok {
		a.Tools = toolList(fields["tools"])
	}
	a.DisallowedTools = toolList(fields["disallowedTools"])
	a.Model = scalarText(fields["model"])
	a.MaxTurns = positiveInt(fields["maxTurns"])
	a.Skills = toolList(fields["skills"])
	a.Color = scalarText(fields["color"])
	return a, ""
}

// frontMatterFields reads a header as YAML; a header that is not (an
// unquoted "Use when: x") is read as plain "key: value" lines, as Claude
// Code does.
func frontMatterFields(header []byte) (map[string]any, error) {
	fields := map[string]any{}
	if len(strings.TrimSpace(string(header))) == 0 {
		return fields, nil
	}
	if err := yaml.Unmarshal(header, &fields); err == nil {
		return fields, nil
	} else if plain := skills.PlainFields(header); len(plain) > 0 {
		fields = map[string]any{}
		for k, v := range plain {
			fields[k] = v
		}
		return fields, nil
	} else {
		return nil, fmt.Errorf("front matter: %w", err)
	}
}

// positiveInt reads a count written as a number or as text; anything else
// is 0 (unset).
func positiveInt(v any) int {
	n, err := strconv.Atoi(scalarText(v))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Prompt is the agent's system prompt with the documented variables
// (${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA}, ${CLAUDE_PROJECT_DIR},
// ${user_config.KEY}) replaced, as in commands.
func (a Agent) Prompt(v Vars) string {
	return ExpandArgv([]string{a.Body}, v)[0]
}
