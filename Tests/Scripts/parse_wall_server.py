#!/usr/bin/env python3
"""A small, stateful, in-memory stand-in for Parse Server, for anywall's CLI tests.

Parse Server cannot run on the test machines (the npm registry is unreachable and there is no
MongoDB), so the CLI test suite starts this script and runs against it the same end-to-end
scenarios as on the embedded wall: signup -> post -> nearby -> config. It serves the part of the
Parse REST API that anywall's Parse backend uses, with Parse Server 7's status codes, error codes,
messages and quirks, read from parse-server's source (src/middlewares.js, src/RestWrite.js,
src/RestQuery.js, src/Routers/*.js, src/Controllers/SchemaController.js, the Mongo adapter).
It stays until the project's own anywall-server replaces it. Python 3 standard library only.

Usage:
  parse_wall_server.py [--port N] [--app-id ID] [--rest-key KEY] [--master-key KEY]
                       [--idempotency | --no-idempotency] [--idempotency-ttl SECONDS]
                       [--mount /parse] [--posts-class-exists] [--test-hooks] [--verbose]

  --port N               0 (default): any free port. Binds 127.0.0.1 only, with SO_REUSEADDR,
                         and prints `PORT <n>` on stdout once it listens.
  --app-id, --rest-key, --master-key
                         default anywall-test-app, anywall-test-rest-key, anywall-test-master-key.
                         --rest-key '' configures no REST key (then none is checked).
  --idempotency          on by default: a repeated X-Parse-Request-Id on a POST/PUT that Parse
                         guards gets 400 {"code":159,"error":"Duplicate request"}. An id is
                         forgotten after --idempotency-ttl seconds (default 300, Parse's ttl).
  --posts-class-exists   start with the Posts class (text String, location GeoPoint, user
                         Pointer<_User>) as `anywall config init` creates it. Without it the
                         server is a fresh Parse Server: Posts does not exist, so a client without
                         the master key gets 119 until POST /schemas/Posts creates it.
  --test-hooks           serve the /__test endpoints below.
  --state PATH           keep the wall across restarts: loaded from PATH at start when it
                         exists, written there on SIGTERM/SIGINT (tests stop the server and
                         start it again on the same port, as a real outage and recovery).
  --verbose              log each request and connection error on stderr (quiet otherwise).
SIGTERM or SIGINT ends it with exit status 0.

Parse endpoints, under the mount (/parse): POST /users (sign up), GET /users, GET /users/me,
GET and POST /login, POST /logout, GET and POST /classes/<class>, GET and PUT /config,
POST /schemas and /schemas/<class>, GET /health. Anything else: Express's 404 page.

Test hooks (only with --test-hooks; outside the mount, no app id needed, never faulted):
  POST /__test/revoke {"username": U}    deletes U's sessions, so the client gets 209 next time;
                                         answers {"revoked": <sessions deleted>}.
  GET  /__test/posts                     {"results": [post..., each with "requestId": the
                                         X-Parse-Request-Id that created it, or null]}, every
                                         Posts object in creation order, whatever its ACL: to
                                         check exactly-once delivery.
  POST /__test/fail {"path": "/parse/classes/Posts", "method": "GET", "status": S,
                     "times": 1, "delaySeconds": 10}
      the next `times` requests to exactly that path (no query string) and method (any method
      when "method" is absent) fail, whatever their headers:
        S = an HTTP status (e.g. 500): that status with {"code":1,"message":"Internal server
            error."}; the request is not processed;
        "close": the request is processed (a post is written), then the answer's headers and
            half its body are sent and the connection is closed: the answer is lost, not the
            write;
        "malformed": the request is processed, then answered 200 with the first half of the
            JSON body;
        "slow": after delaySeconds the request is processed and answered normally.
      Answers {"result": true}.

Where it departs from Parse Server on purpose:
  * A saved GeoPoint is checked with the rules of the SDKs' Parse.GeoPoint._validate, and a bad
    one is refused with 400 {"code":111,"error":"GeoPoint latitude out of bounds: 95 > 90.0."}
    (and the like). Parse Server itself does not check a saved point: MongoDB stores it, or
    fails with a 500 once a geo index exists. Refusing it loudly shows a client bug in tests.
  * Bodies over 1 MiB get 413 {"error":"request entity too large"} (Parse: over 20 MB), before
    the body is read, and the connection is closed.
  * Only top-level include paths (include=user), no roles, no class-level permissions, no
    cloud code. $all, $text, $select, $dontSelect, $inQuery, $notInQuery, $relatedTo,
    $geoIntersects and $containedBy answer 400 {"code":102} saying they are not supported.
"""

import argparse
import hashlib
import hmac
import html
import json
import math
import os
import pickle
import re
import secrets
import signal
import socket
import socketserver
import string
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple, Optional
from urllib.parse import parse_qsl, unquote, urlsplit

MAX_BODY = 1 << 20
EARTH_RADIUS_KM = 6371.0  # what MongoTransform divides $maxDistanceInKilometers by
EARTH_RADIUS_MILES = 3959.0  # and $maxDistanceInMiles
JSON_TYPE = "application/json; charset=utf-8"
OBJECT_ID_ALPHABET = string.ascii_letters + string.digits

# Parse.Error codes (the parse SDK's ParseError.js).
INTERNAL_SERVER_ERROR = 1
OBJECT_NOT_FOUND = 101
INVALID_QUERY = 102
INVALID_CLASS_NAME = 103
INVALID_KEY_NAME = 105
INVALID_JSON = 107
INCORRECT_TYPE = 111
OPERATION_FORBIDDEN = 119
MISSING_CLASS_NAME = 135
DUPLICATE_REQUEST = 159
USERNAME_MISSING = 200
PASSWORD_MISSING = 201
USERNAME_TAKEN = 202
INVALID_SESSION_TOKEN = 209

