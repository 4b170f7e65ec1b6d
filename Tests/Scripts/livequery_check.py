"""Drives anywall-server's LiveQuery with the `websockets` client (PyPI), written from Parse's
LiveQuery protocol (its RequestSchema, Client.js and ParseLiveQueryServer.js) and from Parse
Server's spec tests, and from anywall-server's additions (seq, since, snapshot; docs/parse.md).
No Parse LiveQuery client exists on PyPI: the messages are written here as the protocol has them.

The first argument picks what is checked:
  protocol   messages and their exact fields, error codes 1, 2 and 4, update, keys, watch, ACLs
             and roles, enter and leave across a $nearSphere radius and when the centre moves;
  resume     a subscriber drops its socket, 1,000 posts are written, `since` replays exactly them;
  retention  (a server with --live-query-retention 1) a `since` older than the log: the resync error;
  slow       (a server with --live-query-queue-limit 65536) a reader that stops reading is closed
             with the seq to resume from, and resuming from it misses and doubles nothing;
  listen     (two servers on one PostgreSQL, B at PARSE_API_ROOT_B, the database at PG_URI) a post
             through A reaches a subscriber on B; B's LISTEN connection killed loses nothing;
  killed     (the same two) A killed with SIGKILL by the test while it writes: since on B
             replays every post on the wall, once, in order;
  activity   votes and replies on a post as its author hears them on Activity, and no one else;
  cap        (a server with --max-connections-per-address 3) the fourth socket from one address is closed;
  property   random posts, random queries for random readers, random writes: each subscription's
             set agrees with a REST find after every write (LIVE_PROPERTY_SEED replays a run).
PARSE_API_ROOT, PARSE_APP_ID, PARSE_REST_KEY and PARSE_MASTER_KEY come from the environment.
Prints one line per check and 'N passed, N failed'; exits 1 when any failed."""
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid

import websockets

ROOT = os.environ["PARSE_API_ROOT"]
WS_URL = re.sub(r"^http", "ws", ROOT)
APP_ID = os.environ["PARSE_APP_ID"]
REST_KEY = os.environ["PARSE_REST_KEY"]
MASTER_KEY = os.environ["PARSE_MASTER_KEY"]
results = {"passed": 0, "failed": 0}
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
HERE = (37.7749, -122.4194)


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"), flush=True)


def rest(method, path, body=None, token=None, master=False):
    headers = {"X-Parse-Application-Id": APP_ID, "X-Parse-REST-API-Key": REST_KEY, "Content-Type": "application/json"}
    if token:
        headers["X-Parse-Session-Token"] = token
    if master:
        headers["X-Parse-Master-Key"] = MASTER_KEY
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(ROOT + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{method} {path}: {error.code} {error.read()[:300]}")


def point(lat, lon):
    return {"__type": "GeoPoint", "latitude": lat, "longitude": lon}


def post(text, lat=HERE[0], lon=HERE[1], token=None, acl=None):
    body = {"text": text, "location": point(lat, lon)}
    if acl is not None:
        body["ACL"] = acl
    return rest("POST", "/classes/Posts", body, token=token, master=token is None)["objectId"]


def signup(name):
    answer = rest("POST", "/users", {"username": name + uuid.uuid4().hex[:6], "password": "password-" + name})
    return answer["objectId"], answer["sessionToken"]


def near(lat=HERE[0], lon=HERE[1], km=1.0, unit="$maxDistanceInKilometers", value=None):
    return {"location": {"$nearSphere": point(lat, lon), unit: km if value is None else value}}


class Live:
    """One LiveQuery socket."""

    def __init__(self, socket):
        self.ws = socket

    @classmethod
    async def open_at(cls, root):
        return await cls.open(url=re.sub(r"^http", "ws", root))

    @classmethod
    async def open(cls, connect=True, token=None, url=None, **extra):
        live = cls(await websockets.connect(url or WS_URL, max_size=None, **extra))
        if connect:
            message = {"op": "connect", "applicationId": APP_ID, "restAPIKey": REST_KEY}
            if token:
                message["sessionToken"] = token
            await live.send(message)
            live.connected = await live.recv()
        return live

    async def send(self, message):
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout=5.0):
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))

    async def quiet(self, timeout=0.7):
        try:
            return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except asyncio.TimeoutError:
            return None

    async def subscribe(self, request_id, where, op="subscribe", **extra):
        query = {"className": "Posts", "where": where}
        for name in ("keys", "watch"):
            if name in extra:
                query[name] = extra.pop(name)
        await self.send({"op": op, "requestId": request_id, "query": query, **extra})
        return await self.recv()

    async def close(self):
        await self.ws.close()


