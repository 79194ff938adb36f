package tools

import (
	"slices"
	"testing"
)

func TestCommandEnvDropsCredentials(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "JAVA_HOME=/opt/jdk", "SSH_AUTH_SOCK=/tmp/ssh", "HTTPS_PROXY=http://proxy:3128",
		"LANG=C.UTF-8", "AWS_REGION=eu-west-1", "KEYBOARD=us",
		"OPENAI_API_KEY=sk-1", "ANTHROPIC_API_KEY=sk-2", "GITHUB_TOKEN=ghp", "GH_TOKEN=gho", "AGENTDESK_API_KEY=k",
		"AWS_SECRET_ACCESS_KEY=s", "AWS_ACCESS_KEY_ID=id", "AWS_SESSION_TOKEN=t", "GOOGLE_APPLICATION_CREDENTIALS=/c.json",
		"AZURE_CLIENT_SECRET=z", "DB_PASSWORD=p", "MY_SECRET_THING=x", "DEEPSEEK_KEY_FILE_PATH=/k",
		"MY_PROVIDER_VAR=from-api-key-env", "CI_DEPLOY_KEY=allowed-by-the-user",
	}
	got := CommandEnv(environ, []string{"CI_DEPLOY_KEY"}, []string{"MY_PROVIDER_VAR"})
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "JAVA_HOME=/opt/jdk", "SSH_AUTH_SOCK=/tmp/ssh",
		"HTTPS_PROXY=http://proxy:3128", "LANG=C.UTF-8", "AWS_REGION=eu-west-1", "KEYBOARD=us",
		"DEEPSEEK_KEY_FILE_PATH=/k", "CI_DEPLOY_KEY=allowed-by-the-user"}
	if !slices.Equal(got, want) {
		t.Fatalf("CommandEnv =\n%q\nwant\n%q", got, want)
	}
}