# ClassesRouter.optionsFromBody accepts these and nothing else.
FIND_PARAMETERS = {
    "skip", "limit", "order", "count", "keys", "excludeKeys", "include", "includeAll",
    "redirectClassNameForKey", "where", "readPreference", "includeReadPreference",
    "subqueryReadPreference", "hint", "explain",
}
ALWAYS_SELECTED_KEYS = {"objectId", "createdAt", "updatedAt", "ACL"}  # RestQuery.js
DEFAULT_FIELDS = {
    "objectId": {"type": "String"},
    "createdAt": {"type": "Date"},
    "updatedAt": {"type": "Date"},
    "ACL": {"type": "ACL"},
}
USER_FIELDS = {
    "username": {"type": "String"},
    "password": {"type": "String"},
    "email": {"type": "String"},
    "emailVerified": {"type": "Boolean"},
    "authData": {"type": "Object"},
}
POSTS_FIELDS = {  # what `anywall config init` sends to POST /schemas/Posts
    "text": {"type": "String"},
    "location": {"type": "GeoPoint"},
    "user": {"type": "Pointer", "targetClass": "_User"},
}
DEFAULT_CLPS = {
    "find": {"*": True}, "count": {"*": True}, "get": {"*": True}, "create": {"*": True},
    "update": {"*": True}, "delete": {"*": True}, "addField": {"*": True},
    "protectedFields": {"*": []},
}
FIELD_TYPES = {
    "Number", "String", "Boolean", "Date", "Object", "Array", "GeoPoint", "File", "Bytes",
    "Polygon", "Pointer", "Relation",
}
QUERY_KEY = re.compile(r"^[a-zA-Z][a-zA-Z0-9_.]*$")  # DatabaseController.validateQuery
UNSUPPORTED_OPERATORS = {
    "$all", "$text", "$select", "$dontSelect", "$inQuery", "$notInQuery", "$relatedTo",
    "$geoIntersects", "$containedBy",
}
MAX_DISTANCE_OPERATORS = (  # in MongoTransform's order of precedence, see max_distance()
    ("$maxDistance", 1.0),
    ("$maxDistanceInKilometers", EARTH_RADIUS_KM),
    ("$maxDistanceInMiles", EARTH_RADIUS_MILES),
    ("$maxDistanceInRadians", 1.0),
)
MISSING = object()  # a field the object does not have (null is a value)


class ParseError(Exception):
    """A Parse.Error: handleParseErrors answers {"code","error"}."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self):
        # handleParseErrors maps these two codes; every other Parse.Error is a 400.
        return {INTERNAL_SERVER_ERROR: 500, OBJECT_NOT_FOUND: 404}.get(self.code, 400)


class HTTPError(Exception):
    """An error with a status and no Parse code (body-parser, promiseEnforceMasterKeyAccess):
    handleParseErrors answers {"error": message}."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class Unauthorized(Exception):
    """handleParseHeaders' invalidRequest: 403 and res.end('{"error":"unauthorized"}')."""


class Uncaught(Exception):
    """Where Parse Server fails with something that is not a Parse.Error (a TypeError, a
    SyntaxError, a MongoDB error): handleParseErrors answers 500 {"code":1,"message":...}."""


class BodyTooLarge(Exception):
    pass


class BadFraming(Exception):
    """A Content-Length or chunk size Node's HTTP parser would reject."""


class Response(NamedTuple):
    status: int
    headers: list
    body: bytes


def json_response(status, payload, headers=()):
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    try:
        body = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: escape it, as JSON.stringify does
        body = json.dumps(payload, separators=(",", ":")).encode("ascii")
    return Response(status, [("Content-Type", JSON_TYPE), *headers], body)


def internal_error(status=500):
    return json_response(status, {"code": INTERNAL_SERVER_ERROR, "message": "Internal server error."})


def not_found(method, path):
    """Express's final handler, for a path no router takes."""
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n'
        f"</head>\n<body>\n<pre>Cannot {method} {html.escape(path)}</pre>\n</body>\n</html>\n"
    )
    return Response(404, [("Content-Type", "text/html; charset=utf-8")], page.encode())


def now_iso():
    """Parse's date format: ISO 8601 in UTC, milliseconds, a Z."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def new_object_id():
    return "".join(secrets.choice(OBJECT_ID_ALPHABET) for _ in range(10))


def hash_password(password, salt=None):
    # Test passwords only: a salted SHA-256 is enough here (Parse Server uses bcrypt).
    salt = salt or secrets.token_hex(8)
    digest = hashlib.sha256((salt + password).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{salt}${digest}"


def password_matches(password, stored):
    salt = stored.split("$", 1)[0]
    return hmac.compare_digest(hash_password(password, salt), stored)


def strict_json(text):
    """JSON.parse: no NaN or Infinity, which Python's json module would accept."""

    def refuse(name):
        raise ValueError(f"Unexpected token {name[0]} in JSON")

    return json.loads(text, parse_constant=refuse)


def truthy(value):
    """JavaScript's truthiness, which Parse Server's checks rely on."""
    if isinstance(value, float) and math.isnan(value):
        return False
    return value is not None and value is not False and value != 0 and value != ""


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def js_str(value):
    """How JavaScript turns a value into text (String(v), or v in a template)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def type_name(field):
    """SchemaController's typeToString: "String", "Pointer<_User>"..."""
    return f"{field['type']}<{field['targetClass']}>" if field.get("targetClass") else field["type"]


def value_type(value):
    """SchemaController.getType: the schema field a REST value needs, or None for null."""
    if value is None:
        return None
    if isinstance(value, bool):
        return {"type": "Boolean"}
    if isinstance(value, str):
        return {"type": "String"}
    if is_number(value):
        return {"type": "Number"}
    if isinstance(value, list):
        return {"type": "Array"}
    tag = value.get("__type")
    if not truthy(tag):
        return {"type": "Object"}
    if tag in ("Pointer", "Relation") and truthy(value.get("className")):
        return {"type": tag, "targetClass": value["className"]}
    if tag == "GeoPoint" and value.get("latitude") is not None and value.get("longitude") is not None:
        return {"type": "GeoPoint"}
    needs = {"File": "name", "Date": "iso", "Bytes": "base64", "Polygon": "coordinates"}
    if tag in needs and truthy(value.get(needs[tag])):
        return {"type": tag}
    raise ParseError(INCORRECT_TYPE, f"This is not a valid {js_str(tag)}")


def check_geopoint(point):
    """The SDKs' Parse.GeoPoint._validate, which Parse Server does not run on a save (see the
    module docstring): an impossible point is refused here rather than stored."""
    lat, lon = point["latitude"], point["longitude"]
    if not (is_number(lat) and is_number(lon)) or math.isnan(lat) or math.isnan(lon):
        raise ParseError(INCORRECT_TYPE, "GeoPoint latitude and longitude must be valid numbers")
    for name, value, limit in (("latitude", lat, 90.0), ("longitude", lon, 180.0)):
        if value < -limit:
            raise ParseError(INCORRECT_TYPE, f"GeoPoint {name} out of bounds: {js_str(value)} < -{limit}.")
        if value > limit:
            raise ParseError(INCORRECT_TYPE, f"GeoPoint {name} out of bounds: {js_str(value)} > {limit}.")


def stored_value(value):
    """A value as Parse Server reads it back: MongoDB keeps only a pointer's class and id, and
    only a point's coordinates."""
    if isinstance(value, dict) and value.get("__type") == "Pointer":
        return {"__type": "Pointer", "className": value["className"], "objectId": value.get("objectId")}
    if isinstance(value, dict) and value.get("__type") == "GeoPoint":
        return {"__type": "GeoPoint", "latitude": value["latitude"], "longitude": value["longitude"]}
    return value


