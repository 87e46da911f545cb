#!/usr/bin/env bash
# Runs configs/slurm-ci.yaml through a real Slurm and checks that the
# gathered results equal a local run's (issue 18).
#
# Installs Debian's Slurm and munge (apt-get, as root), starts a
# single-node cluster on 127.0.0.1 (munged, slurmctld, slurmd, by hand: no
# systemd needed; settings from ../shared/notes/slurm-single-node.md),
# submits the config with 'repro slurm', waits for the arrays, deletes one
# stored unit and checks that resubmitting submits only what is missing,
# gathers with 'repro slurm --collect', compares with 'repro run' of the
# same config, and shuts everything it started down (scancel first).
#
# Without root or apt-get it says so and exits 0, unless
# REPRO_SLURM_CI=require (as .ci/run sets), when that is a failure.
# Env: SLURM_CI_DIR (work directory; default a new one under /tmp),
# SLURM_CI_PORT (slurmctld's port; slurmd uses the next one).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

skip() {
  if [ "${REPRO_SLURM_CI:-}" = require ]; then
    echo "slurm-ci: FAIL: $* (REPRO_SLURM_CI=require)" >&2; exit 1
  fi
  echo "slurm-ci: SKIP: $*" >&2; exit 0
}
[ "$(id -u)" -eq 0 ] || skip "needs root to install and run slurmd (running as uid $(id -u))"
command -v apt-get >/dev/null || skip "needs apt-get to install slurm-wlm and munge (not a Debian system)"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(now)
W=${SLURM_CI_DIR:-$(mktemp -d /tmp/repro-slurm-ci.XXXXXX)}
mkdir -p "$W"
port=${SLURM_CI_PORT:-6817}
export SLURM_CONF="$W/etc/slurm.conf"   # daemons and clients: no /etc/slurm needed
started_munged=""

down() {
  set +e
  if [ -s "$W/slurmctld.pid" ] || [ -s "$W/slurmd.pid" ]; then
    # Running jobs survive 'scontrol shutdown' (slurmstepd is detached).
    scancel --partition=ci 2>/dev/null
    for _ in $(seq 30); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 1; done
    pids=""
    for f in "$W/slurmctld.pid" "$W/slurmd.pid"; do [ -s "$f" ] && pids="$pids $(cat "$f")"; done
    scontrol shutdown >/dev/null 2>&1
    for p in $pids; do
      for _ in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
      kill "$p" 2>/dev/null   # still there after 15 s
    done
  fi
  if [ -n "$started_munged" ]; then
    kill "$started_munged" 2>/dev/null
    for _ in $(seq 30); do kill -0 "$started_munged" 2>/dev/null || break; sleep 0.5; done
  fi
  echo "slurm-ci: daemons stopped; logs and results in $W" >&2
}
trap down EXIT

# --- install -------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || skip "apt-get update failed"
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null ||
    skip "apt-get install slurmctld slurmd slurm-client munge failed"
fi
echo "slurm-ci: slurm $(dpkg-query -W -f '${Version}' slurm-client), munge $(dpkg-query -W -f '${Version}' munge); installed after $(since "$t0") s" >&2

# --- munge ---------------------------------------------------------------
if [ ! -s /etc/munge/munge.key ]; then   # Debian's postinst normally creates it
  mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then   # not already running (e.g. by systemd)
  install -d -o munge -g munge -m 0755 /run/munge
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 20); do [ -s /run/munge/munged.pid ] && break; sleep 0.25; done
  started_munged=$(cat /run/munge/munged.pid)
fi
for _ in $(seq 20); do munge -n | unmunge >/dev/null 2>&1 && break; sleep 0.5; done
munge -n | unmunge >/dev/null

# --- slurm.conf: one node, one partition, everything on loopback --------
rm -rf "$W/state" "$W/spool" "$W/out-slurm" "$W/out-local"   # a reused SLURM_CI_DIR starts afresh
mkdir -p "$W/etc" "$W/state" "$W/spool" "$W/log"
hw=$(slurmd -C | head -n1 | sed 's/^NodeName=[^ ]* //')   # CPUs, sockets, cores, RealMemory as slurmd sees them
cat > "$SLURM_CONF" <<EOF
ClusterName=reproci
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/usr/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd 22.05 always loads a cgroup plugin; cgroup/v1 does nothing when no
# other plugin uses cgroups, so the machine's cgroup layout does not matter.
echo 'CgroupPlugin=cgroup/v1' > "$W/etc/cgroup.conf"

t_daemons=$(now)
slurmctld
slurmd -N localhost
for _ in $(seq 60); do
  [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ] && break
  sleep 0.5
done
if [ "$(sinfo -h -n localhost -o %t)" != idle ]; then
  sinfo -R; tail -n 30 "$W/log/slurmctld.log" "$W/log/slurmd.log"; exit 1
