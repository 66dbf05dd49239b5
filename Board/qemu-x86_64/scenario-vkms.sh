# Pacing scenario on vkms (a 60 Hz vblank timer): animated playback and a held frame at
# 1280x720 and 1920x1080; one summary line per run (a held frame: presented once, then
# no flip; buoy's summary line gives the CPU it took meanwhile). Boat_Loader is 60 fps, so a frame's
# animation frame is 60 × its presentation time (t counts from the same start): "early"
# counts frames seen more than half a refresh before their animation time, "late" the
# refreshes by which the latest one came after it (after the first frame, which has no
# flip to predict from). buoy's own summary line gives CPU per frame.
summarize() {
    awk -v name="$1" -F'"missed":' '
        { split($2, a, "}"); missed += a[1]; n++
          match($0, /"t":[0-9.]+/); t = substr($0, RSTART + 4, RLENGTH - 4); if (n == 1) t0 = t
          match($0, /"frame":[0-9.]+/); f = substr($0, RSTART + 8, RLENGTH - 8)
          if (n > 1) { lag = t * 60 - f; if (lag < -0.5) early++; if (lag > late) late = lag } }
        END { printf "BOARD: pacing %s frames=%d missed=%d first=%.3f seconds=%.3f lastframe=%.2f early=%d late=%.1f\n",
                     name, n, missed, t0, t, f, early, late }' "$2"
    echo "BOARD: cpu $1 $(grep -m1 'presented' /tmp/play.err)"
}
for mode in 1280x720 1920x1080; do
    buoy play /animation.json --display drm --mode "$mode" --duration 4 --trace "/tmp/anim-$mode.jsonl" 2>/tmp/play.err
    summarize "animated-$mode" "/tmp/anim-$mode.jsonl"
    buoy play /animation.json --display drm --mode "$mode" --from-progress 0.25 --to-progress 0.25 --loop --duration 4 \
        --trace "/tmp/held-$mode.jsonl" 2>/tmp/play.err
    summarize "held-$mode" "/tmp/held-$mode.jsonl"
done
# vkms scans out RGB565 too: a 16-bit panel, rotated a quarter turn.
buoy play /animation.json --display drm --pixel-format rgb565 --rotate 90 --duration 2 --trace /tmp/rgb565.jsonl 2>/dev/null
echo "BOARD: rgb565 exit $? frames $(wc -l < /tmp/rgb565.jsonl)"
echo "BOARD: end"
