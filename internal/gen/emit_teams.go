package gen

import (
	"fmt"
	"strings"

	"sportsdb/internal/record"
)

func (w *world) emitTeams(wr *batcher) error {
	for _, t := range w.teams {
		if err := wr.put(w.teamRecord(t)); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) teamRecord(t *team) record.Record {
	l := t.league
	r := w.g.at(pTeam, t.id)
	site := slug(t.name)
	kv := []any{"idTeam", t.id, "idESPN", r.IntN(5000), "idAPIfootball", optional(l.sport == soccer, fmt.Sprint(r.IntN(20000))),
		"intLoved", optional(r.IntN(3) > 0, fmt.Sprint(r.IntN(12))), "strTeam", t.name, "strTeamAlternate", t.alt,
		"strTeamShort", t.short, "intFormedYear", t.formed, "strSport", l.sport.name, "strLeague", l.name, "idLeague", l.id}
	for i := 2; i <= 7; i++ {
		kv = append(kv, fmt.Sprintf("strLeague%d", i), "", fmt.Sprintf("idLeague%d", i), nil)
	}
	kv = append(kv, "strDivision", nil, "idVenue", t.venue.id, "strStadium", t.venue.name, "strKeywords", t.keywords, "strRSS", "",
		"strLocation", t.city+", "+l.country.name, "strWebsite", "www."+site+".com", "strFacebook", "www.facebook.com/"+site,
		"strTwitter", "twitter.com/"+site, "strInstagram", "instagram.com/"+site)
	sport := strings.ToLower(l.sport.name)
	if l.sport == soccer {
		sport = "football"
	}
	kv = append(kv, teamDescriptions(t.name, t.city, t.formed, sport)...)
	c1 := r.IntN(len(colours))
	kv = append(kv, "strColour1", colours[c1], "strColour2", colours[(c1+1+r.IntN(len(colours)-1))%len(colours)], "strColour3", "",
		"strGender", "Male", "strCountry", l.country.name, "strBadge", w.teamBadge(t), "strLogo", image(r, "team/logo", "png"),
		"strFanart1", image(r, "team/fanart", "jpg"), "strFanart2", image(r, "team/fanart", "jpg"),
		"strFanart3", image(r, "team/fanart", "jpg"), "strFanart4", image(r, "team/fanart", "jpg"),
		"strBanner", image(r, "team/banner", "jpg"), "strEquipment", image(r, "team/equipment", "png"),
		"strYoutube", "www.youtube.com/"+site, "strLocked", "unlocked")
	return fields(record.Team, kv...)
}

func (w *world) emitPlayers(wr *batcher) error {
	for _, t := range w.teams {
		for slot := range t.nPlayers {
			if err := wr.put(w.playerRecord(w.player(t, slot))); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *world) playerRecord(p player) record.Record {
	t, sp := p.team, p.team.league.sport
	r := w.g.at(pPlayer, p.id)
	handle := slug(p.name())
	cutout := w.playerImage(p, "cutout")
	return fields(record.Player, "idPlayer", p.id, "idTeam", t.id, "idTeam2", nil, "idTeamNational", nil,
		"idAPIfootball", optional(sp == soccer, fmt.Sprint(r.IntN(400000))), "idPlayerManager", nil,
		"idWikidata", fmt.Sprintf("Q%d", 100000+r.IntN(9000000)), "idTransferMkt", optional(sp == soccer, fmt.Sprint(r.IntN(900000))),
		"idESPN", fmt.Sprint(r.IntN(900000)), "idGoogle", nil, "strNationality", p.nationality, "strPlayer", p.name(),
		"strPlayerAlternate", "", "strTeam", t.name, "strTeam2", "", "strSport", sp.name, "intSoccerXMLTeamID", nil,
		"dateBorn", p.born.Format(layoutDate), "dateDied", nil, "strNumber", p.number,
		"dateSigned", p.born.AddDate(between(r, 18, 22), r.IntN(12), 0).Format(layoutDate), "strSigning", "", "strWage", "",
		"strOutfitter", "", "strKit", "", "strAgent", "", "strBirthLocation", t.city+", "+p.nationality, "strDeathLocation", nil,
		"strEthnicity", "", "strStatus", "Active", "strDescriptionEN", playerText(p, sp.name),
		"strGender", "Male", "strSide", pick(r, []string{"Right", "Left", "Right"}), "strPosition", p.position, "strCollege", nil,
		"strFacebook", "", "strWebsite", "", "strTwitter", "twitter.com/"+handle, "strInstagram", "instagram.com/"+handle, "strYoutube", "",
		"strHeight", fmt.Sprintf("%d cm", between(r, 168, 202)), "strWeight", fmt.Sprintf("%d kg", between(r, 62, 105)),
		"intLoved", r.IntN(4), "strThumb", w.playerImage(p, "thumb"), "strPoster", nil, "strCutout", cutout, "strCartoon", nil,
		"strRender", w.playerImage(p, "render"), "strBanner", nil, "strFanart1", image(r, "player/fanart", "jpg"),
		"strFanart2", nil, "strFanart3", nil, "strFanart4", nil, "strCreativeCommons", "No", "strCreativeCommonsAttribution", "",
		"strLocked", "unlocked", "strLastName", p.last)
}

// playerImage is the same address on the player and on every lineup and timeline row.
func (w *world) playerImage(p player, kind string) string {
	ext := "png"
	if kind == "thumb" {
		ext = "jpg"
	}
	var salt int
	switch kind {
	case "thumb":
		salt = 1
	case "render":
		salt = 2
	}
	return image(w.ig.at(pPlayer, p.id*4+salt), "player/"+kind, ext)
}

func (w *world) emitEquipment(wr *batcher) error {
	id := 100
	for _, t := range w.teams {
		r := w.g.at(pKit, t.id)
		n := 1 + r.IntN(3)
		if !t.league.detailed {
			n = r.IntN(2)
		}
		season := w.seasonName(t.league, 0)
		for i := range n {
			id++
			date := day(w.now).AddDate(0, -between(r, 2, 5), -r.IntN(28)).Add(timeOfDay(r))
			rec := fields(record.Equipment, "idEquipment", id, "idTeam", t.id, "date", date.Format(layoutSpace),
				"strSeason", season, "strEquipment", fmt.Sprintf("https://r2.thesportsdb.com/images/media/team/equipment/%d-%d-%s.png", date.Year(), t.id, []string{"Jersey", "Away", "Third"}[i]),
				"strType", []string{"1st", "2nd", "3rd"}[i], "strUsername", pick(r, usernames))
			if err := wr.put(rec); err != nil {
				return err
			}
		}
	}
	return nil
}
