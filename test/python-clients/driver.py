#!/usr/bin/python3
"""Runs one published Python client of TheSportsDB, unchanged, against a sportsdb server.

    driver.py CLIENT DIR

CLIENT is tralahm (TralahM/thesportsdb), kodi-tv (pkscout/metadata.tvshows.thesportsdb.python)
or enen92 (enen92/script.module.thesportsdb); DIR is its checkout. The server and key come
from SPORTSDB_URL, SPORTSDB_KEY and SPORTSDB_TIER (free or premium). Every public function or
entry point of the client is called with ids and names of the demo data and of the imported
recordings (testdata/recorded), and its result is checked: the records the call asked for
(ids, names, dates tied to the request) within the tier's cap. A call listed in BUGS is the
client's own bug: it must fail in the way written there. One line per call; exit 1 when a
call fails otherwise, or when a listed bug does not show.
"""
import datetime
import json
import os
import sys
import urllib.parse

URL = os.environ["SPORTSDB_URL"].rstrip("/")
KEY = os.environ["SPORTSDB_KEY"]
TIER = os.environ.get("SPORTSDB_TIER", "free")
FREE = TIER == "free"

# Ids and names: the demo dataset (sportsdb gen, seed 1) and the recordings imported over it.
LEAGUE, LEAGUE_NAME, SEASON = "4328", "English Premier League", "2026-2027"
TEAM, TEAM_NAME, TEAM_SHORT = "133604", "Arsenal", "ARS"
PLAYER = "34145937"  # recorded lookupplayer.php
DEMO_PLAYER = "34200001"  # demo: honours, milestones, a contract
FORMER_PLAYER = "34147178"  # recorded lookupformerteams.php
EVENT = "441613"  # recorded lookupevent.php
RESULT_EVENT = "652890"  # recorded eventresults.php
LINEUP_EVENT = "1032723"  # recorded lookuplineup.php and lookupeventstats.php
TIMELINE_EVENT = "1032718"  # recorded lookuptimeline.php
TV_EVENT = "2494052"  # recorded lookuptv.php
VENUE = "15528"
DAY = "2026-10-04"  # recorded eventsday.php
FILENAME = "English_Premier_League_2026-09-06_Arsenal_vs_Chelsea"  # recorded searchevents.php


def cap(free, premium):
    return free if FREE else premium


class Failed(Exception):
    pass


def records(out, key, at_most=None, at_least=1):
    """The list under key, asserting its length."""
    if not isinstance(out, dict):
        raise Failed("answer is %s, not a JSON object: %.120r" % (type(out).__name__, out))
    recs = out.get(key)
    if not isinstance(recs, list):
        raise Failed("%r holds %.120r, not records" % (key, recs if key in out else out))
    if len(recs) < at_least or (at_most is not None and len(recs) > at_most):
        raise Failed("%d records under %r, want %d to %s" % (len(recs), key, at_least, at_most))
    return recs


def each(recs, what, ok):
    for r in recs:
        if not ok(r):
            raise Failed("a record is not %s: %.200r" % (what, r))


def expect(cond, what):
    if not cond:
        raise Failed(what)


def in_league(r):
    return LEAGUE in [r.get("idLeague")] + [r.get("idLeague%d" % i) for i in range(2, 8)]


