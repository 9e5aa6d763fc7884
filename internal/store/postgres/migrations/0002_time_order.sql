-- Events and TV listings are asked for in time order, ties broken by seq, and the sets are
-- large at full scale (a day holds thousands of events, a league its whole history). With
-- seq in the index as well, a capped answer reads only the rows it returns in index order
-- instead of sorting the whole set first. (SQLite's indexes end with the rowid, which is
-- seq, so there only the day's index changes.)
DROP INDEX event_c_dateevent;
CREATE INDEX event_c_dateevent_c_strtimestamp ON event (c_dateevent, c_strtimestamp, seq);
DROP INDEX event_c_idleague_c_strtimestamp;
CREATE INDEX event_c_idleague_c_strtimestamp ON event (c_idleague, c_strtimestamp, seq);
DROP INDEX event_c_idhometeam_c_strtimestamp;
CREATE INDEX event_c_idhometeam_c_strtimestamp ON event (c_idhometeam, c_strtimestamp, seq);
DROP INDEX event_c_idawayteam_c_strtimestamp;
CREATE INDEX event_c_idawayteam_c_strtimestamp ON event (c_idawayteam, c_strtimestamp, seq);
DROP INDEX event_c_idvenue_c_strtimestamp;
CREATE INDEX event_c_idvenue_c_strtimestamp ON event (c_idvenue, c_strtimestamp, seq);
DROP INDEX tv_c_dateevent_c_strtimestamp;
CREATE INDEX tv_c_dateevent_c_strtimestamp ON tv (c_dateevent, c_strtimestamp, seq);
