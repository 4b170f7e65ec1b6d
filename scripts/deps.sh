# Sourced by scripts/quickstart and scripts/test: installs what anywall needs on Debian.
# Only what is missing is installed; `apt-get update` runs first when something is.

# gpsfake (gpsd-clients) runs on Debian's python3 and needs its gps module and distutils.
APT_PACKAGES=(libsqlite3-dev sqlite3 libcurl4-openssl-dev libgeos-dev libsimdjson-dev gpsd gpsd-clients python3-gps python3-distutils
  python3 python3-pip)

# What only the tests use beyond that: PostgreSQL with PostGIS (anywall-server's second store).
TEST_APT_PACKAGES=(postgresql postgresql-15-postgis-3 tmux)

install_apt_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Python libraries the tests use as independent references.
install_python_packages() {
  local missing=()
  for pkg in "$@"; do
    python3 -c "import $pkg" 2>/dev/null || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  python3 -m pip install -q "${missing[@]}" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "${missing[@]}"
}
