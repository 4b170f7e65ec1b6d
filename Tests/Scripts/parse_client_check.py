"""Drives a running anywall-server with parse-client (PyPI, 0.1.2), a Parse REST client
nobody here wrote: sign up, log in, save posts with fields of their own and ACLs, query with
constraints, batch save, count, delete; make a role with the master key, add a user to it, and
read a post whose ACL names the role as that user and not as another; increment a field.
With --anonymous instead: sign up anonymously (authData.anonymous, the library's login_auth), log
in again with the same id, post, and convert the account with a password, keeping its posts.
PARSE_API_ROOT (the server's URL), PARSE_APP_ID, PARSE_REST_KEY and PARSE_MASTER_KEY come from
the environment, as the library reads its root URL from it.
Prints one line per check and 'N passed, N failed'; exits 1 when any failed."""
import datetime
import os
import sys
import uuid

from parse_client.connection import MasterKey, ParseBatcher, SessionToken, register
from parse_client.core import ResourceRequestNotFound
from parse_client.datatypes import ACL, GeoPoint, Object
from parse_client.role import Role
from parse_client.user import User


class Posts(Object):
    pass


results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))


def texts(query):
    return sorted(post.text for post in query)


def main():
    register(os.environ["PARSE_APP_ID"], os.environ["PARSE_REST_KEY"])
    alice = User.signup("alice", "pw-alice", name="Alice")
    check("sign up gives a session", bool(alice.sessionToken), vars(alice))
    bob = User.signup("bob", "pw-bob")
    again = User.login("alice", "pw-alice")
    check("log in gives alice another session", again.objectId == alice.objectId and again.sessionToken != alice.sessionToken)

    with SessionToken(alice.sessionToken):
        coffee = Posts(text="Free coffee", location=GeoPoint(37.7793, -122.4193), mood="happy", points=5,
                       when=datetime.datetime(2024, 1, 1, 10, 0, tzinfo=datetime.timezone.utc))
        coffee.ACL = ACL({"*": {"read": True}, alice.objectId: {"read": True, "write": True}})
        coffee.save()
        check("a post with fields of its own and an ACL is saved", bool(coffee.objectId))
        secret = Posts(text="Only mine", location=GeoPoint(37.78, -122.42), mood="shy", points=1)
        secret.ACL = ACL({alice.objectId: {"read": True, "write": True}})
        secret.save()
        batch = [Posts(text=f"Batch {i}", location=GeoPoint(37.77 + i / 1000, -122.41), mood="calm", points=i) for i in range(3)]
        ParseBatcher().batch_save(batch)
        check("a batch save gives every post an objectId", all(post.objectId for post in batch), [vars(p) for p in batch])

    fetched = Posts.Query.get(objectId=coffee.objectId)
    check("fields of its own come back typed", fetched.mood == "happy" and fetched.points == 5 and fetched.when.year == 2024,
          vars(fetched))
    check("equality on a field of its own", texts(Posts.Query.filter(mood="happy")) == ["Free coffee"])
    check("$gte and order", [p.text for p in Posts.Query.filter(points__gte=1).order_by("points", descending=True)]
          == ["Free coffee", "Batch 2", "Batch 1"])
    check("$in", texts(Posts.Query.filter(mood__in=["calm", "happy"])) == ["Batch 0", "Batch 1", "Batch 2", "Free coffee"])
    check("$ne", texts(Posts.Query.filter(mood__ne="calm")) == ["Free coffee"])
    check("$regex", texts(Posts.Query.filter(text__regex="^Batch [12]")) == ["Batch 1", "Batch 2"])
    check("$exists", len(Posts.Query.filter(when__exists=True)) == 1)
    check("count with a constraint", Posts.Query.filter(mood="calm").count() == 3)
    near = Posts.Query.filter(location__nearSphere=GeoPoint(37.7793, -122.4193)).limit(2)
    check("$nearSphere with limit", [p.text for p in near] == ["Free coffee", "Batch 2"], [p.text for p in near])
    check("a post only its author reads is hidden from others", "Only mine" not in texts(Posts.Query.all()))
    with SessionToken(bob.sessionToken):
        check("... and from another user", "Only mine" not in texts(Posts.Query.all()))
        try:
            coffee.text = "Bob was here"
            coffee.save()
            check("another user cannot change a post its ACL keeps from him", False, "saved")
        except ResourceRequestNotFound:
            check("another user cannot change a post its ACL keeps from him", True)
    with SessionToken(alice.sessionToken):
        check("its author sees it", "Only mine" in texts(Posts.Query.all()))
        coffee.text = "Free coffee, all day"
        coffee.save()
        check("its author changes it", Posts.Query.get(objectId=coffee.objectId).text == "Free coffee, all day")
        ParseBatcher().batch_delete(batch)
        secret.delete()
        coffee.delete()
        check("deleted, singly and by batch", len(Posts.Query.all()) == 0)

    carol = User.signup("carol", "pw-carol")
    with MasterKey(os.environ["PARSE_MASTER_KEY"]):
        moderators = Role(name="moderators", ACL=ACL({"*": {"read": True}}))
        moderators.save()
        check("a role is made with the master key", bool(moderators.objectId))
        # Read back, the role has its users relation, as Parse returns it.
        moderators = Role.Query.get(objectId=moderators.objectId)
        moderators.relation("users").add(bob)
    # (The library's $relatedTo sends the role's fields instead of a Pointer, so it is not asked
    # here: Tests/AnywallServerTests/ServerRoleTests.swift asks it.)
    with SessionToken(alice.sessionToken):
        guarded = Posts(text="For moderators", location=GeoPoint(37.7793, -122.4193))
        guarded.ACL = ACL({alice.objectId: {"read": True, "write": True}, "role:moderators": {"read": True}})
        guarded.save()
        counted = Posts(text="Counted", location=GeoPoint(37.7793, -122.4193), points=1)
        counted.save()
        counted.increment("points", 2)
        check("Increment moves a counter on the server", Posts.Query.get(objectId=counted.objectId).points == 3)
    with SessionToken(bob.sessionToken):
        check("a user holding the role reads the post its ACL gives the role", "For moderators" in texts(Posts.Query.all()))
    with SessionToken(carol.sessionToken):
        check("... and another user does not", "For moderators" not in texts(Posts.Query.all()))

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


def anonymous():
    register(os.environ["PARSE_APP_ID"], os.environ["PARSE_REST_KEY"])
    device = str(uuid.uuid4())
    user = User.login_auth({"anonymous": {"id": device}})
    check("an anonymous sign-up gives a session and a drawn username",
          bool(user.sessionToken) and len(getattr(user, "username", "")) == 25, vars(user))
    again = User.login_auth({"anonymous": {"id": device}})
    check("the same anonymous id logs in to the same account",
          again.objectId == user.objectId and again.sessionToken != user.sessionToken, vars(again))
    with SessionToken(user.sessionToken):
        post = Posts(text="Hello from nobody", location=GeoPoint(37.7793, -122.4193))
        post.save()
    check("an anonymous account posts", bool(post.objectId))
    user.password = "pw-converted"
    user.save()
    converted = User.login(user.username, "pw-converted")
    check("a password converts the account, keeping its objectId", converted.objectId == user.objectId, vars(converted))
    check("its post stays its own", Posts.Query.get(objectId=post.objectId).user.objectId == user.objectId)
    stranger = User.login_auth({"anonymous": {"id": device}})
    check("the anonymous id no longer reaches the converted account", stranger.objectId != user.objectId)
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(anonymous() if "--anonymous" in sys.argv[1:] else main())
