// The scorekeeper's page: plain JavaScript over the records API (docs/CONTRACT.md section
// 13) and the change feed's stream (docs/LIVE.md). The key lives in this tab's
// sessionStorage only.
"use strict";

const keyName = "sportsdb.key";
const api = "/api/v2/json";

// Status steps by sport (docs/CONTRACT.md section 8); a sport not named gets soccer's.
const steps = {
  Soccer: ["NS", "1H", "HT", "2H", "FT"],
  Basketball: ["NS", "Q1", "Q2", "HT", "Q3", "Q4", "FT"],
  "American Football": ["NS", "Q1", "Q2", "HT", "Q3", "Q4", "FT"],
  "Ice Hockey": ["NS", "P1", "P2", "P3", "FT"],
  Baseball: ["NS", "IN1", "IN2", "IN3", "IN4", "IN5", "IN6", "IN7", "IN8", "IN9", "FT"],
  Tennis: ["NS", "S1", "S2", "S3", "S4", "S5", "FT"],
};
const stepNames = {NS: "Not started", "1H": "First half", HT: "Half time", "2H": "Second half", FT: "Full time"};

const $ = (id) => document.getElementById(id);
const key = () => sessionStorage.getItem(keyName) || "";

// call sends a request with the key and answers {status, body, etag}.
async function call(method, path, body, headers) {
  const h = Object.assign({"X-API-KEY": key()}, headers || {});
  const init = {method, headers: h, cache: "no-store"};
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    h["Content-Type"] = method === "PATCH" ? "application/merge-patch+json" : "application/json";
  }
  const r = await fetch(api + path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return {status: r.status, body: data, etag: r.headers.get("ETag")};
}

function message(text, kind, details) {
  const m = $("message");
  m.textContent = text;
  m.className = kind || "";
  delete m.dataset.status;
  if (details && details.length) {
    const ul = document.createElement("ul");
    for (const d of details) {
      const li = document.createElement("li");
      li.textContent = d;
      ul.appendChild(li);
    }
    m.appendChild(ul);
  }
  m.hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
  $("message").textContent = "";
  delete $("message").dataset.status;
}

// failure turns a refused answer into a message; a 422 names each field.
function failure(r) {
  const msg = (r.body && r.body.Message) || "HTTP " + r.status;
  const errs = (r.body && r.body.errors) || [];
  message(msg + " (HTTP " + r.status + ")", "error", errs.map((e) => (e.field || "(record)") + ": " + e.problem));
}

// views are the sections each view shows.
const views = {signin: ["signin"], find: ["find", "create", "records"], score: ["score"], edit: ["edit"]};

function show(view) {
  for (const id of ["signin", "find", "create", "records", "score", "edit"]) $(id).hidden = !views[view].includes(id);
  $("signout").hidden = view === "signin";
}

// ---- Sign in ----

async function signIn(ev) {
  ev.preventDefault();
  const k = $("key").value.trim();
  sessionStorage.setItem(keyName, k);
  const r = await call("GET", "/all/sports");
  if (r.status !== 200) {
    sessionStorage.removeItem(keyName);
    failure(r);
    return;
  }
  $("key").value = "";
  clearMessage();
  route();
}

function signOut() {
  sessionStorage.removeItem(keyName);
  stopLive();
  location.hash = "#/";
  route();
}

// ---- Find an event ----

async function find(ev) {
  ev.preventDefault();
  const q = $("find-q").value.trim();
  const list = $("find-results");
  list.textContent = "";
  if (/^\d+$/.test(q)) {
    location.hash = "#/event/" + q;
    return;
  }
  const r = await call("GET", "/search/event/" + encodeURIComponent(q));
  if (r.status !== 200) return failure(r);
  const found = (r.body && r.body.search) || [];
  if (!found.length) return message("No event has that file name.", "");
  clearMessage();
  for (const e of found) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#/event/" + e.idEvent;
    a.textContent = (e.strEvent || e.idEvent) + " · " + (e.dateEvent || "");
    li.appendChild(a);
    list.appendChild(li);
  }
}

// ---- Create an event from what the store holds ----

