#include "WideSpans.h"
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int buoy_cpu_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // OSXSAVE and AVX, and the kernel saves the YMM registers (XCR0 bits 1 and 2).
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

#define WIDE __attribute__((target("avx2"))) static inline

// SpanKernels.scale: every channel times a/255 (a at most 255 in each 32-bit lane), rounded,
// in 16-bit lanes, one channel each.
WIDE __m256i scale(__m256i p, __m256i a) {
    const __m256i both = _mm256_or_si256(a, _mm256_slli_epi32(a, 16));
    const __m256i half = _mm256_set1_epi16(0x80);
    __m256i rb = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(p, _mm256_set1_epi16(0xff)), both), half);
    rb = _mm256_srli_epi16(_mm256_add_epi16(rb, _mm256_srli_epi16(rb, 8)), 8);
    __m256i ag = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(p, 8), both), half);
    ag = _mm256_and_si256(_mm256_add_epi16(ag, _mm256_srli_epi16(ag, 8)), _mm256_set1_epi16((short)0xff00));
    return _mm256_or_si256(rb, ag);
}

// SpanKernels.over: s over d; a lane whose source has no alpha keeps the backdrop.
WIDE __m256i over(__m256i s, __m256i d) {
    const __m256i sa = _mm256_srli_epi32(s, 24);
    const __m256i blended = _mm256_add_epi32(s, scale(d, _mm256_sub_epi32(_mm256_set1_epi32(255), sa)));
    const __m256i keep = _mm256_cmpeq_epi32(sa, _mm256_setzero_si256());
    return _mm256_blendv_epi8(blended, d, keep);
}

// SpanKernels.mul255: (x·y + 127) / 255 for x, y in 0...255.
WIDE __m256i mul255(__m256i x, __m256i y) {
    const __m256i v = _mm256_add_epi32(_mm256_mullo_epi16(x, y), _mm256_set1_epi32(128));
    return _mm256_srli_epi32(_mm256_add_epi32(v, _mm256_srli_epi32(v, 8)), 8);
}

WIDE __m256i widen(uint64_t bytes) { return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)bytes)); }

static inline uint64_t load8(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

__attribute__((target("avx2")))
size_t buoy_blend_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t o, size_t count) {
    const __m256i opacity = _mm256_set1_epi32((int)o);
    const __m256i alpha = _mm256_set1_epi32((int)0xff000000);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i a = opacity;
        int full = o == 255;
        if (coverage) {
            const uint64_t bytes = load8(coverage + i);
            if (bytes == 0) continue;
            if (bytes != UINT64_MAX) {
                a = o == 255 ? widen(bytes) : mul255(opacity, widen(bytes));
                full = 0;
            }
        }
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
        // A transparent source leaves the backdrop; an opaque one at full coverage is a copy.
        if (_mm256_testz_si256(s, s)) continue;
        if (full && _mm256_testc_si256(s, alpha)) {
            _mm256_storeu_si256((__m256i *)(dst + i), s);
            continue;
        }
        const __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), over(full ? s : scale(s, a), d));
    }
    if (i == count || count < 8) return i;
    // The tail as one more block over the last eight pixels, as SpanKernels.blend ends: the
    // lanes painted already get no alpha, which leaves them as they are.
    const size_t start = count - 8;
    const uint64_t fresh = UINT64_MAX << (8 * (i - start));
    __m256i a = _mm256_and_si256(opacity, widen(fresh));
    if (coverage) {
        const __m256i bytes = widen(load8(coverage + start) & fresh);
        a = o == 255 ? bytes : mul255(opacity, bytes);
    }
    const __m256i s = _mm256_loadu_si256((const __m256i *)(src + start));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(dst + start));
    _mm256_storeu_si256((__m256i *)(dst + start), over(scale(s, a), d));
    return count;
}

__attribute__((target("avx2")))
void buoy_blend_short_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t o, size_t count) {
    // Masked loads and stores touch only the span's lanes (no read or write past it, which
    // could be another band's pixels or past the buffer); the other lanes get no alpha.
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i opacity = _mm256_set1_epi32((int)o);
    __m256i a = _mm256_and_si256(opacity, mask);
    if (coverage) {
        uint64_t bytes = 0;
        for (size_t k = 0; k < count; k++) bytes |= (uint64_t)coverage[k] << (8 * k);
        if (bytes == 0) return;
        a = o == 255 ? widen(bytes) : mul255(opacity, widen(bytes));
    }
    const __m256i s = _mm256_maskload_epi32((const int *)src, mask);
    if (_mm256_testz_si256(s, s)) return;
    const __m256i d = _mm256_maskload_epi32((const int *)dst, mask);
    _mm256_maskstore_epi32((int *)dst, mask, over(scale(s, a), d));
}

__attribute__((target("avx2")))
size_t buoy_blend_solid_avx2(uint32_t *dst, uint32_t color, const uint8_t *coverage, size_t count) {
    const int opaque = color >> 24 == 255;
    const __m256i c = _mm256_set1_epi32((int)color);
    size_t i = 0;
    while (i + 8 <= count) {
        const uint64_t bytes = load8(coverage + i);
        if (bytes == 0) { i += 8; continue; }
        if (opaque && bytes == UINT64_MAX) {
            // A stretch of full coverage under an opaque colour: stores only.
            do {
                _mm256_storeu_si256((__m256i *)(dst + i), c);
                i += 8;
            } while (i + 8 <= count && load8(coverage + i) == UINT64_MAX);
            continue;
        }
        const __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), over(scale(c, widen(bytes)), d));
        i += 8;
    }
    return i;
}

#else

int buoy_cpu_has_avx2(void) { return 0; }

size_t buoy_blend_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, size_t count) {
    (void)dst; (void)src; (void)coverage; (void)opacity; (void)count;
    return 0;
}

size_t buoy_blend_solid_avx2(uint32_t *dst, uint32_t color, const uint8_t *coverage, size_t count) {
    (void)dst; (void)color; (void)coverage; (void)count;
    return 0;
}

void buoy_blend_short_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, size_t count) {
    (void)dst; (void)src; (void)coverage; (void)opacity; (void)count;
}

#endif
