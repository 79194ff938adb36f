# AgentDesk. `make run` and `make test` are all a fresh Debian machine needs.
SHELL  := /bin/bash
GO      ?= go
BIN     := bin/agentdesk
# The re-exec that confines every child (agent/childproc), beside the binary.
HELPER  := bin/agentdesk-sandbox
CC      ?= cc
TAGS    := migrated_fynedo
FYNE    := bin/fyne
FYNE_TOOLS_VERSION := v1.7.4
# The real language server the LSP client's integration test drives
# (extensions/lsp/gopls_test.go finds bin/gopls; skipped when absent).
GOPLS   := bin/gopls
GOPLS_VERSION := v0.23.0
PYRIGHT := bin/pyright/node_modules/.bin/pyright-langserver
PYRIGHT_VERSION := 1.1.414

.PHONY: all deps build run test vet check-imports unit smoke bench bundle integration clean

all: build

deps:
	@./packaging/deps.sh

build: deps $(HELPER)
	$(GO) build -tags $(TAGS) -o $(BIN) ./app

$(HELPER): agent/childproc/sandboxexec/sandbox-exec.c
	@mkdir -p bin
	$(CC) -O2 -static -Wall -Wextra -Werror -o $@ $<

run: build
	./$(BIN)

test: deps check-imports vet unit smoke

vet:
	$(GO) vet -tags $(TAGS) ./...
	GOOS=windows $(GO) vet ./agent/... ./extensions/... ./storage/...

unit: $(GOPLS) $(PYRIGHT)
	$(GO) test -race -count=1 -tags $(TAGS) ./...

# Only app/ may import the GL-linked Fyne app package, so everything else
# tests headless. extensions reaches the agent loop only through its
# contract, agent/lifecycle; the views (ui/) reach data only through the
# agent's and extensions' services, never storage (docs/architecture.md).
# Each hook event name is written once, in agent/lifecycle's table.
check-imports:
	@bad=$$($(GO) list -f '{{.ImportPath}}: {{join .Imports " "}}' ./... | grep -v '/app:' | grep -w 'fyne.io/fyne/v2/app' || true); \
	if [ -n "$$bad" ]; then echo "fyne.io/fyne/v2/app imported outside app/:"; echo "$$bad" | cut -d: -f1; exit 1; fi
	@bad=$$($(GO) list -f '{{range .Imports}}{{$$.ImportPath}} {{.}}{{"\n"}}{{end}}' ./extensions/... | \
		grep -E ' github.com/agentdesk/agentdesk/agent(/|$$)' | \
		grep -vE ' github.com/agentdesk/agentdesk/agent/(lifecycle|childproc|skills|safetext|permissions)$$' || true); \
	if [ -n "$$bad" ]; then echo "extensions imports the agent loop (only agent/lifecycle and the leaf packages agent/childproc, agent/skills, agent/safetext, agent/permissions are allowed):"; echo "$$bad"; exit 1; fi
	@bad=$$($(GO) list -f '{{range .Imports}}{{$$.ImportPath}} {{.}}{{"\n"}}{{end}}' ./ui/... | \
		grep -E ' github.com/agentdesk/agentdesk/storage(/|$$)' || true); \
	if [ -n "$$bad" ]; then echo "ui imports storage (views talk to the agent's and extensions' services):"; echo "$$bad"; exit 1; fi
	@bad=$$($(GO) list -deps ./ui/chatctl | grep '^fyne.io/' || true); \
	if [ -n "$$bad" ]; then echo "ui/chatctl (the chat's state, tested without a window) depends on Fyne:"; echo "$$bad"; exit 1; fi
	@./packaging/check-events.sh
	@GO=$(GO) ./packaging/check-arrows.sh

# The real binary in a real X server (Xvfb): window found by title,
# screenshot not blank, clean quit.
smoke:
	$(GO) test -count=1 -tags "$(TAGS) xvfb" -run 'TestXvfb' -v ./app/

bench: deps
	GO=$(GO) TAGS="$(TAGS)" ./packaging/bench.sh

# Ponytail end to end; needs PONYTAIL_REPO=/path/to/ponytail (a clone or bare mirror).
integration: deps
	$(GO) test -count=1 -tags "$(TAGS) integration" -run 'TestPonytail' -v ./app/

$(GOPLS):
	GOBIN=$(CURDIR)/bin $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION) || echo "gopls not installed: the LSP integration test is skipped"

$(PYRIGHT):
	npm install --no-audit --no-fund --prefix $(CURDIR)/bin/pyright pyright@$(PYRIGHT_VERSION) || echo "pyright not installed: the LSP pyright test is skipped"

$(FYNE):
	GOBIN=$(CURDIR)/bin $(GO) install fyne.io/tools/cmd/fyne@$(FYNE_TOOLS_VERSION)

# fyne package rewrites the metadata it reads (it bumps Build); the
# original is put back so the tree stays clean.
bundle: build $(FYNE)
	$(GO) build -tags "$(TAGS) release" -o $(BIN) ./app
	cp FyneApp.toml bin/FyneApp.toml.orig
	@case "$$(uname -s)" in \
	Darwin) ./$(FYNE) package --target darwin --executable $(BIN) --src . --release ;; \
	*) ./$(FYNE) package --target linux --executable $(BIN) --src . --release ;; \
	esac; status=$$?; mv bin/FyneApp.toml.orig FyneApp.toml; mv -f AgentDesk.tar.xz AgentDesk.app bin/ 2>/dev/null; exit $$status
	@if [ -f bin/AgentDesk.tar.xz ]; then ./packaging/finish-tarball.sh bin/AgentDesk.tar.xz; fi
	@ls -ld bin/AgentDesk.*

clean:
	rm -rf bin
