package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// hostileCase is one request sent byte for byte.
type hostileCase struct {
	name string
	raw  []byte
	// allow5xx lists 5xx statuses that are right for this request (505 for an HTTP version
	// the server does not speak).
	allow5xx []int
	// goLayer marks requests that net/http refuses before the server sees them; its plain
	// text answers are counted, not failed (the server answers JSON where it can).
	goLayer bool
}

// runCorpus sends every case and fails the check on any answer that breaks the rules.
func runCorpus(t *T, env *sharedEnv, surface string, cases []hostileCase) {
	if len(cases) < 60 {
		t.Fail("%s: only %d hostile requests, want at least 60", surface, len(cases))
	}
	kinds := map[string]int{}
	plain := 0
	for _, c := range cases {
		a, err := rawExchange(env.srv.addr, c.raw, 10*time.Second)
		env.count(surface, a.status, err)
		if err != nil {
			kinds[errKind(err)]++
			t.Fail("%s: %s: %v", surface, c.name, err)
			continue
		}
		p := a.problem(c.allow5xx...)
		if p != "" && c.goLayer && (a.status < 500 || contains(c.allow5xx, a.status)) && !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") {
			plain++ // net/http's own answer: counted below, not a failure
			continue
		}
		if p != "" {
			t.Fail("%s: %s: %s", surface, c.name, p)
		}
	}
	t.Figure("requests", "%d", len(cases))
	t.Figure("transport errors", "%s", formatKinds(kinds))
	if plain > 0 {
		t.Figure("plain-text answers of net/http", "%d", plain)
	}
	if env.srv.exited() {
		t.Fail("the server exited during the %s requests: %v", surface, env.srv.err)
	}
}