def exact(name, message, fields, **values):
    check(f"{name}: exactly the fields {sorted(fields)}", set(message) == set(fields), message)
    for key, value in values.items():
        check(f"{name}: {key} is {value!r}", message.get(key) == value, message)


async def protocol():
    live = await Live.open()
    exact("connected", live.connected, {"op", "clientId"}, op="connected")
    check("connected: clientId is a UUID", bool(UUID.match(live.connected["clientId"])), live.connected)
    client_id = live.connected["clientId"]

    other = await Live.open(connect=False)
    await other.send({"op": "connect", "applicationId": APP_ID, "installationId": "inst-1", "restAPIKey": REST_KEY})
    exact("connected with an installationId", await other.recv(), {"op", "clientId", "installationId"}, installationId="inst-1")

    # Parse's errors: 1 against the schema, 2 before connect or for an unknown subscription, 4 a wrong key.
    fresh = await Live.open(connect=False)
    await fresh.send({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}}})
    exact("subscribe before connect", await fresh.recv(), {"op", "code", "error", "reconnect", "requestId"}, op="error", code=2,
          error="Can not find this client, make sure you connect to server before subscribing", reconnect=True, requestId=None)
    await fresh.send({"op": "unsubscribe", "requestId": 1})
    exact("unsubscribe before connect", await fresh.recv(), {"op", "code", "error", "reconnect", "requestId"}, code=2,
          error="Can not find this client, make sure you connect to server before unsubscribing")
    await fresh.send({"op": "connect", "applicationId": APP_ID, "restAPIKey": "wrong"})
    exact("a wrong REST key", await fresh.recv(), {"op", "code", "error", "reconnect", "requestId"}, code=4,
          error="Key in request is not valid", reconnect=True, requestId=None)
    await fresh.send({"op": "connect", "applicationId": "another-app", "restAPIKey": REST_KEY})
    check("another application id: code 4", (await fresh.recv()).get("code") == 4)
    for bad, words in [({"op": "nope"}, 'No enum match for: "nope"'), ({"requestId": 1}, "Missing required property: op"),
                       ({"op": 7}, "Invalid type: number (expected string)"),
                       ({"op": "connect", "applicationId": APP_ID, "restAPIKey": REST_KEY, "extra": 1}, "Additional properties not allowed"),
                       ({"op": "connect"}, "Missing required property: applicationId"),
                       ({"op": "subscribe", "requestId": "1", "query": {"className": "Posts", "where": {}}}, "Invalid type: string (expected number)"),
                       ({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}, "keys": []}}, "Array is too short (0), minimum 1"),
                       ({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}, "watch": ["a", "a"]}},
                        "Array items are not unique (indices 0 and 1)"),
                       ({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}, "fields": ["text"]}},
                        "Additional properties not allowed")]:
        await live.send(bad)
        exact(f"code 1 for {json.dumps(bad)[:60]}", await live.recv(), {"op", "code", "error", "reconnect", "requestId"}, code=1, error=words,
              reconnect=True, requestId=None)
    await live.send("this is not JSON")
    check("text that is not JSON gets no answer, as Parse drops it", await live.quiet() is None)
    await live.send({"op": "unsubscribe", "requestId": 99})
    exact("unsubscribe of an unknown requestId", await live.recv(), {"op", "code", "error", "reconnect", "requestId"}, code=2,
          error=f"Cannot find subscription with clientId {client_id} subscriptionId 99. "
                "Make sure you subscribe to live query server before unsubscribing.")

    # subscribed, update answered by subscribed, the events with their fields.
    exact("subscribed", await live.subscribe(1, near()), {"op", "clientId", "requestId"}, op="subscribed", clientId=client_id, requestId=1)
    exact("update", await live.subscribe(1, near(km=2.0), op="update"), {"op", "clientId", "requestId"}, op="subscribed", requestId=1)
    first = post("first")
    event = await live.recv()
    exact("create", event, {"op", "clientId", "requestId", "object", "seq"}, op="create", requestId=1)
    check("create: the object is the post as Parse sends it",
          event["object"].get("objectId") == first and event["object"].get("className") == "Posts" and event["object"].get("text") == "first"
          and {"createdAt", "updatedAt", "location"} <= set(event["object"]), event)
    first_seq = event["seq"]
    rest("PUT", f"/classes/Posts/{first}", {"text": "first, edited"}, master=True)
    event = await live.recv()
    exact("update event", event, {"op", "clientId", "requestId", "object", "original", "seq"}, op="update")
    check("update: object is after, original before, seq grows",
          event["object"]["text"] == "first, edited" and event["original"]["text"] == "first" and event["seq"] > first_seq, event)
    # Moved out of the 2 km radius and back: leave, then enter.
    rest("PUT", f"/classes/Posts/{first}", {"location": point(HERE[0] + 0.05, HERE[1])}, master=True)
    event = await live.recv()
    exact("leave across the radius", event, {"op", "clientId", "requestId", "object", "original", "seq"}, op="leave")
    rest("PUT", f"/classes/Posts/{first}", {"location": point(HERE[0] + 0.001, HERE[1])}, master=True)
    exact("enter across the radius", await live.recv(), {"op", "clientId", "requestId", "object", "original", "seq"}, op="enter")
    post("far away", lat=HERE[0] + 1, lon=HERE[1])
    check("a post beyond the radius is not told", await live.quiet() is None)
    rest("DELETE", f"/classes/Posts/{first}", master=True)
    event = await live.recv()
    exact("delete", event, {"op", "clientId", "requestId", "object", "seq"}, op="delete")
    check("delete: the object is the post as it was", event["object"]["objectId"] == first, event)
    await live.send({"op": "unsubscribe", "requestId": 1})
    exact("unsubscribed", await live.recv(), {"op", "clientId", "requestId"}, op="unsubscribed", requestId=1)
    post("after unsubscribe")
    check("nothing after unsubscribe", await live.quiet() is None)

    # $maxDistanceInMiles and $maxDistanceInRadians fire (Parse's #7480, #7526).
    for request_id, unit, value in [(2, "$maxDistanceInMiles", 1.0), (3, "$maxDistanceInRadians", 0.0003), (4, "$maxDistance", 0.0003)]:
        await live.subscribe(request_id, near(unit=unit, value=value))
        objectId = post(f"within {unit}", lat=HERE[0] + 0.001)
        event = await live.recv()
        check(f"{unit} fires", event.get("op") == "create" and event["object"]["objectId"] == objectId, event)
        await live.send({"op": "unsubscribe", "requestId": request_id})
        await live.recv()

    # keys trims the object to them and Parse's own fields; watch tells an update only when a watched field changed.
    await live.subscribe(5, near(), keys=["text"], watch=["text"])
    watched = post("watched")
    event = await live.recv()
    check("keys: only className, objectId, the dates and the keys", set(event["object"]) == {"className", "objectId", "createdAt", "updatedAt", "text"},
          event)
    rest("PUT", f"/classes/Posts/{watched}", {"location": point(HERE[0] + 0.0001, HERE[1])}, master=True)
    check("watch: a change to another field is not told", await live.quiet() is None)
    rest("PUT", f"/classes/Posts/{watched}", {"text": "watched, changed"}, master=True)
    event = await live.recv()
    check("watch: a change to a watched field is told", event.get("op") == "update" and event["object"]["text"] == "watched, changed", event)
    await live.send({"op": "unsubscribe", "requestId": 5})
    await live.recv()

    # ACLs and roles apply to every event.
    ann_id, ann = signup("ann")
    bea_id, bea = signup("bea")
    cat_id, cat = signup("cat")
    rest("POST", "/roles", {"name": "readers" + uuid.uuid4().hex[:6], "ACL": {"*": {"read": True}},
                            "users": {"__op": "AddRelation", "objects": [{"__type": "Pointer", "className": "_User", "objectId": cat_id}]}},
         master=True)
    role = rest("GET", "/roles", master=True)["results"][-1]["name"]
    watchers = {}
    for name, token in [("ann", ann), ("bea", bea), ("cat", cat)]:
        watchers[name] = await Live.open(token=token)
        await watchers[name].subscribe(1, near())
    private = post("for ann", token=ann, acl={ann_id: {"read": True, "write": True}})
    for_role = post("for the role", token=ann, acl={ann_id: {"read": True, "write": True}, f"role:{role}": {"read": True}})
    got = {name: [] for name in watchers}
    for name, watcher in watchers.items():
        while (event := await watcher.quiet()) is not None:
            got[name].append(event["object"]["objectId"])
    check("ACL: the author hears both", got["ann"] == [private, for_role], got)
    check("ACL: another user hears neither", got["bea"] == [], got)
    check("roles: the role's member hears the post its ACL gives the role", got["cat"] == [for_role], got)
    # Read access taken away: the reader hears a leave that carries nothing of the post.
    rest("PUT", f"/classes/Posts/{for_role}", {"ACL": {ann_id: {"read": True, "write": True}}}, token=ann)
    event = await watchers["cat"].recv()
    check("ACL: access taken away is a leave with nothing of the post",
          event.get("op") == "leave" and event["object"] == {"className": "Posts", "objectId": for_role}, event)
    await watchers["ann"].recv()
    exact("an ended session's token", await watchers["bea"].subscribe(2, near(), sessionToken="r:not-a-session"),
          {"op", "code", "error", "reconnect", "requestId"}, code=209, error="Invalid session token", reconnect=False, requestId=2)
    for watcher in watchers.values():
        await watcher.close()

    # A $regex that backtracks exponentially costs its own subscriber a missed event, no one else a delay.
    costly = await Live.open()
    await costly.subscribe(1, {"text": {"$regex": "^(a|a)*b"}})
    await live.subscribe(9, near())
    post("a" * 120)
    event = await live.recv(timeout=3)
    check("a post a costly $regex subscription meets reaches the others at once", event.get("op") == "create", event)
    check("the costly pattern matches nothing", await costly.quiet() is None)
    await live.send({"op": "unsubscribe", "requestId": 9})
    await live.recv()
    await costly.close()

    # What the live path cannot match is refused at subscribe, never left silent.
    role_pointer = {"__type": "Pointer", "className": "_Role", "objectId": "anything"}
    refused = await live.subscribe(6, {"user": {"$inQuery": {"className": "_User", "where": {"$relatedTo": {"object": role_pointer, "key": "users"}}}}})
    check("a $relatedTo the live path cannot match is refused with 102", refused.get("op") == "error" and refused.get("code") == 102
          and refused.get("reconnect") is False and refused.get("requestId") == 6, refused)
    await live.send({"op": "subscribe", "requestId": 8, "query": {"className": "Comments", "where": {}}})
    refused = await live.recv()
    check("a class LiveQuery does not serve is refused with 103", refused.get("code") == 103 and refused.get("requestId") == 8, refused)

    # The centre moves: what the new area holds enters, what it no longer holds leaves.
    west = post("west", lon=HERE[1] - 0.05)
    east = post("east", lon=HERE[1] + 0.05)
    mover = await Live.open()
    await mover.subscribe(1, near(lon=HERE[1] - 0.05))
    answer = await mover.subscribe(1, near(lon=HERE[1] + 0.05), op="update")
    check("a moved centre is answered with subscribed", answer.get("op") == "subscribed", answer)
    moved = [await mover.recv(), await mover.recv()]
    check("a moved centre: the post left behind leaves, the one now near enters",
          sorted((event["op"], event["object"]["objectId"]) for event in moved) == sorted([("leave", west), ("enter", east)]), moved)
    await mover.close()

    # A snapshot: the current matches and the seq they were read at, then the events after it.
    snap = await Live.open()
    await snap.send({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": near(lon=HERE[1] + 0.05)}, "snapshot": True})
    await snap.recv()
    message = await snap.recv()
    exact("snapshot", message, {"op", "clientId", "requestId", "results", "seq"}, op="snapshot", requestId=1)
    check("snapshot: the current matches", [result["objectId"] for result in message["results"]] == [east], message)
    later = post("after the snapshot", lon=HERE[1] + 0.05)
    event = await snap.recv()
    check("snapshot: then the events after its seq", event["object"]["objectId"] == later and event["seq"] > message["seq"], event)
    await snap.close()
    await live.close()
    await other.close()
    await fresh.close()


async def resume():
    live = await Live.open()
    await live.subscribe(1, {})
    post("before the drop")
    last = (await live.recv())["seq"]
    await live.close()
    written = []
    for batch in range(20):
        requests = [{"method": "POST", "path": "/parse/classes/Posts", "body": {"text": f"post {batch * 50 + n}", "location": point(*HERE)}}
                    for n in range(50)]
        written += [answer["success"]["objectId"] for answer in rest("POST", "/batch", {"requests": requests}, master=True)]
    live = await Live.open()
    await live.send({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}}, "since": last})
    await live.recv()
    events = []
    while len(events) < 1000:
        events.append(await live.recv())
    check("since: exactly the 1,000 posts written while away", [event["object"]["objectId"] for event in events] == written,
          f"{len(events)} events")
    check("since: all creates, seq growing", all(event["op"] == "create" for event in events)
          and all(a["seq"] < b["seq"] for a, b in zip(events, events[1:])))
    check("since: nothing more, nothing doubled", await live.quiet() is None)
    await live.close()


