#!/usr/bin/env python3
"""A double standing in for a LiveQuery server, for the CLI's tests of `nearby --watch`.

Parse Server's LiveQuery cannot run here (no npm), and anywall-server's is not built yet: this
peer speaks Parse LiveQuery's wire protocol with anywall-server's additions (DESIGN.md, "Live: the
wall pushes"): every event carries "seq"; subscribe takes "since" (the events after it replayed
first) and "snapshot" (the current matches, then what follows); a "since" older than the retention
window gets an error that says to resync, with "reconnect": false.

It prints `PORT n` first, then one line `RECV <json>` for every message a client sends (what the
test checks), and `OPEN` / `CLOSED` as sockets come and go. The test drives it with JSON lines on
stdin:
  {"write": <post object>}      a post created or changed: "create" or "update" to subscribers
  {"delete": "<objectId>"}      a post deleted
  {"drop": true}                the open sockets are cut (no close handshake)
  {"forget": true}              the retention window passes: every "since" so far is too old
With --stock it is a stock Parse Server instead: no "seq", and "since" or "snapshot" refused as
Parse's schema refuses unknown properties (error 1). Every post is Parse JSON, as REST returns it.
"""
import argparse
import asyncio
import json
import sys

from http import HTTPStatus

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

posts = {}          # objectId -> the post as Parse JSON
events = []         # (seq, op, post), in order
seq = 0
forgotten = 0       # events up to this seq are gone from the retention window
clients = set()     # open sockets with their subscription
stock = False


def say(line):
    print(line, flush=True)


def event_message(op, post, request_id, number):
    message = {"op": op, "clientId": "peer", "requestId": request_id, "object": post}
    if not stock:
        message["seq"] = number
    return message


async def send(ws, message):
    try:
        await ws.send(json.dumps(message))
    except Exception:
        pass


def rest(connection, request):
    """Parse's REST beside the socket, as much as a watch reads: the config and the posts (all of
    them: the client keeps those its query takes). `REST <path>` is printed for each."""
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    say("REST " + request.path)
    if "/classes/Posts" in request.path:
        body = {"results": list(posts.values())}
    elif request.path.endswith("/config"):
        body = {"params": {}}
    else:
        body = {"code": 119, "error": "not served by the LiveQuery peer"}
    status = HTTPStatus.OK if "code" not in body else HTTPStatus.BAD_REQUEST
    data = json.dumps(body).encode()
    return Response(status.value, status.phrase, Headers([("Content-Type", "application/json"), ("Content-Length", str(len(data)))]), data)


async def handler(ws):
    say("OPEN")
    state = {"ws": ws, "requestId": None}
    clients.add(ws)
    try:
        async for text in ws:
            say("RECV " + text)
            request = json.loads(text)
            op = request.get("op")
            if op == "connect":
                await send(ws, {"op": "connected", "clientId": "peer"})
            elif op in ("subscribe", "update"):
                request_id = request["requestId"]
                extra = set(request) - {"op", "requestId", "query", "sessionToken"}
                if stock and extra:
                    await send(ws, {"op": "error", "code": 1, "error": "Additional properties not allowed", "reconnect": True})
                    continue
                since = request.get("since")
                if since is not None and since < forgotten:
                    await send(ws, {"op": "error", "code": 1000, "requestId": request_id, "reconnect": False,
                                    "error": f"since {since} is older than the retention window: resync with a snapshot"})
                    continue
                ws.request_id = request_id
                await send(ws, {"op": "subscribed", "clientId": "peer", "requestId": request_id})
                if request.get("snapshot"):
                    await send(ws, {"op": "snapshot", "requestId": request_id, "results": list(posts.values()), "seq": seq})
                elif since is not None:
                    for number, event_op, post in events:
                        if number > since:
                            await send(ws, event_message(event_op, post, request_id, number))
    finally:
        clients.discard(ws)
        say("CLOSED")


async def publish(op, post):
    global seq
    seq += 1
    events.append((seq, op, post))
    for ws in list(clients):
        request_id = getattr(ws, "request_id", None)
        if request_id is not None:
            await send(ws, event_message(op, post, request_id, seq))


async def commands():
    global forgotten
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = json.loads(line)
        if "write" in command:
            post = command["write"]
            op = "update" if post["objectId"] in posts else "create"
            posts[post["objectId"]] = post
            await publish(op, post)
        elif "delete" in command:
            post = posts.pop(command["delete"])
            await publish("delete", post)
        elif command.get("drop"):
            for ws in list(clients):
                ws.transport.abort()
        elif command.get("forget"):
            forgotten = seq + 1
        say("DONE")


async def main():
    global stock
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--stock", action="store_true")
    arguments = parser.parse_args()
    stock = arguments.stock
    async with serve(handler, "127.0.0.1", arguments.port, process_request=rest) as server:
        say(f"PORT {server.sockets[0].getsockname()[1]}")
        await commands()


asyncio.run(main())
