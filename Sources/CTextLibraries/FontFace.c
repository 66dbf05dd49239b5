// A FreeType face behind a handle of Buoy's own, so that no FreeType type reaches Swift.
#include "CTextLibraries.h"
#include "FreeTypeFunctions.h"

#include <stdlib.h>

struct buoy_font_face {
    const struct buoy_freetype_functions *ft;
    FT_Library library;
    FT_Face face;
};

struct buoy_font_face *buoy_font_face_open(const char *file, long index, struct buoy_font_metrics *metrics) {
    const struct buoy_freetype_functions *ft = buoy_freetype();
    if (ft == NULL || index < 0) return NULL;
    FT_Library library;
    if (ft->FT_Init_FreeType(&library) != 0) return NULL;
    FT_Face face;
    if (ft->FT_New_Face(library, file, (FT_Long)index, &face) != 0) {
        ft->FT_Done_FreeType(library);
        return NULL;
    }
    struct buoy_font_face *handle = malloc(sizeof *handle);
    if (face->units_per_EM == 0 || !(face->face_flags & FT_FACE_FLAG_SCALABLE) || handle == NULL) {
        free(handle);
        ft->FT_Done_Face(face);
        ft->FT_Done_FreeType(library);
        return NULL;
    }
    *handle = (struct buoy_font_face){ ft, library, face };
    *metrics = (struct buoy_font_metrics){ face->units_per_EM, face->ascender, face->descender,
        face->family_name, face->style_name, ft->FT_Get_Postscript_Name(face) };
    return handle;
}

void buoy_font_face_close(struct buoy_font_face *face) {
    face->ft->FT_Done_Face(face->face);
    face->ft->FT_Done_FreeType(face->library);
    free(face);
}

unsigned buoy_font_face_glyph(struct buoy_font_face *face, unsigned long character) {
    return face->ft->FT_Get_Char_Index(face->face, (FT_ULong)character);
}

static int move_to(const FT_Vector *to, void *user) {
    const struct buoy_outline_sink *sink = user;
    sink->move(sink->user, (double)to->x, (double)to->y);
    return 0;
}
static int line_to(const FT_Vector *to, void *user) {
    const struct buoy_outline_sink *sink = user;
    sink->line(sink->user, (double)to->x, (double)to->y);
    return 0;
}
static int conic_to(const FT_Vector *c, const FT_Vector *to, void *user) {
    const struct buoy_outline_sink *sink = user;
    sink->quad(sink->user, (double)c->x, (double)c->y, (double)to->x, (double)to->y);
    return 0;
}
static int cubic_to(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *user) {
    const struct buoy_outline_sink *sink = user;
    sink->cubic(sink->user, (double)c1->x, (double)c1->y, (double)c2->x, (double)c2->y, (double)to->x, (double)to->y);
    return 0;
}

int buoy_font_face_outline(struct buoy_font_face *face, unsigned glyph, const struct buoy_outline_sink *sink) {
    if (face->ft->FT_Load_Glyph(face->face, glyph, FT_LOAD_NO_SCALE) != 0) return 0;
    FT_GlyphSlot slot = face->face->glyph;
    if (slot == NULL || slot->format != FT_GLYPH_FORMAT_OUTLINE) return 0;
    const FT_Outline_Funcs funcs = { move_to, line_to, conic_to, cubic_to, 0, 0 };
    // The sink is only read: FreeType's user pointer is not const. A malformed outline stops
    // part way: what was drawn stands, as it did when Swift called FreeType itself.
    face->ft->FT_Outline_Decompose(&slot->outline, &funcs, (void *)sink);
    return 1;
}
