// FreeType's functions, private to this target: its headers need -I.../freetype2, which only
// this target's C files are compiled with (Package.swift).
#ifndef BUOY_FREETYPE_FUNCTIONS_H
#define BUOY_FREETYPE_FUNCTIONS_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#define BUOY_FREETYPE_FUNCTIONS(X) \
    X(0, FT_Init_FreeType) X(0, FT_Done_FreeType) X(0, FT_New_Face) X(0, FT_Done_Face) \
    X(0, FT_Get_Char_Index) X(0, FT_Get_Postscript_Name) X(0, FT_Load_Glyph) X(0, FT_Outline_Decompose)

#define BUOY_FREETYPE_FIELD(library, name) __typeof__(name) *name;
struct buoy_freetype_functions { BUOY_FREETYPE_FUNCTIONS(BUOY_FREETYPE_FIELD) };
#undef BUOY_FREETYPE_FIELD

// The table once the text libraries are loaded (the first call loads them), else NULL.
const struct buoy_freetype_functions *buoy_freetype(void);
#endif