def stored_acl(acl):
    """An ACL as it reads back after transformObjectACL (entries whose read or write is truthy
    become _rperm/_wperm) and untransformObjectACL: {"*":{"read":true,"write":false}} comes back
    as {"*":{"read":true}}. None when the object has no ACL (readable by everyone)."""
    if not truthy(acl):
        return None
    entries = list(acl.items()) if isinstance(acl, dict) else []
    out = {who: {"read": True} for who, perm in entries if isinstance(perm, dict) and truthy(perm.get("read"))}
    for who, perm in entries:
        if isinstance(perm, dict) and truthy(perm.get("write")):
            out.setdefault(who, {})["write"] = True
    return out


def geopoint_coordinates(value):
    """(latitude, longitude) of a stored GeoPoint, or None."""
    if isinstance(value, dict) and value.get("__type") == "GeoPoint":
        lat, lon = value.get("latitude"), value.get("longitude")
        if is_number(lat) and is_number(lon):
            return lat, lon
    return None


def checked_coordinates(lat, lon):
    """A query's point, as Parse.GeoPoint._validate (or MongoDB) accepts it. Parse Server
    answers a TypeError from _validate as an uncaught error: 500, code 1."""
    if not (is_number(lat) and is_number(lon)) or not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise Uncaught()
    return lat, lon


def radians_between(a, b):
    """Great-circle distance between two (latitude, longitude) pairs, in radians."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * math.asin(min(1.0, math.sqrt(h)))


def inside_polygon(point, vertices):
    """MongoDB's legacy $polygon: flat longitude/latitude geometry, the boundary included."""
    y, x = point
    inside = False
    for (y1, x1), (y2, x2) in zip(vertices, vertices[1:] + vertices[:1]):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if cross == 0 and min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2):
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def field_value(obj, key):
    """The value a query sees at a (dotted) key. MongoDB holds createdAt and updatedAt as dates."""
    if key in ("createdAt", "updatedAt") and key in obj:
        return {"__type": "Date", "iso": obj[key]}
    value = obj
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def atom(value):
    """A comparable form of a value, equal exactly when MongoDB finds the values equal."""
    if value is MISSING or value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if is_number(value):
        return ("num", float(value))
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, list):
        return ("array", tuple(atom(v) for v in value))
    tag = value.get("__type")
    if tag == "Pointer":
        return ("ptr", value.get("className"), value.get("objectId"))
    if tag == "GeoPoint":
        return ("geo", atom(value.get("latitude")), atom(value.get("longitude")))
    if tag == "Date":
        return ("date", value.get("iso"))
    return ("obj", json.dumps(value, sort_keys=True))


def matches_atom(value, want):
    """MongoDB equality: an array also matches when one of its elements does."""
    if atom(value) == want:
        return True
    return isinstance(value, list) and any(atom(v) == want for v in value)


def sort_key(value):
    """MongoDB's order across types: null, numbers, strings (pointers are stored as
    "_User$id"), objects, arrays (a GeoPoint is stored as [lon, lat]), booleans, dates."""
    kind, *rest = atom(value)
    if kind == "null":
        return (0, 0)
    if kind == "num":
        return (1, rest[0])
    if kind in ("str", "ptr"):
        return (2, rest[0] if kind == "str" else f"{rest[0]}${rest[1]}")
    if kind == "obj":
        return (3, rest[0])
    if kind == "geo":
        return (4, (sort_key(value["longitude"]), sort_key(value["latitude"])))
    if kind == "array":
        return (4, tuple(sort_key(v) for v in value))
    if kind == "bool":
        return (5, rest[0])
    return (6, rest[0])  # date


def max_distance(constraint):
    """The maximum distance in radians, or None. MongoTransform walks the keys in reverse
    alphabetical order, each $maxDistance* overwriting the last: $maxDistance wins, then
    kilometres, then miles, then radians."""
    for name, radius in MAX_DISTANCE_OPERATORS:
        if name in constraint:
            if not is_number(constraint[name]):
                raise Uncaught()
            return constraint[name] / radius
    return None


