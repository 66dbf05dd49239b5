# Retain scenario: `buoy run --on-complete retain` leaves its last frame for the next program.
# The kernel's fbdev emulation gives the panel back to its console when the last holder of the
# DRM device closes it, so the picture can only outlive buoy while another process (the next
# display owner) has the device open. The host takes a screendump at each "BOARD: shot NAME";
# after each exit the guest writes to the console ("-text" shots): text appears only where the
# console has the panel back, in text mode.
ifconfig lo 127.0.0.1 up
echo "BOARD: kernel $(uname -r)"
# A throttled download (about 2 s) so that the holder can open the device while buoy runs.
buoy serve --port 8080 --bytes 800000 --rate 400000 > /tmp/serve.txt &
for i in $(seq 1 100); do [ -s /tmp/serve.txt ] && break; sleep 0.1; done
shot() { echo "BOARD: shot $1"; sleep 4; }
console_text() {
    for i in $(seq 1 12); do echo "Buoy board: console line $i after $1"; done > /dev/tty0
    sleep 1
    shot $1-text
}
# run NAME ON_COMPLETE HOLDER: one download; with HOLDER=yes a shell opens /dev/dri/card0 once
# buoy shows its first frame (buoy is DRM master by then: the first opener would take master).
run() {
    rm -f /tmp/$1.jsonl /tmp/$1.bin
    buoy run --url http://127.0.0.1:8080/payload.bin --output /tmp/$1.bin --display drm \
        --on-complete $2 --trace /tmp/$1.jsonl 2>/tmp/$1.err &
    pid=$!
    for i in $(seq 1 600); do [ -s /tmp/$1.jsonl ] && break; sleep 0.1; done
    holder=
    if [ "$3" = yes ]; then
        sh -c 'exec 3<>/dev/dri/card0; exec sleep 1000' &
        holder=$!
    fi
    echo "BOARD: shot $1-showing"
    wait $pid
    echo "BOARD: $1 exit $? holder $([ -n "$holder" ] && ls -l /proc/$holder/fd/3 2>/dev/null | sed 's/.*-> //')"
    echo "BOARD: $1 fallback warnings $(grep -c 'cannot keep the picture' /tmp/$1.err)"
    sleep 1
    shot $1
    console_text $1
    if [ -n "$holder" ]; then
        kill $holder; wait $holder 2>/dev/null
        sleep 1
        console_text $1-released
    fi
}
# The control first: on a kernel with CLOSEFB a retain leaves the console in graphics mode for
# the runs after it.
run exit-held exit yes
run retain-held retain yes
run retain-alone retain no
echo "BOARD: end"
