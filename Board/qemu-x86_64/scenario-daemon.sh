# Daemon scenario: buoy holds the display with its control socket; an operator's `buoy fetch`
# downloads through it from a throttled server in the guest while a second client polls the
# status; the host takes screendumps as the water rises.
ifconfig lo 127.0.0.1 up
buoy serve --port 8080 --bytes 2400000 --rate 400000 > /tmp/serve.txt &
for i in $(seq 1 100); do [ -s /tmp/serve.txt ] && break; sleep 0.1; done
sum=$(sed -n 's/.*sha256=//p' /tmp/serve.txt)
# Socket clients' fetches land in the daemon's download directory.
mkdir -p /tmp/downloads
buoy run --socket /tmp/buoy.sock --download-dir /tmp/downloads --display drm --on-complete hold --trace /tmp/daemon.jsonl &
daemon=$!
for i in $(seq 1 600); do [ -S /tmp/buoy.sock ] && [ -s /tmp/daemon.jsonl ] && break; sleep 0.1; done
echo "BOARD: daemon ready"
buoy fetch http://127.0.0.1:8080/payload.bin -o payload.bin --sha256 "$sum" --socket /tmp/buoy.sock --json > /tmp/fetch.jsonl &
fetch=$!
sleep 1
echo "BOARD: status $(buoy status --socket /tmp/buoy.sock)"
echo "BOARD: rising-1"
sleep 2
echo "BOARD: status $(buoy status --socket /tmp/buoy.sock)"
echo "BOARD: rising-2"
wait $fetch
echo "BOARD: fetch exit $? events $(wc -l < /tmp/fetch.jsonl) last $(tail -n 1 /tmp/fetch.jsonl)"
echo "BOARD: states $(sed -n 's/.*"state":"\([a-z]*\)".*/\1/p' /tmp/daemon.jsonl | uniq | tr '\n' ' ')"
# The held screen after done: CPU ticks (utime + stime, /proc/PID/stat fields 14 and 15) and
# page flips (trace lines) over 10 s.
for i in $(seq 1 100); do tail -n 1 /tmp/daemon.jsonl | grep -q '"state":"done"' && break; sleep 0.1; done
sleep 1
cpu() { sed 's/.*) //' /proc/$daemon/stat | awk '{ print $12 + $13 }'; }
t1=$(cpu); f1=$(wc -l < /tmp/daemon.jsonl)
sleep 10
t2=$(cpu); f2=$(wc -l < /tmp/daemon.jsonl)
echo "BOARD: held cpu $t1 $t2 frames $f1 $f2"
kill -TERM $daemon; wait $daemon
echo "BOARD: end"
