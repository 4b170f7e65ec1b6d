"""A benchmark wall shaped like a real Parse export of the `Posts` class (issue 37).

`write_export` writes `{"results":[...]}`, one post a line, as `anywall import` is documented to
take it (docs/usage.md, "Import"): `location` a `GeoPoint`, `user` a `Pointer` to `_User`,
`createdAt` / `updatedAt` ISO 8601 strings, the `ACL` Anywall gives a post (public read, its
author's write), objectIds of ten alphanumerics as Parse makes them. The authors have a long tail
(a few post thousands, most once or twice); 80 % of the posts are around cities, the rest spread,
a quarter of those anywhere between 85 S and 85 N (oceans and the polar seas, far from any city).
Deterministic: the same arguments give the same bytes.
"""

import datetime
import json
import math
import random

# Fifty real city centres (latitude, longitude), all within -60..70 like the spread posts.
# Suva and Auckland sit near the antimeridian, Anchorage and Reykjavik far north, Ushuaia far south.
CITIES = [
    ("Tokyo", 35.6762, 139.6503), ("Delhi", 28.6139, 77.2090), ("Shanghai", 31.2304, 121.4737),
    ("Sao Paulo", -23.5505, -46.6333), ("Mexico City", 19.4326, -99.1332), ("Cairo", 30.0444, 31.2357),
    ("Mumbai", 19.0760, 72.8777), ("Beijing", 39.9042, 116.4074), ("Dhaka", 23.8103, 90.4125),
    ("Osaka", 34.6937, 135.5023), ("New York", 40.7128, -74.0060), ("Karachi", 24.8607, 67.0011),
    ("Buenos Aires", -34.6037, -58.3816), ("Istanbul", 41.0082, 28.9784), ("Kolkata", 22.5726, 88.3639),
    ("Manila", 14.5995, 120.9842), ("Lagos", 6.5244, 3.3792), ("Rio de Janeiro", -22.9068, -43.1729),
    ("Kinshasa", -4.4419, 15.2663), ("Los Angeles", 34.0522, -118.2437), ("Moscow", 55.7558, 37.6173),
    ("Paris", 48.8566, 2.3522), ("Lima", -12.0464, -77.0428), ("Bogota", 4.7110, -74.0721),
    ("London", 51.5074, -0.1278), ("Bangkok", 13.7563, 100.5018), ("Jakarta", -6.2088, 106.8456),
    ("Seoul", 37.5665, 126.9780), ("Tehran", 35.6892, 51.3890), ("Johannesburg", -26.2041, 28.0473),
    ("Nairobi", -1.2921, 36.8219), ("Sydney", -33.8688, 151.2093), ("Melbourne", -37.8136, 144.9631),
    ("Auckland", -36.8485, 174.7633), ("Suva", -18.1416, 178.4419), ("Honolulu", 21.3069, -157.8583),
    ("Anchorage", 61.2181, -149.9003), ("Reykjavik", 64.1466, -21.9426), ("Stockholm", 59.3293, 18.0686),
    ("Berlin", 52.5200, 13.4050), ("Madrid", 40.4168, -3.7038), ("Rome", 41.9028, 12.4964),
    ("Toronto", 43.6532, -79.3832), ("Chicago", 41.8781, -87.6298), ("San Francisco", 37.7749, -122.4194),
    ("Santiago", -33.4489, -70.6693), ("Cape Town", -33.9249, 18.4241), ("Singapore", 1.3521, 103.8198),
    ("Dubai", 25.2048, 55.2708), ("Ushuaia", -54.8019, -68.3030),
]

WORDS = ("free coffee here lost cat found keys great view best tacos in town watch out for the "
         "pothole meet at noon concert tonight parking is full sunset from the pier who left this "
         "umbrella wifi password on the board street market open late quiet spot to read").split()
# What phones add to a post now and then: JSON escapes and characters beyond ASCII.
EXTRAS = ["☕", "🌅", "café", "naïve", "\"quoted\"", "東京", "back\\slash", "100%", "Zürich", "😀👍"]

EARTH_RADIUS_M = 6371000.0  # the sphere every anywall backend measures on
KM_PER_DEGREE = math.pi * EARTH_RADIUS_M / 180 / 1000
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# The authors' share of the posts beyond one each falls as (rank + 100)^-1.5: at 1,000,000 posts
# and 50,000 authors the busiest writes ~4,900, the hundredth ~1,760, and 63 % write once or twice.
ZIPF_EXPONENT = 1.5
ZIPF_OFFSET = 100
# Ids of users are drawn from their own range, so no user shares an objectId with a post.
USER_ID_BASE = 10 ** 12
# Spread posts over the whole earth, out to 85 degrees: a quarter of those not around a city.
REMOTE_SHARE = 0.25


