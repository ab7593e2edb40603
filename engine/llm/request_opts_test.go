package llm

import (
	"context"
	"fmt"
	"testing"
)

// A request's own temperature and output cap (test-time scaling) override
// the provider's: the temperature always, the cap when it is lower.
func TestRequestOverridesOptions(t *testing.T) {
	tests := []struct {
		name       string
		o          Options
		reqT       *float64
		reqMax     int
		wantT      any // nil: absent
		wantMax    any
		wantOllama map[string]any
	}{
		{"request unset keeps options", Options{Temperature: ptr(0.2), MaxOutputTokens: 900}, nil, 0, 0.2, 900.0,
			map[string]any{"temperature": 0.2, "num_predict": 900.0}},
		{"request temperature and lower cap win", Options{Temperature: ptr(0.2), MaxOutputTokens: 900}, ptr(0.9), 400, 0.9, 400.0,
			map[string]any{"temperature": 0.9, "num_predict": 400.0}},
		{"higher request cap loses", Options{MaxOutputTokens: 300}, nil, 400, nil, 300.0,
			map[string]any{"num_predict": 300.0}},
		{"request alone", Options{}, ptr(0.0), 128, 0.0, 128.0,
			map[string]any{"temperature": 0.0, "num_predict": 128.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := testRequest()
			req.Temperature, req.MaxOutputTokens = tt.reqT, tt.reqMax
			fo := newFake(t, openAIOK(`{"ok": true}`))
			o := tt.o
			o.APIKey, o.Model = testKey, "gpt-test"
			if _, err := newProvider(t, kOpenAI, fo, o).Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			b := fo.requests()[0].Body
			for key, want := range map[string]any{"temperature": tt.wantT, "max_completion_tokens": tt.wantMax} {
				if got, present := b[key]; (want == nil && present) || (want != nil && got != want) {
					t.Errorf("openai %s = %v (present %v), want %v", key, got, present, want)
				}
			}
			fl := newFake(t, ollamaOK(`{"ok":true}`))
			o = tt.o
			o.Model = "qwen2.5-coder:7b"
			if _, err := newProvider(t, kOllama, fl, o).Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			opts, _ := fl.requests()[0].Body["options"].(map[string]any)
			if fmt.Sprint(opts) != fmt.Sprint(tt.wantOllama) {
				t.Errorf("ollama options %v, want %v", opts, tt.wantOllama)
			}
		})
	}
}
