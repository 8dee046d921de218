package newplayer_test

import (
	"os"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// TestMain stops the package's chromium after its tests.
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
