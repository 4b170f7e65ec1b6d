#!/usr/bin/env python3
"""A stand-in for Facebook's Graph API, for tests: Facebook cannot be reached from here.

Usage: fake_facebook.py --app-id ID --client-token TOKEN [--app-secret SECRET] [--port N]
                        [--interval SECONDS] [--expires-in SECONDS]

Serves HTTP/1.1 on 127.0.0.1, port N (0, the default: any free port) and prints `PORT <n>` on
stdout once it listens. A leading version segment (`/v19.0/me`) is accepted and ignored, as
the real Graph API does. It answers what anywall and anywall-server ask of Facebook:

  GET  /me?fields=id[,name]&access_token=T[&appsecret_proof=P]
       -> {"id": ..., "name": ...} for a known token; Graph's error 190 otherwise.
  GET  /app?access_token=T[&appsecret_proof=P]
       -> {"id": <the app the token was issued to>, "name": ...}
       With --app-secret, both refuse a missing or wrong appsecret_proof
       (HMAC-SHA256 of the token, keyed by the secret, in hex) with Graph's error 100.
  POST /device/login            access_token=APPID|CLIENTTOKEN, scope=...  (form or query)
       -> {"code", "user_code", "verification_uri", "expires_in", "interval"}
  POST /device/login_status     access_token=APPID|CLIENTTOKEN, code=CODE
       -> {"access_token", "expires_in"} once approved; before that Graph's OAuthException
          with error_subcode 1349174 (pending), 1349172 (polled faster than `interval`) or
          1349152 (the code expired or the login was denied).

Known tokens (each issued to an app id and a user):
  tok-alice   -> user 1001 "Alice Example", app --app-id
  tok-bob     -> user 1002 "Bob Example",   app --app-id
  tok-otherapp-> user 1003 "Olga Other",    app 999999 (another app: validateAppId fails)
  tok-expired -> always error 190 "Error validating access token: Session has expired"
A device login that is approved issues a new token for the user it was approved as.

Test controls (never part of Graph):
  POST /_test/approve  {"user_code": C, "user": "alice"|"bob"}  approve a pending login
  POST /_test/deny     {"user_code": C}                          deny it (then it expires)
  GET  /_test/log      -> [{"method","path","params","at"}...]  every Graph request so far
  POST /_test/token    {"id","name","app_id"?} -> {"access_token"} register a token
"""

import argparse
import hashlib
import hmac
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

USERS = {"alice": ("1001", "Alice Example"), "bob": ("1002", "Bob Example")}
PENDING, SLOW_DOWN, EXPIRED = 1349174, 1349172, 1349152


