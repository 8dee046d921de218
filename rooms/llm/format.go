package llm

import (
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// format is the structured output a request asks the endpoint for. An
// endpoint starts at formatSchema; one that answers HTTP 400 to it is asked
// again at once with the next format, and the Engine remembers the one it
// accepted, so later decisions start there.
type format int32

const (
	formatSchema format = iota // response_format json_schema: {"option": one of the listed numbers, "reason": a string or null}
	formatObject               // response_format json_object: any JSON object
	formatText                 // no response_format (none): plain text
)

func (f format) String() string {
	switch f {
	case formatSchema:
		return "json_schema"
	case formatObject:
		return "json_object"
	default:
		return "none"
	}
}

// formatMemory is the format an endpoint accepts, as far as its requests
// have shown: it only moves down (schema, object, text), concurrency-safe.
type formatMemory struct{ v atomic.Int32 }

func (m *formatMemory) load() format { return format(m.v.Load()) }

// refused records that the endpoint answered HTTP 400 to f: later
// requests start after it.
func (m *formatMemory) refused(f format) {
	for {
		cur := m.v.Load()
		if format(cur) > f || f >= formatText || m.v.CompareAndSwap(cur, int32(f+1)) {
			return
		}
	}
}

// schemaName names the JSON schema sent with formatSchema.
const schemaName = "carcassonne_option"

// optionSchema is the JSON schema of an answer choosing among options:
// "option", an integer that is one of them, and "reason", why, in one
// short sentence, or null. A strict schema must require every key it
// names, so the reason is required but may be null; it is described,
// not bounded (maxLength is not a keyword every strict endpoint takes):
// the Engine keeps one line of it, capped (parseReply).
func optionSchema(options []int) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"option": map[string]any{"type": "integer", "enum": options},
			"reason": map[string]any{"type": []string{"string", "null"}, "description": reasonDescription},
		},
		"required":             []string{"option", "reason"},
		"additionalProperties": false,
	}
}

// reasonDescription describes the answer's "reason" to the model.
const reasonDescription = "Why, in one short sentence (at most 120 characters), shown to every player"

// responseFormat is the response_format of a request in format f for the
// listed options; ok is false for formatText, which sends none.
func responseFormat(f format, options []int) (rf openai.ChatCompletionNewParamsResponseFormatUnion, ok bool) {
	switch f {
	case formatSchema:
		return openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   schemaName,
				Strict: openai.Bool(true),
				Schema: optionSchema(options),
			},
		}}, true
	case formatObject:
		return openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}, true
	}
	return rf, false
}
