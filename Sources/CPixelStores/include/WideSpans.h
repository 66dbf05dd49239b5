#ifndef BUOY_WIDESPANS_H
#define BUOY_WIDESPANS_H
// Raster's source-over span kernels (Sources/Raster/SpanKernels.swift) in 256-bit lanes, for
// x86-64 CPUs that have AVX2: eight pixels in one register where the baseline target's
// 128-bit lanes need two for everything. The arithmetic is SpanKernels' to the bit
// (SpanTailTests runs both on random spans). Each call paints the blocks of eight pixels
// from the start of the span and returns how many pixels it painted; the caller paints the
// rest. Chosen at run time (`buoy_cpu_has_avx2`); elsewhere they paint nothing.
#include <stddef.h>
#include <stdint.h>

// Whether the CPU and the kernel support AVX2 (CPUID and XGETBV: a slow instruction in a
// virtual machine, so the caller asks once).
int buoy_cpu_has_avx2(void);

// SpanKernels.blend: dst[i] = src[i] scaled by opacity·coverage[i]/255 (coverage NULL: 255) over dst[i].
// A span of eight or more is painted whole, its tail as one more block over its last eight.
size_t buoy_blend_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, size_t count);

// The same for a span shorter than eight (1...7 pixels), painted whole as one block whose
// loads and stores are masked to the span's pixels.
void buoy_blend_short_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, size_t count);

// SpanKernels.blendSolid: dst[i] = color scaled by coverage[i]/255 over dst[i].
size_t buoy_blend_solid_avx2(uint32_t *dst, uint32_t color, const uint8_t *coverage, size_t count);

#endif
