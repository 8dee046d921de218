package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/server/servertest"
)

// TestUnknownPathServesTheApp: a mistyped page path gets the web client
// (status 404, HTML) so it can show its own not-found page, while unknown
// API paths and other methods keep their JSON errors.
func TestUnknownPathServesTheApp(t *testing.T) {
	base := servertest.Start(t, servertest.Options{}).URL
	for _, tc := range []struct {
		method, path string
		status       int
		html         bool
	}{
		{"GET", "/no/such/page", 404, true},
		{"GET", "/m/gomoku", 404, true},
		{"GET", "/", 200, true},
		{"GET", "/games/nosuchgame/x/y/z", 404, false},
		{"GET", "/gamesx", 404, true},
		{"GET", "/catalog/x", 404, false},
		{"POST", "/no/such/page", 404, false},
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		ct := resp.Header.Get("Content-Type")
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
		if got := strings.HasPrefix(ct, "text/html"); got != tc.html {
			t.Errorf("%s %s: Content-Type %q, want html=%v", tc.method, tc.path, ct, tc.html)
		}
		if !tc.html && !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q, want JSON", tc.method, tc.path, ct)
		}
	}
}
