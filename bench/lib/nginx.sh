#!/usr/bin/env bash
# bench/lib/nginx.sh: nginx for the benchmarks that measure sportsdb beside nginx serving the
# same answers as static files. Sourced by bench/run.sh and bench/images.sh:
#
#   nginx_install        installs nginx from Debian if it is missing
#   nginx_start ...      writes an nginx.conf of its own, checks it, starts nginx, waits for it
#
# The functions use the sourcing script's say, BIN (where loadgen is) and PIDS (the processes
# it stops at exit), and run under its set -euo pipefail.

# nginx_install: nginx from Debian when neither the PATH nor /usr/sbin has it: apt-get update
# first, then nginx-light, or nginx if that fails; through sudo unless root.
nginx_install() {
	if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then
		return
	fi
	say "installing nginx from Debian"
	local sudo=()
	[[ $(id -u) == 0 ]] || sudo=(sudo)
	"${sudo[@]}" apt-get update >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends nginx-light >&2 ||
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends nginx >&2
}

# nginx_start DIR ADDR ROOT LOG TYPE URL [DIRECTIVE...]: nginx as a child of the script
# (daemon off), its config, pid, logs and temporary files in DIR, listening on ADDR and
# serving the files under ROOT; LOG is the access log's file or off, TYPE the default_type,
# and each DIRECTIVE one more line of the server block. Waits until URL answers (30 s at
# most); sets NGINX_PID and adds it to PIDS.
nginx_start() {
	local dir=$1 addr=$2 root=$3 log=$4 type=$5 url=$6 conf=$1/nginx.conf user="" d nginx
	shift 6
	mkdir -p "$dir/tmp"
	# As root nginx would hand its workers to nobody, who may not read the data folder.
	[[ $(id -u) == 0 ]] && user="user $(id -un) $(id -gn);"
	{
		cat <<EOF
$user
worker_processes auto;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
	access_log $log;
	client_body_temp_path $dir/tmp/body;
	proxy_temp_path $dir/tmp/proxy;
	fastcgi_temp_path $dir/tmp/fastcgi;
	uwsgi_temp_path $dir/tmp/uwsgi;
	scgi_temp_path $dir/tmp/scgi;
	default_type $type;
	sendfile on;
	keepalive_timeout 120s;
	keepalive_requests 1000000;
	server {
		listen $addr;
		root $root;
EOF
		for d in "$@"; do
			printf '\t\t%s\n' "$d"
		done
		cat <<'EOF'
		location / { try_files $uri =404; }
	}
}
EOF
	} >"$conf"
	nginx=$(command -v nginx || echo /usr/sbin/nginx)
	"$nginx" -e "$dir/error.log" -p "$dir" -c "$conf" -t 2>"$dir/check.log" || {
		cat "$dir/check.log" >&2
		return 1
	}
	"$nginx" -e "$dir/error.log" -p "$dir" -c "$conf" &
	NGINX_PID=$!
	PIDS+=("$NGINX_PID")
	"$BIN/loadgen" wait -url "$url" -since "$(date +%s%N)" -timeout 30s >/dev/null
}
