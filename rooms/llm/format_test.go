package llm

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
)

// responseFormatType is the response_format type of a request body, ""
// when it has none.
func responseFormatType(body map[string]any) string {
	rf, _ := body["response_format"].(map[string]any)
	typ, _ := rf["type"].(string)
	return typ
}

// checkSampling fails unless every body carries max_tokens and
// temperature with the values given.
func checkSampling(t *testing.T, bodies []map[string]any, maxTokens, temperature float64) {
	t.Helper()
	for i, b := range bodies {
		mt, ok1 := b["max_tokens"].(float64)
		temp, ok2 := b["temperature"].(float64)
		if !ok1 || !ok2 || mt != maxTokens || temp != temperature {
			t.Errorf("request %d: max_tokens %v, temperature %v; want %v and %v", i, b["max_tokens"], b["temperature"], maxTokens, temperature)
		}
	}
}

// TestResponseFormatFallsBack: an endpoint that answers HTTP 400 to a
// response_format is asked again at once with the next one (json_schema,
// json_object, none), and the next decision starts at the one it
// accepted; one that refuses all three fails with the 400, after three
// requests, and later decisions send a single plain request.
func TestResponseFormatFallsBack(t *testing.T) {
	tileView, _, _, _ := views(t)
	for _, c := range []struct {
		name     string
		accepts  []string // response_format types accepted ("" for none)
		first    []string // the formats of the first decision's requests
		next     string   // the format the second decision starts at
		wantFail bool
	}{
		{"accepts json_schema", []string{"json_schema", "json_object", ""}, []string{"json_schema"}, "json_schema", false},
		{"refuses json_schema", []string{"json_object", ""}, []string{"json_schema", "json_object"}, "json_object", false},
		{"refuses json_schema and json_object", []string{""}, []string{"json_schema", "json_object", ""}, "", false},
		{"refuses everything", nil, []string{"json_schema", "json_object", ""}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, nil)
			f.byBody = func(body map[string]any) reply {
				if !slices.Contains(c.accepts, responseFormatType(body)) {
					return reply{status: 400, content: `{"error": {"message": "response_format is not supported", "type": "invalid_request_error"}}`}
				}
				return reply{content: `{"option": 1}`}
			}
			p := f.player(t, 5*time.Second)
			move := func() error {
				_, _, err := p.Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView})
				return err
			}
			err := move()
			if c.wantFail {
				if !errors.Is(err, ErrEndpoint) || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "response_format: none") {
					t.Fatalf("Move: %v; want ErrEndpoint naming the 400 and the last format", err)
				}
			} else if err != nil {
				t.Fatalf("Move: %v", err)
			}
			bodies := f.requestBodies()
			var got []string
			for _, b := range bodies {
				got = append(got, responseFormatType(b))
			}
			if !slices.Equal(got, c.first) {
				t.Errorf("first decision's requests %q, want %q", got, c.first)
			}
			_ = move()
			bodies = f.requestBodies()
			if n := len(bodies) - len(c.first); n != 1 {
				t.Fatalf("the second decision sent %d requests, want 1", n)
			}
			if got := responseFormatType(bodies[len(bodies)-1]); got != c.next {
				t.Errorf("the second decision starts at %q, want %q", got, c.next)
			}
			checkSampling(t, bodies, DefaultMaxTokens, DefaultTemperature)
		})
	}
}

// TestResponseFormatConcurrent: decisions racing on an endpoint that
// refuses json_schema all get their move, and the endpoint ends up known
// as a json_object one (run with -race).
func TestResponseFormatConcurrent(t *testing.T) {
	tileView, _, _, _ := views(t)
	f := newFake(t, nil)
	f.byBody = func(body map[string]any) reply {
		if responseFormatType(body) == "json_schema" {
			return reply{status: 400, content: `{"error": {"message": "json_schema is not supported"}}`}
		}
		return reply{content: `{"option": 1}`}
	}
	p := f.player(t, 10*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, _, err := p.Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := p.format.load(); got != formatObject {
		t.Errorf("format %v after the race, want json_object", got)
	}
}

// TestResponseFormatSchema: an endpoint that accepts json_schema gets a
// strict schema whose option is an integer enum of exactly the listed
// option numbers (from 1 in the tile phase, from 0 in the meeple phase),
// and a reason that is a string or null, no other properties.
func TestResponseFormatSchema(t *testing.T) {
	tileView, meepleView, _, _ := views(t)
	for _, view := range []json.RawMessage{tileView, meepleView} {
		pr, err := buildPrompt(view, 0)
		if err != nil {
			t.Fatal(err)
		}
		var want []any
		for i := range pr.options {
			want = append(want, float64(pr.first+i))
		}
		f := newFake(t, always(reply{content: `{"option": 1}`}))
		if _, _, err := f.player(t, 5*time.Second).Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: view}); err != nil {
			t.Fatal(err)
		}
		b := f.requestBodies()[0]
		rf, _ := b["response_format"].(map[string]any)
		js, _ := rf["json_schema"].(map[string]any)
		schema, _ := js["schema"].(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		opt, _ := props["option"].(map[string]any)
		enum, _ := opt["enum"].([]any)
		switch {
		case rf["type"] != "json_schema" || js["name"] != schemaName || js["strict"] != true:
			t.Errorf("response_format %v, want a strict json_schema named %s", rf, schemaName)
		case schema["type"] != "object" || schema["additionalProperties"] != false || len(props) != 2:
			t.Errorf("schema %v, want an object with two properties and no others", schema)
		case opt["type"] != "integer" || !slices.Equal(enum, want):
			t.Errorf("option %v, want an integer enum %v", opt, want)
		}
		// A strict schema requires every key: the reason may be null.
		reason, _ := props["reason"].(map[string]any)
		if types, _ := reason["type"].([]any); !slices.Equal(types, []any{"string", "null"}) || reason["description"] == "" {
			t.Errorf("reason %v, want a described string or null", reason)
		}
		if req, _ := schema["required"].([]any); !slices.Equal(req, []any{"option", "reason"}) {
			t.Errorf("required %v, want [option reason]", schema["required"])
		}
		checkSampling(t, f.requestBodies(), DefaultMaxTokens, DefaultTemperature)
	}
}

// TestSamplingSettings: max_tokens and temperature from the -llm spec go
// with every request, a temperature of 0 included; the defaults otherwise
// (checked in the tests above).
func TestSamplingSettings(t *testing.T) {
	tileView, _, _, _ := views(t)
	f := newFake(t, always(reply{content: `{"option": 1}`}))
	ep, err := ParseSpec("test=" + f.URL + "/v1,model=test-model,max_tokens=256,temperature=0")
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(ep, testKey, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := p.Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkSampling(t, f.requestBodies(), 256, 0)
}