async def retention():
    live = await Live.open()
    await live.subscribe(1, {})
    post("one")
    seq = (await live.recv())["seq"]
    await asyncio.sleep(2.5)
    post("two, after the first has passed the retention")
    await live.recv()
    await asyncio.sleep(0.5)
    post("three")
    await live.recv()
    await live.send({"op": "subscribe", "requestId": 2, "query": {"className": "Posts", "where": {}}, "since": seq - 1})
    refused = await live.recv()
    exact("since older than the log", refused, {"op", "code", "error", "reconnect", "requestId"}, code=5, reconnect=False, requestId=2)
    check("the error says to read the wall again", "read the wall again" in refused.get("error", ""), refused)
    await live.send({"op": "subscribe", "requestId": 3, "query": {"className": "Posts", "where": {}}, "since": 10 ** 12})
    check("since ahead of the log is refused too", (await live.recv()).get("code") == 5)
    await live.close()


async def slow():
    # A socket that hardly buffers, and a reader that stops reading.
    host, port = re.match(r"http://([^:/]+):(\d+)", ROOT).groups()
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, int(port)))
    live = await Live.open(sock=raw)
    await live.subscribe(1, {})
    live.ws.transport.pause_reading()
    written = []
    # 150 events of 60 KB: past the 64 KB queue and whatever the kernel buffers (up to 4 MB), in a
    # few seconds on either store (a reader that stays silent past the 15 s ping is closed anyway).
    for n in range(150):
        body = {"text": f"slow {n}", "padding": "x" * 60_000, "location": point(*HERE)}
        written.append(rest("POST", "/classes/Posts", body, master=True)["objectId"])
    await asyncio.sleep(2)
    live.ws.transport.resume_reading()
    seen, error = [], None
    try:
        while True:
            message = await live.recv(timeout=10)
            if message["op"] == "error":
                error = message
            else:
                seen.append(message)
    except (websockets.ConnectionClosed, asyncio.TimeoutError):
        pass
    check("a reader that stopped is told it was too slow, with a seq to resume from",
          error is not None and error.get("code") == 6 and isinstance(error.get("seq"), (int, float)) and error.get("reconnect") is True, error)
    check("it is then closed", live.ws.close_code is not None or live.ws.state.name == "CLOSED", live.ws.state)
    check("it got only part of the events before", len(seen) < len(written), len(seen))
    if error is None:
        return
    # The seq told is never past what reached the client (nothing lost); a write under way when the
    # queue overflowed may have reached it too, so a client resumes from the later of the two.
    last_seen = max((event["seq"] for event in seen), default=0)
    check("the seq told is not past the last event that reached the client", error["seq"] <= last_seen, f"{error['seq']} > {last_seen}")
    again = await Live.open()
    await again.send({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}}, "since": max(int(error["seq"]), last_seen)})
    await again.recv()
    while (event := await again.quiet(timeout=2)) is not None:
        seen.append(event)
    ids = [event["object"]["objectId"] for event in seen]
    check("resumed from that seq: every post once, none missed", sorted(set(ids)) == sorted(written) and len(ids) == len(set(ids)),
          f"{len(ids)} events, {len(set(ids))} distinct, {len(written)} written")
    await again.close()


