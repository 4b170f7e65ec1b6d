#!/usr/bin/env python3
"""Benchmark of `nearby --map` (issue 36, "must show 5").

Prints, from a release build:
  * what one frame costs to draw in process (`anywall-bench map`: RadarRenderer.render), p50 and
    min in microseconds, for 200 posts at 200x60 in each style, a `nearby` default (20 posts,
    80x24), and a 500 km view that draws the coastline (200 posts at 200x60);
  * the CPU of `anywall nearby --watch --map` on a 200x60 pseudo-terminal, as a share of one core:
    idle at a fixed place, and fed a stationary 1 Hz NMEA fix; with how many frames it wrote.
Target: the watch under 2 % of a core.

Usage: scripts/bench-map [--seconds N] [--frames N] [--static-swift-stdlib] [--skip-build] [--out DIR]
"""

import argparse
import fcntl
import functools
import json
import operator
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_wall import add_build_arguments, build, private_env, source_state  # noqa: E402

SCENES = [  # posts, size, style, filter radius
    (200, "200x60", "braille", "1km"), (200, "200x60", "blocks", "1km"), (200, "200x60", "ascii", "1km"),
    (20, "80x24", "braille", "1km"), (200, "200x60", "braille", "170km"),
]
WATCH_TARGET_PERCENT = 2.0


def parse_arguments():
    p = argparse.ArgumentParser(prog="bench-map", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--seconds", type=int, default=60, help="how long each watch runs")
    p.add_argument("--frames", type=int, default=500, help="frames drawn per scene")
    p.add_argument("--out", default="bench-out", help="folder for everything generated")
    add_build_arguments(p)
    return p.parse_args()


def nmea(body):
    return "$%s*%02X\r\n" % (body, functools.reduce(operator.xor, body.encode(), 0))


def watch_cpu(anywall, env, seconds, feed):
    """Runs `nearby --watch --map` on a 200x60 pseudo-terminal for `seconds`; with `feed`, from a
    stationary 1 Hz NMEA fix on stdin, else at a fixed place. Returns (% of a core, frames)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    place = ["--nmea", "-"] if feed else ["--at", "37.7793,-122.4193"]
    proc = subprocess.Popen([anywall, "nearby", "--watch", "--map", *place, "--interval", "30s"],
                            stdin=subprocess.PIPE if feed else subprocess.DEVNULL, stdout=slave, stderr=slave,
                            env={**env, "TERM": "xterm-256color"})
    os.close(slave)
    received = bytearray()

    def drain():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    start = time.monotonic()
    for i in range(seconds):
        if feed:
            now = datetime.datetime.now(datetime.timezone.utc)
            t, d = now.strftime("%H%M%S.00"), now.strftime("%d%m%y")
            proc.stdin.write((nmea("GPGGA,%s,3746.7580,N,12225.1580,W,1,09,0.9,16.0,M,-25.6,M,," % t)
                              + nmea("GPRMC,%s,A,3746.7580,N,12225.1580,W,0.02,0.0,%s,,,A" % (t, d))).encode())
            proc.stdin.flush()
        time.sleep(max(0.0, start + i + 1 - time.monotonic()))
        if proc.poll() is not None:
            sys.exit(f"bench-map: the watch exited with {proc.returncode}: {bytes(received[-300:]).decode(errors='replace')}")
    with open(f"/proc/{proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    elapsed = time.monotonic() - start
    proc.terminate()
    proc.wait()
    reader.join(timeout=2)
    os.close(master)
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return 100 * cpu / elapsed, received.count(b"\x1b[?2026h")


def main():
    args = parse_arguments()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.abspath(os.path.join(root, args.out))
    os.makedirs(out, exist_ok=True)
    bin_dir = build(args, root, products=["anywall", "anywall-bench"])
    env = private_env(os.path.join(out, "map"))
    print(f"bench-map at {source_state(root)}, {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}")
    print("| scene | p50 µs | min µs |\n|---|---:|---:|")
    for posts, size, style, radius in SCENES:
        report = json.loads(subprocess.run(
            [os.path.join(bin_dir, "anywall-bench"), "map", "--posts", str(posts), "--size", size, "--style", style,
             "--radius", radius, "--frames", str(args.frames)], check=True, capture_output=True, text=True).stdout.splitlines()[-1])
        coast = ", coastline" if radius != "1km" else ""
        print(f"| {posts} posts, {size}, {style}, radius {radius}{coast} | {report['p50Micros']:,.0f} | {report['minMicros']:,.0f} |")
    anywall = os.path.join(bin_dir, "anywall")
    for feed, what in ((False, "idle at a fixed place"), (True, "a stationary 1 Hz NMEA fix")):
        percent, frames = watch_cpu(anywall, env, args.seconds, feed)
        verdict = "MET" if percent < WATCH_TARGET_PERCENT else "MISSED"
        print(f"nearby --watch --map, 200x60, {what}, {args.seconds} s: {percent:.2f} % of a core, "
              f"{frames} frames drawn (target < {WATCH_TARGET_PERCENT:g} %: {verdict})")


if __name__ == "__main__":
    main()