fi
echo "slurm-ci: node idle $(since "$t_daemons") s after starting the daemons ($(since "$t0") s in all)" >&2

# --- build (static, as on a cluster) -------------------------------------
export GOFLAGS=${GOFLAGS:--buildvcs=false}
CGO_ENABLED=0 go build -o "$W/bin/repro" ./cmd/repro
repro="$W/bin/repro"
cfg="$repo/configs/slurm-ci.yaml"
out="$W/out-slurm"

# wait_jobs ID...: until none of the jobs is in the queue (5 min at most).
wait_jobs() {
  local ids; ids=$(echo "$*" | tr ' ' ,)
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  echo "slurm-ci: jobs $ids still queued after 5 minutes:" >&2; squeue; return 1
}

# --- submit, wait --------------------------------------------------------
t_submit=$(now)
"$repro" slurm --out "$out" --partition ci --max-parallel 2 --time 10:00 --mem 256M "$cfg" > "$W/submit1.txt"
cat "$W/submit1.txt"
[ "$(awk '{print $1}' "$W/submit1.txt" | tr '\n' ' ')" = "validate test " ] ||
  { echo "slurm-ci: expected a validation and a test array" >&2; exit 1; }
# shellcheck disable=SC2046
wait_jobs $(awk '{print $2}' "$W/submit1.txt")
echo "slurm-ci: both arrays (12 units) finished $(since "$t_submit") s after submission" >&2
ls "$out"/slurm/logs/
units=$(find "$out/units" -name '*.json' | wc -l)
[ "$units" -eq 14 ] || { echo "slurm-ci: $units unit files in the store, want 14 (12 planned + 2 grid extensions)" >&2; tail -n 5 "$out"/slurm/logs/*; exit 1; }

# --- resubmit: nothing, then only what is missing ------------------------
"$repro" slurm --out "$out" --partition ci "$cfg" > "$W/submit2.txt"
[ ! -s "$W/submit2.txt" ] || { echo "slurm-ci: a complete store was submitted again:" >&2; cat "$W/submit2.txt" >&2; exit 1; }
key=$(head -n1 "$out/plan.jsonl" | sed -E 's/.*"key":"([0-9a-f]+)".*/\1/')
rm "$out/units/$key.json"   # plan unit 0: a validation unit, so its group's test unit goes too
t_resubmit=$(now)
"$repro" slurm --out "$out" --partition ci "$cfg" > "$W/submit3.txt"
cat "$W/submit3.txt"
[ "$(awk '{print $1}' "$W/submit3.txt" | tr '\n' ' ')" = "validate test " ] &&
  grep -qx '#SBATCH --array=0' "$out/slurm/validate.sbatch" &&
  [ "$(grep -c '^#SBATCH --array=[0-9]*$' "$out/slurm/test.sbatch")" -eq 1 ] ||
  { echo "slurm-ci: resubmission did not submit exactly unit 0 and its test unit" >&2; cat "$out"/slurm/*.sbatch >&2; exit 1; }
# shellcheck disable=SC2046
wait_jobs $(awk '{print $2}' "$W/submit3.txt")
echo "slurm-ci: resubmitted 2 units, finished $(since "$t_resubmit") s after submission" >&2

# --- gather, compare with a local run -----------------------------------
"$repro" slurm --collect --out "$out" "$cfg" > /dev/null
"$repro" run --quiet --workers 2 --out "$W/out-local" "$cfg" > /dev/null
no_times_jsonl() { sed -E 's/"(train_seconds|cpu_seconds|peak_mib)":[-0-9.eE+]+,?//g' "$1"; }
no_cost_table() { sed '/^Training cost/,$d' "$1"; }
no_cost_html() { sed '/Training cost/,/<\/table>/d' "$1"; }
# drops the train_seconds and cpu_seconds columns, found by name in the header
no_time_csv() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "train_seconds" || $i == "cpu_seconds") drop[i] = 1 }
    { out = ""; n = 0; for (i = 1; i <= NF; i++) if (!(i in drop)) { out = (n++ ? out OFS : "") $i }; print out }' "$1"
}
fail=0
for f in config.yaml report.json table.tex; do
  cmp "$W/out-local/$f" "$out/$f" || fail=1
done
for pair in runs.jsonl:no_times_jsonl table.txt:no_cost_table table.md:no_cost_table index.html:no_cost_html table.csv:no_time_csv; do
  f=${pair%%:*} strip=${pair#*:}
  diff <($strip "$W/out-local/$f") <($strip "$out/$f") || { echo "slurm-ci: $f differs" >&2; fail=1; }
done
[ "$fail" -eq 0 ] || { echo "slurm-ci: FAIL: collected results differ from the local run's" >&2; exit 1; }
echo "slurm-ci: OK: collected results equal the local run's apart from times ($(since "$t0") s in all)" >&2