async def listen():
    """Two servers on one PostgreSQL: a post through A reaches a subscriber on B, announced at
    once; B's LISTEN connection killed loses no event."""
    ROOT_B = os.environ["PARSE_API_ROOT_B"]
    live = await Live.open_at(ROOT_B)
    await live.subscribe(1, {})
    delays = []
    for n in range(5):
        started = asyncio.get_running_loop().time()
        objectId = post(f"through A {n}")
        event = await live.recv()
        delays.append(asyncio.get_running_loop().time() - started)
        check(f"post {n} through A reaches the subscriber on B", event["object"]["objectId"] == objectId, event)
    check("announced, not found by B's once-a-second reading: each within 0.5 s", max(delays) < 0.5, delays)
    killed = subprocess.run(["psql", os.environ["PG_URI"], "-Atc",
                             "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"],
                            capture_output=True, text=True)
    check("B's LISTEN connection is killed", killed.stdout.strip() not in ("", "0"), killed.stdout + killed.stderr)
    lost = [post(f"while B does not listen {n}") for n in range(3)]
    got = [(await live.recv(timeout=5))["object"]["objectId"] for _ in lost]
    check("the posts written while B's LISTEN was down reach the subscriber", got == lost, got)
    await asyncio.sleep(2)
    started = asyncio.get_running_loop().time()
    objectId = post("after B listens again")
    event = await live.recv()
    check("B listens again: announced at once", event["object"]["objectId"] == objectId and asyncio.get_running_loop().time() - started < 0.5)
    await live.close()


