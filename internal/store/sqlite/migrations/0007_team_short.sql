-- searchteams.php?sname=SHORT finds teams by strTeamShort (DECISIONS section 5). Short names
-- are codes such as "ARS": lower() folds those as record.Fold does; a later import of a
-- team writes the fully folded value.
ALTER TABLE team ADD COLUMN n_strteamshort TEXT NOT NULL DEFAULT '';
UPDATE team SET n_strteamshort = lower(trim(coalesce(json_extract(doc, '$.strTeamShort'), '')));
CREATE INDEX team_n_strteamshort ON team (n_strteamshort);
