package llm

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
	envVarRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// ParseSpec reads one -llm flag value:
//
//	NAME=BASE_URL,model=MODEL[,key_env=VAR][,timeout=DURATION][,max=N][,max_tokens=N][,temperature=T]
//
// e.g. "deepseek=https://api.deepseek.com/v1,model=deepseek-chat,key_env=DEEPSEEK_API_KEY".
// NAME is 1-32 of a-z, 0-9, '_' and '-' (its level is Level(NAME)); VAR
// is the name of an environment variable, never the key itself; N bounds
// the requests in flight to the endpoint (1..MaxMax, default DefaultMax);
// max_tokens and temperature are sent with every request (1..MaxMaxTokens,
// default DefaultMaxTokens; 0..MaxTemperature, default DefaultTemperature). Errors
// quote no value but the name, so a key pasted by mistake is not echoed.
func ParseSpec(spec string) (Endpoint, error) {
	parts := strings.Split(spec, ",")
	name, base, ok := strings.Cut(parts[0], "=")
	if !ok || !nameRE.MatchString(name) {
		return Endpoint{}, fmt.Errorf("-llm: want NAME=BASE_URL,model=MODEL[,key_env=VAR][,timeout=D][,max=N][,max_tokens=N][,temperature=T] with NAME of a-z, 0-9, _ and -")
	}
	if name == "own" {
		return Endpoint{}, fmt.Errorf("-llm: the name own is kept for players' own endpoints (-llm-own); pick another")
	}
	ep := Endpoint{Name: name, BaseURL: base}
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "model":
			ep.Model = v
		case "key_env":
			if !envVarRE.MatchString(v) {
				return Endpoint{}, fmt.Errorf("-llm %s: key_env must name an environment variable (letters, digits, _), not hold the key", name)
			}
			ep.KeyEnv = v
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return Endpoint{}, fmt.Errorf("-llm %s: bad timeout (want e.g. 20s)", name)
			}
			ep.Timeout = d
		case "max":
			n, err := parseMax(v)
			if err != nil {
				return Endpoint{}, fmt.Errorf("-llm %s: %w", name, err)
			}
			ep.Max = n
		case "max_tokens":
			n, err := parseMaxTokens(v)
			if err != nil {
				return Endpoint{}, fmt.Errorf("-llm %s: %w", name, err)
			}
			ep.MaxTokens = n
		case "temperature":
			t, err := parseTemperature(v)
			if err != nil {
				return Endpoint{}, fmt.Errorf("-llm %s: %w", name, err)
			}
			ep.Temperature = &t
		default:
			return Endpoint{}, fmt.Errorf("-llm %s: unknown setting (want model=, key_env=, timeout=, max=, max_tokens=, temperature=)", name)
		}
	}
	if err := ep.validate(); err != nil {
		return Endpoint{}, err
	}
	return ep, nil
}

// FromEnv returns the endpoint of the level "llm" configured by the
// environment: LLM_BASE_URL and LLM_MODEL, the key in LLM_API_KEY, and
// optionally LLM_TIMEOUT, LLM_MAX, LLM_MAX_TOKENS and LLM_TEMPERATURE. ok
// is false when LLM_BASE_URL is unset.
func FromEnv(getenv func(string) string) (ep Endpoint, ok bool, err error) {
	base := getenv("LLM_BASE_URL")
	if base == "" {
		return Endpoint{}, false, nil
	}
	ep = Endpoint{Name: "llm", BaseURL: base, Model: getenv("LLM_MODEL"), KeyEnv: "LLM_API_KEY"}
	if t := getenv("LLM_TIMEOUT"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return Endpoint{}, true, fmt.Errorf("LLM_TIMEOUT: want a duration such as 20s")
		}
		ep.Timeout = d
	}
	if m := getenv("LLM_MAX"); m != "" {
		n, err := parseMax(m)
		if err != nil {
			return Endpoint{}, true, fmt.Errorf("LLM_MAX: %w", err)
		}
		ep.Max = n
	}
	if m := getenv("LLM_MAX_TOKENS"); m != "" {
		n, err := parseMaxTokens(m)
		if err != nil {
			return Endpoint{}, true, fmt.Errorf("LLM_MAX_TOKENS: %w", err)
		}
		ep.MaxTokens = n
	}
	if v := getenv("LLM_TEMPERATURE"); v != "" {
		t, err := parseTemperature(v)
		if err != nil {
			return Endpoint{}, true, fmt.Errorf("LLM_TEMPERATURE: %w", err)
		}
		ep.Temperature = &t
	}
	if err := ep.validate(); err != nil {
		return Endpoint{}, true, err
	}
	return ep, true, nil
}

// validate checks the base URL (http or https, a host, no user info: a
// key does not belong in the URL) and that a model is named.
func (ep Endpoint) validate() error {
	u, err := url.Parse(ep.BaseURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("llm endpoint %s: the base URL must be http(s)://host[/path]", ep.Name)
	case u.User != nil || u.RawQuery != "":
		return fmt.Errorf("llm endpoint %s: the base URL may not carry credentials or a query; put the key in the variable key_env names", ep.Name)
	case ep.Model == "":
		return fmt.Errorf("llm endpoint %s: model= is required", ep.Name)
	}
	return nil
}

// parseMax reads a request-slot count: an integer from 1 to MaxMax.
func parseMax(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxMax {
		return 0, fmt.Errorf("max must be a whole number from 1 to %d", MaxMax)
	}
	return n, nil
}

// parseMaxTokens reads a max_tokens setting: an integer from 1 to
// MaxMaxTokens.
func parseMaxTokens(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxMaxTokens {
		return 0, fmt.Errorf("max_tokens must be a whole number from 1 to %d (e.g. max_tokens=256)", MaxMaxTokens)
	}
	return n, nil
}

// parseTemperature reads a temperature setting: a number from 0 to
// MaxTemperature.
func parseTemperature(v string) (float64, error) {
	t, err := strconv.ParseFloat(v, 64)
	if err != nil || !(t >= 0 && t <= MaxTemperature) { // !(…) also refuses NaN
		return 0, fmt.Errorf("temperature must be a number from 0 to %g (e.g. temperature=0.2)", MaxTemperature)
	}
	return t, nil
}