async def killed():
    """Two servers on one PostgreSQL: a subscriber on B drops its socket; A, writing, is killed
    with SIGKILL by the test; `since` on B replays every post the wall holds, once, in order."""
    global ROOT
    ROOT_B = os.environ["PARSE_API_ROOT_B"]
    live = await Live.open_at(ROOT_B)
    await live.subscribe(1, {})
    post("before the drop")
    last = (await live.recv())["seq"]
    await live.close()
    acknowledged = []

    def write():
        while True:
            try:
                acknowledged.append(post(f"stream {len(acknowledged)}"))
            except Exception:
                return

    await asyncio.to_thread(write)
    check("A was killed while writing", 0 < len(acknowledged), len(acknowledged))
    ROOT = ROOT_B
    on_wall = []
    for skip in range(0, 10000, 1000):
        page = rest("GET", f"/classes/Posts?limit=1000&skip={skip}", master=True)["results"]
        on_wall += [result["objectId"] for result in page if result["text"].startswith("stream ")]
        if len(page) < 1000:
            break
    live = await Live.open_at(ROOT_B)
    await live.send({"op": "subscribe", "requestId": 1, "query": {"className": "Posts", "where": {}}, "since": last})
    await live.recv()
    events = []
    while (event := await live.quiet(timeout=2)) is not None:
        events.append(event)
    ids = [event["object"]["objectId"] for event in events]
    check("since on B: every post on the wall, once", sorted(ids) == sorted(on_wall) and len(ids) == len(set(ids)),
          f"{len(ids)} events, {len(set(ids))} distinct, {len(on_wall)} on the wall")
    check("since on B: in the order of their seq", all(a["seq"] < b["seq"] for a, b in zip(events, events[1:])))
    check("every post A acknowledged is among them", set(acknowledged) <= set(ids), len(set(acknowledged) - set(ids)))
    await live.close()


