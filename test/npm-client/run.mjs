// Runs the published npm client `thesportsdb` against a running sportsdb on the demo data and
// checks that every answer follows the public service's rules (record keys, caps, shapes).
//
//   SPORTSDB_URL=http://127.0.0.1:8080 [SPORTSDB_PREMIUM_KEY=...] node run.mjs
//
// Free checks use the published free keys 123 and 3 (30 requests a minute each).
// Prints one line per check and ends with "N passed, M failed"; exits 1 on any failure.
import { createRequire } from 'node:module';

const base = (process.env.SPORTSDB_URL || '').replace(/\/+$/, '');
if (!base) {
  console.error('SPORTSDB_URL is not set (e.g. http://127.0.0.1:8080)');
  process.exit(2);
}
const premiumKey = process.env.SPORTSDB_PREMIUM_KEY || '';

// The client calls the public service through axios at a fixed address; the same axios
// instance (resolved from the client's own folder) gets an interceptor that sends those
// requests to sportsdb instead.
const require = createRequire(import.meta.url);
const clientPath = require.resolve('thesportsdb');
const db = require(clientPath);
const axios = createRequire(clientPath)('axios');
const publicBase = 'https://www.thesportsdb.com';
axios.interceptors.request.use((cfg) => {
  if (cfg.url.startsWith(publicBase)) cfg.url = base + cfg.url.slice(publicBase.length);
  return cfg;
});

let passed = 0;
let failed = 0;

