-- Fields the public service sorts some lists on (testdata/recorded): a country's code, a
-- lineup's idPlayer, a result's intPosition and dateEvent, a season poster's strSeason, a
-- live score's strStatus and strProgress. The lists are small (one event's lineup, one
-- player's results), so the columns need no index of their own; rows already stored get
-- their values from their documents.
ALTER TABLE country ADD COLUMN c_code TEXT NOT NULL DEFAULT '';
UPDATE country SET c_code = coalesce(json_extract(doc, '$.code'), '');
ALTER TABLE seasonposter ADD COLUMN c_strseason TEXT NOT NULL DEFAULT '';
UPDATE seasonposter SET c_strseason = coalesce(json_extract(doc, '$.strSeason'), '');
ALTER TABLE result ADD COLUMN c_intposition TEXT NOT NULL DEFAULT '';
ALTER TABLE result ADD COLUMN c_dateevent TEXT NOT NULL DEFAULT '';
UPDATE result SET c_intposition = coalesce(json_extract(doc, '$.intPosition'), ''),
    c_dateevent = coalesce(json_extract(doc, '$.dateEvent'), '');
ALTER TABLE lineup ADD COLUMN c_idplayer TEXT NOT NULL DEFAULT '';
UPDATE lineup SET c_idplayer = coalesce(json_extract(doc, '$.idPlayer'), '');
ALTER TABLE livescore ADD COLUMN c_strstatus TEXT NOT NULL DEFAULT '';
ALTER TABLE livescore ADD COLUMN c_strprogress TEXT NOT NULL DEFAULT '';
UPDATE livescore SET c_strstatus = coalesce(json_extract(doc, '$.strStatus'), ''),
    c_strprogress = coalesce(json_extract(doc, '$.strProgress'), '');
