#!/usr/bin/env bash
# Fetches S3Proxy (https://github.com/gaul/s3proxy), a real S3-compatible server, as one jar from
# Maven Central, for the tests of the S3 asset storage. Cached, so only the first run needs mvn.
# On success prints S3PROXY_JAR=<path>.
#
# Env: S3PROXY_HOME_DIR (jar cache, default ~/.cache/notify-s3proxy), S3PROXY_VERSION (2.6.0)
set -euo pipefail
version="${S3PROXY_VERSION:-2.6.0}"
home="${S3PROXY_HOME_DIR:-$HOME/.cache/notify-s3proxy}"
jar="$home/s3proxy-$version-jar-with-dependencies.jar"
die() { echo "s3proxy: $*" >&2; exit 1; }
command -v java >/dev/null || die "java not found on PATH (S3Proxy needs Java 17+)"
if [[ ! -s "$jar" ]]; then
  command -v mvn >/dev/null || die "mvn not found on PATH (needed once to fetch the S3Proxy jar)"
  mkdir -p "$home"
  tmp="$home/tmp.$$"
  rm -rf "$tmp"
  echo "s3proxy: fetching org.gaul:s3proxy:$version into $home" >&2
  mvn -q -B dependency:copy -Dartifact="org.gaul:s3proxy:$version:jar:jar-with-dependencies" -DoutputDirectory="$tmp" \
    >"$home/mvn.log" 2>&1 || { cat "$home/mvn.log" >&2; rm -rf "$tmp"; die "mvn failed to fetch the S3Proxy jar"; }
  mv "$tmp/s3proxy-$version-jar-with-dependencies.jar" "$jar"
  rm -rf "$tmp"
fi
echo "S3PROXY_JAR=$jar"
