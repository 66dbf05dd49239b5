#ifndef BUOY_CTEXTLIBRARIES_H
#define BUOY_CTEXTLIBRARIES_H
// FreeType, HarfBuzz, Fontconfig and FriBidi for the Text module, opened with dlopen on first
// use rather than linked: a process that draws no text (most animations, buoy bench and render
// of a shape-only file) does not map them nor what they bring (glib, graphite, expat, pcre2,
// brotli, png): thousands of symbol lookups and megabytes resident at every start.
// The headers give the types and constants; every HarfBuzz, Fontconfig and FriBidi function is
// called through the table below, which TextLibraryLoader.c fills on the first
// buoy_text_libraries() call. FreeType stays behind the buoy_font_face functions (FontFace.c):
// its headers need their own include directory, which a module's clients would all need too.
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#include <fontconfig/fontconfig.h>
#include <fribidi/fribidi.h>

// X(library index, function): every function Buoy calls from Swift, with the library that has
// it (0 FreeType, 1 HarfBuzz, 2 Fontconfig, 3 FriBidi).
#define BUOY_TEXT_FUNCTIONS(X) \
    X(1, hb_blob_create_from_file) X(1, hb_blob_destroy) X(1, hb_blob_get_length) \
    X(1, hb_buffer_create) X(1, hb_buffer_destroy) X(1, hb_buffer_add_utf32) \
    X(1, hb_buffer_get_glyph_infos) X(1, hb_buffer_get_glyph_positions) \
    X(1, hb_buffer_guess_segment_properties) X(1, hb_buffer_set_direction) \
    X(1, hb_face_create) X(1, hb_face_destroy) X(1, hb_font_create) X(1, hb_font_destroy) \
    X(1, hb_font_get_glyph_extents) X(1, hb_font_set_scale) X(1, hb_ot_metrics_get_position) \
    X(1, hb_shape) X(1, hb_unicode_funcs_get_default) X(1, hb_unicode_script) \
    X(2, FcInitLoadConfigAndFonts) X(2, FcConfigGetFonts) X(2, FcConfigAppFontAddDir) X(2, FcConfigDestroy) \
    X(2, FcConfigSubstitute) X(2, FcDefaultSubstitute) X(2, FcFontList) X(2, FcFontSort) X(2, FcFontSetDestroy) \
    X(2, FcObjectSetCreate) X(2, FcObjectSetAdd) X(2, FcObjectSetDestroy) \
    X(2, FcPatternCreate) X(2, FcPatternDestroy) X(2, FcPatternAddString) X(2, FcPatternAddBool) \
    X(2, FcPatternGetString) X(2, FcPatternGetInteger) X(2, FcPatternGetCharSet) \
    X(2, FcCharSetCopy) X(2, FcCharSetDestroy) X(2, FcCharSetHasChar) \
    X(3, fribidi_get_bidi_types) X(3, fribidi_get_bracket_types) X(3, fribidi_get_par_embedding_levels_ex)

#define BUOY_TEXT_FIELD(library, name) __typeof__(name) *_Nonnull name;
struct buoy_text_functions { BUOY_TEXT_FUNCTIONS(BUOY_TEXT_FIELD) };
#undef BUOY_TEXT_FIELD

// The table once all four libraries are loaded (the first call loads them); NULL when one is
// missing or lacks a function, and buoy_text_libraries_unavailable() then says which.
const struct buoy_text_functions *_Nullable buoy_text_libraries(void);
const char *_Nullable buoy_text_libraries_unavailable(void);

// One face of a font file, opened with FreeType (loaded by buoy_text_libraries()).
struct buoy_font_face;
struct buoy_font_metrics {
    long units_per_em, ascender, descender;
    // Owned by the face: valid until it is closed; NULL when the font has none.
    const char *_Nullable family, *_Nullable style, *_Nullable postscript_name;
};
// NULL when the libraries are not loaded or the file is not a scalable font FreeType opens.
struct buoy_font_face *_Nullable buoy_font_face_open(const char *_Nonnull file, long index,
                                                     struct buoy_font_metrics *_Nonnull metrics);
void buoy_font_face_close(struct buoy_font_face *_Nonnull face);
// The face's glyph for a character, 0 when it has none.
unsigned buoy_font_face_glyph(struct buoy_font_face *_Nonnull face, unsigned long character);
// The outline of a glyph in font units, y up, one call per segment; 0 when the glyph has no
// outline (not in the face, a bitmap, a space).
struct buoy_outline_sink {
    void *_Nullable user;
    void (*_Nonnull move)(void *_Nullable user, double x, double y);
    void (*_Nonnull line)(void *_Nullable user, double x, double y);
    void (*_Nonnull quad)(void *_Nullable user, double cx, double cy, double x, double y);
    void (*_Nonnull cubic)(void *_Nullable user, double c1x, double c1y, double c2x, double c2y, double x, double y);
};
int buoy_font_face_outline(struct buoy_font_face *_Nonnull face, unsigned glyph, const struct buoy_outline_sink *_Nonnull sink);

#endif
