package mqtt

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sportsdb/internal/clock"
)

// Options.Images makes each record as it is published (serve: the addresses of held images
// on --public-url).
func TestPublishesRecordsAsImagesMakesThem(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	sub := subscribe(t, b, prefix+"/team/#")
	o := testOptions(b, prefix, clock.System{})
	o.Images = func(_ context.Context, rec []byte) []byte {
		return bytes.ReplaceAll(rec, []byte(`"strTeam":"One"`), []byte(`"strTeam":"rewritten"`))
	}
	pub := start(t, st, o)
	pub.waitStored(t, 0)
	write(t, st, team("1000", "One"))
	if m := sub.next(t); m.Topic != prefix+"/team/1000" || !strings.Contains(m.Payload, `"strTeam":"rewritten"`) {
		t.Errorf("published %+v", m)
	}
}
