"""The Python parts of scripts/bench-nmea, one subcommand each:

    nmea_bench.py log PATH SIZE_MB SEED     write a synthetic receiver log
    nmea_bench.py pynmea2 SCRIPTS_DIR LOG   time pynmea2 over the log
    nmea_bench.py posts                     print 200 NDJSON posts near the watch place
    nmea_bench.py watch ANYWALL WORK SECS   feed anywall nearby --watch and measure its CPU
    nmea_bench.py rate JSON                 MB/s and fixes from anywall-bench nmea's last line
"""

import sys


def log(argv):
    """A receiver's log: 1 Hz epochs along a wandering track, in three receiver styles."""
    import datetime, functools, math, operator, random, sys

    path, size, seed = argv[1], int(argv[2]) * 1_000_000, int(argv[3])
    rng = random.Random(seed)

    def sentence(body):
        return "$%s*%02X\r\n" % (body, functools.reduce(operator.xor, body.encode(), 0))

    def dm(value, width, decimals, hemispheres):
        degrees, minutes = divmod(abs(value) * 60, 60)
        text = "%0*d%0*.*f" % (width, degrees, decimals + 3, decimals, minutes)
        if text[width:width + 2] == "60":  # minutes rounded up to 60
            text = "%0*d%0*.*f" % (width, degrees + 1, decimals + 3, decimals, 0)
        return text, hemispheres[value < 0]

    def satellites(first, count):
        return [[first + i, rng.randint(5, 85), rng.randint(0, 359), rng.randint(20, 48)] for i in range(count)]

    def gsv(talker, sats):
        pages = [sats[i:i + 4] for i in range(0, len(sats), 4)]
        return [sentence("%sGSV,%d,%d,%02d,%s" % (talker, len(pages), n + 1, len(sats),
                         ",".join("%02d,%02d,%03d,%02d" % tuple(s) for s in page)))
                for n, page in enumerate(pages)]

    lat, lon, heading, speed = 37.7793, -122.4193, 90.0, 8.0
    when = datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc)
    gps, glonass = satellites(1, 11), satellites(65, 7)
    style, style_left, fix_left, no_fix_left = "sirf", 0, 0, 0
    written = 0
    with open(path, "w", newline="") as f:
        while written < size:
            if style_left == 0:  # another receiver, for 10 to 40 minutes
                style, style_left = rng.choice(("sirf", "ublox", "gns")), rng.randint(600, 2400)
                gps, glonass = satellites(1, rng.randint(6, 12)), satellites(65, rng.randint(4, 8))
            style_left -= 1
            if no_fix_left == 0 and rng.random() < 0.002:  # a tunnel or an urban canyon
                no_fix_left = rng.randint(5, 120)
            has_fix = no_fix_left == 0
            no_fix_left = max(0, no_fix_left - 1)

            heading = (heading + rng.gauss(0, 4)) % 360
            speed = min(35.0, max(0.0, speed + rng.gauss(0, 0.6)))
            lat += speed * math.cos(math.radians(heading)) / 111_195
            lon += speed * math.sin(math.radians(heading)) / (111_195 * math.cos(math.radians(lat)))
            for s in gps + glonass:
                s[3] = min(50, max(10, s[3] + rng.randint(-1, 1)))
            when += datetime.timedelta(seconds=1)
            t = when.strftime("%H%M%S") + (".000" if style == "sirf" else ".00")
            d = when.strftime("%d%m%y")
            knots, altitude = speed * 1.943844, 12 + rng.random() * 5
            decimals = 4 if style == "sirf" else 5
            la, ns = dm(lat, 2, decimals, "NS")
            lo, ew = dm(lon, 3, decimals, "EW")
            if not has_fix:
                la = ns = lo = ew = ""
            used = ",".join("%02d" % s[0] for s in gps[:12]) + "," * (12 - min(12, len(gps)))
            hdop = "%.1f" % (0.6 + rng.random())
            q, status, mode = ("1", "A", "A") if has_fix else ("0", "V", "N")
            gga = "GGA,%s,%s,%s,%s,%s,%s,%02d,%s,%.1f,M,-25.6,M,," % (
                t, la, ns, lo, ew, q, len(gps) if has_fix else 0, hdop, altitude)
            vtg = "VTG,%.2f,T,,M,%.3f,N,%.3f,K,%s" % (heading, knots, speed * 3.6, mode)
            if style == "sirf":
                lines = [sentence("GP" + gga), sentence("GPGSA,A,%s,%s,1.5,%s,1.1" % ("3" if has_fix else "1", used, hdop)),
                         sentence("GPRMC,%s,%s,%s,%s,%s,%s,%.2f,%.2f,%s,,,%s" % (t, status, la, ns, lo, ew, knots, heading, d, mode))]
                if when.second % 5 == 0:
                    lines[2:2] = gsv("GP", gps)
            elif style == "ublox":
                lines = [sentence("GNRMC,%s,%s,%s,%s,%s,%s,%.3f,%.2f,%s,,,%s" % (t, status, la, ns, lo, ew, knots, heading, d, mode)),
                         sentence("GN" + vtg), sentence("GN" + gga),
                         sentence("GNGSA,A,%s,%s,1.3,%s,0.9" % ("3" if has_fix else "1", used, hdop)),
                         sentence("GNGSA,A,%s,%s,1.3,%s,0.9" % ("3" if has_fix else "1", ",".join("%02d" % s[0] for s in glonass) + "," * (12 - len(glonass)), hdop)),
                         *gsv("GP", gps), *gsv("GL", glonass),
                         sentence("GNGLL,%s,%s,%s,%s,%s,%s,%s" % (la, ns, lo, ew, t, status, mode)),
                         sentence("PUBX,00,%s,%s,%s,%s,%s,%.3f,%s,1.2,1.9,%.3f,%.2f,0.000,,%s,1.4,1.1,0,%d,%d,0" % (
                             t, la, ns, lo, ew, altitude, "G3" if has_fix else "NF", speed * 3.6, heading, hdop, len(gps), len(glonass)))]
            else:  # a GNS receiver (Quectel-like): GNS plus GP GGA and GN RMC
                gns_mode = ("AA" if has_fix else "NN") + "N"
                lines = [sentence("GNGNS,%s,%s,%s,%s,%s,%s,%02d,%s,%.1f,-25.6,," % (t, la, ns, lo, ew, gns_mode, len(gps) + len(glonass), hdop, altitude)),
                         sentence("GP" + gga),
                         sentence("GNRMC,%s,%s,%s,%s,%s,%s,%.1f,%.1f,%s,,,%s,V" % (t, status, la, ns, lo, ew, knots, heading, d, mode)),
                         sentence("GP" + vtg), *gsv("GL", glonass)]
            for i, line in enumerate(lines):
                r = rng.random()
                if r < 0.001:  # a corrupted byte: the checksum no longer matches
                    k = rng.randrange(1, len(line) - 5)
                    lines[i] = line[:k] + chr(ord(line[k]) ^ 0x04) + line[k + 1:]
                elif r < 0.0015:  # cut short by a buffer overrun: no checksum
                    lines[i] = line[:rng.randrange(8, len(line) - 5)] + "\r\n"
                elif r < 0.002 and line.startswith("$GNRMC"):  # an ST receiver's doubled '$'
                    lines[i] = "$" + line
            text = "".join(lines)
            f.write(text)
            written += len(text)