// options fills a select with [value, label] pairs, a blank first.
function options(sel, pairs) {
  sel.textContent = "";
  for (const [value, label] of [["", "–"]].concat(pairs)) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    sel.appendChild(o);
  }
}

async function listOf(path, field) {
  const r = await call("GET", path);
  if (r.status !== 200) {
    failure(r);
    return [];
  }
  return (r.body && r.body[field]) || [];
}

async function loadLeagues() {
  if ($("c-league").options.length) return;
  const leagues = await listOf("/all/leagues", "all");
  options($("c-league"), leagues.map((l) => [String(l.idLeague), l.strLeague + " (" + l.strSport + ")"]));
  $("c-id").value = "9" + String(Date.now()).slice(-8);
}

async function leagueChosen() {
  const id = $("c-league").value;
  for (const s of ["c-season", "c-home", "c-away", "c-venue"]) options($(s), []);
  if (!id) return;
  const [seasons, teams] = await Promise.all([listOf("/list/seasons/" + id, "list"), listOf("/list/teams/" + id, "list")]);
  options($("c-season"), seasons.map((s) => [s.strSeason, s.strSeason]).reverse());
  const pairs = teams.map((t) => [String(t.idTeam), t.strTeam]);
  options($("c-home"), pairs);
  options($("c-away"), pairs);
}

// teamsChosen offers the grounds of the two teams as the venue; an answer to an earlier
// choice that comes last is dropped.
let venueAsk = 0;
async function teamsChosen() {
  const ask = ++venueAsk;
  const venues = [];
  for (const id of [$("c-home").value, $("c-away").value]) {
    if (!id) continue;
    const [team] = await listOf("/lookup/team/" + id, "lookup");
    if (team && team.idVenue && !venues.some((v) => v[0] === String(team.idVenue))) {
      venues.push([String(team.idVenue), team.strStadium || "Venue " + team.idVenue]);
    }
  }
  if (ask !== venueAsk) return;
  options($("c-venue"), venues);
  if (venues.length) $("c-venue").value = venues[0][0];
}

async function create(ev) {
  ev.preventDefault();
  const id = $("c-id").value.trim();
  const venue = $("c-venue");
  const rec = {
    idLeague: $("c-league").value, strSeason: $("c-season").value,
    idHomeTeam: $("c-home").value, idAwayTeam: $("c-away").value,
    dateEvent: $("c-date").value, strTime: $("c-time").value + ":00", strStatus: "NS",
  };
  if (venue.value) {
    rec.idVenue = venue.value;
    rec.strVenue = venue.options[venue.selectedIndex].textContent;
  }
  // Create only: an id already taken is a 412, not a replaced record.
  const r = await call("PUT", "/records/event/" + encodeURIComponent(id), rec, {"If-None-Match": "*"});
  if (r.status === 201) {
    location.hash = "#/event/" + id;
    return;
  }
  if (r.status === 412) return message("Event " + id + " exists already: choose another id.", "error");
  failure(r);
}

// ---- Edit any record ----

// searchable are the kinds v2 searches by name, and the field that names a record.
const searchable = {event: "strEvent", team: "strTeam", player: "strPlayer", league: "strLeague", venue: "strVenue"};

async function findRecord(ev) {
  ev.preventDefault();
  const kind = $("r-kind").value, q = $("r-q").value.trim();
  const results = $("r-results");
  results.textContent = "";
  if (/^\d+$/.test(q)) {
    location.hash = "#/record/" + kind + "/" + q;
    return;
  }
  const found = await listOf("/search/" + kind + "/" + encodeURIComponent(q), "search");
  if (!found.length) return message("No " + kind + " by that name.", "");
  clearMessage();
  const idField = "id" + kind[0].toUpperCase() + kind.slice(1);
  for (const r of found) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#/record/" + kind + "/" + r[idField];
    a.textContent = r[searchable[kind]] || r[idField];
    li.appendChild(a);
    results.appendChild(li);
  }
}

const editing = {kind: "", id: "", record: null, etag: ""};

