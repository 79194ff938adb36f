package servers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Real answers of each server (trimmed to the fields that matter, in the
// servers' own shapes and spellings).
const (
	ds4Models        = `{"object":"list","data":[{"id":"deepseek-v4-flash","object":"model","created":1767225600,"owned_by":"ds4.c","name":"DeepSeek V4 Flash","context_length":32768,"top_provider":{"context_length":32768,"max_completion_tokens":32768,"is_moderated":false},"supported_parameters":["tools","tool_choice","max_tokens","temperature","top_p","top_k","min_p","stop","seed","stream","reasoning_effort"]}]}`
	vllmModels       = `{"object":"list","data":[{"id":"Qwen/Qwen3-Coder-30B-A3B-Instruct","object":"model","created":1767225600,"owned_by":"vllm","root":"Qwen/Qwen3-Coder-30B-A3B-Instruct","parent":null,"max_model_len":65536,"permission":[]}]}`
	llamaModels      = `{"models":[{"name":"qwen","model":"qwen"}],"object":"list","data":[{"id":"qwen","object":"model","created":1767225600,"owned_by":"llamacpp","meta":{"vocab_type":2,"n_vocab":151936,"n_ctx_train":262144,"n_embd":2048,"n_params":30532122624,"size":17659361280}}]}`
	llamaProps       = `{"default_generation_settings":{"id":0,"id_task":-1,"n_ctx":16384,"speculative":false,"is_processing":false,"params":{"n_predict":-1}},"total_slots":1,"model_path":"/models/qwen.gguf","chat_template":"...","build_info":"b6500-abc"}`
	ollamaModels     = `{"object":"list","data":[{"id":"qwen3-coder:30b","object":"model","created":1767225600,"owned_by":"library"}]}`
	ollamaVersion    = `{"version":"0.12.6"}`
	ollamaShowNumCtx = `{"license":"...","modelfile":"FROM qwen3\nPARAMETER num_ctx 40960","parameters":"num_ctx                        40960\nstop                           \"<|im_end|>\"","template":"...","details":{"format":"gguf","family":"qwen3"},"model_info":{"general.architecture":"qwen3moe","qwen3moe.context_length":262144}}`
	ollamaShowPlain  = `{"parameters":"stop                           \"<|im_end|>\"\ntemperature                    0.7","model_info":{"general.architecture":"qwen3moe","qwen3moe.context_length":262144}}`
	ollamaShowSmall  = `{"parameters":"","model_info":{"general.architecture":"llama","llama.context_length":2048}}`
	ollamaPs         = `{"models":[{"name":"qwen3-coder:30b","model":"qwen3-coder:30b","size":21474836480,"digest":"06c1097efce0431c2045fe7b2e5108366e43bee1b4603a7aded8f21689e90bca","details":{"parent_model":"","format":"gguf","family":"qwen3moe","families":["qwen3moe"],"parameter_size":"30.5B","quantization_level":"Q4_K_M"},"expires_at":"2026-12-04T04:40:00.000000000Z","size_vram":21474836480,"context_length":32768}]}`
	ollamaPsLatest   = `{"models":[{"name":"qwen3-coder:latest","model":"qwen3-coder:latest","size":1,"digest":"x","details":{},"expires_at":"2026-12-04T04:40:00Z","size_vram":1,"context_length":262144}]}`
	ollamaShowHuge   = `{"parameters":"num_ctx 1000000","model_info":{"general.architecture":"qwen3moe","qwen3moe.context_length":262144}}`
)

func serve(t *testing.T, routes map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := routes[r.Method+" "+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			if !strings.Contains(string(b), `"model"`) {
				http.Error(w, `{"error":"model is required"}`, http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestProbeReadsWhatEachServerStates(t *testing.T) {
	for _, tt := range []struct {
		name   string
		routes map[string]string
		model  string
		want   Info
		// assumed: the answer is an assumption, so the server counts as not
		// answered and is asked again next time.
		assumed bool
	}{
		{"ds4-server", map[string]string{"GET /v1/models": ds4Models}, "deepseek-v4-flash",
			Info{Name: "ds4-server", ContextWindow: 32768, Source: "ds4-server GET /v1/models context_length", MaxAnswer: 32768}, false},
		{"vLLM", map[string]string{"GET /v1/models": vllmModels}, "Qwen/Qwen3-Coder-30B-A3B-Instruct",
			Info{Name: "vLLM", ContextWindow: 65536, Source: "vLLM GET /v1/models max_model_len"}, false},
		{"llama.cpp: the runtime n_ctx, not n_ctx_train", map[string]string{"GET /v1/models": llamaModels, "GET /props": llamaProps}, "qwen",
			Info{Name: "llama.cpp", ContextWindow: 16384, Source: "llama.cpp GET /props n_ctx"}, false},
		{"Ollama with num_ctx", map[string]string{"GET /v1/models": ollamaModels, "GET /api/version": ollamaVersion, "POST /api/show": ollamaShowNumCtx}, "qwen3-coder:30b",
			Info{Name: "Ollama", ContextWindow: 40960, Source: "Ollama POST /api/show num_ctx"}, false},
		{"Ollama loaded: the context it runs with", map[string]string{"GET /api/version": ollamaVersion, "POST /api/show": ollamaShowPlain, "GET /api/ps": ollamaPs}, "qwen3-coder:30b",
			Info{Name: "Ollama", ContextWindow: 32768, Source: "Ollama GET /api/ps context_length (as loaded)"}, false},
		{"Ollama loaded, the name without its tag", map[string]string{"GET /api/version": ollamaVersion, "POST /api/show": ollamaShowPlain, "GET /api/ps": ollamaPsLatest}, "qwen3-coder",
			Info{Name: "Ollama", ContextWindow: 262144, Source: "Ollama GET /api/ps context_length (as loaded)"}, false},
		{"Ollama not loaded yet: an assumption, asked again", map[string]string{"GET /v1/models": ollamaModels, "GET /api/version": ollamaVersion, "POST /api/show": ollamaShowPlain, "GET /api/ps": `{"models":[]}`}, "qwen3-coder:30b",
			Info{Name: "Ollama", ContextWindow: 4096, Source: "Ollama's smallest default, until the model is loaded"}, true},
		{"Ollama num_ctx over the trained length", map[string]string{"GET /api/version": ollamaVersion, "POST /api/show": ollamaShowHuge}, "m",
			Info{Name: "Ollama", ContextWindow: 262144, Source: "Ollama POST /api/show context_length"}, false},
		{"Ollama model trained shorter than the default", map[string]string{"GET /api/version": ollamaVersion, "POST /api/show": ollamaShowSmall}, "tiny",
			Info{Name: "Ollama", ContextWindow: 2048, Source: "Ollama POST /api/show context_length"}, true},
		{"OpenRouter's max_completion_tokens is a model cap, not an answer room", map[string]string{"GET /v1/models": `{"data":[{"id":"deepseek/deepseek-v4","context_length":131072,"top_provider":{"context_length":131072,"max_completion_tokens":131072,"is_moderated":false}}]}`}, "deepseek/deepseek-v4",
			Info{ContextWindow: 131072, Source: "GET /v1/models context_length"}, false},
		{"a server that says nothing", map[string]string{"GET /v1/models": `{"object":"list","data":[{"id":"m","object":"model","owned_by":"someone"}]}`}, "m",
			Info{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := serve(t, tt.routes) + "/v1"
			tt.want.Answered = !tt.assumed
			if got := Probe(context.Background(), base, "", tt.model); got != tt.want {
				t.Fatalf("Probe = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestProbeOfNothingIsEmpty(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	if got := Probe(context.Background(), srv.URL+"/v1", "", "m"); got != (Info{}) {
		t.Fatalf("Probe of a closed port = %+v", got)
	}
}

// While llama.cpp loads its model, /v1/models answers and /props says
// 503 "Loading model" (server.cpp's middleware_server_state): the n_ctx it
// states once loaded must still be read, so that is no lasting answer.
func TestAServerStillLoadingIsAskedAgain(t *testing.T) {
	loading := `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, llamaModels)
		case "/props":
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, loading)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	got := Probe(context.Background(), srv.URL+"/v1", "", "qwen")
	if got.Answered || got.ContextWindow != 0 || got.Name != "llama.cpp" {
		t.Fatalf("Probe of a loading llama.cpp = %+v, want its name, no window, not answered", got)
	}
}
