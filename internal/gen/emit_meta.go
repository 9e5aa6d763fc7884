package gen

import (
	"fmt"
	"strings"

	"sportsdb/internal/record"
)

// emitters maps each kind to the pass that writes it.
func (w *world) emitters() map[*record.Kind]func(*batcher) error {
	return map[*record.Kind]func(*batcher) error{
		record.Sport: w.emitSports, record.Country: w.emitCountries, record.League: w.emitLeagues,
		record.Season: w.emitSeasons, record.SeasonPoster: w.emitSeasonPosters, record.Venue: w.emitVenues,
		record.Team: w.emitTeams, record.Player: w.emitPlayers, record.Event: w.emitEvents,
		record.Standing: w.emitStandings, record.Equipment: w.emitEquipment, record.Honour: w.emitHonours,
		record.FormerTeam: w.emitFormerTeams, record.Milestone: w.emitMilestones, record.Contract: w.emitContracts,
		record.Result: w.emitResults, record.PlayerStat: w.emitPlayerStats, record.Lineup: w.emitLineups,
		record.Timeline: w.emitTimelines, record.EventStat: w.emitEventStats, record.TV: w.emitTV,
		record.Highlight: w.emitHighlights, record.LiveScore: w.emitLiveScores,
	}
}

func (w *world) emitSports(wr *batcher) error {
	for _, s := range w.sports {
		format := "TeamvsTeam"
		if s.individual {
			format = "EventSport"
		}
		r := fields(record.Sport, "idSport", s.id, "strSport", s.name, "strFormat", format,
			"strSportThumb", "https://www.thesportsdb.com/images/sports/"+s.slug+".jpg",
			"strSportThumbBW", "https://www.thesportsdb.com/images/sports/bw/"+s.slug+".jpg",
			"strSportIconGreen", "https://www.thesportsdb.com/images/icons/sports/"+s.slug+".png",
			"strSportDescription", sportText(s))
		if err := wr.put(r); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) emitCountries(wr *batcher) error {
	for _, c := range w.countries {
		flag := "https://www.thesportsdb.com/images/icons/flags/shiny/%d/" + slugName(c.name) + ".png"
		r := fields(record.Country, "code", c.code, "name_en", c.name, "name_fr", c.nameFR,
			"flag_url_16", fmt.Sprintf(flag, 16), "flag_url_32", fmt.Sprintf(flag, 32), "flag_url_64", fmt.Sprintf(flag, 64))
		if err := wr.put(r); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) emitLeagues(wr *batcher) error {
	for _, l := range w.leagues {
		r := w.g.at(pLeague, l.id)
		site := slug(l.name)
		var apiFootball any
		if l.sport == soccer {
			apiFootball = 1000 + r.IntN(9000)
		}
		rec := fields(record.League, "idLeague", l.id, "idAPIfootball", apiFootball, "idAPIfootballv3", apiFootball,
			"strSport", l.sport.name, "strLeague", l.name, "strLeagueAlternate", l.alt, "intDivision", l.division, "idCup", "0",
			"strCurrentSeason", w.seasonName(l, 0), "intFormedYear", l.formed, "dateFirstEvent", fmt.Sprintf("%d-08-15", l.formed),
			"strGender", "Male", "strCountry", l.country.name, "strWebsite", "www."+site+".com",
			"strFacebook", "www.facebook.com/"+site, "strInstagram", "www.instagram.com/"+site, "strTwitter", "twitter.com/"+site,
			"strYoutube", "www.youtube.com/"+site, "strRSS", "", "strDescriptionEN", leagueText(l),
			"strTvRights", tvRights(l), "strFanart1", image(r, "league/fanart", "jpg"), "strFanart2", image(r, "league/fanart", "jpg"),
			"strFanart3", image(r, "league/fanart", "jpg"), "strFanart4", image(r, "league/fanart", "jpg"),
			"strBanner", image(r, "league/banner", "jpg"), "strBadge", w.leagueBadge(l), "strLogo", image(r, "league/logo", "png"),
			"strPoster", image(r, "league/poster", "jpg"), "strTrophy", image(r, "league/trophy", "png"),
			"strNaming", "{strHomeTeam} vs {strAwayTeam}", "strComplete", "yes", "strLocked", "unlocked")
		if err := wr.put(rec); err != nil {
			return err
		}
	}
	return nil
}

func tvRights(l *league) string {
	var lines []string
	for _, c := range channelsFor(l.sport.name) {
		lines = append(lines, c.country+" - "+c.name)
	}
	return strings.Join(lines, " \r\n")
}

// channelsFor lists the channels that show a sport.
func channelsFor(sport string) []channelDef {
	var out []channelDef
	for _, c := range channels {
		if len(c.sports) == 0 {
			out = append(out, c)
			continue
		}
		for _, s := range c.sports {
			if s == sport {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Images that several kinds repeat (a league's badge on its events, a team's badge on table
// rows) come from their own generator so every copy is the same address.
func (w *world) leagueBadge(l *league) string {
	return image(w.ig.at(pLeague, l.id), "league/badge", "png")
}

func (w *world) teamBadge(t *team) string {
	return image(w.ig.at(pTeam, t.id), "team/badge", "png")
}

func (w *world) emitSeasons(wr *batcher) error {
	for _, l := range w.leagues {
		for s := w.sc.listedSeasons - 1; s >= 0; s-- {
			name := w.seasonName(l, s)
			r := w.g.at(pSeason, l.id*64+s)
			n := w.now.Year() - s - l.formed + 1
			rec := fields(record.Season, "idLeague", l.id, "strSeason", name,
				"strPoster", optional(s < 3, image(r, "league/posterarchive", "jpg")),
				"strBadge", image(r, "league/badgearchive", "png"), "strDescriptionEN", seasonText(l, name, n))
			if err := wr.put(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *world) emitSeasonPosters(wr *batcher) error {
	id := 1000
	for _, l := range w.leagues {
		for s := range min(3, w.sc.listedSeasons) {
			name := w.seasonName(l, s)
			r := w.g.at(pSeason, l.id*64+s+32)
			for range 1 + r.IntN(2) {
				id++
				rec := fields(record.SeasonPoster, "idArt", id, "idLeague", l.id, "strSeason", name,
					"strDescriptionEN", seasonText(l, name, w.now.Year()-s-l.formed+1),
					"strBadge", image(r, "league/badgearchive", "png"), "strPoster", image(r, "league/posterarchive", "jpg"),
					"strUsername", pick(r, usernames))
				if err := wr.put(rec); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (w *world) emitVenues(wr *batcher) error {
	for _, t := range w.teams {
		v := t.venue
		r := w.g.at(pVenue, v.id)
		arch := pick(r, lastNames[v.country.region])
		rec := fields(record.Venue, "idVenue", v.id, "strVenue", v.name, "intLoved", r.IntN(5), "strVenueAlternate", "",
			"strVenueSponsor", "", "strSport", v.sport.name,
			"strDescriptionEN", fmt.Sprintf("%s is the home of %s in %s. It opened in %d and holds %d spectators.", v.name, t.name, v.city, t.formed+r.IntN(90), v.capacity),
			"strArchitect", arch+" Associates", "intCapacity", v.capacity, "strCost", fmt.Sprintf("€%d million", 20+r.IntN(600)),
			"strCountry", v.country.name, "strLocation", v.city+", "+v.country.name, "strTimezone", timezone(v.country.offset),
			"intFormedYear", t.formed+r.IntN(90), "strFanart1", image(r, "venue/fanart", "jpg"), "strFanart2", image(r, "venue/fanart", "jpg"),
			"strFanart3", image(r, "venue/fanart", "jpg"), "strFanart4", image(r, "venue/fanart", "jpg"), "strThumb", image(r, "venue/thumb", "jpg"),
			"strLogo", image(r, "venue/logo", "png"), "strMap", image(r, "venue/map", "jpg"), "strWebsite", "www."+slug(v.name)+".com",
			"strFacebook", "", "strInstagram", "", "strTwitter", "", "strYoutube", "", "strCreativeCommons", pick(r, []string{"Yes", "No", "NO"}),
			"strLocked", "unlocked")
		if err := wr.put(rec); err != nil {
			return err
		}
	}
	return nil
}

func timezone(offset int) string {
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	return fmt.Sprintf("UTC %s%02d:00", sign, offset)
}