def random_where(rng):
    """A random `where` from the operators REST and LiveQuery share, geo ones among them."""
    lat, lon = HERE[0] + rng.uniform(-0.01, 0.01), HERE[1] + rng.uniform(-0.01, 0.01)
    geo = rng.choice([
        None,
        {"$nearSphere": point(lat, lon), "$maxDistanceInKilometers": rng.uniform(0.2, 1.5)},
        {"$nearSphere": point(lat, lon), "$maxDistanceInMiles": rng.uniform(0.2, 1.0)},
        {"$nearSphere": point(lat, lon), "$maxDistanceInRadians": rng.uniform(0.00003, 0.0002)},
        {"$within": {"$box": [point(lat - 0.006, lon - 0.006), point(lat + 0.006, lon + 0.006)]}},
        {"$geoWithin": {"$centerSphere": [[lon, lat], rng.uniform(0.00003, 0.0002)]}},
        {"$geoWithin": {"$polygon": [point(lat - 0.008, lon - 0.008), point(lat - 0.008, lon + 0.008), point(lat + 0.008, lon)]}},
    ])
    fields = [
        lambda: {"kind": rng.choice(["a", "b", "c"])},
        lambda: {"kind": {"$in": rng.sample(["a", "b", "c", None], 2)}},
        lambda: {"kind": {"$nin": rng.sample(["a", "b", "c"], 1)}},
        lambda: {"kind": {"$ne": rng.choice(["a", "b"])}},
        lambda: {"n": {rng.choice(["$gt", "$gte", "$lt", "$lte"]): rng.randint(0, 9)}},
        lambda: {"flag": {"$exists": rng.choice([True, False])}},
        lambda: {"flag": rng.choice([True, False])},
        lambda: {"text": {"$regex": rng.choice(["^p", "1", "x$"])}},
        lambda: {"text": {"$regex": rng.choice(["^p", "1", "x$"]), "$options": "i"}},
        lambda: {"tags": rng.choice(["red", "blue"])},
        lambda: {"$or": [{"kind": "a"}, {"n": {"$gt": 5}}]},
    ]
    where = {}
    for make in rng.sample(fields, rng.randint(0, 2)):
        where.update(make())
    if geo:
        where["location"] = geo
    return where


