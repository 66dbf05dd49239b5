#include "CPixelStores.h"
#include <wchar.h>

// wchar_t is 32 bits on Linux; glibc picks the widest vector stores the CPU has for it.
_Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wchar_t must be 32 bits");

void buoy_store_pixels(uint32_t *pixels, uint32_t value, size_t count) {
    wmemset((wchar_t *)pixels, (wchar_t)value, count);
}