# Calls that are the clients' own bugs: name -> (what the client does wrong, a text the
# failure shows). The same list, with sportsdb's answers, is in test/README.md. The calls in
# UNSERVED ask for what sportsdb does not have (user accounts); they are listed there too.
BUGS = {
    "tralahm events.leagueSeasonEvents": ("sends eventsseason.php?l=; the file takes id=", "holds None"),
    "tralahm events.leagueSeasonRoundEvents": (
        "sends eventsround.php?l=; the file takes id= (premium keys: the file is free-only, 404)",
        "Invalid League ID or no round passed" if FREE else "Not found"),
    "tralahm events.eventLineups": ("requests the retired lookuplineups.php (it is lookuplineup.php)", "Not found"),
    "tralahm leagues.listSeasons": ("sends search_all_seasons.php?l=; the file takes id=", "Invalid League ID passed"),
    "tralahm players.playerHonours": ("reads settings.PLAYER_HONOURS, which settings.py does not define", "AttributeError"),
    "tralahm search.searchVenue": ("sends searchvenues.php?t=; the file takes v=", "holds None"),
    "tralahm search.searchUserLoves": ("searchloves.php: user accounts, which sportsdb does not have", "Not found"),
    "enen92 Lookups.Seasons": ("reads strSeason from lookupleague.php?s=all; league records have no strSeason", "KeyError"),
    "enen92 Lookups.Table objects": ("reads teamid from table rows; the field is idTeam", "IndexError"),
    "enen92 Search.Leagues": ("reads the key countrys; search_all_leagues.php's key is countries", "KeyError"),
    "enen92 Search.Loves": ("searchloves.php: user accounts, which sportsdb does not have", "HTTP Error 404"),
    "enen92 Livescores.Soccer": ("requests latestsoccer.php, not a file of the API (it is livescore.php)", "HTTP Error 404"),
    "enen92 League.strDescription": ("league.py uses xbmc without importing it", "NameError"),
    "enen92 Player.strDescription": ("player.py uses xbmc without importing it", "NameError"),
}
if not FREE:
    BUGS["enen92 Schedules.Lookup round"] = ("eventsround.php is free-only: premium keys get 404, as from the public service", "HTTP Error 404")

UNSERVED = {"tralahm search.searchUserLoves", "enen92 Search.Loves"}

results = []  # (status, name, detail)


def call(name, fn, check=None):
    """Runs one client call and its check; records PASS, BUG (the listed bug showed) or FAIL."""
    try:
        out = fn()
        if check is not None:
            check(out)
        err = None
    except Failed as e:
        err = str(e)
    except Exception as e:  # the client raised: that is its failure, reported as such
        err = "raised %s: %s" % (type(e).__name__, e)
    bug = BUGS.get(name)
    if bug is None:
        results.append(("FAIL", name, err) if err else ("PASS", name, ""))
    elif err is None:
        results.append(("FAIL", name, "listed as a client bug (%s) but passed" % bug[0]))
    elif bug[1] not in err:
        results.append(("FAIL", name, "listed bug (%s) should show %r; got %s" % (bug[0], bug[1], err)))
    else:
        results.append(("GAP" if name in UNSERVED else "BUG", name, "%s: %s" % (bug[0], err)))


