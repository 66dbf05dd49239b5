#ifndef BUOY_CELLINDEX_H
#define BUOY_CELLINDEX_H
// The edge accumulation's cell index of an x already clamped to 0...width (and so finite):
// a plain truncating conversion, which Swift's Int(Double) cannot give without its range
// checks (two compares and branches per conversion, three conversions per row of an edge).
// Callers must clamp first: a value outside long's range is undefined here.
static inline long buoy_cell_index(double x) { return (long)x; }

#endif
