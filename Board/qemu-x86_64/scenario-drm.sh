# Test scenario: hold one frame on the DRM display, report flips, then stop with SIGTERM.
echo "BOARD: starting buoy"
buoy play /animation.json --display drm --from-progress 0.25 --to-progress 0.25 --loop --trace /tmp/trace.jsonl &
pid=$!
for i in $(seq 1 600); do [ -s /tmp/trace.jsonl ] && break; sleep 0.1; done
echo "BOARD: showing"
sleep 4
echo "BOARD: frames-a $(wc -l < /tmp/trace.jsonl)"
sleep 3
echo "BOARD: frames-b $(wc -l < /tmp/trace.jsonl)"
echo "BOARD: last $(tail -n 1 /tmp/trace.jsonl)"
kill -TERM $pid
wait $pid
echo "BOARD: exit $?"
sleep 4
echo "BOARD: end"