def tralahm(path):
    sys.path.insert(0, path)
    os.environ["THESPORTSDB_API_KEY"] = KEY
    from thesportsdb import countries, events, leagues, players, search, settings, sports, teams

    settings.BASE_URL = URL + "/api/v1/json/"  # the client's one setting for the server
    c = "tralahm "

    def one(key, field, value):
        return lambda out: each(records(out, key, 1), "%s %s" % (field, value), lambda r: r.get(field) == value)

    call(c + "countries.allCountries", countries.allCountries,
         lambda out: each(records(out, "countries", cap(50, 500)), "a country", lambda r: r.get("name_en")))
    call(c + "countries.listLeaguesByCountry", lambda: countries.listLeaguesByCountry("England"),
         lambda out: each(records(out, "countries", cap(10, 100)), "English", lambda r: r["strCountry"] == "England"))
    call(c + "countries.listLeaguesByCountry s", lambda: countries.listLeaguesByCountry("England", s="Soccer"),
         lambda out: each(records(out, "countries", cap(10, 100)), "soccer", lambda r: r["strSport"] == "Soccer"))
    call(c + "events.nextLeagueEvents", lambda: events.nextLeagueEvents(LEAGUE),
         lambda out: each(records(out, "events", cap(1, 20)), "of the league", in_league))
    call(c + "events.lastLeagueEvents", lambda: events.lastLeagueEvents(LEAGUE),
         lambda out: each(records(out, "events", cap(1, 20)), "of the league", in_league))
    call(c + "events.leagueSeasonEvents", lambda: events.leagueSeasonEvents(LEAGUE, SEASON),
         lambda out: records(out, "events", cap(15, 3000)))
    call(c + "events.leagueSeasonRoundEvents", lambda: events.leagueSeasonRoundEvents(LEAGUE, SEASON, "1"),
         lambda out: records(out, "events"))
    call(c + "events.eventResult", lambda: events.eventResult(RESULT_EVENT),
         lambda out: each(records(out, "results", cap(5, 100)), "of the event", lambda r: r["idEvent"] == RESULT_EVENT))
    call(c + "events.eventInfo", lambda: events.eventInfo(EVENT), one("events", "idEvent", EVENT))
    call(c + "events.eventStats", lambda: events.eventStats(LINEUP_EVENT),
         lambda out: each(records(out, "eventstats", cap(5, 100)), "of the event", lambda r: r["idEvent"] == LINEUP_EVENT))
    call(c + "events.eventLineups", lambda: events.eventLineups(LINEUP_EVENT), lambda out: records(out, "lineup"))
    call(c + "events.eventTimeline", lambda: events.eventTimeline(TIMELINE_EVENT),
         lambda out: each(records(out, "timeline", cap(5, 100)), "of the event", lambda r: r["idEvent"] == TIMELINE_EVENT))
    call(c + "events.eventTv", lambda: events.eventTv(TV_EVENT),
         lambda out: each(records(out, "tvevent", cap(2, 100)), "of the event", lambda r: r["idEvent"] == TV_EVENT))
    call(c + "events.eventsDay", lambda: events.eventsDay(DAY),
         lambda out: each(records(out, "events", cap(3, 1500)), "on the day", lambda r: r["dateEvent"] == DAY))
    call(c + "events.eventsDay s", lambda: events.eventsDay(DAY, s="Soccer"),
         lambda out: each(records(out, "events", cap(3, 1500)), "soccer", lambda r: r["strSport"] == "Soccer"))
    call(c + "events.venueInfo", lambda: events.venueInfo(VENUE), one("venues", "idVenue", VENUE))
    call(c + "leagues.allLeagues", leagues.allLeagues, lambda out: records(out, "leagues", cap(10, 3000)))
    call(c + "leagues.listSeasons", lambda: leagues.listSeasons(LEAGUE), lambda out: records(out, "seasons"))
    call(c + "leagues.listTeams", lambda: leagues.listTeams(LEAGUE),
         lambda out: each(records(out, "teams", cap(10, 3000)), "of the league", in_league))
    call(c + "leagues.leagueSeasonTable", lambda: leagues.leagueSeasonTable(LEAGUE, SEASON),
         lambda out: each(records(out, "table", cap(5, 100)), "of the season", lambda r: r["strSeason"] == SEASON))
    call(c + "players.playerHonours", lambda: players.playerHonours(DEMO_PLAYER), lambda out: records(out, "honours"))
    call(c + "players.playerMilestones", lambda: players.playerMilestones(DEMO_PLAYER),
         lambda out: each(records(out, "milestones", cap(5, 100)), "of the player", lambda r: r["idPlayer"] == DEMO_PLAYER))
    call(c + "players.playerContracts", lambda: players.playerContracts(DEMO_PLAYER),
         lambda out: each(records(out, "contracts", cap(1, 100)), "of the player", lambda r: r["idPlayer"] == DEMO_PLAYER))
    call(c + "players.playerFormerTeams", lambda: players.playerFormerTeams(FORMER_PLAYER),
         lambda out: each(records(out, "formerteams", cap(5, 100)), "of the player", lambda r: r["idPlayer"] == FORMER_PLAYER))
    call(c + "search.searchTeam", lambda: search.searchTeam(TEAM_NAME),
         lambda out: expect(records(out, "teams", cap(1, 100))[0]["strTeam"] == TEAM_NAME, "first team is not Arsenal"))
    call(c + "search.searchTeamByCode", lambda: search.searchTeamByCode(TEAM_SHORT), one("teams", "strTeamShort", TEAM_SHORT))
    call(c + "search.searchPlayersByTeam", lambda: search.searchPlayersByTeam(TEAM_NAME),
         lambda out: each(records(out, "player", cap(1, 10)), "of the team", lambda r: r["strTeam"] == TEAM_NAME))
    call(c + "search.searchPlayer", lambda: search.searchPlayer("Danny Welbeck"),
         lambda out: expect("Welbeck" in records(out, "player", cap(1, 10))[0]["strPlayer"], "no Welbeck first"))
    call(c + "search.searchPlayer team", lambda: search.searchPlayer("Aaron", TEAM_NAME),
         lambda out: each(records(out, "player", cap(1, 10)), "an Aaron of Arsenal",
                          lambda r: r["strTeam"] == TEAM_NAME and "aaron" in r["strPlayer"].lower()))
    call(c + "search.searchEvent", lambda: search.searchEvent("Arsenal_vs_Chelsea"),
         lambda out: each(records(out, "event", cap(1, 10)), "Arsenal vs Chelsea", lambda r: r["strEvent"] == "Arsenal vs Chelsea"))
    call(c + "search.searchEvent season", lambda: search.searchEvent("Arsenal_vs_Chelsea", "2016-2017"),
         lambda out: each(records(out, "event", cap(1, 10)), "of 2016-2017", lambda r: r["strSeason"] == "2016-2017"))
    call(c + "search.searchEventByFilename", lambda: search.searchEventByFilename(FILENAME),
         lambda out: expect(records(out, "event", 1)[0]["strFilename"] == FILENAME.replace("_", " "), "another file name"))
    call(c + "search.searchVenue", lambda: search.searchVenue("Wembley"), lambda out: records(out, "venues"))
    call(c + "search.searchUserLoves", lambda: search.searchUserLoves("zag"), lambda out: records(out, "players"))
    call(c + "sports.allSports", sports.allSports, lambda out: records(out, "sports", cap(2, 50)))
    call(c + "teams.leagueTeams", lambda: teams.leagueTeams(LEAGUE),
         lambda out: each(records(out, "teams", cap(10, 3000)), "of the league", in_league))
    call(c + "teams.teamInfo", lambda: teams.teamInfo(TEAM), one("teams", "idTeam", TEAM))
    call(c + "teams.listPlayers", lambda: teams.listPlayers(TEAM),
         lambda out: each(records(out, "player", cap(10, 3000)), "of the team", lambda r: r["idTeam"] == TEAM))
    call(c + "teams.nextEvents", lambda: teams.nextEvents(TEAM),
         lambda out: each(records(out, "events", cap(1, 10)), "a game of the team (home only for free keys)",
                          lambda r: r["idHomeTeam"] == TEAM or (not FREE and r["idAwayTeam"] == TEAM)))
    call(c + "teams.lastEvents", lambda: teams.lastEvents(TEAM),
         lambda out: each(records(out, "results", cap(1, 10)), "a game of the team",
                          lambda r: TEAM in (r["idHomeTeam"], r["idAwayTeam"])))
    # Functions that answer from the client's own tables, without a request.
    local = [("leagues.leagueInfo", lambda: leagues.leagueInfo(LEAGUE)), ("leagues.sportLeagues", lambda: leagues.sportLeagues("102")),
             ("sports.sportInfo", lambda: sports.sportInfo("102")), ("sports.TeamVsTeamSports", sports.TeamVsTeamSports),
             ("sports.nonTeamVsTeamSports", sports.nonTeamVsTeamSports)]
    for n, fn in local:
        expect(fn(), n + " answered nothing")
    return [n for n, _ in local]


