# Still-file scenario: `buoy play` of a file with nothing keyframed whose layers enter and leave
# (a background all along; red over 0-100, green over 100-200, blue over 200-300 at 30 fps) on
# the DRM display for 10 s. Between the instants where the shown layers change the picture is
# still: buoy should sleep, not wake every refresh to find nothing to draw.
layer() { # NAME COLOUR IN OUT
    echo '{"ty":1,"nm":"'$1'","sc":"'$2'","sw":400,"sh":300,"ip":'$3',"op":'$4',"st":0,"ks":{"p":{"a":0,"k":[200,150]},"a":{"a":0,"k":[200,150]}}}'
}
echo '{"v":"5.7.0","fr":30,"ip":0,"op":300,"w":400,"h":300,"assets":[],"layers":['"$(layer red '#ff0000' 0 100),$(layer green '#00ff00' 100 200),$(layer blue '#0000ff' 200 300),$(layer back '#202020' 0 300)"']}' > /tmp/still.json
echo "BOARD: kernel $(uname -r)"
time buoy play /tmp/still.json --display drm --duration 10 --trace /tmp/still.jsonl 2>/tmp/still.err &
timed=$!
# Between the changes at frames 100 and 200 (3.3 s and 6.7 s): CPU ticks (utime + stime,
# /proc/PID/stat fields 14 and 15) over 2 s once the second picture is on screen.
for i in $(seq 1 100); do [ "$(wc -l < /tmp/still.jsonl 2>/dev/null)" -ge 2 ] 2>/dev/null && break; sleep 0.1; done
pid=$(pidof buoy)
cpu() { sed 's/.*) //' /proc/$pid/stat | awk '{ print $12 + $13 }'; }
sleep 0.3
t1=$(cpu)
sleep 2
t2=$(cpu)
echo "BOARD: still between changes cpu $t1 $t2 frames $(wc -l < /tmp/still.jsonl)"
wait $timed
echo "BOARD: still exit $? frames $(wc -l < /tmp/still.jsonl) times $(tr '\n' ' ' < /tmp/still.err | grep -o 'real.*')"
sed -n 's/.*"frame":\([0-9.]*\).*/BOARD: still frame \1/p' /tmp/still.jsonl
echo "BOARD: still log $(grep -v '^real\|^user\|^sys' /tmp/still.err | tr '\n' ' ')"
echo "BOARD: end"
