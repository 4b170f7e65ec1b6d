#!/usr/bin/env python3
"""LiveQuery's costs beside their peers, measured in one run on bench-wall's wall.

Serves a scratch copy of bench-wall's wall (--posts posts, built and cached under --out by the
same code as scripts/bench-server) with the release `anywall-server`, and measures:
  * write-to-event latency, p50 and p99, with 1,000 and with 10,000 subscribers (city-scale
    $nearSphere subscriptions at bench-wall's city places, 100 to a connection, every socket
    read), beside the peer: the same writes' own POST round trip;
  * the server's resident memory before the subscribers and with 10,000 of them idle;
  * the matching cost per write with 100,000 subscriptions, through the place index and against
    every subscription (Parse Server's way), in one process (`anywall-bench live-matching`);
  * the polling LiveQuery replaces: 1,000 watchers asking every 30 s are 33 nearby queries a
    second; the server's CPU time a second for that, against its CPU time for 1,000 live
    subscribers over the same minute with the same writes.
Prints each figure and ratio; exit status 1 when an event went missing.

Usage: scripts/bench-live [--posts N] [--writes N] [--out DIR] [--no-build]
"""

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time

import bench_wall
from bench_wall import log
from load_server import APP_ID, MASTER_KEY, ROOT, Server, fail, nearby_path

import websockets


def parse_arguments():
    p = argparse.ArgumentParser(prog="bench-live", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=100_000, help="posts in the wall (bench-wall's wall of that size)")
    p.add_argument("--writes", type=int, default=300, help="posts written per latency run")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--scratch-path", default=".build-load", help="the release build's folder (shared with load-server)")
    p.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    return p.parse_args()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Subscribers:
    """`count` subscriptions at city places, 100 to a connection, each socket read to the end."""

    def __init__(self, server, places, count):
        self.server, self.places, self.count = server, places, count
        self.events = 0
        self.sockets = []
        self.readers = []

    async def open(self):
        url = "ws" + self.server.base[len("http"):]
        for start in range(0, self.count, 100):
            ws = await websockets.connect(url, max_size=None)
            await ws.send(json.dumps({"op": "connect", "applicationId": APP_ID}))
            await ws.recv()
            for n in range(start, min(start + 100, self.count)):
                lat, lon = self.places[n % len(self.places)]
                where = {"location": {"$nearSphere": {"__type": "GeoPoint", "latitude": lat, "longitude": lon}, "$maxDistanceInKilometers": 5}}
                await ws.send(json.dumps({"op": "subscribe", "requestId": n, "query": {"className": "Posts", "where": where}}))
            for _ in range(start, min(start + 100, self.count)):
                answer = json.loads(await ws.recv())
                if answer.get("op") != "subscribed":
                    fail(f"a subscription was refused: {answer}")
            self.sockets.append(ws)
        self.readers = [asyncio.create_task(self.read(ws)) for ws in self.sockets]

    async def read(self, ws):
        try:
            async for _ in ws:
                self.events += 1
        except websockets.ConnectionClosed:
            pass

    async def close(self):
        for ws in self.sockets:
            await ws.close()
        for reader in self.readers:
            reader.cancel()


async def latency(server, places, subscribers, writes, token):
    """Write-to-event latency at a probe that subscribes to every post, and the POST round trip."""
    url = "ws" + server.base[len("http"):]
    probe = await websockets.connect(url, max_size=None)
    await probe.send(json.dumps({"op": "connect", "applicationId": APP_ID}))
    await probe.recv()
    await probe.send(json.dumps({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {"text": {"$regex": "^live "}}}}))
    await probe.recv()
    rng = random.Random(7)
    events, round_trips = [], []
    for n in range(writes):
        lat, lon = rng.choice(places)
        body = {"text": f"live {n}", "location": {"__type": "GeoPoint", "latitude": lat, "longitude": lon}}
        started = time.perf_counter()
        status, answer = await asyncio.to_thread(server.call, "POST", "/classes/Posts", body, {"X-Parse-Session-Token": token})
        answered = time.perf_counter()
        if status != 201:
            fail(f"POST answered {status}: {answer}")
        while True:
            event = json.loads(await asyncio.wait_for(probe.recv(), 10))
            if event.get("object", {}).get("objectId") == answer["objectId"]:
                break
        events.append(time.perf_counter() - started)
        round_trips.append(answered - started)
        await asyncio.sleep(0.05)
    await probe.close()
    return events, round_trips


async def polling_against_live(server, places, token, seconds=60):
    """CPU time a second: 1,000 watchers polling every 30 s (33 nearby queries a second), then
    1,000 live subscribers; one post a second in both."""
    rng = random.Random(11)

    async def writer(stop):
        n = 0
        while time.monotonic() < stop:
            lat, lon = rng.choice(places)
            await asyncio.to_thread(server.call, "POST", "/classes/Posts",
                                    {"text": f"cpu {n}", "location": {"__type": "GeoPoint", "latitude": lat, "longitude": lon}},
                                    {"X-Parse-Session-Token": token})
            n += 1
            await asyncio.sleep(1)

    async def poller(stop):
        interval, n = 1 / (1000 / 30), 0
        while time.monotonic() < stop:
            lat, lon = places[n % len(places)]
            await asyncio.to_thread(server.call, "GET", nearby_path(lat, lon)[len("/parse"):])
            n += 1
            await asyncio.sleep(interval)
        return n

    before = cpu_seconds(server.process.pid)
    stop = time.monotonic() + seconds
    polls, _ = await asyncio.gather(poller(stop), writer(stop))
    polling_cpu = (cpu_seconds(server.process.pid) - before) / seconds
    subscribers = Subscribers(server, places, 1000)
    await subscribers.open()
    before = cpu_seconds(server.process.pid)
    await writer(time.monotonic() + seconds)
    live_cpu = (cpu_seconds(server.process.pid) - before) / seconds
    await subscribers.close()
    return polls / seconds, polling_cpu, live_cpu