func formatKinds(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	var parts []string
	for _, k := range []string{"refused", "reset", "eof", "timeout", "other"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// v1Templates are v1 paths and queries; {K} is replaced by a real or a fake key. Among them
// are the shapes that once wrote the key to the access log.
var v1Templates = []string{
	"/api/v1/json/{K}/searchteams.php?t=Arsenal",
	"//api/v1/json/{K}/all_sports.php",
	"/api/v1/json//{K}/all_sports.php",
	"/API/v1/json/{K}/all_sports.php",
	"/api/V1/json/{K}/all_sports.php",
	"/api/v1/{K}/all_sports.php",
	"/api/v3/json/{K}/all_sports.php",
	"/%61pi/v1/json/{K}/all_sports.php",
	"/api/v1/json/../v1/json/{K}/all_sports.php",
	"/api/v1/json/./{K}/all_sports.php",
	"/api/v1/json/{K}/../all_sports.php",
	"/api/v1/json/{K}/all_sports.php/",
	"/api/v1/json/{K}/all_sports.php/extra",
	"/api/v1/json/{K}/%2e%2e/all_sports.php",
	"/api/v1/json/{K}%2fall_sports.php",
	"/api/v1/json/{K}/all%5fsports.php",
	"/api/v1/json/{K}/ALL_SPORTS.PHP",
	"/api/v1/json/{K}/.php",
	"/api/v1/json/{K}/nosuchfile.php",
	"/api/v1/json/{K}/" + strings.Repeat("a", 1000) + ".php",
	"/api/v1/json/{K}/" + strings.Repeat("x/", 3000) + "all_sports.php",
	"/api/v1/json/{K}/%zz.php",
	"/api/v1/json/{K}/%00.php",
	"/api/v1/json/{K}/lookupteam.php%00",
	"/api/v1/json/{K};jsessionid=1/all_sports.php",
	"/api/v1/json/{K}/searchteams.php?t=100%",
	"/api/v1/json/{K}/searchteams.php?t=%zz",
	"/api/v1/json/{K}/searchteams.php?t=%00",
	"/api/v1/json/{K}/searchteams.php?t=" + strings.Repeat("A", 10000),
	"/api/v1/json/{K}/searchteams.php?t=a&t=b&t=c",
	"/api/v1/json/{K}/searchteams.php?t[]=a",
	"/api/v1/json/{K}/searchteams.php?;t=a",
	"/api/v1/json/{K}/lookupteam.php?id=-1",
	"/api/v1/json/{K}/lookupteam.php?id=99999999999999999999999",
	"/api/v1/json/{K}/lookupteam.php?id=1e5",
	"/api/v1/json/{K}/lookupteam.php?id=0x10",
	"/api/v1/json/{K}/lookupteam.php?id=%20133604",
	"/api/v1/json/{K}/lookupteam.php?id=133604'--",
	"/api/v1/json/{K}/searchteams.php?t='%20OR%201=1--",
	"/api/v1/json/{K}/searchteams.php?t=%25",
	"/api/v1/json/{K}/searchteams.php?t=_",
	"/api/v1/json/{K}/searchplayers.php?p=%C0%AF",
	"/api/v1/json/{K}/searchplayers.php?p=%FF%FE",
	"/api/v1/json/{K}/eventsday.php?d=2026-13-45",
	"/api/v1/json/{K}/eventsday.php?d=99999-01-01",
	"/api/v1/json/{K}/eventsseason.php?id=4328&s=" + strings.Repeat("9", 3000),
	"/api/v1/json/{K}/lookuptable.php?l=4328&s=../../etc/passwd",
	"/api/v1/json/{K}/eventstv.php?a=x",
	"/api/v1/json/{K}/eventsround.php?id=4328&r=-1&s=2024-2025",
	"/api/v1/json/{K}/all_sports.php?api_key={K}",
	"/api/v1/json/{K}/search_all_teams.php?l=&s=&c=",
	"/api/v1/json/{K}/searchevents.php?e=a&s=%",
	"/api/v1/json/{K}/lookup_all_players.php?id=133604&id=133604",
	"/api/v1/json/{K}/search_all_seasons.php?id=4328&badge=1&poster=1&description=1",
}

// v2Templates are v2 paths; {K} is a key in the path, the header carries another.
var v2Templates = []string{
	"/api/v2/json/search/team/Arsenal",
	"/api/v2/json/search/team/100%",
	"/api/v2/json/search/team/%25",
	"/api/v2/json/search/team/%zz",
	"/api/v2/json/search/team/%00",
	"/api/v2/json/search/team/..",
	"/api/v2/json/search/team/.",
	"/api/v2/json/search/team/" + strings.Repeat("b", 600),
	"/api/v2/json/search/team/" + strings.Repeat("%41", 2000),
	"/api/v2/json/search/team/%C3%A9%E2%82%AC%F0%9F%98%80",
	"/api/v2/json/search/team/%C0%AF",
	"/api/v2/json/search/team/'%20OR%201=1--",
	"/api/v2/json/search/team/%3Cscript%3E",
	"/api/v2/json/search/team/",
	"/api/v2/json/search/team/Arsenal/",
	"/api/v2/json/search/team/a/b/c/d",
	"/api/v2/json/search/",
	"/api/v2/json/search",
	"/api/v2/json/SEARCH/team/Arsenal",
	"/api/v2/json/search/TEAM/Arsenal",
	"/api/v2/json/lookup/team/-1",
	"/api/v2/json/lookup/team/abc",
	"/api/v2/json/lookup/team/99999999999999999999999",
	"/api/v2/json/lookup/team/0x1",
	"/api/v2/json/lookup/team/%00",
	"/api/v2/json/lookup/nothing/1",
	"/api/v2/json/list/teams/%FF",
	"/api/v2/json/list/players/" + strings.Repeat("1", 400),
	"/api/v2/json/schedule/league/4328/%2e%2e%2f",
	"/api/v2/json/schedule/league/4328/9999-99999",
	"/api/v2/json/schedule/next/team/",
	"/api/v2/json/filter/tv/day/2026-02-30",
	"/api/v2/json/filter/tv/day/" + strings.Repeat("2", 100),
	"/api/v2/json/livescore/%2F",
	"/api/v2/json/livescore/all/extra",
	"/api/v2/json/all/nothing",
	"/api/v2/json/all/sports?x=%zz",
	"/api/v2/json/{K}/search/team/Arsenal",
	"/api/v2/json/{K}/livescore.php?s=Soccer",
	"/api/v2/json/livescore.php?s=Soccer",
	"/api/v2/json/{K}//search/team/Arsenal",
	"//api/v2/json/search/team/Arsenal",
	"/api/v2/json//search/team/Arsenal",
	"/api/v2/json/{K}/lookupteam.php?id=133604",
	"/api/v2/json/{K}/nosuch.php",
	"/api/v2/json/{K}/unknowngroup/x",
	"/API/v2/json/{K}/search/team/Arsenal",
	"/%61pi/v2/json/{K}/search/team/Arsenal",
}

// expand makes one case per template and key.
func expand(env *sharedEnv, templates []string, header func(key string) string) []hostileCase {
	var cases []hostileCase
	for _, tpl := range templates {
		for _, key := range env.pathKeys() {
			path := strings.ReplaceAll(tpl, "{K}", key)
			var extra []string
			if header != nil {
				if h := header(key); h != "" {
					extra = append(extra, h)
				}
			}
			cases = append(cases, hostileCase{name: clipText(path, 120), raw: request(path, extra...)})
			if !strings.Contains(tpl, "{K}") && header == nil {
				break
			}
		}
	}
	return cases
}

func checkHostileV1(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	runCorpus(t, env, "v1", expand(env, v1Templates, nil))
}

func checkHostileV2(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	// The header carries the same key as the path, or a fake, or nothing.
	runCorpus(t, env, "v2", expand(env, v2Templates, func(key string) string { return "X-API-KEY: " + key }))
}