class Where:
    """A compiled `where`: checked before any object is read, as Parse Server does, then a test
    for one object. `near` is the (key, point) of a top-level $nearSphere, whose results come
    nearest first."""

    def __init__(self, where):
        self.near = None
        self.test = self._compile(where, top=True)

    def _compile(self, where, top=False):
        if truthy(where.get("ACL")):
            raise ParseError(INVALID_QUERY, "Cannot query on ACL.")
        tests = []
        for key, constraint in where.items():
            if key in ("$or", "$and", "$nor"):
                tests.append(self._combination(key, constraint))
            elif key in UNSUPPORTED_OPERATORS:
                raise ParseError(INVALID_QUERY, f"{key} is not supported by parse_wall_server.py")
            elif not QUERY_KEY.match(key):
                raise ParseError(INVALID_KEY_NAME, f"Invalid key name: {key}")
            else:
                tests.append(self._field(key, constraint, top))
        return lambda obj: all(test(obj) for test in tests)

    def _combination(self, key, parts):
        if key == "$nor" and not (isinstance(parts, list) and parts):
            raise ParseError(INVALID_QUERY, "Bad $nor format - use an array of at least 1 value.")
        if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
            raise ParseError(INVALID_QUERY, f"Bad {key} format - use an array value.")
        tests = [self._compile(part) for part in parts]
        if key == "$or":
            return lambda obj: any(test(obj) for test in tests)
        if key == "$and":
            return lambda obj: all(test(obj) for test in tests)
        return lambda obj: not any(test(obj) for test in tests)

    def _field(self, key, constraint, top):
        def get(obj):
            return field_value(obj, key)

        # MongoTransform reads a constraint only when all its keys are operators; anything else
        # (a plain value, a Pointer, a GeoPoint) is a value to compare with.
        if not (isinstance(constraint, dict) and constraint and all(k.startswith("$") for k in constraint)):
            want = atom(constraint)
            return lambda obj: matches_atom(get(obj), want)
        tests = []
        for op, arg in constraint.items():
            if op in ("$lt", "$lte", "$gt", "$gte"):
                tests.append(self._comparison(get, op, arg))
            elif op in ("$eq", "$ne"):
                want, negate = atom(arg), op == "$ne"
                tests.append(lambda obj, want=want, negate=negate: matches_atom(get(obj), want) != negate)
            elif op in ("$in", "$nin"):
                if not isinstance(arg, list):
                    raise ParseError(INVALID_JSON, f"bad {op} value")
                wants, negate = [atom(v) for v in arg], op == "$nin"
                tests.append(lambda obj, wants=wants, negate=negate: any(matches_atom(get(obj), w) for w in wants) != negate)
            elif op == "$exists":
                tests.append(lambda obj, want=truthy(arg): (get(obj) is not MISSING) == want)
            elif op == "$regex":
                tests.append(self._regex(get, arg, constraint.get("$options")))
            elif op == "$nearSphere":
                tests.append(self._near(key, get, arg, constraint, top))
            elif op == "$within":
                tests.append(self._box(get, arg))
            elif op == "$geoWithin":
                tests.append(self._geo_within(get, arg))
            elif op == "$options" or any(op == name for name, _ in MAX_DISTANCE_OPERATORS):
                continue  # read along with $regex and $nearSphere
            elif op in UNSUPPORTED_OPERATORS:
                raise ParseError(INVALID_QUERY, f"{op} is not supported by parse_wall_server.py")
            else:
                raise ParseError(INVALID_JSON, f"bad constraint: {op}")
        return lambda obj: all(test(obj) for test in tests)

    @staticmethod
    def _comparison(get, op, arg):
        want = atom(arg)
        compare = {
            "$lt": lambda a, b: a < b, "$lte": lambda a, b: a <= b,
            "$gt": lambda a, b: a > b, "$gte": lambda a, b: a >= b,
        }[op]

        def test(obj):
            value = get(obj)
            # MongoDB compares within one type only.
            candidates = value if isinstance(value, list) else [value]
            return want[0] in ("num", "str", "date") and any(
                atom(v)[0] == want[0] and compare(atom(v)[1], want[1]) for v in candidates
            )

        return test

    @staticmethod
    def _regex(get, pattern, options):
        if isinstance(options, str) and not re.fullmatch(r"[imxs]+", options):
            raise ParseError(INVALID_QUERY, f"Bad $options value for query: {options}")
        if not isinstance(pattern, str):
            raise ParseError(INVALID_JSON, f"bad regex: {js_str(pattern)}")
        flags = 0
        for letter, flag in (("i", re.I), ("m", re.M), ("x", re.X), ("s", re.S)):
            if isinstance(options, str) and letter in options:
                flags |= flag
        try:
            regex = re.compile(pattern, flags)
        except re.error:
            raise Uncaught() from None  # MongoDB refuses the pattern
        return lambda obj: isinstance(get(obj), str) and regex.search(get(obj)) is not None

    def _near(self, key, get, point, constraint, top):
        if not isinstance(point, dict):
            raise Uncaught()
        center = checked_coordinates(point.get("latitude"), point.get("longitude"))
        limit = max_distance(constraint)
        if top:
            self.near = (key, center)

        def test(obj):
            where = geopoint_coordinates(get(obj))
            return where is not None and (limit is None or radians_between(center, where) <= limit)

        return test

    @staticmethod
    def _box(get, arg):
        box = arg.get("$box") if isinstance(arg, dict) else None
        if not isinstance(box, list) or len(box) != 2:
            raise ParseError(INVALID_JSON, "malformatted $within arg")
        corners = [checked_coordinates(c.get("latitude"), c.get("longitude")) if isinstance(c, dict) else None for c in box]
        if None in corners:
            raise Uncaught()
        # MongoDB takes the box's corners in either order, so a box across the antimeridian
        # becomes the rest of the world (NOTES.md): kept here on purpose.
        (lat1, lon1), (lat2, lon2) = corners

        def test(obj):
            where = geopoint_coordinates(get(obj))
            return where is not None and min(lat1, lat2) <= where[0] <= max(lat1, lat2) and min(lon1, lon2) <= where[1] <= max(lon1, lon2)

        return test

    @staticmethod
    def _geo_within(get, arg):
        polygon = arg.get("$polygon") if isinstance(arg, dict) else None
        center = arg.get("$centerSphere") if isinstance(arg, dict) else None
        if polygon is not None and center is not None:
            raise ParseError(INVALID_JSON, "bad $geoWithin value; only one of $polygon or $centerSphere expected.")
        if polygon is not None:
            vertices = Where._polygon(polygon)
            return lambda obj: geopoint_coordinates(get(obj)) is not None and inside_polygon(geopoint_coordinates(get(obj)), vertices)
        if center is None:
            raise Uncaught()  # MongoDB refuses an empty $geoWithin
        if not (isinstance(center, list) and len(center) == 2):
            raise ParseError(INVALID_JSON, "bad $geoWithin value; $centerSphere should be an array of Parse.GeoPoint and distance")
        point, distance = center
        if isinstance(point, list) and len(point) == 2:
            middle = checked_coordinates(point[1], point[0])
        elif isinstance(point, dict) and point.get("__type") == "GeoPoint":
            middle = checked_coordinates(point.get("latitude"), point.get("longitude"))
        else:
            raise ParseError(INVALID_JSON, "bad $geoWithin value; $centerSphere geo point invalid")
        if not is_number(distance) or math.isnan(distance) or distance < 0:
            raise ParseError(INVALID_JSON, "bad $geoWithin value; $centerSphere distance invalid")

        def test(obj):
            where = geopoint_coordinates(get(obj))
            return where is not None and radians_between(middle, where) <= distance

        return test

    @staticmethod
    def _polygon(polygon):
        if isinstance(polygon, dict) and polygon.get("__type") == "Polygon":
            points = polygon.get("coordinates")
            if not isinstance(points, list) or len(points) < 3:
                raise ParseError(INVALID_JSON, "bad $geoWithin value; Polygon.coordinates should contain at least 3 lon/lat pairs")
        elif isinstance(polygon, list):
            if len(polygon) < 3:
                raise ParseError(INVALID_JSON, "bad $geoWithin value; $polygon should contain at least 3 GeoPoints")
            points = polygon
        else:
            raise ParseError(INVALID_JSON, "bad $geoWithin value; $polygon should be Polygon object or Array of Parse.GeoPoint's")
        vertices = []
        for point in points:
            if isinstance(point, list) and len(point) == 2:  # [longitude, latitude]
                vertices.append(checked_coordinates(point[1], point[0]))
            elif isinstance(point, dict) and point.get("__type") == "GeoPoint":
                vertices.append(checked_coordinates(point.get("latitude"), point.get("longitude")))
            else:
                raise ParseError(INVALID_JSON, "bad $geoWithin value")
        return vertices


def to_count(name, value):
    """Number(value) for skip and limit, as a whole count of objects."""
    if isinstance(value, str):
        try:
            value = float(value.strip() or 0)
        except ValueError:
            value = math.nan
    if not is_number(value) or not math.isfinite(value):
        raise ParseError(INVALID_QUERY, f"Invalid parameter for query: {name}")
    return int(value)


def json_from_query(query_string):
    """ClassesRouter.JSONFromQuery: each query parameter is JSON when it parses as JSON."""
    params = {}
    for name, text in parse_qsl(query_string, keep_blank_values=True):
        try:
            params[name] = strict_json(text)
        except ValueError:
            params[name] = text
    return params


@dataclass
class Auth:
    master: bool = False
    user_id: Optional[str] = None

    def can_read(self, obj):
        acl = obj.get("ACL")
        if self.master or acl is None:
            return True
        return any(who and acl.get(who, {}).get("read") for who in ("*", self.user_id))


@dataclass
class Request:
    method: str
    path: str
    query_string: str
    headers: object  # http.client.HTTPMessage: case-insensitive, like Express's req.get
    body: bytes


@dataclass
class Fault:
    path: str
    method: Optional[str]
    kind: object  # an HTTP status, "close", "malformed" or "slow"
    times: int
    delay: float