def kodi_tv(path):
    home = os.environ.get("SPORTSDB_KODI_HOME", "/tmp/kodi-home")
    os.makedirs(os.path.join(home, "temp"), exist_ok=True)
    sys.argv = ["plugin://metadata.tvshows.thesportsdb.python/", "1", ""]
    sys.path.insert(0, path)
    import xbmcplugin
    from libs import actions, tsdb

    # The scraper's server and key are constants of libs/tsdb.py; point them at sportsdb.
    public = "https://www.thesportsdb.com/api/v1/json/863583675235"
    for name in [n for n in dir(tsdb) if n.endswith("_URL") or n == "base_url"]:
        setattr(tsdb, name, getattr(tsdb, name).replace(public, URL + "/api/v1/json/" + KEY))
    c = "kodi-tv "

    def route(params):
        xbmcplugin.reset()
        actions.router(urllib.parse.urlencode(params))
        return list(xbmcplugin.ITEMS), list(xbmcplugin.RESOLVED)

    def resolved(out):
        expect(out[1] and out[1][0][1], "setResolvedUrl not called with success")
        return out[1][0][2]

    episodes = []

    def episode_list(out):
        items = out[0]
        # A free key gets the league's five oldest seasons (search_all_seasons.php, as
        # recorded), which hold no events in this data: an empty list, without an error.
        expect(items or FREE, "no episodes")
        for _, url, li, _ in items:
            ids = dict(urllib.parse.parse_qsl(urllib.parse.unquote(url)))
            expect(ids.get("show_id") == LEAGUE and ids.get("episode_id"), "episode url %r" % url)
            episodes.append((ids["episode_id"], li.label))

    def with_cast(out):
        tag = resolved(out).tag
        cast = tag.calls.get("setCast")
        expect(cast and cast[0][0], "no cast set (searchplayers.php?t=)")
        expect(all(a.name for a in cast[0][0]), "an actor without a name")

    call(c + "find", lambda: route({"action": "find", "title": LEAGUE_NAME}),
         lambda out: expect([u for _, u, _, _ in out[0]] == [LEAGUE], "find gave %r" % [u for _, u, _, _ in out[0]]))
    call(c + "find Formula 1", lambda: route({"action": "find", "title": "Formula 1"}),
         lambda out: expect([u for _, u, _, _ in out[0]] == ["4370"], "find gave %r" % [u for _, u, _, _ in out[0]]))
    call(c + "getdetails", lambda: route({"action": "getdetails", "url": LEAGUE}),
         lambda out: expect(resolved(out).tag.calls.get("addSeason"), "no seasons added"))
    call(c + "getepisodelist", lambda: route({"action": "getepisodelist", "url": json.dumps({"tsdb": LEAGUE})}), episode_list)
    home = [e for e, label in episodes if (".%s vs " % TEAM_NAME) in label] or [e for e, _ in episodes[:1]]
    details = lambda ep: lambda: route({"action": "getepisodedetails",
                                        "url": urllib.parse.quote(urllib.parse.urlencode({"show_id": LEAGUE, "episode_id": ep}))})
    if home:
        call(c + "getepisodedetails", details(home[0]), with_cast)
    else:  # an event not in the cached list: the scraper answers "not found"
        call(c + "getepisodedetails", details("2494022"), lambda out: expect(out[1] and not out[1][0][1], "resolved %r" % out[1]))
    call(c + "getartwork", lambda: route({"action": "getartwork", "id": LEAGUE}),
         lambda out: expect(resolved(out).tag.calls.get("addAvailableArtwork"), "no artwork"))
    call(c + "nfourl", lambda: route({"action": "nfourl", "nfo": "https://www.thesportsdb.com/league/%s" % LEAGUE}),
         lambda out: expect([u for _, u, _, _ in out[0]] == [LEAGUE], "nfo gave %r" % [u for _, u, _, _ in out[0]]))
    # The functions of libs/tsdb.py that the actions above reach, and the one they do not.
    call(c + "tsdb.search_show", lambda: tsdb.search_show(LEAGUE_NAME),
         lambda out: expect(out and out[0]["idLeague"] == LEAGUE, "search_show gave %.100r" % out))
    call(c + "tsdb.load_season_info", lambda: tsdb.load_season_info(LEAGUE),
         lambda out: expect(out and len(out) <= cap(5, 500) and all(s.get("strSeason") for s in out), "seasons %.100r" % out))
    call(c + "tsdb.load_season_episodes", lambda: tsdb.load_season_episodes(LEAGUE, SEASON),
         lambda out: expect(out and len(out) <= cap(15, 3000) and all(e["strSeason"] == SEASON for e in out), "events %.100r" % out))
    call(c + "tsdb.load_roster_info", lambda: tsdb.load_roster_info("no-cache-" + TEAM, TEAM_NAME),
         lambda out: expect(out and all(p["strTeam"] == TEAM_NAME for p in out), "roster %.100r" % out))
    call(c + "tsdb.load_team_list", lambda: tsdb.load_team_list(LEAGUE_NAME),
         lambda out: expect(out and len(out) <= cap(10, 3000) and all(in_league(t) for t in out), "teams %.100r" % out))
    return []


