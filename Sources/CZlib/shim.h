#include <zlib.h>

// inflateInit2 is a macro; this is the call Swift can import (raw deflate: negative window bits).
static inline int buoy_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
