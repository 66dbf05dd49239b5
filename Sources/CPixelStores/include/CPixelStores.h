#ifndef BUOY_CPIXELSTORES_H
#define BUOY_CPIXELSTORES_H
// Raster's long stores of one 32-bit pixel value (Sources/Raster/PixelStores.swift): the C
// library's wmemset, which Swift's Glibc module does not export (it leaves out <wchar.h>).
#include <stddef.h>
#include <stdint.h>
#include "CellIndex.h"
#include "Prefetch.h"

// Stores `value` into `count` consecutive 32-bit words from `pixels`.
void buoy_store_pixels(uint32_t *pixels, uint32_t value, size_t count);

#endif
