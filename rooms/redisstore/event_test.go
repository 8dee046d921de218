package redisstore

import (
	"strconv"
	"strings"
	"testing"
)

func TestRecordEvent(t *testing.T) {
	for _, tc := range []struct {
		name, payload string
		ok            bool
		sid           int64
		raw           string
	}{
		{"Notice", `{"stateID":12}`, true, 12, ""},
		{"WithRecord", `{"stateID":12,"record":{"id":"m1","stateID":12}}`, true, 12, `{"id":"m1","stateID":12}`},
		{"NestedRecordKey", `{"stateID":3,"record":{"x":{"stateID":1,"record":{}}}}`, true, 3, `{"x":{"stateID":1,"record":{}}}`},
		{"Chat", `{"chat":{"type":"chat","text":"hi"}}`, false, 0, ""},
		{"NoticeZero", `{"stateID":0}`, false, 0, ""},
		{"NoticeNegative", `{"stateID":-4}`, false, 0, ""},
		{"NoticeBadStateID", `{"stateID":1x}`, false, 0, ""},
		{"NoticeEmptyStateID", `{"stateID":}`, false, 0, ""},
		{"NoticeMoreFields", `{"stateID":3,"chat":{}}`, false, 0, ""},
		{"BadStateID", `{"stateID":x,"record":{}}`, false, 0, ""},
		{"EmptyStateID", `{"stateID":,"record":{}}`, false, 0, ""},
		{"RecordNotObject", `{"stateID":3,"record":null}`, false, 0, ""},
		{"EmptyRecord", `{"stateID":3,"record":}`, false, 0, ""},
		{"Truncated", `{"stateID":3,"record":{"id":"m1"`, false, 0, ""},
		{"Empty", ``, false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, ok := recordEvent(tc.payload)
			if ok != tc.ok || ev.Version != tc.sid || string(ev.Raw) != tc.raw {
				t.Fatalf("recordEvent(%q) = (stateID %d, raw %q), %v; want (%d, %q), %v",
					tc.payload, ev.Version, ev.Raw, ok, tc.sid, tc.raw, tc.ok)
			}
			if ok && ev.RecordVersion() != tc.sid {
				t.Fatalf("Version() = %d, want %d", ev.RecordVersion(), tc.sid)
			}
			if rec, err := ev.Load(); ok && tc.raw == "" && (rec != nil || err != nil) {
				t.Fatalf("Load() of a notice = %v, %v; want no record", rec, err)
			}
		})
	}
}

// FuzzRecordEvent: any payload on a match's channel (anyone may PUBLISH
// there) is read without a panic, and what is accepted is the payload's own
// positive stateID and record (none in a notice), untouched. Whether the
// record is valid JSON is left to Event.Load, which reports it: checking
// here would scan every record.
func FuzzRecordEvent(f *testing.F) {
	f.Add(`{"stateID":12}`)
	f.Add(`{"stateID":12,"record":{"id":"m1"}}`)
	f.Add(`{"chat":{"text":"hi"}}`)
	f.Add(`{"stateID":-1,"record":{}}`)
	f.Fuzz(func(t *testing.T, payload string) {
		ev, ok := recordEvent(payload)
		if !ok {
			return
		}
		head, tail := `{"stateID":`, `}`
		if len(ev.Raw) > 0 {
			tail = `,"record":` + string(ev.Raw) + `}`
			if ev.Raw[0] != '{' {
				t.Fatalf("recordEvent(%q) accepted a record that is not an object: %q", payload, ev.Raw)
			}
		}
		if !strings.HasPrefix(payload, head) || !strings.HasSuffix(payload, tail) || len(payload) < len(head)+len(tail) {
			t.Fatalf("recordEvent(%q): raw %q is not the payload's record", payload, ev.Raw)
		}
		sid, err := strconv.ParseInt(payload[len(head):len(payload)-len(tail)], 10, 64)
		if err != nil || sid != ev.Version || sid <= 0 {
			t.Fatalf("recordEvent(%q): stateID %d is not the payload's (%d, %v)", payload, ev.Version, sid, err)
		}
	})
}
