"""Reads an iCalendar body with the icalendar library (Debian's python3-icalendar), checks
what any calendar client relies on, and prints the events it read as JSON.

Usage: /usr/bin/python3 icscheck.py BODY.ics
Exit 0 with {"name": ..., "events": [{"uid", "start", "end", "summary", "location",
"status", "sequence"}]} on standard output; exit 1 with the problems on standard error.
"""
import datetime
import json
import sys

from icalendar import Calendar


def check(body):
    problems = []
    cal = Calendar.from_ical(body)
    for prop, want in (("VERSION", "2.0"), ("CALSCALE", "GREGORIAN"), ("METHOD", "PUBLISH")):
        if str(cal.get(prop)) != want:
            problems.append("%s is %r, want %r" % (prop, cal.get(prop), want))
    if not cal.get("PRODID"):
        problems.append("no PRODID")
    events = []
    for ev in cal.walk("VEVENT"):
        uid = str(ev.get("UID"))
        start, end = ev.decoded("DTSTART"), ev.decoded("DTEND")
        if isinstance(start, datetime.datetime):
            raw = ev["DTSTART"].to_ical().decode()
            if start.utcoffset() != datetime.timedelta(0) or not raw.endswith("Z"):
                problems.append("%s: DTSTART %s is not in UTC" % (uid, raw))
            if not isinstance(end, datetime.datetime):
                problems.append("%s: DTSTART is a date-time, DTEND is not" % uid)
        elif isinstance(end, datetime.datetime):
            problems.append("%s: DTSTART is a date, DTEND is not" % uid)
        if end <= start:
            problems.append("%s: DTEND %s is not after DTSTART %s" % (uid, end, start))
        for prop in ("DTSTAMP", "LAST-MODIFIED"):
            if ev.decoded(prop).utcoffset() != datetime.timedelta(0):
                problems.append("%s: %s is not in UTC" % (uid, prop))
        status = str(ev.get("STATUS"))
        if status not in ("CONFIRMED", "CANCELLED"):
            problems.append("%s: STATUS %s" % (uid, status))
        sequence = int(ev.get("SEQUENCE"))
        if sequence < 0:
            problems.append("%s: SEQUENCE %d" % (uid, sequence))
        events.append({"uid": uid, "start": start.isoformat(), "end": end.isoformat(),
                       "summary": str(ev.get("SUMMARY")), "location": str(ev.get("LOCATION", "")),
                       "status": status, "sequence": sequence})
    uids = [e["uid"] for e in events]
    if len(set(uids)) != len(uids):
        problems.append("UIDs repeat")
    return {"name": str(cal.get("X-WR-CALNAME")), "events": events}, problems


def main():
    with open(sys.argv[1], "rb") as f:
        out, problems = check(f.read())
    if problems:
        sys.stderr.write("\n".join(problems) + "\n")
        sys.exit(1)
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