def object_id(index):
    """Ten base-62 characters, unique per index: index times an odd multiplier prime to 62
    is a bijection modulo 62**10, which also scatters neighbouring ids."""
    n = (index * 0x9E3779B97F4A7C15 + 12345) % 62 ** 10
    chars = []
    for _ in range(10):
        n, digit = divmod(n, 62)
        chars.append(ALPHABET[digit])
    return "".join(chars)


def wrap_longitude(lon):
    """A longitude strictly inside (-180, 180), as GeoPoint requires."""
    lon = (lon + 180) % 360 - 180
    return lon if -180 < lon < 180 else 179.999999


def near(rng, lat, lon, sigma_km):
    """A point drawn from a 2-D gaussian of sigma_km around (lat, lon), on a local flat map."""
    lat2 = lat + rng.gauss(0, sigma_km) / KM_PER_DEGREE
    lon2 = lon + rng.gauss(0, sigma_km) / (KM_PER_DEGREE * math.cos(math.radians(lat)))
    return max(-89.999999, min(89.999999, lat2)), wrap_longitude(lon2)


def spread(rng):
    """A point anywhere people live: latitudes 60 S to 70 N."""
    return rng.uniform(-60, 70), wrap_longitude(rng.uniform(-180, 180))


def remote(rng):
    """A point uniform over the sphere between 85 S and 85 N: mostly ocean, some by the poles."""
    bound = math.sin(math.radians(85))
    return math.degrees(math.asin(rng.uniform(-bound, bound))), wrap_longitude(rng.uniform(-180, 180))


def post_counts(posts, authors):
    """Posts per author, busiest first: one each, the rest shared by Zipf-like weights."""
    authors = min(authors, posts)
    weights = [(rank + ZIPF_OFFSET) ** -ZIPF_EXPONENT for rank in range(1, authors + 1)]
    total = sum(weights)
    extra = posts - authors
    counts = [1 + int(extra * w / total) for w in weights]
    for rank in range(posts - sum(counts)):  # what rounding down left, one each to the busiest
        counts[rank] += 1
    return counts


def iso(millis):
    """Parse's date text: UTC, milliseconds, `Z`."""
    moment = datetime.datetime.fromtimestamp(millis / 1000, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


def write_export(path, posts, seed, authors=50_000, city_share=0.8, city_sigma_km=5.0):
    """Writes `posts` posts by `authors` authors (at most one per post) to `path`, in the order
    they were posted over two years from 2025-01-01: cities and elsewhere interleaved."""
    rng = random.Random(seed)
    writers = [rank for rank, count in enumerate(post_counts(posts, authors)) for _ in range(count)]
    rng.shuffle(writers)
    user_ids = {}
    start = int(datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000)
    step = 2 * 365 * 86400 * 1000 // posts
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"results":[\n')
        lines = []
        for i in range(posts):
            if rng.random() < city_share:
                _, clat, clon = CITIES[rng.randrange(len(CITIES))]
                lat, lon = near(rng, clat, clon, city_sigma_km)
            elif rng.random() < REMOTE_SHARE:
                lat, lon = remote(rng)
            else:
                lat, lon = spread(rng)
            words = [rng.choice(WORDS) for _ in range(rng.randint(2, 9))]
            if rng.random() < 0.1:
                words.insert(rng.randrange(len(words) + 1), rng.choice(EXTRAS))
            text = json.dumps(" ".join(words), ensure_ascii=False)
            created = start + i * step + rng.randrange(step)
            updated = created if rng.random() < 0.9 else created + rng.randrange(86400 * 1000)
            writer = writers[i]
            user = user_ids.get(writer) or user_ids.setdefault(writer, object_id(USER_ID_BASE + writer))
            lines.append(
                f'{{"objectId":"{object_id(i)}","text":{text},'
                f'"location":{{"__type":"GeoPoint","latitude":{lat!r},"longitude":{lon!r}}},'
                f'"user":{{"__type":"Pointer","className":"_User","objectId":"{user}"}},'
                f'"createdAt":"{iso(created)}","updatedAt":"{iso(updated)}",'
                f'"ACL":{{"*":{{"read":true}},"{user}":{{"read":true,"write":true}}}}}}'
                + (",\n" if i + 1 < posts else "\n"))
            if len(lines) == 10_000:
                out.writelines(lines)
                lines.clear()
        out.writelines(lines)
        out.write("]}\n")
