-- Fields the public service sorts some lists on (testdata/recorded): a country's code, a
-- lineup's idPlayer, a result's intPosition and dateEvent, a season poster's strSeason, a
-- live score's strStatus and strProgress. The lists are small (one event's lineup, one
-- player's results), so the columns need no index of their own; rows already stored get
-- their values from their documents.
ALTER TABLE country ADD COLUMN c_code TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE country SET c_code = coalesce(doc::jsonb->>'code', '');
ALTER TABLE seasonposter ADD COLUMN c_strseason TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE seasonposter SET c_strseason = coalesce(doc::jsonb->>'strSeason', '');
ALTER TABLE result ADD COLUMN c_intposition TEXT COLLATE "C" NOT NULL DEFAULT '',
    ADD COLUMN c_dateevent TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE result SET c_intposition = coalesce(doc::jsonb->>'intPosition', ''),
    c_dateevent = coalesce(doc::jsonb->>'dateEvent', '');
ALTER TABLE lineup ADD COLUMN c_idplayer TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE lineup SET c_idplayer = coalesce(doc::jsonb->>'idPlayer', '');
ALTER TABLE livescore ADD COLUMN c_strstatus TEXT COLLATE "C" NOT NULL DEFAULT '',
    ADD COLUMN c_strprogress TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE livescore SET c_strstatus = coalesce(doc::jsonb->>'strStatus', ''),
    c_strprogress = coalesce(doc::jsonb->>'strProgress', '');