def random_fields(rng, users):
    fields = {"text": rng.choice(["post", "Post", "x", "p1x"]) + str(rng.randint(0, 99)),
              "location": point(HERE[0] + rng.uniform(-0.012, 0.012), HERE[1] + rng.uniform(-0.012, 0.012))}
    if rng.random() < 0.8:
        fields["kind"] = rng.choice(["a", "b", "c"])
    if rng.random() < 0.8:
        fields["n"] = rng.randint(0, 9)
    if rng.random() < 0.5:
        fields["flag"] = rng.choice([True, False])
    if rng.random() < 0.5:
        fields["tags"] = rng.sample(["red", "blue", "green"], rng.randint(0, 2))
    if rng.random() < 0.3:
        owner = rng.choice(users)
        fields["ACL"] = {owner[0]: {"read": True, "write": True}}
    return fields


async def property_check():
    """For random posts and random queries, the set each subscription holds (its snapshot, then
    its events) equals what a REST find with the same where, for the same reader, returns, after
    every write."""
    import random
    seed = int(os.environ.get("LIVE_PROPERTY_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"seed {seed}")
    users = [signup(name) for name in ("pam", "quinn")]
    posts = [rest("POST", "/classes/Posts", random_fields(rng, users), master=True)["objectId"] for _ in range(30)]
    readers = [("master", None, True), ("nobody", None, False)] + [(f"user {n}", token, False) for n, (_, token) in enumerate(users)]
    subscriptions = []
    for request_id in range(1, 13):
        name, token, master = rng.choice(readers)
        live = await Live.open(connect=False)
        message = {"op": "connect", "applicationId": APP_ID, "restAPIKey": REST_KEY}
        if master:
            message["masterKey"] = MASTER_KEY
        if token:
            message["sessionToken"] = token
        await live.send(message)
        await live.recv()
        where = random_where(rng)
        await live.send({"op": "subscribe", "requestId": request_id, "query": {"className": "Posts", "where": where}, "snapshot": True})
        subscribed = await live.recv()
        check(f"subscribed to {json.dumps(where)[:80]}", subscribed.get("op") == "subscribed", subscribed)
        snapshot = await live.recv()
        subscriptions.append({"live": live, "where": where, "reader": (name, token, master), "held": {r["objectId"] for r in snapshot["results"]},
                              "seq": snapshot["seq"], "events": []})

    async def gather(subscription):
        while True:
            try:
                subscription["events"].append(await subscription["live"].recv(timeout=60))
            except Exception:
                return

    gatherers = [asyncio.create_task(gather(subscription)) for subscription in subscriptions]
    expected = []  # after each write: its seq and, per subscription, what a find returns
    base = max(subscription["seq"] for subscription in subscriptions)
    for step in range(60):
        action = rng.random()
        if action < 0.3 or not posts:
            posts.append(rest("POST", "/classes/Posts", random_fields(rng, users), master=True)["objectId"])
        elif action < 0.85:
            changes = random_fields(rng, users)
            changes = dict(rng.sample(sorted(changes.items()), rng.randint(1, len(changes))))
            rest("PUT", f"/classes/Posts/{rng.choice(posts)}", changes, master=True)
        else:
            rest("DELETE", f"/classes/Posts/{posts.pop(rng.randrange(len(posts)))}", master=True)
        found = []
        for subscription in subscriptions:
            name, token, master = subscription["reader"]
            query = urllib.parse.urlencode({"where": json.dumps(subscription["where"]), "limit": "1000"})
            found.append({r["objectId"] for r in rest("GET", f"/classes/Posts?{query}", token=token, master=master)["results"]})
        expected.append((base + step + 1, found))
    await asyncio.sleep(2)
    for task in gatherers:
        task.cancel()
    disagreements = []
    for index, subscription in enumerate(subscriptions):
        held, events = set(subscription["held"]), sorted(subscription["events"], key=lambda event: event["seq"])
        position = 0
        for seq, found in expected:
            while position < len(events) and events[position]["seq"] <= seq:
                event = events[position]
                if event["op"] in ("create", "enter"):
                    held.add(event["object"]["objectId"])
                elif event["op"] in ("leave", "delete"):
                    held.discard(event["object"]["objectId"])
                position += 1
            if held != found[index]:
                disagreements.append((subscription["reader"][0], subscription["where"], seq, sorted(held ^ found[index])))
                break
    check(f"12 random subscriptions agree with REST finds after each of 60 random writes (seed {seed})", not disagreements,
          json.dumps(disagreements[:3]))
    for subscription in subscriptions:
        await subscription["live"].close()


async def cap():
    """(a server with --max-connections-per-address 3) LiveQuery sockets count in their address's
    share as HTTP connections do: the fourth is closed."""
    sockets, refused = [], 0
    for _ in range(4):
        try:
            sockets.append(await Live.open())
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, asyncio.TimeoutError):
            refused += 1
    check("three sockets from one address are served", len(sockets) == 3, len(sockets))
    check("the fourth is closed", refused == 1, refused)
    await sockets[0].close()
    await asyncio.sleep(0.5)
    again = await Live.open()
    check("a socket closed gives its place back", again.connected.get("op") == "connected", again.connected)
    for live in sockets[1:] + [again]:
        await live.close()


async def activity():
    """LiveQuery on Activity: a post's author hears the votes and replies on it as they are made,
    changed and withdrawn; another user hears nothing of them; a signed-out client is refused."""
    ann_id, ann = signup("ann")
    bob_id, bob = signup("bob")
    cat_id, cat = signup("cat")
    post_id = post("ann's post", token=ann)
    mine = {"toUser": {"__type": "Pointer", "className": "_User", "objectId": ann_id}}
    author = await Live.open(token=ann)
    await author.send({"op": "subscribe", "requestId": 1, "query": {"className": "Activity", "where": mine}, "snapshot": True})
    exact("subscribed to Activity", await author.recv(), {"op", "clientId", "requestId"}, op="subscribed")
    snapshot = await author.recv()
    check("an Activity snapshot: nothing yet", snapshot.get("op") == "snapshot" and snapshot.get("results") == [], snapshot)
    other = await Live.open(token=cat)
    await other.send({"op": "subscribe", "requestId": 1, "query": {"className": "Activity", "where": mine}})
    await other.recv()
    target = {"__type": "Pointer", "className": "Posts", "objectId": post_id}
    vote = rest("POST", "/classes/Activity", {"type": "vote", "post": target, "value": 1, "location": point(*HERE)}, token=bob)["objectId"]
    event = await author.recv()
    check("a vote on the author's post is told as create", event.get("op") == "create" and event["object"].get("objectId") == vote
          and event["object"].get("className") == "Activity" and event["object"].get("type") == "vote", event)
    check("who voted stays private", "fromUser" not in event["object"], event)
    rest("PUT", f"/classes/Activity/{vote}", {"value": -1, "location": point(*HERE)}, token=bob)
    event = await author.recv()
    check("a vote changed is told as update, with the original", event.get("op") == "update" and event["object"].get("value") == -1
          and event.get("original", {}).get("value") == 1, event)
    rest("POST", "/classes/Posts", {"text": "bob's reply", "location": point(*HERE), "parent": target}, token=bob)
    event = await author.recv()
    check("a reply is told as a reply notice", event.get("op") == "create" and event["object"].get("type") == "reply", event)
    rest("DELETE", f"/classes/Activity/{vote}", token=bob)
    event = await author.recv()
    check("a vote withdrawn is told as delete", event.get("op") == "delete" and event["object"].get("objectId") == vote, event)
    check("another user hears nothing of it", await other.quiet() is None)
    anonymous = await Live.open()
    await anonymous.send({"op": "subscribe", "requestId": 1, "query": {"className": "Activity", "where": mine}})
    refused = await anonymous.recv()
    check("Activity without a session is refused as the REST find is (206)", refused.get("code") == 206 and refused.get("requestId") == 1, refused)
    for live in (author, other, anonymous):
        await live.close()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "protocol"
    modes = {"protocol": protocol, "resume": resume, "retention": retention, "slow": slow, "listen": listen, "killed": killed,
             "property": property_check, "cap": cap, "activity": activity}
    asyncio.run(modes[mode]())
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
