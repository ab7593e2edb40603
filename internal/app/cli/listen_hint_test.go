package cli

import (
	"net"
	"strings"
	"testing"
)

// The threat: `serve --http 999.1.1.1:80` (a typo of the host) was told
// another process listens there and to pick another port, which changes
// nothing; each way a listen fails gets the hint that fixes it.
func TestListenHintFitsTheFailure(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct{ addr, hint string }{
		{"999.1.1.1:80", "the host does not resolve"},
		{"192.0.2.1:8080", "no interface of this machine has that address"}, // TEST-NET-1, no machine's own
		{busy.Addr().String(), "another process listens there"},
	} {
		ln, err := net.Listen("tcp", c.addr)
		if err == nil {
			ln.Close()
			t.Fatalf("%s: listened", c.addr)
		}
		if got := listenHint(err); !strings.Contains(got, c.hint) {
			t.Errorf("%s (%v): hint %q, want %q", c.addr, err, got, c.hint)
		}
	}
}
