-- Trigram full-text indexes of the names searched inside (Contains, ListContains, ListHas),
-- so a search reads the rows holding the searched text instead of the whole table. Each is
-- an external-content table over the kind's table (rowid = seq), so it stores only the
-- index; triggers keep it in step within the writing transaction. The store looks a needle
-- up as a few of its trigrams in one column, which detail=column answers without the
-- positions detail=full would store. The update triggers fire only when an indexed value changed, so an
-- upsert that merges other fields costs nothing here. 'optimize' merges each filled index
-- into one segment, which lookups read fastest.

CREATE VIRTUAL TABLE team_fts USING fts5(n_strteam, l_strteamalternate,
    content='team', content_rowid='seq', tokenize='trigram', detail='column');
CREATE TRIGGER team_fts_insert AFTER INSERT ON team BEGIN
    INSERT INTO team_fts (rowid, n_strteam, l_strteamalternate) VALUES (new.seq, new.n_strteam, new.l_strteamalternate);
END;
CREATE TRIGGER team_fts_delete AFTER DELETE ON team BEGIN
    INSERT INTO team_fts (team_fts, rowid, n_strteam, l_strteamalternate) VALUES ('delete', old.seq, old.n_strteam, old.l_strteamalternate);
END;
CREATE TRIGGER team_fts_update AFTER UPDATE ON team
WHEN old.n_strteam IS NOT new.n_strteam OR old.l_strteamalternate IS NOT new.l_strteamalternate OR old.seq IS NOT new.seq BEGIN
    INSERT INTO team_fts (team_fts, rowid, n_strteam, l_strteamalternate) VALUES ('delete', old.seq, old.n_strteam, old.l_strteamalternate);
    INSERT INTO team_fts (rowid, n_strteam, l_strteamalternate) VALUES (new.seq, new.n_strteam, new.l_strteamalternate);
END;
INSERT INTO team_fts (team_fts) VALUES ('rebuild');
INSERT INTO team_fts (team_fts) VALUES ('optimize');

CREATE VIRTUAL TABLE player_fts USING fts5(n_strplayer,
    content='player', content_rowid='seq', tokenize='trigram', detail='column');
CREATE TRIGGER player_fts_insert AFTER INSERT ON player BEGIN
    INSERT INTO player_fts (rowid, n_strplayer) VALUES (new.seq, new.n_strplayer);
END;
CREATE TRIGGER player_fts_delete AFTER DELETE ON player BEGIN
    INSERT INTO player_fts (player_fts, rowid, n_strplayer) VALUES ('delete', old.seq, old.n_strplayer);
END;
CREATE TRIGGER player_fts_update AFTER UPDATE ON player
WHEN old.n_strplayer IS NOT new.n_strplayer OR old.seq IS NOT new.seq BEGIN
    INSERT INTO player_fts (player_fts, rowid, n_strplayer) VALUES ('delete', old.seq, old.n_strplayer);
    INSERT INTO player_fts (rowid, n_strplayer) VALUES (new.seq, new.n_strplayer);
END;
INSERT INTO player_fts (player_fts) VALUES ('rebuild');
INSERT INTO player_fts (player_fts) VALUES ('optimize');

CREATE VIRTUAL TABLE venue_fts USING fts5(n_strvenue, l_strvenuealternate,
    content='venue', content_rowid='seq', tokenize='trigram', detail='column');
CREATE TRIGGER venue_fts_insert AFTER INSERT ON venue BEGIN
    INSERT INTO venue_fts (rowid, n_strvenue, l_strvenuealternate) VALUES (new.seq, new.n_strvenue, new.l_strvenuealternate);
END;
CREATE TRIGGER venue_fts_delete AFTER DELETE ON venue BEGIN
    INSERT INTO venue_fts (venue_fts, rowid, n_strvenue, l_strvenuealternate) VALUES ('delete', old.seq, old.n_strvenue, old.l_strvenuealternate);
END;
CREATE TRIGGER venue_fts_update AFTER UPDATE ON venue
WHEN old.n_strvenue IS NOT new.n_strvenue OR old.l_strvenuealternate IS NOT new.l_strvenuealternate OR old.seq IS NOT new.seq BEGIN
    INSERT INTO venue_fts (venue_fts, rowid, n_strvenue, l_strvenuealternate) VALUES ('delete', old.seq, old.n_strvenue, old.l_strvenuealternate);
    INSERT INTO venue_fts (rowid, n_strvenue, l_strvenuealternate) VALUES (new.seq, new.n_strvenue, new.l_strvenuealternate);
END;
INSERT INTO venue_fts (venue_fts) VALUES ('rebuild');
INSERT INTO venue_fts (venue_fts) VALUES ('optimize');

CREATE VIRTUAL TABLE league_fts USING fts5(n_strleague, l_strleaguealternate,
    content='league', content_rowid='seq', tokenize='trigram', detail='column');
CREATE TRIGGER league_fts_insert AFTER INSERT ON league BEGIN
    INSERT INTO league_fts (rowid, n_strleague, l_strleaguealternate) VALUES (new.seq, new.n_strleague, new.l_strleaguealternate);
END;
CREATE TRIGGER league_fts_delete AFTER DELETE ON league BEGIN
    INSERT INTO league_fts (league_fts, rowid, n_strleague, l_strleaguealternate) VALUES ('delete', old.seq, old.n_strleague, old.l_strleaguealternate);
END;
CREATE TRIGGER league_fts_update AFTER UPDATE ON league
WHEN old.n_strleague IS NOT new.n_strleague OR old.l_strleaguealternate IS NOT new.l_strleaguealternate OR old.seq IS NOT new.seq BEGIN
    INSERT INTO league_fts (league_fts, rowid, n_strleague, l_strleaguealternate) VALUES ('delete', old.seq, old.n_strleague, old.l_strleaguealternate);
    INSERT INTO league_fts (rowid, n_strleague, l_strleaguealternate) VALUES (new.seq, new.n_strleague, new.l_strleaguealternate);
END;
INSERT INTO league_fts (league_fts) VALUES ('rebuild');
INSERT INTO league_fts (league_fts) VALUES ('optimize');

CREATE VIRTUAL TABLE tv_fts USING fts5(n_strchannel,
    content='tv', content_rowid='seq', tokenize='trigram', detail='column');
CREATE TRIGGER tv_fts_insert AFTER INSERT ON tv BEGIN
    INSERT INTO tv_fts (rowid, n_strchannel) VALUES (new.seq, new.n_strchannel);
END;
CREATE TRIGGER tv_fts_delete AFTER DELETE ON tv BEGIN
    INSERT INTO tv_fts (tv_fts, rowid, n_strchannel) VALUES ('delete', old.seq, old.n_strchannel);
END;
CREATE TRIGGER tv_fts_update AFTER UPDATE ON tv
WHEN old.n_strchannel IS NOT new.n_strchannel OR old.seq IS NOT new.seq BEGIN
    INSERT INTO tv_fts (tv_fts, rowid, n_strchannel) VALUES ('delete', old.seq, old.n_strchannel);
    INSERT INTO tv_fts (rowid, n_strchannel) VALUES (new.seq, new.n_strchannel);
END;
INSERT INTO tv_fts (tv_fts) VALUES ('rebuild');
INSERT INTO tv_fts (tv_fts) VALUES ('optimize');
