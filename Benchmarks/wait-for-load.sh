# Sourced by the scripts that look at a server under the engine's 1:1 load (profile-engine.sh,
# sql-costs.sh). `wait_for_load BENCH LOG HERALD` waits until the bench (pid BENCH, writing LOG)
# has seeded its users and the server (HERALD serve) climbs in CPU — more than 30 clock ticks in
# 0.3 s: the load has begun — and sets SERVER to the server's pid. If the bench dies first, it
# prints the bench's log and exits.
wait_for_load() {
  local bench=$1 log=$2 herald=$3 before after
  until grep -q seeded "$log"; do
    kill -0 "$bench" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.2
  done
  SERVER=$(pgrep -f "^$herald serve" | head -1)
  while :; do
    kill -0 "$bench" 2>/dev/null || { cat "$log"; exit 1; }
    before=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    sleep 0.3
    after=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    [ $((after - before)) -gt 30 ] && break
  done
}
