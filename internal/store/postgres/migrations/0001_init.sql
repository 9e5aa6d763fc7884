-- The whole schema: one table per record kind (see internal/record), keys and meta.
-- Text columns use the "C" collation: byte order, as on SQLite, and LIKE 'x%' can use a btree.
-- Names that are searched inside (Contains, ListContains) have pg_trgm GIN indexes. Sport,
-- country and league names, event names and file names are matched whole (the API searches
-- events by their exact name), so they have btrees only: a trigram index on the large event
-- table made imports about 3.5 times slower.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO meta (name, value) VALUES ('data_version', 0);

CREATE TABLE keys (
    hash TEXT PRIMARY KEY,
    tier TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created TIMESTAMPTZ NOT NULL,
    revoked TIMESTAMPTZ
);
CREATE INDEX keys_created ON keys (created);

CREATE TABLE sport (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX sport_n_strsport ON sport (n_strsport);
CREATE INDEX sport_n_strsport_trgm ON sport USING gin (n_strsport gin_trgm_ops);

CREATE TABLE country (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_name_en TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX country_n_name_en ON country (n_name_en);
CREATE INDEX country_n_name_en_trgm ON country USING gin (n_name_en gin_trgm_ops);

CREATE TABLE league (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    l_strleaguealternate TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strcountry TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX league_n_strleague ON league (n_strleague);
CREATE INDEX league_n_strsport ON league (n_strsport);
CREATE INDEX league_n_strcountry_n_strsport ON league (n_strcountry, n_strsport);
CREATE INDEX league_n_strleague_trgm ON league USING gin (n_strleague gin_trgm_ops);
CREATE INDEX league_l_strleaguealternate_trgm ON league USING gin (l_strleaguealternate gin_trgm_ops);

CREATE TABLE season (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_strseason TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX season_c_idleague_c_strseason ON season (c_idleague, c_strseason);

CREATE TABLE seasonposter (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX seasonposter_c_idleague ON seasonposter (c_idleague);

CREATE TABLE venue (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strvenue TEXT COLLATE "C" NOT NULL DEFAULT '',
    l_strvenuealternate TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX venue_n_strvenue ON venue (n_strvenue);
CREATE INDEX venue_n_strvenue_trgm ON venue USING gin (n_strvenue gin_trgm_ops);
CREATE INDEX venue_l_strvenuealternate_trgm ON venue USING gin (l_strvenuealternate gin_trgm_ops);

CREATE TABLE team (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strteam TEXT COLLATE "C" NOT NULL DEFAULT '',
    l_strteamalternate TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strcountry TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX team_n_strteam ON team (n_strteam);
CREATE INDEX team_c_idleague_n_strteam ON team (c_idleague, n_strteam);
CREATE INDEX team_n_strleague_n_strteam ON team (n_strleague, n_strteam);
CREATE INDEX team_n_strsport_n_strcountry ON team (n_strsport, n_strcountry);
CREATE INDEX team_n_strcountry ON team (n_strcountry);
CREATE INDEX team_n_strteam_trgm ON team USING gin (n_strteam gin_trgm_ops);
CREATE INDEX team_l_strteamalternate_trgm ON team USING gin (l_strteamalternate gin_trgm_ops);

CREATE TABLE player (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idteam TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX player_c_idteam_n_strplayer ON player (c_idteam, n_strplayer);
CREATE INDEX player_n_strplayer ON player (n_strplayer);
CREATE INDEX player_n_strplayer_trgm ON player USING gin (n_strplayer gin_trgm_ops);

CREATE TABLE event (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_strseason TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idhometeam TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idawayteam TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idvenue TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_strtimestamp TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_dateevent TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_intround TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strevent TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strfilename TEXT COLLATE "C" NOT NULL DEFAULT ''
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
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_strseason TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_intrank TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX standing_c_idleague_c_strseason_c_intrank ON standing (c_idleague, c_strseason, c_intrank);

CREATE TABLE equipment (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idteam TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX equipment_c_idteam ON equipment (c_idteam);

CREATE TABLE honour (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX honour_c_idplayer ON honour (c_idplayer);

CREATE TABLE formerteam (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX formerteam_c_idplayer ON formerteam (c_idplayer);

CREATE TABLE milestone (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX milestone_c_idplayer ON milestone (c_idplayer);

CREATE TABLE contract (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX contract_c_idplayer ON contract (c_idplayer);

CREATE TABLE result (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idevent TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX result_c_idplayer ON result (c_idplayer);
CREATE INDEX result_c_idevent ON result (c_idevent);

CREATE TABLE playerstat (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX playerstat_c_idplayer ON playerstat (c_idplayer);

CREATE TABLE lineup (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX lineup_c_idevent ON lineup (c_idevent);

CREATE TABLE timeline (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX timeline_c_idevent ON timeline (c_idevent);

CREATE TABLE eventstat (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX eventstat_c_idevent ON eventstat (c_idevent);

CREATE TABLE tv (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_idevent TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_dateevent TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idchannel TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strcountry TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strchannel TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_strtimestamp TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX tv_c_dateevent_c_strtimestamp ON tv (c_dateevent, c_strtimestamp);
CREATE INDEX tv_c_idevent ON tv (c_idevent);
CREATE INDEX tv_c_idchannel_c_strtimestamp ON tv (c_idchannel, c_strtimestamp);
CREATE INDEX tv_n_strcountry ON tv (n_strcountry);
CREATE INDEX tv_n_strchannel ON tv (n_strchannel);
CREATE INDEX tv_n_strsport ON tv (n_strsport);
CREATE INDEX tv_n_strchannel_trgm ON tv USING gin (n_strchannel gin_trgm_ops);

CREATE TABLE highlight (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    c_dateevent TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT '',
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX highlight_c_dateevent ON highlight (c_dateevent);
CREATE INDEX highlight_c_idleague ON highlight (c_idleague);
CREATE INDEX highlight_n_strsport ON highlight (n_strsport);

CREATE TABLE livescore (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT COLLATE "C" NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    n_strsport TEXT COLLATE "C" NOT NULL DEFAULT '',
    c_idleague TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX livescore_n_strsport ON livescore (n_strsport);
CREATE INDEX livescore_c_idleague ON livescore (c_idleague);