function report(ok, name, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ' - ' + detail : ''}`);
}

// check runs one client call and a test of its answer; the test returns '' when the answer
// is right, else what is wrong.
async function check(name, call, test) {
  try {
    const body = await patient(call);
    const problem = test(body);
    report(!problem, name, problem);
    return body;
  } catch (err) {
    report(false, name, describe(err));
    return undefined;
  }
}

// checkStatus expects the call to fail with an HTTP status and a JSON body.
async function checkStatus(name, call, status) {
  try {
    await patient(call);
    report(false, name, `answered 200, want HTTP ${status}`);
  } catch (err) {
    const res = err.response;
    const ok = res && res.status === status && typeof res.data === 'object';
    report(ok, name, ok ? '' : describe(err));
  }
}

// patient runs a call; on HTTP 429 it waits as long as Retry-After says (as the service asks
// clients to) and tries once more.
async function patient(call) {
  try {
    return await call();
  } catch (err) {
    const res = err.response;
    if (!res || res.status !== 429) throw err;
    const wait = Math.min(65, Number(res.headers['retry-after']) || 60);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return call();
  }
}

function describe(err) {
  if (err.response) return `HTTP ${err.response.status} ${JSON.stringify(err.response.data).slice(0, 120)}`;
  return String(err.message || err);
}

// records checks the v1 envelope: exactly one key, holding an array of flat records whose
// values are strings or null, at most cap of them; null is allowed when allowNull.
function records(body, key, cap, { allowNull = false, min = 1 } = {}) {
  if (!body || typeof body !== 'object') return `body is ${JSON.stringify(body)}`;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== key) return `keys ${JSON.stringify(keys)}, want ["${key}"]`;
  const v = body[key];
  if (v === null) return allowNull ? '' : `${key} is null`;
  if (!Array.isArray(v)) return `${key} is ${JSON.stringify(v).slice(0, 60)}`;
  if (v.length < min) return `${v.length} records, want at least ${min}`;
  if (cap && v.length > cap) return `${v.length} records, cap is ${cap}`;
  for (const r of v) {
    for (const [f, x] of Object.entries(r)) {
      if (x !== null && typeof x !== 'string') return `${f} is ${typeof x}, want string or null`;
    }
  }
  return '';
}

// all combines problems: the first one found, or ''.
function all(...problems) {
  return problems.find((p) => p) || '';
}

function fieldsAre(rec, fields) {
  const got = Object.keys(rec).join(',');
  return got === fields.join(',') ? '' : `fields ${got}, want ${fields.join(',')}`;
}

async function freeChecks() {
  db.setApiKey('123');
  await check('searchteams exact name', () => db.getTeamByName('Arsenal'), (b) =>
    all(records(b, 'teams', 1), b.teams[0].idTeam === '133604' ? '' : `idTeam ${b.teams[0].idTeam}`));
  await check('searchteams free: no partial names', () => db.getTeamByName('Arsen'), (b) =>
    b && b.teams === null ? '' : `want {"teams":null}, got ${JSON.stringify(b).slice(0, 80)}`);
  await check('all_sports cap 2', () => db.getSportsList(), (b) => records(b, 'sports', 2));
  await check('all_leagues cap 10, no alternates for free keys', () => db.getLeagueList(), (b) =>
    all(records(b, 'leagues', 10), ...b.leagues.map((l) => fieldsAre(l, ['idLeague', 'strLeague', 'strSport']))));
  await check('all_countries cap 50, name and flag', () => db.getCountryList(), (b) =>
    all(records(b, 'countries', 50), fieldsAre(b.countries[0], ['name_en', 'flag_url_32'])));
  await check('search_all_leagues answers under countries', () => db.getLeagueListByCountry('England', 'Soccer'), (b) =>
    all(records(b, 'countries', 10), b.countries.some((l) => l.idLeague === '4328') ? '' : 'no league 4328'));
  await check('search_all_seasons names only, cap 5', () => db.getSeasonsInLeagueById(4328), (b) =>
    all(records(b, 'seasons', 5), ...b.seasons.map((s) => fieldsAre(s, ['strSeason']))));
  await check('search_all_teams by league name, cap 10', () => db.getTeamsByLeagueName('English Premier League'), (b) =>
    all(records(b, 'teams', 10), ...b.teams.map((t) => (t.idLeague === '4328' ? '' : `team of league ${t.idLeague}`))));
  await check('search_all_teams by sport and country', () => db.getTeamsByCountryAndSport('Soccer', 'England'), (b) =>
    records(b, 'teams', 10));
  const squad = await check('lookup_all_players cap 10, of the team', () => db.getPlayersByTeamId(133604), (b) =>
    all(records(b, 'player', 10), ...b.player.map((p) => (p.idTeam === '133604' ? '' : `player of team ${p.idTeam}`))));
  const league = await check('lookupleague one record', () => db.getLeagueDetailsById(4328), (b) =>
    all(records(b, 'leagues', 1), b.leagues[0].strLeague === 'English Premier League' ? '' : b.leagues[0].strLeague));
  await check('lookupteam one record', () => db.getTeamDetailsById(133604), (b) =>
    all(records(b, 'teams', 1), b.teams[0].strTeam === 'Arsenal' ? '' : b.teams[0].strTeam));
  await check('lookupteam unknown id is null', () => db.getTeamDetailsById(999999999), (b) =>
    b && b.teams === null ? '' : JSON.stringify(b).slice(0, 80));
  await check('lookupteam non-numeric id is null', () => db.getTeamDetailsById('abc'), (b) =>
    b && b.teams === null ? '' : JSON.stringify(b).slice(0, 80));

  const next = await check('eventsnext free: one home game', () => db.getNext5EventsByTeamId(133602), (b) =>
    all(records(b, 'events', 1), b.events[0].idHomeTeam === '133602' ? '' : `home team ${b.events[0].idHomeTeam}`));
  const last = await check('eventslast answers under results, home games', () => db.getPast5EventsByTeamId(133602), (b) =>
    all(records(b, 'results', 1), b.results[0].idHomeTeam === '133602' ? '' : `home team ${b.results[0].idHomeTeam}`));
  if (next && last) {
    report(next.events[0].strTimestamp > last.results[0].strTimestamp, 'next events come after previous ones',
      `${next.events[0].strTimestamp} vs ${last.results[0].strTimestamp}`);
  }
  await check('eventspastleague cap 1', () => db.getPast15EventsByLeagueId(4328), (b) =>
    all(records(b, 'events', 1), b.events[0].idLeague === '4328' ? '' : `league ${b.events[0].idLeague}`));

  const season = league && league.leagues && league.leagues[0].strCurrentSeason;
  await check('eventsround: the whole round for free keys', () => db.getEventsInRound(4328, 1, season), (b) =>
    all(records(b, 'events', 0), ...b.events.map((e) => (e.intRound === '1' && e.strSeason === season ? '' : `round ${e.intRound} ${e.strSeason}`))));
  await check('eventsseason summary, cap 15', () => db.getEventsByLeagueIdAndSeason(4328, season), (b) =>
    all(records(b, 'events', 15), 'strDescriptionEN' in b.events[0] ? 'summary carries strDescriptionEN' : ''));
  await check('lookuptable cap 5, by rank', () => db.getLookupTableByLeagueIdAndSeason(4328, season), (b) =>
    all(records(b, 'table', 5), b.table.every((r, i) => r.intRank === String(i + 1)) ? '' : 'ranks out of order'));

  // The rest uses the other published free key: one key allows 30 requests a minute.
  db.setApiKey('3');
  if (next) {
    const ev = next.events[0];
    await check('eventsday cap 3, on that UTC date', () => db.getEventsOnDay(ev.dateEvent), (b) =>
      all(records(b, 'events', 3), ...b.events.map((e) => (e.dateEvent === ev.dateEvent ? '' : `date ${e.dateEvent}`))));
    await check('eventsday by league name', () => db.getEventsOnDay(ev.dateEvent, null, ev.strLeague), (b) =>
      all(records(b, 'events', 3), ...b.events.map((e) => (e.strLeague === ev.strLeague ? '' : e.strLeague))));
    await check('lookupevent one record', () => db.getEventDetailsById(ev.idEvent), (b) =>
      all(records(b, 'events', 1), b.events[0].idEvent === ev.idEvent ? '' : b.events[0].idEvent));
    await check('searchevents exact name', () => db.getEventByName(ev.strEvent), (b) =>
      all(records(b, 'event', 1), b.event[0].strEvent === ev.strEvent ? '' : b.event[0].strEvent));
    await check('lookuptv answers under tvevent, cap 2', () => db.getTvEventById(ev.idEvent), (b) =>
      records(b, 'tvevent', 2, { allowNull: true }));
    await check('eventstv by day and sport, cap 1', () => db.getTvEventsOnDay(ev.dateEvent, 'Soccer'), (b) =>
      records(b, 'tvevents', 1, { allowNull: true }));
    await check('eventshighlights cap 2', () => db.getYoutubeEventHighligts(last ? last.results[0].dateEvent : ev.dateEvent), (b) =>
      records(b, 'tvhighlights', 2, { allowNull: true }));
  }
  await check('eventsday without events is null', () => db.getEventsOnDay('1901-01-01'), (b) =>
    b && b.events === null ? '' : JSON.stringify(b).slice(0, 80));

  if (squad && squad.player) {
    const p = squad.player[0];
    await check('searchplayers summary plus relevance, cap 1', () => db.getPlayerByName(p.strPlayer), (b) =>
      all(records(b, 'player', 1), /^\d+(\.\d+)?$/.test(b.player[0].relevance) ? '' : `relevance ${b.player[0].relevance}`,
        fieldsAre(b.player[0], ['idPlayer', 'idTeam', 'strPlayer', 'strTeam', 'strSport', 'strThumb', 'strCutout',
          'strNationality', 'dateBorn', 'strStatus', 'strGender', 'strPosition', 'relevance'])));
    await check('lookupplayer answers under players', () => db.getPlayerDetailsById(p.idPlayer), (b) =>
      all(records(b, 'players', 1), b.players[0].idPlayer === p.idPlayer ? '' : b.players[0].idPlayer));
    await check('lookupformerteams cap 5', () => db.getPlayerFormerTeamsById(p.idPlayer), (b) =>
      records(b, 'formerteams', 5, { allowNull: true }));
    await check('lookupcontracts cap 1', () => db.getPlayerContractsById(p.idPlayer), (b) =>
      records(b, 'contracts', 1, { allowNull: true }));
    // The client asks for lookuphonors.php, a file the service does not have.
    await checkStatus('client misspelled lookuphonors.php: 404', () => db.getPlayerHonoursById(p.idPlayer), 404);
  }
  await checkStatus('v2 live scores refuse free keys', () => db.getLivescoresBySport('Soccer'), 400);
}

async function premiumChecks() {
  db.setApiKey(premiumKey);
  await check('premium searchteams finds partial names', () => db.getTeamByName('Arsen'), (b) =>
    all(records(b, 'teams', 100), b.teams.some((t) => t.idTeam === '133604') ? '' : 'Arsenal not found'));
  await check('premium all_leagues carry strLeagueAlternate', () => db.getLeagueList(), (b) =>
    all(records(b, 'leagues', 3000), fieldsAre(b.leagues[0], ['idLeague', 'strLeague', 'strSport', 'strLeagueAlternate'])));
  await check('premium all_countries cap 500', () => db.getCountryList(), (b) => records(b, 'countries', 500));
  await checkStatus('premium eventsround: 404', () => db.getEventsInRound(4328, 1, '2026-2027'), 404);
  await check('premium v2 live scores under events', () => db.getLivescoresBySport('Soccer'), (b) =>
    records(b, 'events', 0, { allowNull: true, min: 0 }));
}

await freeChecks();
if (premiumKey) await premiumChecks();
else console.log('(no SPORTSDB_PREMIUM_KEY: premium checks not run)');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