// openRecord reads a record and shows every field of its kind in a form.
async function openRecord() {
  const r = await call("GET", "/records/" + editing.kind + "/" + encodeURIComponent(editing.id));
  if (r.status !== 200) return failure(r);
  editing.record = r.body.record;
  editing.etag = r.etag;
  $("edit-title").textContent = editing.kind + " " + editing.id;
  const box = $("edit-fields");
  box.textContent = "";
  for (const [name, value] of Object.entries(editing.record)) {
    const div = document.createElement("div");
    div.className = "field";
    div.dataset.field = name;
    const label = document.createElement("label");
    label.textContent = name;
    label.htmlFor = "f-" + name;
    const input = document.createElement("input");
    input.id = "f-" + name;
    input.value = value === null ? "" : value;
    const problem = document.createElement("div");
    problem.className = "problem";
    div.append(label, input, problem);
    box.appendChild(div);
  }
}

// saveRecord sends the fields changed since the read as a merge patch (an emptied field is
// null), on the read's ETag; a 422's problems are shown by their fields.
async function saveRecord(ev) {
  ev.preventDefault();
  const patch = {};
  for (const [name, value] of Object.entries(editing.record)) {
    const now = $("f-" + name).value;
    if (now !== (value === null ? "" : value)) patch[name] = now === "" ? null : now;
  }
  for (const div of $("edit-fields").children) {
    div.classList.remove("invalid");
    div.querySelector(".problem").textContent = "";
  }
  if (!Object.keys(patch).length) return message("Nothing changed.", "");
  const r = await call("PATCH", "/records/" + editing.kind + "/" + encodeURIComponent(editing.id), patch, {"If-Match": editing.etag});
  if (r.status === 200) {
    await openRecord();
    message("Saved.", "ok");
    return;
  }
  if (r.status === 422 && r.body && r.body.errors) {
    for (const e of r.body.errors) {
      const div = $("edit-fields").querySelector('[data-field="' + CSS.escape(e.field) + '"]');
      if (div) {
        div.classList.add("invalid");
        div.querySelector(".problem").textContent = e.problem;
      }
    }
  }
  if (r.status === 412) {
    await openRecord();
    return message("Another editor changed this record first; it is shown as it now is. Make your change again.", "conflict");
  }
  failure(r);
}

// ---- Keep score ----

// version counts the reads and writes of the event, so that only the last one's answer shows.
const game = {id: "", event: null, etag: "", progress: "", busy: false, version: 0};

const n = (v) => (v === null || v === undefined || v === "" ? 0 : parseInt(v, 10) || 0);

function render() {
  const e = game.event;
  if (!e) return;
  $("score-title").textContent = e.strEvent || "Event " + game.id;
  $("score-meta").textContent = [e.strLeague, e.strSeason, e.dateEvent, e.strTime, e.strVenue].filter(Boolean).join(" · ");
  $("home-name").textContent = e.strHomeTeam || "Home";
  $("away-name").textContent = e.strAwayTeam || "Away";
  $("home-score").textContent = n(e.intHomeScore);
  $("away-score").textContent = n(e.intAwayScore);
  const status = e.strStatus || "NS";
  $("status-now").textContent = status + (stepNames[status] ? " · " + stepNames[status] : "");
  const box = $("steps");
  const codes = steps[e.strSport] || steps.Soccer;
  if (box.dataset.codes !== codes.join()) {
    box.textContent = "";
    for (const c of codes) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c;
      b.title = stepNames[c] || c;
      b.dataset.status = c;
      b.addEventListener("click", () => write({strStatus: c}));
      box.appendChild(b);
    }
    box.dataset.codes = codes.join();
  }
  for (const b of box.children) b.classList.toggle("current", b.dataset.status === status);
  if (document.activeElement !== $("minute")) $("minute").value = game.progress;
  $("score").dataset.etag = game.etag;
}

// load reads the event and its live score entry (which holds the minute) again, and
// answers what it read. A read overtaken by a later read or write is not shown: it would
// bring back an older ETag.
async function load() {
  const seen = ++game.version;
  const [r, l] = await Promise.all([
    call("GET", "/records/event/" + encodeURIComponent(game.id)),
    call("GET", "/records/livescore/" + encodeURIComponent(game.id)),
  ]);
  if (r.status !== 200) {
    failure(r);
    return null;
  }
  const read = {event: r.body.record, etag: r.etag, progress: l.status === 200 ? l.body.record.strProgress || "" : ""};
  if (seen === game.version) {
    Object.assign(game, read);
    render();
  }
  return read;
}

