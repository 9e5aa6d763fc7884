-- A day's events and TV listings are answered by id, as the public service orders them, and
-- a day holds thousands of them at full scale: with the id's order (length, then text, which
-- is numeric order for canonical ids) and seq in the index, a capped answer reads only the
-- rows it returns instead of sorting the whole day first.
CREATE INDEX event_c_dateevent_id ON event (c_dateevent, length(id), id, seq);
CREATE INDEX tv_c_dateevent_id ON tv (c_dateevent, length(id), id, seq);
