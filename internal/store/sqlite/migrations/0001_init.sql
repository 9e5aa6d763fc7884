-- The whole schema: one table per record kind (see internal/record), keys and meta.

CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO meta (name, value) VALUES ('data_version', 0);

CREATE TABLE keys (
    hash TEXT PRIMARY KEY,
    tier TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    revoked TEXT
);
CREATE INDEX keys_created ON keys (created);

CREATE TABLE sport (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sport_n_strsport ON sport (n_strsport);

CREATE TABLE country (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_name_en TEXT NOT NULL DEFAULT ''
);
CREATE INDEX country_n_name_en ON country (n_name_en);

CREATE TABLE league (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT NOT NULL DEFAULT '',
    n_strleague TEXT NOT NULL DEFAULT '',
    l_strleaguealternate TEXT NOT NULL DEFAULT '',
    n_strcountry TEXT NOT NULL DEFAULT ''
);
CREATE INDEX league_n_strleague ON league (n_strleague);
CREATE INDEX league_n_strsport ON league (n_strsport);
CREATE INDEX league_n_strcountry_n_strsport ON league (n_strcountry, n_strsport);

CREATE TABLE season (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT NOT NULL DEFAULT '',
    c_strseason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX season_c_idleague_c_strseason ON season (c_idleague, c_strseason);

CREATE TABLE seasonposter (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT NOT NULL DEFAULT ''
);
CREATE INDEX seasonposter_c_idleague ON seasonposter (c_idleague);

CREATE TABLE venue (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strvenue TEXT NOT NULL DEFAULT '',
    l_strvenuealternate TEXT NOT NULL DEFAULT ''
);
CREATE INDEX venue_n_strvenue ON venue (n_strvenue);

CREATE TABLE team (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strteam TEXT NOT NULL DEFAULT '',
    l_strteamalternate TEXT NOT NULL DEFAULT '',
    c_idleague TEXT NOT NULL DEFAULT '',
    n_strleague TEXT NOT NULL DEFAULT '',
    n_strsport TEXT NOT NULL DEFAULT '',
    n_strcountry TEXT NOT NULL DEFAULT ''
);
CREATE INDEX team_n_strteam ON team (n_strteam);
CREATE INDEX team_c_idleague_n_strteam ON team (c_idleague, n_strteam);
CREATE INDEX team_n_strleague_n_strteam ON team (n_strleague, n_strteam);
CREATE INDEX team_n_strsport_n_strcountry ON team (n_strsport, n_strcountry);
CREATE INDEX team_n_strcountry ON team (n_strcountry);

CREATE TABLE player (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idteam TEXT NOT NULL DEFAULT '',
    n_strplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX player_c_idteam_n_strplayer ON player (c_idteam, n_strplayer);
CREATE INDEX player_n_strplayer ON player (n_strplayer);

CREATE TABLE event (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT NOT NULL DEFAULT '',
    c_strseason TEXT NOT NULL DEFAULT '',
    c_idhometeam TEXT NOT NULL DEFAULT '',
    c_idawayteam TEXT NOT NULL DEFAULT '',
    c_idvenue TEXT NOT NULL DEFAULT '',
    c_strtimestamp TEXT NOT NULL DEFAULT '',
    c_dateevent TEXT NOT NULL DEFAULT '',
    c_intround TEXT NOT NULL DEFAULT '',
    n_strsport TEXT NOT NULL DEFAULT '',
    n_strleague TEXT NOT NULL DEFAULT '',
    n_strevent TEXT NOT NULL DEFAULT '',
    n_strfilename TEXT NOT NULL DEFAULT ''
);
CREATE INDEX event_c_idleague_c_strseason_c_intround ON event (c_idleague, c_strseason, c_intround);
CREATE INDEX event_c_idleague_c_strtimestamp ON event (c_idleague, c_strtimestamp);
CREATE INDEX event_c_idhometeam_c_strtimestamp ON event (c_idhometeam, c_strtimestamp);
CREATE INDEX event_c_idawayteam_c_strtimestamp ON event (c_idawayteam, c_strtimestamp);
CREATE INDEX event_c_idvenue_c_strtimestamp ON event (c_idvenue, c_strtimestamp);
CREATE INDEX event_c_dateevent ON event (c_dateevent);
CREATE INDEX event_n_strevent ON event (n_strevent);
CREATE INDEX event_n_strfilename ON event (n_strfilename);

CREATE TABLE standing (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT NOT NULL DEFAULT '',
    c_strseason TEXT NOT NULL DEFAULT '',
    c_intrank TEXT NOT NULL DEFAULT ''
);
CREATE INDEX standing_c_idleague_c_strseason_c_intrank ON standing (c_idleague, c_strseason, c_intrank);

CREATE TABLE equipment (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idteam TEXT NOT NULL DEFAULT ''
);
CREATE INDEX equipment_c_idteam ON equipment (c_idteam);

CREATE TABLE honour (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX honour_c_idplayer ON honour (c_idplayer);

CREATE TABLE formerteam (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX formerteam_c_idplayer ON formerteam (c_idplayer);

CREATE TABLE milestone (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX milestone_c_idplayer ON milestone (c_idplayer);

CREATE TABLE contract (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX contract_c_idplayer ON contract (c_idplayer);

CREATE TABLE result (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT '',
    c_idevent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX result_c_idplayer ON result (c_idplayer);
CREATE INDEX result_c_idevent ON result (c_idevent);

CREATE TABLE playerstat (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX playerstat_c_idplayer ON playerstat (c_idplayer);

CREATE TABLE lineup (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX lineup_c_idevent ON lineup (c_idevent);

CREATE TABLE timeline (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX timeline_c_idevent ON timeline (c_idevent);

CREATE TABLE eventstat (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX eventstat_c_idevent ON eventstat (c_idevent);

CREATE TABLE tv (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT NOT NULL DEFAULT '',
    c_dateevent TEXT NOT NULL DEFAULT '',
    c_idchannel TEXT NOT NULL DEFAULT '',
    n_strsport TEXT NOT NULL DEFAULT '',
    n_strcountry TEXT NOT NULL DEFAULT '',
    n_strchannel TEXT NOT NULL DEFAULT '',
    c_strtimestamp TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tv_c_dateevent_c_strtimestamp ON tv (c_dateevent, c_strtimestamp);
CREATE INDEX tv_c_idevent ON tv (c_idevent);
CREATE INDEX tv_c_idchannel_c_strtimestamp ON tv (c_idchannel, c_strtimestamp);
CREATE INDEX tv_n_strcountry ON tv (n_strcountry);
CREATE INDEX tv_n_strchannel ON tv (n_strchannel);
CREATE INDEX tv_n_strsport ON tv (n_strsport);

CREATE TABLE highlight (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_dateevent TEXT NOT NULL DEFAULT '',
    c_idleague TEXT NOT NULL DEFAULT '',
    n_strsport TEXT NOT NULL DEFAULT ''
);
CREATE INDEX highlight_c_dateevent ON highlight (c_dateevent);
CREATE INDEX highlight_c_idleague ON highlight (c_idleague);
CREATE INDEX highlight_n_strsport ON highlight (n_strsport);

CREATE TABLE livescore (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT NOT NULL DEFAULT '',
    c_idleague TEXT NOT NULL DEFAULT ''
);
CREATE INDEX livescore_n_strsport ON livescore (n_strsport);
CREATE INDEX livescore_c_idleague ON livescore (c_idleague);