def enen92(path):
    import urllib
    urllib.quote = urllib.parse.quote  # Python 2's name, used by this Python 2 module
    sys.path.insert(0, os.path.join(path, "lib", "thesportsdb"))
    import thesportsdb as tsdb  # lib/thesportsdb/thesportsdb.py, as its package __init__ does

    tsdb.API_BASE_URL = URL + "/api/v1/json"  # the module's one setting for the server
    api = tsdb.Api(KEY)
    c = "enen92 "

    def objs(at_most=None, at_least=1, ok=None, what=""):
        def check(out):
            expect(isinstance(out, list) and at_least <= len(out) and (at_most is None or len(out) <= at_most),
                   "%s objects, want %d to %s" % (len(out) if isinstance(out, list) else repr(out), at_least, at_most))
            for o in out:
                expect(ok is None or ok(o), "an object is not %s: %.200r" % (what, getattr(o, "__dict__", o)))
                # Every property of the object (descriptions, fanart, dates) reads its fields.
                for name in dir(type(o)):
                    if isinstance(getattr(type(o), name), property) and name != "strDescription":
                        getattr(o, name)
        return check

    L, S, Sc = api.Lookups(), api.Search(), api.Schedules()
    call(c + "Lookups.Team", lambda: L.Team(teamid=TEAM), objs(1, 1, lambda t: t.idTeam == TEAM, "the team"))
    call(c + "Lookups.Team league", lambda: L.Team(leagueid=LEAGUE), objs(cap(10, 3000), 1, lambda t: in_league(t.__dict__), "of the league"))
    call(c + "Lookups.League", lambda: L.League(LEAGUE), objs(1, 1, lambda l: l.idLeague == LEAGUE, "the league"))
    call(c + "Lookups.Player", lambda: L.Player(playerid=PLAYER), objs(1, 1, lambda p: p.idPlayer == PLAYER, "the player"))
    call(c + "Lookups.Player team", lambda: L.Player(teamid=TEAM), objs(cap(10, 3000), 1, lambda p: p.idTeam == TEAM, "of the team"))
    call(c + "Lookups.Event", lambda: L.Event(EVENT), objs(1, 1, lambda e: e.idEvent == EVENT, "the event"))
    call(c + "Lookups.Table", lambda: L.Table(LEAGUE, SEASON), objs(cap(5, 100), 1, lambda r: r.strSeason == SEASON, "of the season"))
    call(c + "Lookups.Table current", lambda: L.Table(LEAGUE), objs(cap(5, 100), 1, lambda r: r.idLeague == LEAGUE, "of the league"))
    call(c + "Lookups.Table objects", lambda: L.Table(LEAGUE, SEASON, objects=True), objs(cap(5, 100)))
    call(c + "Lookups.Seasons", lambda: L.Seasons(LEAGUE), objs())
    call(c + "Search.Teams", lambda: S.Teams(team=TEAM_NAME), objs(cap(1, 100), 1, lambda t: TEAM_NAME in t.strTeam, "an Arsenal"))
    call(c + "Search.Teams league", lambda: S.Teams(league=LEAGUE_NAME), objs(cap(10, 3000), 1, lambda t: in_league(t.__dict__), "of the league"))
    call(c + "Search.Teams sport country", lambda: S.Teams(sport="Soccer", country="England"),
         objs(cap(10, 3000), 1, lambda t: t.strSport == "Soccer" and t.strCountry == "England", "English soccer"))
    call(c + "Search.Players team", lambda: S.Players(team=TEAM_NAME), objs(cap(1, 10), 1, lambda p: p.strTeam == TEAM_NAME, "of the team"))
    call(c + "Search.Players", lambda: S.Players(player="Danny Welbeck"), objs(cap(1, 10), 1, lambda p: "Welbeck" in p.strPlayer, "a Welbeck"))
    call(c + "Search.Players team player", lambda: S.Players(team=TEAM_NAME, player="Aaron"),
         objs(cap(1, 10), 1, lambda p: p.strTeam == TEAM_NAME and "aaron" in p.strPlayer.lower(), "an Aaron of Arsenal"))
    call(c + "Search.Events", lambda: S.Events(event="Arsenal vs Chelsea"), objs(cap(1, 10), 1, lambda e: e.strEvent == "Arsenal vs Chelsea", "the game"))
    call(c + "Search.Events season", lambda: S.Events(event="Arsenal vs Chelsea", season="2016-2017"),
         objs(cap(1, 10), 1, lambda e: e.strSeason == "2016-2017", "of 2016-2017"))
    call(c + "Search.Events filename", lambda: S.Events(filename=FILENAME.replace("_", " ")),
         objs(cap(1, 10), 1, lambda e: e.strFilename == FILENAME.replace("_", " "), "of the file name"))
    call(c + "Search.Leagues", lambda: S.Leagues(country="England"), objs())
    call(c + "Search.Loves", lambda: S.Loves(user="zag"))
    call(c + "Search.Seasons", lambda: S.Seasons(LEAGUE), lambda out: expect(out and len(out) <= cap(5, 500) and all(out), "seasons %.100r" % out))
    call(c + "Schedules.Last.Team", lambda: Sc.Last().Team(TEAM), objs(cap(1, 10), 1, lambda e: TEAM in (e.idHomeTeam, e.idAwayTeam), "of the team"))
    call(c + "Schedules.Last.League", lambda: Sc.Last().League(LEAGUE), objs(cap(1, 20), 1, lambda e: e.idLeague == LEAGUE, "of the league"))
    call(c + "Schedules.Next.Team", lambda: Sc.Next().Team(TEAM), objs(cap(1, 10), 1, lambda e: TEAM in (e.idHomeTeam, e.idAwayTeam), "of the team"))
    call(c + "Schedules.Next.League", lambda: Sc.Next().League(LEAGUE), objs(cap(1, 20), 1, lambda e: e.idLeague == LEAGUE, "of the league"))
    call(c + "Schedules.Next.League round", lambda: Sc.Next().League(LEAGUE, rnd=1), objs(cap(1, 20), 1, lambda e: e.idLeague == LEAGUE, "of the league"))
    call(c + "Schedules.Lookup round", lambda: Sc.Lookup(leagueid=LEAGUE, season=SEASON, rnd=1),
         objs(None, 1, lambda e: e.intRound == "1" and e.strSeason == SEASON, "of round 1"))
    call(c + "Schedules.Lookup season", lambda: Sc.Lookup(leagueid=LEAGUE, season=SEASON), objs(cap(15, 3000), 1, lambda e: e.strSeason == SEASON, "of the season"))
    call(c + "Schedules.Lookup day", lambda: Sc.Lookup(datestring=DAY), objs(cap(3, 1500), 1, lambda e: e.dateEvent == DAY, "of the day"))
    call(c + "Schedules.Lookup date", lambda: Sc.Lookup(datetimedate=datetime.date(2026, 10, 4)), objs(cap(3, 1500), 1, lambda e: e.dateEvent == DAY, "of the day"))
    call(c + "Schedules.Lookup day sport", lambda: Sc.Lookup(datestring=DAY, sport="Soccer"), objs(cap(3, 1500), 1, lambda e: e.strSport == "Soccer", "soccer"))
    call(c + "Schedules.Lookup day league", lambda: Sc.Lookup(datestring=DAY, league="NFL"), objs(cap(3, 1500), 1, lambda e: e.idLeague == "4391", "of the NFL"))
    call(c + "Livescores.Soccer", lambda: api.Livescores().Soccer())
    league = (L.League(LEAGUE) or [None])[0]
    player = (L.Player(playerid=PLAYER) or [None])[0]
    team = (L.Team(teamid=TEAM) or [None])[0]
    call(c + "Team.strDescription", lambda: team.strDescription, lambda out: expect(out, "no description"))
    call(c + "League.strDescription", lambda: league.strDescription, lambda out: expect(out, "no description"))
    call(c + "Player.strDescription", lambda: player.strDescription, lambda out: expect(out, "no description"))
    image = "http://www.thesportsdb.com/images/a.png"
    expect(api.Image().Preview(image) and api.Image().Original(image), "Image answered nothing")
    return ["Image.Preview", "Image.Original"]


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tralahm", "kodi-tv", "enen92"):
        sys.exit(__doc__)
    client, path = sys.argv[1], os.path.abspath(sys.argv[2])
    local = {"tralahm": tralahm, "kodi-tv": kodi_tv, "enen92": enen92}[client](path)
    for status, name, detail in results:
        print("%-4s %-7s %-45s %s" % (status, TIER, name, detail))
    counts = {s: sum(1 for r in results if r[0] == s) for s in ("PASS", "BUG", "GAP", "FAIL")}
    print("%s %s: %d calls, %d pass, %d client bugs, %d not served, %d fail; not calling the server: %s" % (
        client, TIER, len(results), counts["PASS"], counts["BUG"], counts["GAP"], counts["FAIL"], ", ".join(local) or "none"))
    sys.exit(1 if counts["FAIL"] else 0)


if __name__ == "__main__":
    main()
