/// Buoy's version: the one place it is written. `buoy --version` prints it, and
/// deploy/build-deb.sh reads it from here (and checks deploy/debian/changelog agrees).
let buoyVersion = "0.1.0"
