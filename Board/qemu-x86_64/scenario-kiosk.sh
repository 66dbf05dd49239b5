# Kiosk scenario: buoy waits for a key, then downloads from a server inside the guest while
# the default animation plays on the DRM display; the host presses Enter through QMP. Then
# the same started by a tap on the start prompt.
ifconfig lo 127.0.0.1 up
mkdir -p /www
dd if=/dev/urandom of=/www/payload.bin bs=1024 count=2048 2>/dev/null
sum=$(sha256sum /www/payload.bin | cut -d' ' -f1)
httpd -p 127.0.0.1:8080 -h /www
buoy run --trigger input --url http://127.0.0.1:8080/payload.bin --output /tmp/payload.bin --sha256 "$sum" \
    --display drm --trace /tmp/kiosk.jsonl --on-complete exit &
pid=$!
for i in $(seq 1 600); do [ -s /tmp/kiosk.jsonl ] && break; sleep 0.1; done
echo "BOARD: waiting for a key"
wait $pid
echo "BOARD: run exit $?"
echo "BOARD: states $(sed -n 's/.*"state":"\([a-z]*\)".*/\1/p' /tmp/kiosk.jsonl | uniq | tr '\n' ' ')"
cmp /www/payload.bin /tmp/payload.bin && echo "BOARD: payload ok"
# The same with --touch prompt: a tap away from the start prompt is ignored, a tap on it
# starts the download (the host taps through the virtio tablet).
buoy run --trigger input --touch prompt --url http://127.0.0.1:8080/payload.bin --output /tmp/touch.bin --sha256 "$sum" \
    --display drm --trace /tmp/touch.jsonl --on-complete exit &
pid=$!
for i in $(seq 1 600); do [ -s /tmp/touch.jsonl ] && break; sleep 0.1; done
echo "BOARD: waiting for a touch"
wait $pid
echo "BOARD: touch run exit $?"
echo "BOARD: touch states $(sed -n 's/.*"state":"\([a-z]*\)".*/\1/p' /tmp/touch.jsonl | uniq | tr '\n' ' ')"
cmp /www/payload.bin /tmp/touch.bin && echo "BOARD: touch payload ok"
echo "BOARD: end"