// write PATCHes the event on the ETag last read: another editor's write first is a 412,
// shown with the event as it now is.
async function write(patch) {
  if (game.busy) return;
  game.busy = true;
  try {
    const r = await call("PATCH", "/records/event/" + encodeURIComponent(game.id), patch, {"If-Match": game.etag});
    if (r.status === 200) {
      game.version++;
      game.event = r.body.record;
      game.etag = r.etag;
      if ("strProgress" in patch) game.progress = patch.strProgress || "";
      $("score").dataset.saved = n($("score").dataset.saved) + 1;
      clearMessage();
      render();
      return;
    }
    if (r.status === 412) {
      const now = await load();
      if (!now) return;
      const e = now.event;
      message("Another editor changed this event first; your change was not saved. It now reads: " +
        (e.strHomeTeam || "Home") + " " + n(e.intHomeScore) + " – " + n(e.intAwayScore) + " " + (e.strAwayTeam || "Away") +
        ", status " + (e.strStatus || "NS") + (now.progress ? ", minute " + now.progress : "") + ".", "conflict");
      $("message").dataset.status = "412";
      return;
    }
    failure(r);
  } finally {
    game.busy = false;
  }
}

function score(side, delta) {
  const field = side === "home" ? "intHomeScore" : "intAwayScore";
  const v = Math.max(0, n(game.event && game.event[field]) + delta);
  write({[field]: String(v)});
}

// ---- Live: the change feed's stream, filtered to this event ----

let stream = null;

function stopLive() {
  if (stream) stream.close();
  stream = null;
}

function startLive() {
  stopLive();
  const es = new EventSource(api + "/" + encodeURIComponent(key()) + "/stream/changes?kinds=event,livescore");
  stream = es;
  const mine = (ev) => {
    try {
      const d = JSON.parse(ev.data);
      return String(d.idEvent) === game.id || (d.kind && String(d.id) === game.id);
    } catch (e) {
      return false;
    }
  };
  const changed = (ev) => { if (mine(ev)) load(); };
  es.onopen = () => { $("live").textContent = "Live: connected"; $("live").dataset.state = "open"; };
  es.onerror = () => { $("live").textContent = "Live: reconnecting…"; $("live").dataset.state = "error"; };
  es.addEventListener("event", changed);
  es.addEventListener("livescore", changed);
  es.addEventListener("delete", changed);
  es.addEventListener("reset", () => load());
}

// ---- Routing ----

async function route() {
  clearMessage();
  if (!key()) {
    stopLive();
    show("signin");
    return;
  }
  const rec = /^#\/record\/([a-z]+)\/(\d+)$/.exec(location.hash);
  if (rec) {
    stopLive();
    editing.kind = rec[1];
    editing.id = rec[2];
    show("edit");
    await openRecord();
    return;
  }
  const m = /^#\/event\/(\d+)$/.exec(location.hash);
  if (!m) {
    stopLive();
    show("find");
    loadLeagues();
    return;
  }
  game.id = m[1];
  game.event = null;
  show("score");
  startLive();
  await load();
}

document.addEventListener("DOMContentLoaded", () => {
  $("signin-form").addEventListener("submit", signIn);
  $("signout").addEventListener("click", signOut);
  $("find-form").addEventListener("submit", find);
  $("create-form").addEventListener("submit", create);
  $("records-form").addEventListener("submit", findRecord);
  $("edit-form").addEventListener("submit", saveRecord);
  $("c-league").addEventListener("change", leagueChosen);
  $("c-home").addEventListener("change", teamsChosen);
  $("c-away").addEventListener("change", teamsChosen);
  $("minute-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    write({strProgress: $("minute").value.trim()});
    $("minute").blur();
  });
  for (const side of ["home", "away"]) {
    $(side + "-plus").addEventListener("click", () => score(side, 1));
    $(side + "-minus").addEventListener("click", () => score(side, -1));
  }
  window.addEventListener("hashchange", route);
  route();
});
