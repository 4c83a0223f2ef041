#!/usr/bin/env bash
# Readies this machine for the whole test suite; `npm run test:all` runs it first (and so .ci/run). Debian's
# Chromium (the browser suite, rendered mode, report PDFs), its Noto fonts (PDFs print titles in any script as
# text, not boxes) and poppler's pdftotext (the PDF tests read PDFs back) are installed with apt-get when missing:
# as root, else it names the command to run and fails. The machine's PostgreSQL and Redis, which the suites talk
# to, are started when installed but stopped; when one does not answer, it says what the suites expect and fails.
set -euo pipefail

packages=(chromium fonts-noto-core fonts-noto-cjk poppler-utils)
missing=()
if command -v dpkg-query > /dev/null; then
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "ok installed" || missing+=("$package")
  done
else
  echo "Not a Debian system (no dpkg-query): the suites need ${packages[*]} or their equivalents." >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "The test suite needs Debian packages that are not installed: ${missing[*]}. As root, run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing ${missing[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi

# PostgreSQL at 127.0.0.1:5432, unless the suites are pointed at another server.
if [ -z "${PAGEGRADE_TEST_POSTGRES_URL:-}" ] && ! pg_isready -h 127.0.0.1 -p 5432 -q 2> /dev/null; then
  if command -v pg_ctlcluster > /dev/null && [ -d /etc/postgresql ]; then
    for version in /etc/postgresql/*/; do
      pg_ctlcluster --skip-systemctl-redirect "$(basename "$version")" main start || true
    done
  fi
  if ! pg_isready -h 127.0.0.1 -p 5432 -t 10 -q 2> /dev/null; then
    echo "PostgreSQL does not answer at 127.0.0.1:5432. The suites use postgres://postgres@127.0.0.1:5432/test" >&2
    echo "(install it with apt-get install postgresql, or set PAGEGRADE_TEST_POSTGRES_URL to another server)." >&2
    exit 1
  fi
fi

# Redis at 127.0.0.1:6379, unless the suites are pointed at another server; started without persistence.
if [ -z "${PAGEGRADE_TEST_REDIS_URL:-}" ] && ! redis-cli -h 127.0.0.1 -p 6379 ping > /dev/null 2>&1; then
  if command -v redis-server > /dev/null; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no > /dev/null
    for _ in $(seq 50); do
      redis-cli -h 127.0.0.1 -p 6379 ping > /dev/null 2>&1 && break
      sleep 0.1
    done
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping > /dev/null 2>&1; then
    echo "Redis does not answer at 127.0.0.1:6379 (install it with apt-get install redis-server, or set" >&2
    echo "PAGEGRADE_TEST_REDIS_URL to another server)." >&2
    exit 1
  fi
fi
echo "Test dependencies ready: ${packages[*]}, PostgreSQL and Redis."