class Graph:
    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.log = []
        self.tokens = {
            "tok-alice": ("1001", "Alice Example", options.app_id),
            "tok-bob": ("1002", "Bob Example", options.app_id),
            "tok-otherapp": ("1003", "Olga Other", "999999"),
        }
        self.devices = {}  # code -> dict(user_code, issued, last_poll, token, denied)

    def error(self, code, message, subcode=None, status=400):
        body = {"error": {"message": message, "type": "OAuthException", "code": code,
                          "fbtrace_id": secrets.token_hex(6)}}
        if subcode is not None:
            body["error"]["error_subcode"] = subcode
        return status, body

    def proof_ok(self, token, params):
        if not self.options.app_secret:
            return True
        expected = hmac.new(self.options.app_secret.encode(), token.encode(), hashlib.sha256).hexdigest()
        return hmac.compare_digest(params.get("appsecret_proof", ""), expected)

    def token_owner(self, params):
        token = params.get("access_token", "")
        if token == "tok-expired":
            return None, self.error(190, "Error validating access token: Session has expired.", 463)
        owner = self.tokens.get(token)
        if owner is None:
            return None, self.error(190, "Invalid OAuth access token - Cannot parse access token")
        if not self.proof_ok(token, params):
            return None, self.error(100, "Invalid appsecret_proof provided in the API argument")
        return owner, None

    def client_ok(self, params):
        return params.get("access_token") == f"{self.options.app_id}|{self.options.client_token}"

    def answer(self, method, path, params, body):
        with self.lock:
            if not path.startswith("/_test/"):
                self.log.append({"method": method, "path": path, "params": params, "at": time.time()})
            return self.route(method, path, params, body)

    def route(self, method, path, params, body):
        if method == "GET" and path == "/me":
            owner, failure = self.token_owner(params)
            if failure:
                return failure
            fields = params.get("fields", "id").split(",")
            result = {"id": owner[0]}
            if "name" in fields:
                result["name"] = owner[1]
            return 200, result
        if method == "GET" and path == "/app":
            owner, failure = self.token_owner(params)
            if failure:
                return failure
            return 200, {"id": owner[2], "name": "anywall test app"}
        if method == "POST" and path == "/device/login":
            if not self.client_ok(params):
                return self.error(190, "Invalid OAuth access token signature.")
            code = secrets.token_hex(16)
            user_code = secrets.token_hex(4).upper()
            self.devices[code] = {"user_code": user_code, "issued": time.time(),
                                  "last_poll": 0.0, "token": None, "denied": False}
            return 200, {"code": code, "user_code": user_code,
                         "verification_uri": "https://www.facebook.com/device",
                         "expires_in": self.options.expires_in, "interval": self.options.interval}
        if method == "POST" and path == "/device/login_status":
            if not self.client_ok(params):
                return self.error(190, "Invalid OAuth access token signature.")
            device = self.devices.get(params.get("code", ""))
            now = time.time()
            if device is None or device["denied"] or now - device["issued"] > self.options.expires_in:
                return self.error(31, "This request requires the user to take a pending action", EXPIRED)
            too_soon = now - device["last_poll"] < self.options.interval * 0.8
            device["last_poll"] = now
            if device["token"]:
                return 200, {"access_token": device["token"], "expires_in": 5183944}
            if too_soon:
                return self.error(31, "User request limit reached", SLOW_DOWN)
            return self.error(31, "This request requires the user to take a pending action", PENDING)
        if method == "POST" and path == "/_test/approve":
            device = self.find_device(body.get("user_code"))
            user = USERS.get(body.get("user", "alice"))
            if device is None or user is None:
                return 404, {"error": "no such user_code or user"}
            token = "tok-device-" + secrets.token_hex(8)
            self.tokens[token] = (user[0], user[1], self.options.app_id)
            device["token"] = token
            return 200, {"access_token": token}
        if method == "POST" and path == "/_test/deny":
            device = self.find_device(body.get("user_code"))
            if device is None:
                return 404, {"error": "no such user_code"}
            device["denied"] = True
            return 200, {}
        if method == "POST" and path == "/_test/token":
            token = "tok-made-" + secrets.token_hex(8)
            self.tokens[token] = (str(body["id"]), body.get("name", ""), str(body.get("app_id", self.options.app_id)))
            return 200, {"access_token": token}
        if method == "GET" and path == "/_test/log":
            return 200, self.log
        return self.error(803, f"Unknown path components: {path}", status=404)

    def find_device(self, user_code):
        return next((d for d in self.devices.values() if d["user_code"] == user_code), None)


def strip_version(path):
    parts = path.split("/")
    if len(parts) > 2 and parts[1].startswith("v") and parts[1][1:].replace(".", "").isdigit():
        return "/" + "/".join(parts[2:])
    return path


def handler_for(graph):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self, method):
            url = urlsplit(self.path)
            params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = {}
            kind = self.headers.get("Content-Type", "")
            if raw and "json" in kind:
                body = json.loads(raw)
            elif raw:
                params.update({k: v[-1] for k, v in parse_qs(raw.decode(), keep_blank_values=True).items()})
            status, answer = graph.answer(method, strip_version(url.path), params, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

        def log_message(self, format, *args):
            sys.stderr.write("fake_facebook: " + (format % args) + "\n")

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--client-token", required=True)
    parser.add_argument("--app-secret", default="")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--interval", type=int, default=1)
    parser.add_argument("--expires-in", type=int, default=420)
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), handler_for(Graph(options)))
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
