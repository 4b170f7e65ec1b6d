/// Each command's examples, as its help (and so the man page) shows them after its discussion.
/// This is where examples are written: the README shows one of each, and UsageExamplesTests
/// checks that every one it shows is here.
enum UsageExamples {
    static let `signup` = """
        EXAMPLES:
          # asks for the password twice, without echo
          anywall signup --username alice

          # the password from stdin
          echo "pick a password" | anywall signup --username alice --password-stdin

          # shown as "Bob Lee"; password from a file
          anywall signup --username bob --name "Bob Lee" --password-file bob.pw
        """
    static let `login` = """
        EXAMPLES:
          # asks for the password, without echo
          anywall login --username alice

          # the password from a file
          anywall login --username alice --password-file ~/.anywall-pw
        """
    static let `logout` = """
        EXAMPLES:
          # end the session, on the wall and here
          anywall logout
        """
    static let `whoami` = """
        EXAMPLES:
          # who is logged in, on which wall
          anywall whoami

          # just the username, for a script
          anywall whoami --json | jq -r .username
        """
    static let `post` = """
        EXAMPLES:
          # prints the new objectId
          anywall post "Free coffee at the corner cafe" --at 37.7793,-122.4193

          # the text from stdin
          echo "Road closed at the bridge" | anywall post - --at 37.7835,-122.4140

          # where gpsd puts you; the post as JSON
          anywall post "Bus stop moved to 5th St" --gpsd --json

          # a text that starts with "-"
          anywall post --at 37.7793,-122.4193 -- "-5 degrees, icy"
        """
    static let `nearby` = """
        EXAMPLES:
          # the nearest posts; readable within 2 km
          anywall nearby --at 37.7793,-122.4193 --radius 2km

          # the posts you may read
          anywall nearby --at 37.7793,-122.4193 --json | jq '.[] | select(.visible)'

          # only posts inside an area
          anywall nearby --at 37.7793,-122.4193 --within @mission.geojson

          # a layer for a map
          anywall nearby --at -33.87,151.21 --limit 100 --geojson > sydney.geojson

          # cron: what is new near home
          anywall nearby --at 37.7793,-122.4193 --changes --ndjson

          # stream what changes as you walk
          anywall nearby --watch --gpsd --ndjson

          # a serial GNSS receiver
          anywall nearby --watch --nmea /dev/ttyUSB0 --baud 9600

          # replay a recorded walk
          anywall nearby --watch --nmea track.nmea --radius 50m

          # a server's last answer, offline
          anywall nearby --at 37.7793,-122.4193 --cache-policy cache-only
        """
    static let `where` = """
        EXAMPLES:
          # the fix gpsd gives (localhost:2947)
          anywall where --gpsd --json

          # wait up to 30 s for a first fix
          anywall where --nmea /dev/ttyACM0 --fix-timeout 30

          # the fix the location setting gives
          anywall where
        """
    static let `settings` = """
        EXAMPLES:
          # every setting, its value and where it is from
          anywall settings

          # one setting's value, for a script
          anywall settings show --json | jq -r .settings.units.value

          # filter radius: a distance the config offers
          anywall settings set radius 2000ft

          # distances in feet and miles
          anywall settings set units imperial

          # where you are, when no LOCATION flag says
          anywall settings set location gpsd:pi.local

          # the wall of a Parse Server
          anywall settings set server https://wall.example.org/parse

          # the REST key from stdin, out of shell history
          anywall settings set rest-key - < rest-key.txt

          # back to the embedded wall
          anywall settings unset server

          # back to the default, 1000m
          anywall settings unset radius
        """
    static let `settingsShow` = """
        EXAMPLES:
          # every setting, its value and where it is from
          anywall settings

          # one setting's value, for a script
          anywall settings show --json | jq -r .settings.units.value
        """
    static let `settingsSet` = """
        EXAMPLES:
          # filter radius: a distance the config offers
          anywall settings set radius 2000ft

          # distances in feet and miles
          anywall settings set units imperial

          # where you are, when no LOCATION flag says
          anywall settings set location gpsd:pi.local

          # the wall of a Parse Server
          anywall settings set server https://wall.example.org/parse

          # the REST key from stdin, out of shell history
          anywall settings set rest-key - < rest-key.txt
        """
    static let `settingsUnset` = """
        EXAMPLES:
          # back to the embedded wall
          anywall settings unset server

          # back to the default, 1000m
          anywall settings unset radius
        """
    static let `config` = """
        EXAMPLES:
          # the config in use, and where it is from
          anywall config

          # as Parse's {"params":{...}}, plus its source
          anywall config show --json

          # fetch it now, whatever the cached copy's age
          anywall config refresh

          # longer posts (a server needs its master key)
          anywall config set postMaxCharacterCount 200 --master-key-file master.key

          # the radius choices, in feet
          anywall config set availableFilterDistances '[100, 500, 2000]'

          # once per new Parse Server
          anywall config init --master-key-file master.key

          # from a password manager
          pass show parse/master-key | anywall config init --master-key-stdin
        """
    static let `configShow` = """
        EXAMPLES:
          # the config in use, and where it is from
          anywall config

          # as Parse's {"params":{...}}, plus its source
          anywall config show --json
        """
    static let `configRefresh` = """
        EXAMPLES:
          # fetch it now, whatever the cached copy's age
          anywall config refresh
        """
    static let `configSet` = """
        EXAMPLES:
          # longer posts (a server needs its master key)
          anywall config set postMaxCharacterCount 200 --master-key-file master.key

          # the radius choices, in feet
          anywall config set availableFilterDistances '[100, 500, 2000]'
        """
    static let `configInit` = """
        EXAMPLES:
          # once per new Parse Server
          anywall config init --master-key-file master.key

          # from a password manager
          pass show parse/master-key | anywall config init --master-key-stdin
        """
    static let `import` = """
        EXAMPLES:
          # a Parse export, or NDJSON
          anywall import Posts.json

          # from standard input
          zcat posts.ndjson.gz | anywall import -

          # into another wall file
          anywall import Posts.json --store team.sqlite
        """
    static let `passwd` = """
        EXAMPLES:
          # an imported author's first password
          anywall passwd --username bob

          # the password from stdin
          echo "a new password" | anywall passwd --username bob --password-stdin
        """
}
