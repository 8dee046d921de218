package llm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/rooms"
)

// maxAnswer bounds the answer text an error quotes.
const maxAnswer = 80

// maxObjects bounds the JSON objects parseAnswer tries, from the end of
// the answer, so that a long answer full of braces costs linear time.
const maxObjects = 64

// answer is the first choice of a chat completion as the endpoint sent it.
type answer struct {
	content   string
	null      bool   // the content was null or absent
	refusal   string // the model's refusal, when it sent one
	reasoning bool   // the reasoning came in a field of its own (reasoning_content)
	cutOff    bool   // finish_reason "length": max_tokens ended the answer
}

// choice is the option number the answer names, or an error wrapping
// ErrMalformed that says why there is none. Only the content counts:
// reasoning sent in a field of its own is never read.
func (a answer) choice() (int, error) {
	n, _, err := a.choiceReason()
	return n, err
}

// choiceReason is choice and the answer's reason (see parseReply).
func (a answer) choiceReason() (n int, reason string, err error) {
	switch {
	case a.refusal != "" && strings.TrimSpace(a.content) == "":
		err = fmt.Errorf("%w: the model refused: %s", ErrMalformed, quote(a.refusal))
	case a.null && a.reasoning:
		err = fmt.Errorf("%w: the answer has no content (null), only reasoning", ErrMalformed)
	case a.null:
		err = fmt.Errorf("%w: the answer has no content (null)", ErrMalformed)
	default:
		n, reason, err = parseReply(a.content)
	}
	if err != nil && a.cutOff {
		err = fmt.Errorf("%w (cut off at max_tokens)", err)
	}
	return n, reason, err
}

// parseAnswer finds the option number in an answer's text, as models
// write it:
//
//   - a <think>…</think> block is skipped (only the text after the last
//     </think> counts; an unclosed <think> ends the answer);
//   - the last line (``` fences aside) that is only a whole number, such
//     as "3" (or "3." or "**3**"), is the choice;
//   - else the last JSON object with the key "option" whose value is a
//     whole number or a string of one ({"option": 3}, {"option": "3"}),
//     wherever it is: alone, inside a ```json or ``` fence, after prose,
//     with other keys beside it.
//
// Anything else is an error wrapping ErrMalformed that says what is
// missing and quotes the start of the text. Whether the number is a
// listed option is the caller's to check.
func parseAnswer(s string) (int, error) {
	n, _, err := parseReply(s)
	return n, err
}

// parseReply is parseAnswer and the reason the answer gives: the string
// value of "reason" in the JSON object the option was read from
// ({"option": 2, "reason": "…"}), made one line of at most
// protocol.MaxBotReason characters (rooms.CleanReason); "" for a bare
// number, an object without one, or one that is not a string. The
// reason never decides anything: a bad one is dropped, the option kept.
func parseReply(s string) (int, string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, "", fmt.Errorf("%w: the answer is empty", ErrMalformed)
	}
	if i := strings.LastIndex(t, "</think>"); i >= 0 {
		t = t[i+len("</think>"):]
	} else if i := strings.Index(t, "<think>"); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	if t == "" {
		return 0, "", fmt.Errorf("%w: the answer is only reasoning (<think>…</think>), no choice after it", ErrMalformed)
	}
	if n, ok := lastLineNumber(t); ok {
		return n, "", nil
	}
	why := `no {"option": N} and no bare number`
	tried := 0
	for end := len(t); tried < maxObjects; tried++ {
		i := strings.LastIndexByte(t[:end], '{')
		if i < 0 {
			break
		}
		end = i
		var m map[string]json.RawMessage
		if json.NewDecoder(strings.NewReader(t[i:])).Decode(&m) != nil {
			continue
		}
		raw, ok := m["option"]
		if !ok {
			continue
		}
		if n, ok := optionValue(raw); ok {
			var reason string
			if json.Unmarshal(m["reason"], &reason) != nil {
				reason = ""
			}
			return n, rooms.CleanReason(reason), nil
		}
		why = "option is not a whole number"
	}
	return 0, "", fmt.Errorf("%w: %s: %s", ErrMalformed, why, quote(t))
}

// lastLineNumber reads the last line of t that is not a ``` fence as a
// whole number, with markdown emphasis or a full stop around it.
func lastLineNumber(t string) (int, bool) {
	lines := strings.Split(t, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		n, err := strconv.Atoi(strings.Trim(l, "*`_."))
		return n, err == nil
	}
	return 0, false
}

// optionValue reads the value of "option": a whole JSON number, or a
// string holding one.
func optionValue(raw json.RawMessage) (int, bool) {
	s := string(raw)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, false
		}
		s = strings.TrimSpace(s)
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// quote quotes the start of s for an error.
func quote(s string) string {
	if len(s) > maxAnswer {
		s = strings.ToValidUTF8(s[:maxAnswer], "") + "…"
	}
	return strconv.Quote(s)
}
