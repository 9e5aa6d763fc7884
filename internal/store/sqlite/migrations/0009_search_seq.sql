-- Narrow indexes of the searched names in seq order. A search that finds its candidates in
-- a trigram index checks each candidate's name and sorts the matches before its limit: on
-- these indexes it reads a few bytes per candidate, where the table would read the whole
-- row (the doc, over a kilobyte), and it reads the docs of only the rows it keeps.
CREATE INDEX team_search ON team (seq, n_strteam, l_strteamalternate);
CREATE INDEX player_search ON player (seq, n_strplayer);
CREATE INDEX venue_search ON venue (seq, n_strvenue, l_strvenuealternate);
CREATE INDEX league_search ON league (seq, n_strleague, l_strleaguealternate);
CREATE INDEX tv_search ON tv (seq, n_strchannel);
