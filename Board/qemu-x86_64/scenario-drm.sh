# Test scenario: hold one frame on the DRM display, report flips and CPU, then stop with SIGTERM.
echo "BOARD: starting buoy"
buoy play /animation.json --display drm --from-progress 0.25 --to-progress 0.25 --loop --trace /tmp/trace.jsonl &
pid=$!
for i in $(seq 1 600); do [ -s /tmp/trace.jsonl ] && break; sleep 0.1; done
echo "BOARD: showing"
# A second buoy while the first holds DRM master: --display auto must stop with the busy
# card's error (exit 4), not fall back to fbdev.
buoy play /animation.json --display auto --duration 1 2>/tmp/busy.err
echo "BOARD: busy exit $? $(tr '\n' ' ' < /tmp/busy.err)"
sleep 3
# A held picture is presented once, then neither rendered nor flipped: trace lines (one per
# presented frame) and CPU ticks (utime + stime, /proc/PID/stat fields 14 and 15) over 3 s.
cpu() { sed 's/.*) //' /proc/$pid/stat | awk '{ print $12 + $13 }'; }
echo "BOARD: frames-a $(wc -l < /tmp/trace.jsonl) cpu $(cpu)"
sleep 3
echo "BOARD: frames-b $(wc -l < /tmp/trace.jsonl) cpu $(cpu)"
echo "BOARD: last $(tail -n 1 /tmp/trace.jsonl)"
kill -TERM $pid
wait $pid
echo "BOARD: exit $?"
sleep 4
# The legacy path (no atomic) and the framebuffer device, briefly; --display auto picks DRM.
BUOY_DRM_LEGACY=1 buoy play /animation.json --display auto --duration 1 --trace /tmp/legacy.jsonl 2>/tmp/legacy.err
echo "BOARD: legacy exit $? frames $(wc -l < /tmp/legacy.jsonl) $(grep -m1 'playing on' /tmp/legacy.err)"
# bochs and virtio-gpu scan out 32-bit only: asking for RGB565 is a clear error (exit 4).
buoy play /animation.json --display drm --pixel-format rgb565 --duration 1 2>/tmp/rgb565.err
echo "BOARD: rgb565 exit $? $(cat /tmp/rgb565.err)"
if [ -e /dev/fb0 ]; then
    buoy play /animation.json --display fbdev --duration 1 --trace /tmp/fbdev.jsonl
    echo "BOARD: fbdev exit $? frames $(wc -l < /tmp/fbdev.jsonl)"
else
    echo "BOARD: fbdev absent"
fi
echo "BOARD: end"
