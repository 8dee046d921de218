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
//	NAME=BASE_URL,model=MODEL[,key_env=VAR][,timeout=DURATION][,max=N]
//
// e.g. "deepseek=https://api.deepseek.com/v1,model=deepseek-chat,key_env=DEEPSEEK_API_KEY".
// NAME is 1-32 of a-z, 0-9, '_' and '-' (its level is Level(NAME)); VAR
// is the name of an environment variable, never the key itself; N bounds
// the requests in flight to the endpoint (1..MaxMax, default DefaultMax). Errors
// quote no value but the name, so a key pasted by mistake is not echoed.
func ParseSpec(spec string) (Endpoint, error) {
	parts := strings.Split(spec, ",")
	name, base, ok := strings.Cut(parts[0], "=")
	if !ok || !nameRE.MatchString(name) {
		return Endpoint{}, fmt.Errorf("-llm: want NAME=BASE_URL,model=MODEL[,key_env=VAR][,timeout=D][,max=N] with NAME of a-z, 0-9, _ and -")
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
		default:
			return Endpoint{}, fmt.Errorf("-llm %s: unknown setting (want model=, key_env=, timeout=, max=)", name)
		}
	}
	if err := ep.validate(); err != nil {
		return Endpoint{}, err
	}
	return ep, nil
}

// FromEnv returns the endpoint of the level "llm" configured by the
// environment: LLM_BASE_URL and LLM_MODEL, the key in LLM_API_KEY, and
// optionally LLM_TIMEOUT and LLM_MAX. ok is false when LLM_BASE_URL is
// unset.
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