class ParseApp:
    """The Parse Server stand-in: state, and one answer per request. One lock guards the state
    for a whole request, so requests act one at a time, as if on one MongoDB."""

    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.schemas = {"_User": {**DEFAULT_FIELDS, **USER_FIELDS}}
        self.objects = {"_User": {}}  # class -> objectId -> stored object, in creation order
        if options.posts_class_exists:
            self.schemas["Posts"] = {**DEFAULT_FIELDS, **POSTS_FIELDS}
            self.objects["Posts"] = {}
        self.sessions = {}  # session token -> user objectId
        self.config = {}  # a new Parse Server has no config
        self.request_ids = {}  # X-Parse-Request-Id -> when it may be used again (monotonic)
        self.faults = []
        self.routes = [
            (method, re.compile(pattern), handler)
            for method, pattern, handler in (
                ("POST", "/users", lambda req, body, auth: self.create(req, body, auth, "_User")),
                ("GET", "/users", lambda req, body, auth: self.find(req, body, auth, "_User")),
                ("GET", "/users/me", self.me),
                ("GET", "/login", self.login),
                ("POST", "/login", self.login),
                ("POST", "/logout", self.logout),
                ("GET", "/classes/(?P<class_name>[^/]+)", self.find),
                ("POST", "/classes/(?P<class_name>[^/]+)", self.create),
                ("GET", "/config", self.get_config),
                ("PUT", "/config", self.put_config),
                ("POST", "/schemas", self.create_schema),
                ("POST", "/schemas/(?P<class_name>[^/]+)", self.create_schema),
            )
        ]

    # Requests ------------------------------------------------------------------------------

    def handle(self, req):
        try:
            with self.lock:
                return self.route(req)
        except ParseError as e:
            return json_response(e.status, {"code": e.code, "error": e.message})
        except HTTPError as e:
            return json_response(e.status, {"error": e.message})
        except Unauthorized:
            return Response(403, [], b'{"error":"unauthorized"}')
        except Uncaught:
            return internal_error()
        except Exception:  # a bug in this stand-in: say where, answer as Parse would
            traceback.print_exc()
            return internal_error()

    def route(self, req):
        mount = self.options.mount
        if not (req.path == mount or req.path.startswith(mount + "/")):
            return not_found(req.method, req.path)
        url = req.path[len(mount):] or "/"
        path = url.rstrip("/") or "/"  # Express routes ignore a trailing slash
        if req.method == "GET" and path == "/health":  # answered before any key is checked
            return json_response(200, {"status": "ok"})
        body = self.parse_body(req)
        method = req.method
        if method == "POST" and truthy(body.get("_method")):  # allowMethodOverride (JS SDK)
            method = js_str(body.pop("_method"))
        auth = self.authenticate(req, url)
        for route_method, pattern, handler in self.routes:
            match = pattern.fullmatch(path)
            if match and route_method == method:
                params = {name: unquote(value) for name, value in match.groupdict().items()}
                return handler(req, body, auth, **params)
        return not_found(method, req.path)

    @staticmethod
    def parse_body(req):
        """What body-parser leaves in req.body: it runs before the keys are checked, so a bad
        body is a 400 even without an app id. Its JSON parser takes any content type."""
        content_type = req.headers.get("Content-Type", "").split(";")[0].strip().lower()
        text = req.body.decode("utf-8", "replace")
        if content_type == "application/x-www-form-urlencoded":
            return dict(parse_qsl(text, keep_blank_values=True))
        if not req.body:
            return {}
        # body-parser's strict mode: only an object or an array; its message is Node's
        # JSON.parse message, which Python's only resembles.
        if text.lstrip()[:1] not in ("{", "["):
            raise HTTPError(400, f"Unexpected token {text.lstrip()[:1] or 'end'} in JSON at position 0")
        try:
            body = strict_json(text)
        except ValueError as e:
            raise HTTPError(400, str(e)) from None
        return body if isinstance(body, dict) else {}

    def authenticate(self, req, url):
        """handleParseHeaders then handleParseSession."""
        headers, options = req.headers, self.options
        if headers.get("X-Parse-Application-Id") != options.app_id:
            raise Unauthorized()
        if options.master_key and headers.get("X-Parse-Master-Key") == options.master_key:
            return Auth(master=True)  # no REST key needed, and the session token is not looked at
        if options.rest_key and headers.get("X-Parse-REST-API-Key") != options.rest_key:
            raise Unauthorized()
        token = headers.get("X-Parse-Session-Token")
        # handleParseHeaders drops the token when req.url is exactly "/login": a POST, not a GET
        # with its query string.
        if not token or (url + ("?" + req.query_string if req.query_string else "")) == "/login":
            return Auth()
        user_id = self.sessions.get(token)
        if user_id is None:
            raise ParseError(INVALID_SESSION_TOKEN, "Invalid session token")
        return Auth(user_id=user_id)

    def ensure_idempotency(self, req):
        """middlewares.promiseEnsureIdempotency: it records the id before the write runs, so a
        request that then fails (119, 111, 202...) still uses its id up."""
        request_id = req.headers.get("X-Parse-Request-Id")
        if not self.options.idempotency or not request_id:
            return
        now = time.monotonic()
        if self.request_ids.get(request_id, now) > now:
            raise ParseError(DUPLICATE_REQUEST, "Duplicate request")
        self.request_ids[request_id] = now + self.options.idempotency_ttl

    # Writes ----------------------------------------------------------------------------------

    def create(self, req, body, auth, class_name):
        """ClassesRouter.handleCreate and RestWrite, in RestWrite's order of checks."""
        self.ensure_idempotency(req)
        if truthy(body.get("objectId")):
            raise ParseError(INVALID_KEY_NAME, "objectId is an invalid field name.")
        if truthy(body.get("id")):
            raise ParseError(INVALID_KEY_NAME, "id is an invalid field name.")
        if class_name not in self.schemas:
            if not auth.master:  # allowClientClassCreation is false by default
                raise ParseError(OPERATION_FORBIDDEN, f"This user is not allowed to access non-existent class: {class_name}")
            self.schemas[class_name] = dict(DEFAULT_FIELDS)
            self.objects[class_name] = {}
        is_user = class_name == "_User"
        if is_user:
            if not isinstance(body.get("username"), str) or not body["username"]:
                raise ParseError(USERNAME_MISSING, "bad or missing username")
            if not isinstance(body.get("password"), str) or not body["password"]:
                raise ParseError(PASSWORD_MISSING, "password is required")
        self.validate_fields(class_name, body)
        if is_user and any(u["username"].lower() == body["username"].lower() for u in self.objects["_User"].values()):
            raise ParseError(USERNAME_TAKEN, "Account already exists for this username.")

        object_id = new_object_id()
        while object_id in self.objects[class_name]:
            object_id = new_object_id()
        now = now_iso()
        obj = {"objectId": object_id}
        obj.update((k, stored_value(v)) for k, v in body.items() if k not in ("objectId", "ACL", "createdAt", "updatedAt", "password"))
        obj["createdAt"] = obj["updatedAt"] = now
        acl = self.user_acl(body.get("ACL"), object_id) if is_user else stored_acl(body.get("ACL"))
        if acl is not None:
            obj["ACL"] = acl
        if is_user:
            obj["_hashed_password"] = hash_password(body["password"])
        obj["_requestId"] = req.headers.get("X-Parse-Request-Id")
        self.objects[class_name][object_id] = obj

        answer = {"objectId": object_id, "createdAt": now}
        if is_user:
            answer["sessionToken"] = self.new_session(object_id)
        host = req.headers.get("Host") or f"127.0.0.1:{self.options.port}"
        middle = "/users/" if is_user else f"/classes/{class_name}/"
        return json_response(201, answer, [("Location", f"http://{host}{self.options.mount}{middle}{object_id}")])

    @staticmethod
    def user_acl(acl, user_id):
        """RestWrite.runDatabaseOperation for a new _User: with enforcePrivateUsers (Parse 6+)
        no ACL means no public read; the user always gets read and write on itself."""
        if not truthy(acl) or isinstance(acl, list):
            acl = {}
        elif not isinstance(acl, dict):
            raise Uncaught()  # strict-mode TypeError: a property set on a string or number
        return stored_acl({**acl, user_id: {"read": True, "write": True}})

    def validate_fields(self, class_name, data):
        """SchemaController.validateObject, then the Mongo adapter adding new fields."""
        schema = self.schemas[class_name]
        points = [k for k, v in data.items() if truthy(v) and value_type(v) == {"type": "GeoPoint"}]
        if len(points) > 1:
            raise ParseError(INCORRECT_TYPE, "there can only be one geopoint field in a class")
        added = {}
        for name, value in data.items():
            found = value_type(value)
            if found is None or name == "ACL":
                continue
            expected = schema.get(name)
            if expected is None:
                if found["type"] == "GeoPoint" and any(f.get("type") == "GeoPoint" for f in schema.values()):
                    raise ParseError(INCORRECT_TYPE, "MongoDB only supports one GeoPoint field in a class.")
                added[name] = found
            elif type_name(expected) != type_name(found):
                raise ParseError(
                    INCORRECT_TYPE,
                    f"schema mismatch for {class_name}.{name}; expected {type_name(expected)} but got {type_name(found)}",
                )
            if found["type"] == "GeoPoint":
                check_geopoint(value)
        schema.update(added)

    def new_session(self, user_id):
        token = "r:" + secrets.token_hex(16)  # cryptoUtils.newToken: 32 hex digits
        self.sessions[token] = user_id
        return token

    # Users -----------------------------------------------------------------------------------

    def me(self, req, body, auth):
        token = req.headers.get("X-Parse-Session-Token")
        user = self.objects["_User"].get(self.sessions.get(token))
        if not token or user is None:
            raise ParseError(INVALID_SESSION_TOKEN, "Invalid session token")
        return json_response(200, {**self.render("_User", user, Auth(user_id=user["objectId"])), "sessionToken": token})

    def login(self, req, body, auth):
        """UsersRouter._authenticateUserFromRequest and handleLogIn."""
        query = dict(parse_qsl(req.query_string, keep_blank_values=True))  # plain strings here
        payload = body
        if (not truthy(body.get("username")) and truthy(query.get("username"))) or (
            not truthy(body.get("email")) and truthy(query.get("email"))
        ):
            payload = query
        username, email, password = payload.get("username"), payload.get("email"), payload.get("password")
        if not truthy(username) and not truthy(email):
            raise ParseError(USERNAME_MISSING, "username/email is required.")
        if not truthy(password):
            raise ParseError(PASSWORD_MISSING, "password is required.")
        if not isinstance(password, str) or (truthy(email) and not isinstance(email, str)) or (
            truthy(username) and not isinstance(username, str)
        ):
            raise ParseError(OBJECT_NOT_FOUND, "Invalid username/password.")
        users = list(self.objects["_User"].values())
        # Unlike sign-up's uniqueness check, login compares usernames case-sensitively.
        if truthy(email) and truthy(username):
            found = [u for u in users if u.get("username") == username and u.get("email") == email]
        elif truthy(email):
            found = [u for u in users if u.get("email") == email]
        else:
            found = [u for u in users if u.get("username") == username or u.get("email") == username]
        if len(found) > 1:  # one user's email is another's username: the username wins
            found = [u for u in found if u.get("username") == username]
        if not found or not password_matches(password, found[0]["_hashed_password"]):
            raise ParseError(OBJECT_NOT_FOUND, "Invalid username/password.")
        user = found[0]
        token = self.new_session(user["objectId"])
        return json_response(200, {**self.render("_User", user, Auth(user_id=user["objectId"])), "sessionToken": token})

    def logout(self, req, body, auth):
        # A bad token never gets here (209 from the session middleware), except with the
        # master key, where Parse finds no session and still answers {}.
        self.sessions.pop(req.headers.get("X-Parse-Session-Token"), None)
        return json_response(200, {})

    # Queries ---------------------------------------------------------------------------------

    def find(self, req, body, auth, class_name):
        """ClassesRouter.handleFind and RestQuery."""
        params = {**body, **json_from_query(req.query_string)}
        for name in params:
            if name not in FIND_PARAMETERS:
                raise ParseError(INVALID_QUERY, f"Invalid parameter for query: {name}")
        limit = params.get("limit")
        limit = to_count("limit", limit) if truthy(limit) or (is_number(limit) and limit == 0) else 100
        skip = to_count("skip", params["skip"]) if truthy(params.get("skip")) else 0
        if skip < 0:
            raise Uncaught()  # MongoDB refuses a negative skip
        keys = set(js_str(params["keys"]).split(",")) - {""} if params.get("keys") is not None else None
        exclude = set(js_str(params["excludeKeys"]).split(",")) - ALWAYS_SELECTED_KEYS if params.get("excludeKeys") is not None else set()
        includes = js_str(params["include"]).split(",") if params.get("include") is not None else []
        if truthy(params.get("includeAll")):
            includes.append("*")
        # RestQuery: a dotted key ("user.username") also includes its pointer.
        includes += [key.split(".")[0] for key in keys or () if "." in key]
        where = params.get("where", {})
        if isinstance(where, str):
            try:  # ClassesRouter's second JSON.parse, which throws a SyntaxError
                where = strict_json(where)
            except ValueError:
                raise Uncaught() from None

        if class_name not in self.schemas:
            if not auth.master:
                raise ParseError(OPERATION_FORBIDDEN, f"This user is not allowed to access non-existent class: {class_name}")
            rows = []
        else:
            query = Where(where if isinstance(where, dict) else {})
            rows = [o for o in self.objects[class_name].values() if auth.can_read(o) and query.test(o)]
            if query.near:
                key, center = query.near
                # sorted() is stable: equally far objects stay in creation order.
                rows.sort(key=lambda o: radians_between(center, geopoint_coordinates(field_value(o, key))))
        if truthy(params.get("order")):
            # An explicit order overrides $nearSphere's, as MongoDB's sort() does.
            for field in reversed([f.strip() for f in js_str(params["order"]).split(",")]):
                descending = field.startswith("-")
                rows.sort(key=lambda o, f=field.lstrip("-"): sort_key(field_value(o, f)), reverse=descending)
        total = len(rows)
        # A negative limit is MongoDB's "one batch of that many".
        rows = rows[skip: skip + abs(limit)]

        top_keys = {key.split(".")[0] for key in keys} if keys is not None else None
        results = [self.render(class_name, row, auth, top_keys, exclude) for row in rows]
        for path in dict.fromkeys(includes):
            self.include(class_name, results, path, keys, auth)
        answer = {"results": results}
        if truthy(params.get("count")):
            answer["count"] = total
        return json_response(200, answer)

    def render(self, class_name, obj, auth, keys=None, exclude=frozenset()):
        """An object as a query returns it: no hidden ("_") fields, a user's email only to
        that user (the default protectedFields), then `keys` and `excludeKeys`."""
        out = {k: v for k, v in obj.items() if not k.startswith("_")}
        if class_name == "_User" and not (auth.master or auth.user_id == obj["objectId"]):
            out.pop("email", None)
        if keys is not None:
            out = {k: v for k, v in out.items() if k in keys or k in ALWAYS_SELECTED_KEYS}
        return {k: v for k, v in out.items() if k not in exclude}

    def include(self, class_name, results, path, keys, auth):
        """RestQuery.includePath for a top-level key: each Pointer becomes the object it points
        to, fetched with the caller's rights. One the caller cannot read (a private user, as
        enforcePrivateUsers makes them) or that does not exist is removed: replacePointers puts
        undefined in its place, which JSON leaves out."""
        if path == "*":
            for name, field in self.schemas.get(class_name, {}).items():
                if field.get("type") == "Pointer":
                    self.include(class_name, results, name, keys, auth)
            return
        # RestQuery passes "user.username" on as keys=username for the included objects.
        sub_keys = {k.split(".", 1)[1].split(".")[0] for k in keys or () if k.startswith(path + ".")} or None

        def replace(value):
            if not (isinstance(value, dict) and value.get("__type") == "Pointer"):
                return value
            target_class = value.get("className")
            target = self.objects.get(target_class, {}).get(value.get("objectId"))
            if target is None or not auth.can_read(target):
                return MISSING
            fields = self.render(target_class, target, auth, sub_keys and sub_keys | ALWAYS_SELECTED_KEYS)
            return {"__type": "Object", "className": target_class, **fields}

        for result in results:
            if path not in result:
                continue
            value = result[path]
            if isinstance(value, list):
                result[path] = [v for v in map(replace, value) if v is not MISSING]
                continue
            value = replace(value)
            if value is MISSING:
                del result[path]
            else:
                result[path] = value

    # Config and schemas ----------------------------------------------------------------------

    def get_config(self, req, body, auth):
        return json_response(200, {"params": self.config})

    def put_config(self, req, body, auth):
        """GlobalConfigRouter.updateGlobalConfig: each key of params replaces that parameter."""
        if not auth.master:
            raise HTTPError(403, "unauthorized: master key is required")
        params = body.get("params")
        if not isinstance(params, dict):
            raise Uncaught()  # Object.keys(undefined) throws a TypeError
        for name, value in params.items():
            if isinstance(value, dict) and value.get("__op") == "Delete":
                self.config.pop(name, None)
            else:
                self.config[name] = value
        return json_response(200, {"result": True})

    def create_schema(self, req, body, auth, class_name=None):
        """SchemasRouter.createSchema and SchemaController.addClassIfNotExists."""
        if not auth.master:
            raise HTTPError(403, "unauthorized: master key is required")
        body_class = body.get("className")
        if class_name and truthy(body_class) and body_class != class_name:
            raise ParseError(INVALID_CLASS_NAME, f"Class name mismatch between {js_str(body_class)} and {class_name}.")
        name = class_name or body_class
        if not truthy(name):
            raise ParseError(MISSING_CLASS_NAME, "POST /schemas needs a class name.")
        name = js_str(name)
        if name in self.schemas:
            raise ParseError(INVALID_CLASS_NAME, f"Class {name} already exists.")
        fields = body.get("fields") or {}
        if not isinstance(fields, dict):
            raise ParseError(INVALID_JSON, "invalid JSON")
        for field in fields.values():
            kind = field.get("type") if isinstance(field, dict) else None
            if kind in ("Pointer", "Relation") and not truthy(field.get("targetClass")):
                raise ParseError(MISSING_CLASS_NAME, f"type {kind} needs a class name")
            if not isinstance(kind, str):
                raise ParseError(INVALID_JSON, "invalid JSON")
            if kind not in FIELD_TYPES:
                raise ParseError(INCORRECT_TYPE, f"invalid field type: {kind}")
        self.schemas[name] = {**DEFAULT_FIELDS, **fields}
        self.objects[name] = {}
        permissions = body.get("classLevelPermissions") or DEFAULT_CLPS
        return json_response(200, {"className": name, "fields": self.schemas[name], "classLevelPermissions": permissions})

    # Test hooks ------------------------------------------------------------------------------

    def test_hook(self, req):
        try:
            body = strict_json(req.body.decode("utf-8", "replace")) if req.body else {}
        except ValueError as e:
            return json_response(400, {"error": f"bad JSON body: {e}"})
        if not isinstance(body, dict):
            return json_response(400, {"error": "the body must be a JSON object"})
        hooks = {
            ("POST", "/__test/revoke"): self.revoke_hook,
            ("GET", "/__test/posts"): self.posts_hook,
            ("POST", "/__test/fail"): self.fail_hook,
        }
        hook = hooks.get((req.method, req.path))
        if hook is None:
            return not_found(req.method, req.path)
        try:
            with self.lock:
                return json_response(200, hook(body))
        except HTTPError as e:
            return json_response(e.status, {"error": e.message})

    def revoke_hook(self, body):
        username = body.get("username")
        if not isinstance(username, str):
            raise HTTPError(400, '"username" must be a string')
        users = {oid for oid, user in self.objects["_User"].items() if user["username"] == username}
        tokens = [token for token, user_id in self.sessions.items() if user_id in users]
        for token in tokens:
            del self.sessions[token]
        return {"revoked": len(tokens)}

    def posts_hook(self, body):
        posts = self.objects.get("Posts", {}).values()
        return {"results": [{**self.render("Posts", p, Auth(master=True)), "requestId": p["_requestId"]} for p in posts]}

    def fail_hook(self, body):
        path, method, kind = body.get("path"), body.get("method"), body.get("status")
        times, delay = body.get("times", 1), body.get("delaySeconds", 10)
        if not (isinstance(path, str) and path.startswith("/")):
            raise HTTPError(400, '"path" must be a path such as "/parse/classes/Posts"')
        if method is not None and not isinstance(method, str):
            raise HTTPError(400, '"method" must be a string')
        if not (kind in ("close", "malformed", "slow") or (is_number(kind) and kind == int(kind) and 100 <= kind <= 599)):
            raise HTTPError(400, '"status" must be an HTTP status, "close", "malformed" or "slow"')
        if not (is_number(times) and times == int(times) and times >= 1):
            raise HTTPError(400, '"times" must be a whole number, at least 1')
        if not (is_number(delay) and delay >= 0):
            raise HTTPError(400, '"delaySeconds" must be a number of seconds')
        kind = kind if isinstance(kind, str) else int(kind)
        self.faults.append(Fault(path, method and method.upper(), kind, int(times), float(delay)))
        return {"result": True}

    def take_fault(self, method, path):
        """The fault planned for this request, if any, used up once."""
        with self.lock:
            for fault in self.faults:
                if fault.path == path and fault.method in (None, method):
                    fault.times -= 1
                    if fault.times == 0:
                        self.faults.remove(fault)
                    return fault
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive; every answer carries a Content-Length
    disable_nagle_algorithm = True  # else a reused connection waits ~40 ms (delayed ACK meets Nagle)
    server_version = "parse_wall_server"

    def do_GET(self):
        self.serve()

    do_POST = do_PUT = do_DELETE = do_GET

    def serve(self):
        try:
            body = self.read_body()
        except BodyTooLarge:
            self.close_connection = True  # the unread body is still on the wire
            self.send(json_response(413, {"error": "request entity too large"}))
            return self.discard_input()
        except BadFraming:
            self.close_connection = True
            return self.send(Response(400, [], b""))
        url = urlsplit(self.path)
        req = Request(self.command, url.path, url.query, self.headers, body)
        app = self.server.app
        if app.options.test_hooks and url.path.startswith("/__test/"):
            return self.send(app.test_hook(req))
        fault = app.take_fault(self.command, url.path)
        if fault is None:
            return self.send(app.handle(req))
        if isinstance(fault.kind, int):
            return self.send(internal_error(fault.kind))
        if fault.kind == "slow":
            time.sleep(fault.delay)
            return self.send(app.handle(req))
        response = app.handle(req)
        half = response.body[: len(response.body) // 2]
        if fault.kind == "malformed":
            return self.send(Response(200, [("Content-Type", JSON_TYPE)], half))
        # "close": promise the whole body, send half of it, hang up.
        self.send(response, half)
        self.close_connection = True

    def send(self, response, body=None):
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(response.body if body is None else body)
        self.wfile.flush()

    def discard_input(self):
        """Close gently after refusing a body: closing with unread data would send a reset,
        which can destroy the 413 before the client reads it. So stop writing, then throw away
        what the client still sends, for a second at most."""
        self.connection.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + 1
        try:
            while time.monotonic() < deadline:
                self.connection.settimeout(max(0.01, deadline - time.monotonic()))
                if not self.connection.recv(65536):
                    break
        except OSError:
            pass

    def declared_length(self):
        text = self.headers.get("Content-Length")
        if text is None:
            return 0
        if not text.strip().isdigit():
            raise BadFraming()
        return int(text)

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self.read_chunked()
        length = self.declared_length()
        if length > MAX_BODY:
            raise BodyTooLarge()
        return self.rfile.read(length)

    def read_chunked(self):
        chunks, total = [], 0
        while True:
            try:
                size = int(self.rfile.readline(1024).split(b";")[0].strip(), 16)
            except ValueError:
                raise BadFraming() from None
            if size == 0:
                break
            total += size
            if total > MAX_BODY:
                raise BodyTooLarge()
            chunks.append(self.rfile.read(size))
            self.rfile.readline()  # the CRLF after the chunk
        while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
            pass  # trailers
        return b"".join(chunks)

    def handle_expect_100(self):
        # Refuse an oversized body before the client sends it.
        try:
            too_large = self.declared_length() > MAX_BODY
        except BadFraming:
            too_large = False  # serve() answers it
        if too_large:
            self.close_connection = True
            self.send(json_response(413, {"error": "request entity too large"}))
            return False
        return super().handle_expect_100()

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class WallServer(ThreadingHTTPServer):
    daemon_threads = True  # a slow or hung request never holds up the exit
    allow_reuse_address = True  # SO_REUSEADDR

    def __init__(self, app, verbose):
        self.app = app
        self.verbose = verbose
        super().__init__(("127.0.0.1", app.options.port), Handler)

    def server_bind(self):
        # HTTPServer.server_bind would look the host name up (getfqdn), which can be slow.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        # Clients that hang up (the fault tests do) are not worth a traceback.
        if self.verbose:
            super().handle_error(request, client_address)


def parse_options(argv):
    parser = argparse.ArgumentParser(description="In-memory Parse Server stand-in for anywall's tests.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--state", help="file that keeps the wall across restarts")
    parser.add_argument("--app-id", default="anywall-test-app")
    parser.add_argument("--rest-key", default="anywall-test-rest-key", help="'' for no REST key")
    parser.add_argument("--master-key", default="anywall-test-master-key")
    parser.add_argument("--idempotency", action=argparse.BooleanOptionalAction, default=True,
                        help="refuse a repeated X-Parse-Request-Id with 159 (default: on)")
    parser.add_argument("--idempotency-ttl", type=float, default=300.0, metavar="SECONDS",
                        help="how long a request id is remembered (default: 300, as Parse)")
    parser.add_argument("--mount", default="/parse")
    parser.add_argument("--posts-class-exists", action="store_true",
                        help="start with the Posts class, as after `anywall config init`")
    parser.add_argument("--test-hooks", action="store_true", help="serve the /__test endpoints")
    parser.add_argument("--verbose", action="store_true", help="log requests on stderr")
    options = parser.parse_args(argv)
    options.mount = "/" + options.mount.strip("/") if options.mount.strip("/") else ""
    return options


STATE_FIELDS = ("schemas", "objects", "sessions", "config", "request_ids")


def load_state(app, path):
    if path and os.path.exists(path):
        with open(path, "rb") as file:
            for name, value in pickle.load(file).items():
                setattr(app, name, value)


def save_state(app, path):
    if path:
        with app.lock, open(path, "wb") as file:
            pickle.dump({name: getattr(app, name) for name in STATE_FIELDS}, file)


def main(argv=None):
    options = parse_options(argv)
    app = ParseApp(options)
    load_state(app, options.state)

    def stop(*_):
        save_state(app, options.state)
        sys.exit(0)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
    # The test runner may start us with these blocked; a pending one now ends us at once.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    server = WallServer(app, options.verbose)
    options.port = server.server_address[1]
    print(f"PORT {options.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
