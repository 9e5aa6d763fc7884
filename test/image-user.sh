#!/bin/sh
# Proves that the container image's user can create its database, without a container
# engine: the binary runs as the uid the Dockerfile's USER names, in a root-owned folder laid
# out as the Dockerfile lays out /data (owned by that uid when the Dockerfile copies /data
# with --chown to it, root's otherwise, as WORKDIR alone makes it). serve must create the
# demo database there and `sportsdb healthcheck`, run as that user too, must report it
# ready. As a check of the check, the same run in a root-owned /data must fail.
#
# Run as root from the repository root: sh test/image-user.sh
set -eu

[ "$(id -u)" = 0 ] || { echo "image-user: run as root (it switches to the image's uid)" >&2; exit 1; }
command -v setpriv >/dev/null || { echo "image-user: needs setpriv (util-linux)" >&2; exit 1; }

# The image's user: USER UID:GID (numeric, so that a distroless image needs no passwd entry).
user=$(sed -n 's/^USER[[:space:]]\{1,\}\([0-9]\{1,\}\):\([0-9]\{1,\}\)[[:space:]]*$/\1:\2/p' Dockerfile)
[ -n "$user" ] || { echo "image-user: Dockerfile has no numeric USER UID:GID" >&2; exit 1; }
uid=${user%:*} gid=${user#*:}
# /data's owner: the --chown of the COPY that makes /data, if any.
owner=$(sed -n 's/^COPY.*--chown=\([0-9]\{1,\}:[0-9]\{1,\}\).*[[:space:]]\/data[[:space:]]*$/\1/p' Dockerfile)
owner=${owner:-0:0}

work=$(mktemp -d)
server=
# stop_server ends the server: $! is the shell that runs as_image, so the server itself is
# found by its binary, whose path is this run's own.
stop_server() {
	pkill -f "^$work/bin/sportsdb serve" 2>/dev/null || true
	[ -z "$server" ] || wait "$server" 2>/dev/null || true
	server=
}
cleanup() {
	stop_server
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
mkdir -p "$work/bin"
CGO_ENABLED=0 go build -o "$work/bin/sportsdb" ./cmd/sportsdb
chmod 755 "$work/bin/sportsdb"

# as_image runs a command as the image's user, with only the image's environment.
as_image() {
	dir=$1
	shift
	(cd "$dir" && setpriv --reuid="$uid" --regid="$gid" --clear-groups \
		env -i PATH=/usr/local/bin:/usr/bin:/bin SPORTSDB_ADDR="127.0.0.1:$port" \
		SPORTSDB_DB=sportsdb.db SPORTSDB_LOG_FORMAT=json "$@")
}

# wait_ready waits for the server to answer healthcheck: 0 when it does, 1 when it ended
# first or took two minutes.
wait_ready() {
	tries=0
	until as_image "$root/data" "$work/bin/sportsdb" healthcheck >/dev/null 2>&1; do
		if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 240 ]; then
			stop_server
			return 1
		fi
		tries=$((tries + 1))
		sleep 0.5
	done
}

# try_layout lays out root/data owned by $1 and serves from it; 0 when the database was
# created and the server became ready.
try_layout() {
	root="$work/root-$(echo "$1" | tr : -)"
	mkdir -p "$root/data"
	chown 0:0 "$root"
	chmod 755 "$root"
	chown "$1" "$root/data"
	binds=0
	while :; do
		# Below the system's range of ephemeral ports (32768 and up), so that no client
		# socket holds it; another listener still may, so a taken port is tried again.
		port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 12000 ))
		as_image "$root/data" "$work/bin/sportsdb" serve >"$root/console" 2>&1 &
		server=$!
		if wait_ready; then
			break
		fi
		binds=$((binds + 1))
		if ! grep -q 'address already in use' "$root/console" || [ "$binds" -ge 5 ]; then
			sed 's/^/  | /' "$root/console" >&2
			return 1
		fi
	done
	stop_server
	[ "$(stat -c %u "$root/data/sportsdb.db")" = "$uid" ]
}

if ! try_layout "$owner"; then
	echo "image-user: FAIL: uid $uid could not create its database in /data owned by $owner" >&2
	exit 1
fi
echo "image-user: ok: uid $uid created and served sportsdb.db in /data owned by $owner"

if [ "$owner" != 0:0 ] && try_layout 0:0 2>/dev/null; then
	echo "image-user: FAIL: the check passed in a root-owned /data too, so it proves nothing" >&2
	exit 1
fi
echo "image-user: ok: in a root-owned /data (WORKDIR alone) the same start fails, as it should"
