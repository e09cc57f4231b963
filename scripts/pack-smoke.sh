#!/usr/bin/env bash
# Pack-install smoke test: the package a user would install, used the way a user would use it.
#
#   npm pack -> an empty project -> npm install <tarball> -> assay --version, doctor, lab extract, report
#   generate, serve (GET /healthz)
#
# Everything runs from the temporary project, so nothing can be read from this repository's src/ or
# node_modules/: a file the package reads at run time but does not ship fails here. Only the npm registry is
# needed (no GitHub, no nodejs.org): better-sqlite3 compiles from source when its prebuilt binary cannot be
# downloaded, against this Node's own headers. Any failed step stops the script with its output and exit 1.
#
# Usage: bash scripts/pack-smoke.sh   (KEEP=1 keeps the temporary folder for a look afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

work=$(mktemp -d "${TMPDIR:-/tmp}/assay-pack-smoke.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ "${KEEP:-}" = 1 ]; then echo "pack-smoke: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

step() { printf '\n== pack-smoke: %s\n' "$*" >&2; }
fail() {
  printf '\npack-smoke FAILED: %s\n' "$1" >&2
  local f
  for f in "${2:-}" "${2:-}.err"; do
    if [ -n "$f" ] && [ -s "$f" ]; then
      echo "---- $f ----" >&2
      tail -n 60 "$f" >&2
    fi
  done
  exit 1
}
# run OUT CMD...: run a command, its stdout in OUT and its stderr in OUT.err; on failure show both and stop.
run() {
  local out=$1
  shift
  "$@" >"$out" 2>"$out.err" || fail "$* (exit $?)" "$out"
}
# check LOG JS: evaluate JS with `out` = the JSON printed in LOG; a false result fails the step.
check() {
  node -e '
    const fs = require("node:fs");
    const out = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    if (!(0, eval)("(out) => " + process.argv[2])(out)) process.exit(1);
  ' "$1" "$2" || fail "unexpected output, wanted: $2" "$1"
}

version=$(node -p 'require("./package.json").version')

# better-sqlite3 builds with node-gyp when no prebuilt binary can be fetched; point it at this Node's
# headers so it needs no download either (official Node builds and distro packages both ship them).
if [ -z "${npm_config_nodedir:-}" ]; then
  node_prefix=$(node -p 'require("node:path").resolve(process.execPath, "../..")')
  if [ -f "$node_prefix/include/node/node_api.h" ]; then export npm_config_nodedir=$node_prefix; fi
fi

step "npm pack ($(npm --version), node $(node --version))"
run "$work/pack.log" npm pack --pack-destination "$work"
shopt -s nullglob
tarballs=("$work"/assay-*.tgz)
shopt -u nullglob
[ ${#tarballs[@]} -eq 1 ] || fail "expected one tarball in $work, found ${#tarballs[@]}" "$work/pack.log"
tgz=$(cd "$work" && pwd -P)/$(basename "${tarballs[0]}")
tar -tzf "$tgz" >"$work/contents.txt"
for f in package/bin/run.js package/oclif.manifest.json package/dist/commands/doctor.js \
  package/src/engine/sqlite/migrations/0001_jobs.sql package/data/refdata/concepts.json \
  package/docs/formats.md; do
  grep -qx "$f" "$work/contents.txt" || fail "the tarball lacks $f" "$work/contents.txt"
done
! grep -q '\.tsbuildinfo$' "$work/contents.txt" || fail "the tarball ships the TypeScript build cache"
echo "$(basename "$tgz"): $(wc -l <"$work/contents.txt") files" >&2

step "npm install the tarball into an empty project"
consumer=$work/consumer
mkdir "$consumer"
# What a user writes: better-sqlite3 may build its native module. assay itself has no install script (it
# is built by `prepack`, so the tarball holds dist/): --strict-allow-scripts makes any dependency with an
# unapproved install script fail the install, assay included, as npm will by default.
node -e '
  const manifest = {
    name: "assay-pack-smoke",
    version: "0.0.0",
    private: true,
    allowScripts: { "better-sqlite3": true },
  };
  require("node:fs").writeFileSync(process.argv[1], `${JSON.stringify(manifest, null, 2)}\n`);
' "$consumer/package.json"
(cd "$consumer" && run "$work/install.log" npm install --no-audit --no-fund --strict-allow-scripts "$tgz")
[ -f "$consumer/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] ||
  fail "better-sqlite3's native module was not built" "$work/install.log"

cd "$consumer"
export ASSAY_HOME=$work/home
export NO_COLOR=1

step "npx assay --version"
run "$work/version.log" npx --no -- assay --version
grep -q "^assay/$version " "$work/version.log" || fail "expected assay/$version" "$work/version.log"
cat "$work/version.log" >&2

step "npx assay doctor --json (runtime, store and data; OCR tools may be absent here)"
npx --no -- assay doctor --json >"$work/doctor.json" 2>"$work/doctor.json.err" || true
check "$work/doctor.json" '["node","sqlite","home","store","reference data"].every((name) => out.checks.find((c) => c.check === name)?.status === "ok")'

step "npx assay lab extract <fixture> --json"
run "$work/extract.json" npx --no -- assay lab extract "$repo/fixtures/labs/quest-cmp-lipid.pdf" --json
check "$work/extract.json" 'out.files.length === 1 && out.files[0].result.status === "completed" && out.files[0].result.panels.length > 0'

step "npx assay report generate <fixture> --out <tmp>"
run "$work/report.log" npx --no -- assay report generate "$repo/fixtures/reports/full-no-destination.json" \
  --out "$work/reports"
pdf=$work/reports/full-no-destination.pdf
[ -s "$pdf" ] || fail "no PDF at $pdf" "$work/report.log"
[ "$(head -c 5 "$pdf")" = "%PDF-" ] || fail "$pdf is not a PDF" "$work/report.log"

step "assay serve: GET /healthz, then SIGTERM"
port=$(node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
# The bin itself (not npx) so the process signalled is the server.
"$consumer/node_modules/.bin/assay" serve --host 127.0.0.1 --port "$port" --log-level warn >"$work/serve.log" 2>"$work/serve.log.err" &
server_pid=$!
healthy=""
for _ in $(seq 1 120); do
  kill -0 "$server_pid" 2>/dev/null || fail "assay serve exited before answering" "$work/serve.log"
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz"; then
    healthy=1
    break
  fi
  sleep 0.5
done
[ -n "$healthy" ] || fail "GET /healthz did not answer 200 within 60 s" "$work/serve.log"
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
[ "$status" -eq 0 ] || fail "assay serve exited $status after SIGTERM" "$work/serve.log"

printf '\npack-smoke: ok (%s installed from %s)\n' "assay@$version" "$(basename "$tgz")" >&2
