#ifndef BUOY_PREFETCH_H
#define BUOY_PREFETCH_H
// Asks the cache for the line holding `address`, to be written soon (Raster's paintRuns: the
// pixels of a run a few runs ahead). A hint: it never faults, whatever the address, and
// changes no pixel. Swift has no spelling of it; inlined from here, it is one instruction.
static inline void buoy_prefetch_for_write(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif
