package llm

import (
	"strings"
	"testing"
)

// TestParseSpecSampling: max_tokens= and temperature= in a -llm value, and
// LLM_MAX_TOKENS and LLM_TEMPERATURE, set the endpoint's sampling; a bad
// value is a clear error that does not echo it; unset, they stay zero and
// New fills the defaults.
func TestParseSpecSampling(t *testing.T) {
	for _, c := range []struct {
		spec      string
		maxTokens int
		temp      float64 // -1: unset
		err       string
	}{
		{"x=http://h/v1,model=m", 0, -1, ""},
		{"x=http://h/v1,model=m,max_tokens=256,temperature=0.2", 256, 0.2, ""},
		{"x=http://h/v1,model=m,temperature=0", 0, 0, ""},
		{"x=http://h/v1,model=m,temperature=2,max_tokens=131072", 131072, 2, ""},
		{"x=http://h/v1,model=m,max_tokens=0", 0, 0, "max_tokens must be a whole number from 1 to 131072"},
		{"x=http://h/v1,model=m,max_tokens=-5", 0, 0, "max_tokens must be"},
		{"x=http://h/v1,model=m,max_tokens=lots", 0, 0, "max_tokens must be"},
		{"x=http://h/v1,model=m,max_tokens=1e3", 0, 0, "max_tokens must be"},
		{"x=http://h/v1,model=m,max_tokens=999999999", 0, 0, "max_tokens must be"},
		{"x=http://h/v1,model=m,temperature=2.5", 0, 0, "temperature must be a number from 0 to 2"},
		{"x=http://h/v1,model=m,temperature=-0.1", 0, 0, "temperature must be"},
		{"x=http://h/v1,model=m,temperature=NaN", 0, 0, "temperature must be"},
		{"x=http://h/v1,model=m,temperature=hot", 0, 0, "temperature must be"},
		{"x=http://h/v1,model=m,temperature=", 0, 0, "temperature must be"},
		{"x=http://h/v1,model=m,top_p=0.5", 0, 0, "max_tokens=, temperature="},
	} {
		ep, err := ParseSpec(c.spec)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "-llm x: ") {
				t.Errorf("ParseSpec(%q) error %v, want one naming the endpoint and containing %q", c.spec, err, c.err)
			}
			if err != nil && (strings.Contains(err.Error(), "lots") || strings.Contains(err.Error(), "hot")) {
				t.Errorf("ParseSpec(%q) echoes the value: %v", c.spec, err)
			}
		case err != nil:
			t.Errorf("ParseSpec(%q): %v", c.spec, err)
		case ep.MaxTokens != c.maxTokens:
			t.Errorf("ParseSpec(%q): max_tokens %d, want %d", c.spec, ep.MaxTokens, c.maxTokens)
		case c.temp < 0 && ep.Temperature != nil, c.temp >= 0 && (ep.Temperature == nil || *ep.Temperature != c.temp):
			t.Errorf("ParseSpec(%q): temperature %v, want %v", c.spec, ep.Temperature, c.temp)
		}
	}

	env := map[string]string{"LLM_BASE_URL": "https://api.example.com/v1", "LLM_MODEL": "m", "LLM_MAX_TOKENS": "300", "LLM_TEMPERATURE": "0.5"}
	ep, ok, err := FromEnv(func(k string) string { return env[k] })
	if !ok || err != nil || ep.MaxTokens != 300 || ep.Temperature == nil || *ep.Temperature != 0.5 {
		t.Errorf("FromEnv = %+v, %v, %v; want max_tokens 300, temperature 0.5", ep, ok, err)
	}
	for k, v := range map[string]string{"LLM_MAX_TOKENS": "0", "LLM_TEMPERATURE": "3"} {
		bad := map[string]string{"LLM_BASE_URL": "https://api.example.com/v1", "LLM_MODEL": "m", k: v}
		if _, _, err := FromEnv(func(k string) string { return bad[k] }); err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%s=%s: %v, want an error naming %s", k, v, err, k)
		}
	}

	// New fills the defaults and keeps its own copy of the temperature.
	temp := 0.7
	p, err := New(Endpoint{Name: "x", BaseURL: "http://h/v1", Model: "m", Temperature: &temp}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	temp = 1.5
	if got := p.Endpoint(); got.MaxTokens != DefaultMaxTokens || *got.Temperature != 0.7 {
		t.Errorf("New: max_tokens %d, temperature %v; want %d and 0.7", got.MaxTokens, *got.Temperature, DefaultMaxTokens)
	}
	if p, _ := New(Endpoint{Name: "x", BaseURL: "http://h/v1", Model: "m"}, "", nil); *p.Endpoint().Temperature != DefaultTemperature {
		t.Errorf("New: temperature %v, want %v", *p.Endpoint().Temperature, DefaultTemperature)
	}
}
