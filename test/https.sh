#!/usr/bin/env bash
# Makes a local CA and a certificate for www.thesportsdb.com and r2.thesportsdb.com with the
# openssl commands of docs/DEPLOY.md, starts sportsdb with --tls-cert/--tls-key on a new demo
# database, and asks it as those hosts with curl, trusting only that CA (--resolve stands
# for the DNS override): each answer must come over HTTP/2.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVE_DEMO=0 . test/serve-demo.sh

pki="$tmp/pki"
mkdir "$pki"
(
  cd "$pki"
  # The commands of docs/DEPLOY.md, "HTTPS as www.thesportsdb.com".
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=sportsdb local CA" \
    -keyout ca.key -out ca.pem 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=www.thesportsdb.com" \
    -keyout sportsdb.key -out sportsdb.csr 2>/dev/null
  printf 'subjectAltName=DNS:www.thesportsdb.com,DNS:r2.thesportsdb.com,DNS:thesportsdb.com\nextendedKeyUsage=serverAuth\n' >sportsdb.ext
  openssl x509 -req -in sportsdb.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 825 \
    -extfile sportsdb.ext -out sportsdb.pem 2>/dev/null
)

serve_db "$tmp/demo.db" --tls-cert "$pki/sportsdb.pem" --tls-key "$pki/sportsdb.key"
port=${url##*:}
echo "sportsdb at $url"

for host in www.thesportsdb.com r2.thesportsdb.com; do
  out=$(curl -sS --fail --http2 --resolve "$host:$port:127.0.0.1" --cacert "$pki/ca.pem" \
    -w '\n%{http_version}' "https://$host:$port/api/v1/json/123/all_sports.php")
  version=${out##*$'\n'}
  body=${out%$'\n'*}
  case "$body" in
  '{"sports":['*) ;;
  *) echo "$host: unexpected answer: ${body:0:200}"; exit 1 ;;
  esac
  [ "$version" = 2 ] || { echo "$host: HTTP/$version, want HTTP/2"; exit 1; }
  echo "$host: HTTP/$version, all_sports.php answered"
done

# A client that does not trust the CA is refused.
if curl -sS --resolve "www.thesportsdb.com:$port:127.0.0.1" "https://www.thesportsdb.com:$port/api/v1/json/123/all_sports.php" >/dev/null 2>"$tmp/err"; then
  echo "a client without the CA was answered"; exit 1
fi
echo "a client without the CA: refused ($(head -c 80 "$tmp/err"))"
