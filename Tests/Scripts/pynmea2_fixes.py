"""Position fixes in NMEA logs, read with pynmea2: an independent reference for anywall's parser.

Usage: python3 Tests/Scripts/pynmea2_fixes.py LOGFILE...
For each file prints `# FILE`, then one line per fix in file order: `TYPE TOD_MS LAT LON`
(TOD_MS: time of day in milliseconds; LAT/LON: repr of pynmea2's .latitude / .longitude).
scripts/bench-nmea imports `fixes` to time pynmea2 on the same rules.

The rules, which anywall's NMEA parser follows too:
  * Lines are split on LF, a trailing CR dropped, decoded as latin-1. A line with no '$' is
    ignored; otherwise it is parsed from its last '$' (ST receivers print `$$GNRMC`).
  * pynmea2.parse(check=True): a line it rejects (bad or missing checksum, unknown type,
    anything else that raises) is skipped, and so is a proprietary `$P...` sentence.
  * Only GGA, RMC, GLL and GNS count, from any talker, and only when they say they have a
    fix: GGA quality > 0; RMC and GLL status A and a mode indicator, when present, not N;
    GNS a mode indicator with at least one character that is not N.
  * Latitude, longitude and their hemispheres N/S, E/W must all be there, the minutes below
    60, the latitude strictly inside (-90, 90) and the longitude strictly inside (-180, 180).
  * TOD_MS is -1 when the time field is empty or pynmea2 cannot read it (e.g. `1235`,
    `123519.`, second 60): the fix still counts.
"""

import datetime
import re
import sys

import pynmea2

KINDS = ("GGA", "RMC", "GLL", "GNS")
DEGREES_MINUTES = re.compile(r"^(\d+)(\d\d\.\d+)$")  # the form pynmea2.nmea_utils.dm_to_sd reads


def has_fix(s):
    kind = s.sentence_type
    if kind == "GGA":
        return isinstance(s.gps_qual, int) and s.gps_qual > 0
    if kind == "RMC":
        return s.status == "A" and s.mode_indicator != "N"
    if kind == "GLL":
        return s.status == "A" and s.faa_mode != "N"
    return any(c != "N" for c in s.mode_indicator)  # GNS; an empty mode is no fix


def minutes_ok(field):
    match = DEGREES_MINUTES.match(field)
    return match is None or float(match.group(2)) < 60  # no match: "0", which pynmea2 reads as 0


def fix(line):
    """(TYPE, TOD_MS, LAT, LON) for one line, or None. May raise on malformed input."""
    text = line.rstrip(b"\r").decode("latin-1")
    start = text.rfind("$")
    if start < 0:
        return None
    s = pynmea2.parse(text[start:], check=True)
    if not isinstance(s, pynmea2.TalkerSentence) or s.sentence_type not in KINDS or not has_fix(s):
        return None
    if not (s.lat and s.lon and s.lat_dir in ("N", "S") and s.lon_dir in ("E", "W")):
        return None
    if not (minutes_ok(s.lat) and minutes_ok(s.lon)):
        return None
    lat, lon = s.latitude, s.longitude
    if not (-90 < lat < 90 and -180 < lon < 180):
        return None
    t = s.timestamp  # None when empty, the raw text when pynmea2 could not read it
    if isinstance(t, datetime.time):
        tod = ((t.hour * 60 + t.minute) * 60 + t.second) * 1000 + round(t.microsecond / 1000)
    else:
        tod = -1
    return s.sentence_type, tod, lat, lon


def fixes(lines):
    """The fixes in an iterable of raw lines (bytes, as split on b"\\n"), in order."""
    for line in lines:
        try:
            found = fix(line)
        except Exception:  # ChecksumError, ParseError, SentenceTypeError, ValueError, ...
            continue
        if found is not None:
            yield found


def read_lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: pynmea2_fixes.py LOGFILE...")
    out = []
    for path in sys.argv[1:]:
        out.append(f"# {path}")
        out.extend(f"{kind} {tod} {lat!r} {lon!r}" for kind, tod, lat, lon in fixes(read_lines(path)))
    print("\n".join(out))
