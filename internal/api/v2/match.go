package v2

import (
	"sportsdb/internal/api"
	"sportsdb/internal/match"
	"sportsdb/internal/record"
)

// maxFileName bounds the q of match/event: file names are shorter, and a longer one could
// only cost work.
const maxFileName = 400

// matchEvent answers the events a media file's name (q) most likely records, best first,
// each inside {"score":"0.97","why":"...","event":{...}}; a name that is no game is no data.
func matchEvent(r *api.Request, a args) (api.Answer, error) {
	if a.query == "" || len(a.query) > maxFileName || !api.Printable(a.query) {
		return api.None, nil
	}
	rs, err := match.Find(r.Ctx, r.Records(), a.query)
	if err != nil || len(rs) == 0 {
		return api.None, err
	}
	ans := api.Answer{Recs: make([]record.Record, len(rs))}
	for i, res := range rs {
		ans.Recs[i] = res.Event
	}
	ans.Wrap = func(i int) []byte {
		b := []byte(`{"score":`)
		b = record.AppendString(b, rs[i].ScoreText())
		b = append(b, `,"why":`...)
		b = record.AppendString(b, rs[i].Why)
		return append(b, `,"event":`...)
	}
	return ans, nil
}