async def run(args, server, places, bin_dir):
    status, answer = server.call("POST", "/users", {"username": "live-bench", "password": "live-bench-password"})
    if status != 201:
        fail(f"sign-up answered {status}: {answer}")
    token = answer["sessionToken"]
    report = {"posts": args.posts}
    idle = resident_kib(server.process.pid)
    for count in (1000, 10_000):
        subscribers = Subscribers(server, places, count)
        await subscribers.open()
        await asyncio.sleep(2)
        if count == 10_000:
            report["rss_kib_without_subscribers"] = idle
            report["rss_kib_with_10000_idle_subscribers"] = resident_kib(server.process.pid)
        events, round_trips = await latency(server, places, subscribers, args.writes, token)
        report[f"latency_ms_{count}"] = {"p50": percentile(events, 0.5) * 1000, "p99": percentile(events, 0.99) * 1000,
                                          "post_p50": percentile(round_trips, 0.5) * 1000, "post_p99": percentile(round_trips, 0.99) * 1000,
                                          "events_delivered": subscribers.events}
        await subscribers.close()
        log(f"{count} subscribers: {report[f'latency_ms_{count}']}")
    matching = subprocess.run([os.path.join(bin_dir, "anywall-bench"), "live-matching", "--subscriptions", "100000", "--writes", "2000"],
                              capture_output=True, text=True, check=True)
    report["matching"] = json.loads(matching.stdout)
    polls, polling_cpu, live_cpu = await polling_against_live(server, places, token)
    report["polling"] = {"queries_per_second": polls, "cpu_per_second": polling_cpu, "live_cpu_per_second": live_cpu}
    return report


def main():
    args = parse_arguments()
    out = os.path.abspath(args.out)
    work = os.path.join(out, "bench-live")
    os.makedirs(work, exist_ok=True)
    bench_args = bench_wall.parse_arguments(["--posts", str(args.posts), "--out", out, "--scratch-path", args.scratch_path]
                                            + (["--skip-build"] if args.no_build else []))
    bin_dir = bench_wall.build(bench_args, ROOT, products=["anywall-server", "anywall", "anywall-bench"],
                               tools=["anywall-server", "anywall", "anywall-bench"])
    _, _, posts_file, places_files, cached = bench_wall.prepare_data(bench_args, out)
    env = bench_wall.private_env(out)
    env.update(PARSE_SERVER_APPLICATION_ID=APP_ID, PARSE_SERVER_MASTER_KEY=MASTER_KEY)
    if not os.path.exists(cached):
        bench_wall.import_wall(bench_args, bin_dir, posts_file, cached, env)
    wall = os.path.join(work, "wall.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(wall + suffix):
            os.remove(wall + suffix)
    subprocess.run(["cp", cached, wall], check=True)
    places = bench_wall.read_places(places_files["city"])
    server = Server(os.path.join(bin_dir, "anywall-server"), ["--store", wall], os.path.join(work, "server.log"), env)
    try:
        report = asyncio.run(run(args, server, places, bin_dir))
    finally:
        server.stop()
    m, p = report["matching"], report["polling"]
    print(json.dumps(report, indent=2))
    for count in (1000, 10_000):
        l = report[f"latency_ms_{count}"]
        print(f"write-to-event, {count} subscribers: p50 {l['p50']:.2f} ms, p99 {l['p99']:.2f} ms; "
              f"the POST's own round trip p50 {l['post_p50']:.2f} ms: {l['p50'] / l['post_p50']:.2f}x")
    print(f"resident memory: {report['rss_kib_without_subscribers'] / 1024:.1f} MiB, with 10,000 idle subscribers "
          f"{report['rss_kib_with_10000_idle_subscribers'] / 1024:.1f} MiB")
    print(f"matching a write, 100,000 subscriptions: {m['indexedNanosecondsPerWrite'] / 1000:.1f} µs through the place index, "
          f"{m['linearNanosecondsPerWrite'] / 1000:.1f} µs against every one: {m['linearNanosecondsPerWrite'] / m['indexedNanosecondsPerWrite']:.1f}x "
          f"({m['candidatesPerWrite']:.0f} candidates, {m['eventsPerWrite']:.1f} events a write)")
    print(f"1,000 watchers: polling every 30 s is {p['queries_per_second']:.1f} queries/s and {p['cpu_per_second'] * 1000:.1f} ms of CPU a second; "
          f"listening, {p['live_cpu_per_second'] * 1000:.1f} ms a second")


if __name__ == "__main__":
    main()
