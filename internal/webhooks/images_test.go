package webhooks

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sportsdb/internal/clock"
)

// Options.Images makes each record as it is delivered (serve: the addresses of held images
// on --public-url).
func TestDeliversRecordsAsImagesMakesThem(t *testing.T) {
	st := openStore(t)
	rcv := newReceiver(t)
	register(t, st, rcv.URL+"/hook", Definition{})
	o := testOptions(clock.System{}, true)
	o.Images = func(_ context.Context, rec []byte) []byte {
		return bytes.ReplaceAll(rec, []byte(`"strTeam":"Arsenal"`), []byte(`"strTeam":"rewritten"`))
	}
	start(t, st, o)
	write(t, st, team("133604", "Arsenal", "4328"))
	if got := rcv.next(t); !strings.Contains(string(got.Body), `"record":{"idTeam":"133604"`) ||
		!strings.Contains(string(got.Body), `"strTeam":"rewritten"`) {
		t.Errorf("delivered %s", got.Body)
	}
}