def pynmea2(argv):
    """pynmea2 over the log, 10 MB at a time; stops after the first 10 MB when the whole would
take more than 60 s. Prints MB/s, fixes and bytes read."""
    import sys, time
    sys.path.insert(0, argv[1])
    from pynmea2_fixes import fixes

    CHUNK, BUDGET = 10_000_000, 60.0
    with open(argv[2], "rb") as f:
        data = f.read()
    done = found = 0
    start = time.perf_counter()
    while done < len(data):
        end = data.rfind(b"\n", done, done + CHUNK) + 1 if done + CHUNK < len(data) else len(data)
        found += sum(1 for _ in fixes(data[done:end].split(b"\n")))
        done = end
        elapsed = time.perf_counter() - start
        if done < len(data) and elapsed * len(data) / done > BUDGET:
            break
    print("%.2f %d %d" % (done / 1e6 / elapsed, found, done))


def posts(argv):
    """200 posts within about 3 km of the watch position, so every query has work to do."""
    import random
    rng = random.Random(7)
    for i in range(200):
        lat, lon = 37.7793 + rng.gauss(0, 0.015), -122.4193 + rng.gauss(0, 0.02)
        print('{"objectId":"nmea%06d","text":"post %d","location":{"latitude":%.6f,"longitude":%.6f},'
              '"createdAt":"2025-03-01T12:00:00.000Z","author":"bench%02d"}' % (i, i, lat, lon, i % 20))


def watch(argv):
    """Feeds `anywall nearby --watch --nmea -` one GGA+RMC pair a second at a fixed place; prints
the CPU % of one core it used (utime+stime from /proc at the end, over the elapsed time)."""
    import datetime, functools, operator, os, subprocess, sys, time

    anywall, work, seconds = argv[1], argv[2], int(argv[3])

    def sentence(body):
        return "$%s*%02X\r\n" % (body, functools.reduce(operator.xor, body.encode(), 0))

    command = [anywall, "nearby", "--store", os.path.join(work, "wall.sqlite"), "--watch", "--nmea", "-",
               "--ndjson", "--interval", "30s"]
    with open(os.path.join(work, "watch.out"), "wb") as out, open(os.path.join(work, "watch.err"), "wb") as err:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=err)
    start = time.monotonic()
    try:
        for i in range(seconds):
            now = datetime.datetime.now(datetime.timezone.utc)
            t, d = now.strftime("%H%M%S.00"), now.strftime("%d%m%y")
            proc.stdin.write((sentence("GPGGA,%s,3746.7580,N,12225.1580,W,1,09,0.9,16.0,M,-25.6,M,," % t) +
                              sentence("GPRMC,%s,A,3746.7580,N,12225.1580,W,0.02,0.0,%s,,,A" % (t, d))).encode())
            proc.stdin.flush()
            time.sleep(max(0.0, start + i + 1 - time.monotonic()))
            if proc.poll() is not None:
                raise BrokenPipeError
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        elapsed = time.monotonic() - start
    except BrokenPipeError:
        proc.wait()
        message = open(os.path.join(work, "watch.err"), errors="replace").read()[:300].strip()
        sys.exit(f"anywall nearby --watch exited with {proc.returncode}: {message}")
    finally:
        if proc.poll() is None:
            proc.stdin.close()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    events = sum(1 for _ in open(os.path.join(work, "watch.out"), "rb"))
    print("%.2f %.2f %.0f %d" % (100 * cpu / elapsed, cpu, elapsed, events))


def rate(argv):
    """anywall-bench nmea's report (its last line, JSON) as MB/s and fixes."""
    import json
    report = json.loads(argv[1].strip().splitlines()[-1])
    print("%.1f" % (report["bytes"] / 1e6 / report["seconds"]), report["fixes"])


COMMANDS = {"log": log, "pynmea2": pynmea2, "posts": posts, "watch": watch, "rate": rate}


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit("usage: nmea_bench.py log|pynmea2|posts|watch|rate ARGS... (run by scripts/bench-nmea)")
    COMMANDS[sys.argv[1]]([sys.argv[0]] + sys.argv[2:])
