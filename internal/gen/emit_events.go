package gen

import (
	"fmt"
	"strconv"
	"time"

	"sportsdb/internal/record"
)

func (w *world) emitEvents(wr *batcher) error {
	for _, l := range w.leagues {
		for s := w.sc.eventSeasons - 1; s >= 0; s-- {
			err := w.eachMatch(l, s, func(m *match) error { return wr.put(w.eventRecord(m)) })
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// eventName is strEvent: "{Home} vs {Away}" or the individual event's own name.
func (m *match) eventName() string {
	if m.home == nil {
		return m.name
	}
	return m.home.name + " vs " + m.away.name
}

func (w *world) eventRecord(m *match) record.Record {
	l := m.l
	r := w.g.at(pEvent, m.id)
	local := m.kickoff.Add(time.Duration(l.country.offset) * time.Hour)
	played := m.state == finished || m.state == inPlay
	recent := m.season == 0
	img := w.eventImages(m)
	video := ""
	if _, ok := w.highlightDay(m); ok {
		video = w.video(m)
	}
	status := optional(m.season == 0 || l.idx%3 != 0, m.status())
	pp := "no"
	if m.state == postponed {
		pp = "yes"
	}
	kv := []any{"idEvent", m.id, "idAPIfootball", nil, "strTimestamp", m.kickoff.Format(layoutStamp),
		"strEvent", m.eventName(), "strEventAlternate", nil, "strFilename", l.name + " " + m.kickoff.Format(layoutDate) + " " + m.eventName(),
		"strSport", l.sport.name, "idLeague", l.id, "strLeague", l.name, "strLeagueBadge", w.leagueBadge(l),
		"strSeason", w.seasonName(l, m.season), "strDescriptionEN", "", "intRound", m.round + 1,
		"intHomeScore", nil, "intAwayScore", nil, "intSpectators", nil, "strOfficial", "", "strWeather", "",
		"dateEvent", m.kickoff.Format(layoutDate), "dateEventLocal", local.Format(layoutDate),
		"strTime", m.kickoff.Format(layoutTime), "strTimeLocal", local.Format(layoutTime), "strGroup", "",
		"intScore", nil, "intScoreVotes", nil, "strResult", "", "strCountry", l.country.name,
		"strPoster", optional(recent, img[1]), "strSquare", optional(recent, img[3]), "strFanart", nil,
		"strThumb", optional(recent, img[0]), "strBanner", optional(recent, img[2]), "strMap", nil, "strTweet1", "",
		"strVideo", video, "strStatus", status, "strPostponed", pp, "strLocked", "unlocked"}
	if m.home != nil {
		kv = append(kv, "strEventAlternate", m.away.name+" @ "+m.home.name, "strHomeTeam", m.home.name, "strAwayTeam", m.away.name,
			"idHomeTeam", m.home.id, "idAwayTeam", m.away.id, "strHomeTeamBadge", w.teamBadge(m.home), "strAwayTeamBadge", w.teamBadge(m.away),
			"idVenue", m.home.venue.id, "strVenue", m.home.venue.name, "strCity", m.home.venue.city)
		if played {
			kv = append(kv, "intHomeScore", m.hs, "intAwayScore", m.as)
		}
		if m.state == finished && l.sport == soccer {
			kv = append(kv, "intSpectators", m.home.venue.capacity*between(r, 60, 100)/100)
		}
		if m.state == finished && recent {
			kv = append(kv, "strResult", fmt.Sprintf("%s %d-%d %s at %s.", m.home.name, m.hs, m.as, m.away.name, m.home.venue.name))
		}
		if recent {
			kv = append(kv, "strDescriptionEN", fmt.Sprintf("%s host %s at %s in round %d of the %s %s.", m.home.name, m.away.name, m.home.venue.name, m.round+1, w.seasonName(l, 0), l.name))
		}
	} else {
		v := l.teams[m.round%len(l.teams)].venue
		kv = append(kv, "idVenue", v.id, "strVenue", v.name, "strCity", v.city)
	}
	return fields(record.Event, kv...)
}

// eventImages are thumb, poster, banner and square, shared by the event and its TV rows.
func (w *world) eventImages(m *match) [4]string {
	r := w.ig.at(pEvent, m.id)
	return [4]string{image(r, "event/thumb", "jpg"), image(r, "event/poster", "jpg"), image(r, "event/banner", "jpg"), image(r, "event/square", "jpg")}
}

func (w *world) video(m *match) string { return youtube(w.ig.at(pTV, m.id)) }

// highlightDay is the day a finished recent event's highlight video is listed: the day
// after it was played, or today for a game that finished today.
func (w *world) highlightDay(m *match) (time.Time, bool) {
	if m.state != finished || !m.l.detailed || m.season != 0 {
		return time.Time{}, false
	}
	d, today := day(m.kickoff), day(w.now)
	if d.Before(today.AddDate(0, 0, -3)) {
		return time.Time{}, false
	}
	if d.Before(today) {
		d = d.AddDate(0, 0, 1)
	}
	return d, true
}

// nearRounds is the range of rounds of the current season within days of Now.
func (w *world) nearRounds(l *league, before, after int) (int, int) {
	c := l.current()
	return c - before/l.interval - 1, c + after/l.interval + 1
}

func (w *world) emitHighlights(wr *batcher) error {
	for _, l := range w.leagues {
		if !l.detailed {
			continue
		}
		from, to := w.nearRounds(l, 4, 0)
		err := w.eachMatchIn(l, 0, from, to, func(m *match) error {
			d, ok := w.highlightDay(m)
			if !ok {
				return nil
			}
			img := w.eventImages(m)
			rec := fields(record.Highlight, "idEvent", m.id, "strEvent", m.eventName(), "strSport", l.sport.name, "idLeague", l.id,
				"strLeague", l.name, "strVideo", w.video(m), "strPoster", img[1], "strThumb", img[0], "strFanart", nil,
				"strSeason", w.seasonName(l, 0), "dateEvent", d.Format(layoutDate))
			return wr.put(rec)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *world) emitTV(wr *batcher) error {
	id := 1200000
	today := day(w.now)
	for _, l := range w.leagues {
		if !l.detailed {
			continue
		}
		chans := channelsFor(l.sport.name)
		from, to := w.nearRounds(l, 1, 7)
		err := w.eachMatchIn(l, 0, from, to, func(m *match) error {
			if m.kickoff.Before(today.AddDate(0, 0, -1)) || !m.kickoff.Before(today.AddDate(0, 0, 7)) || m.state == postponed {
				return nil
			}
			r := w.g.at(pTV, m.id)
			img := w.eventImages(m)
			first, n := r.IntN(len(chans)), 1+r.IntN(min(3, len(chans)))
			for k := range n {
				c := chans[(first+k)%len(chans)]
				id++
				rec := fields(record.TV, "id", id, "idEvent", m.id, "intDivision", "0", "strSport", l.sport.name, "strEvent", m.eventName(),
					"strEventThumb", img[0], "strEventPoster", img[1], "strEventBanner", img[2], "strEventSquare", img[3],
					"idChannel", c.id, "strCountry", c.country, "strEventCountry", l.country.name,
					"strLogo", image(w.ig.at(pTV, -c.id), "channel/logo", "png"), "strChannel", c.name,
					"strSeason", w.seasonName(l, 0), "strTime", m.kickoff.Format(layoutTime), "dateEvent", m.kickoff.Format(layoutDate),
					"strTimeStamp", m.kickoff.Format(layoutSpace))
				if err := wr.put(rec); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *world) emitLiveScores(wr *batcher) error {
	id := 21500000
	for _, l := range w.leagues {
		if l.sport.individual {
			continue
		}
		from, to := w.nearRounds(l, 1, 1)
		err := w.eachMatchIn(l, 0, from, to, func(m *match) error {
			if !w.onLiveFeed(m) {
				return nil
			}
			id++
			r := w.g.at(pEvent, -m.id)
			rec := fields(record.LiveScore, "idLiveScore", id, "idEvent", m.id, "strSport", l.sport.name, "idLeague", l.id,
				"strLeague", l.name, "intDivision", l.division, "idHomeTeam", m.home.id, "idAwayTeam", m.away.id,
				"strHomeTeam", m.home.name, "strAwayTeam", m.away.name, "strHomeTeamBadge", w.teamBadge(m.home),
				"strAwayTeamBadge", w.teamBadge(m.away), "intHomeScore", m.hs, "intAwayScore", m.as, "strStatus", m.status(),
				"strProgress", m.progress(), "strTimestamp", m.kickoff.Format(layoutStamp), "strEventTime", m.kickoff.Format("15:04"),
				"dateEvent", m.kickoff.Format(layoutDate), "updated", w.now.Add(-time.Duration(r.IntN(180))*time.Second).Format(layoutSpace))
			return wr.put(rec)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// onLiveFeed: games in play, and games that ended within the last hour, which the feed
// still lists as "Final".
func (w *world) onLiveFeed(m *match) bool {
	switch m.state {
	case inPlay:
		return true
	case finished:
		end := m.kickoff.Add(time.Duration(m.l.sport.minutes) * time.Minute)
		return w.now.Sub(end) < time.Hour
	}
	return false
}

// progress is strProgress on the live feed: the minute of play, or "Final".
func (m *match) progress() string {
	if m.state == finished {
		return "Final"
	}
	return strconv.Itoa(m.minute())
}
