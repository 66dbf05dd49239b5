// The text libraries' functions, resolved once with dlopen/dlsym (see CTextLibraries.h for why
// they are not linked).
#define _GNU_SOURCE
#include "CTextLibraries.h"
#include "FreeTypeFunctions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// The sonames Debian's packages install (libfreetype6, libharfbuzz0b, libfontconfig1,
// libfribidi0), in the index order of BUOY_TEXT_FUNCTIONS. BUOY_LIBFREETYPE, BUOY_LIBHARFBUZZ,
// BUOY_LIBFONTCONFIG and BUOY_LIBFRIBIDI name other files (secure_getenv: honoured only when the
// process runs with its own identity).
static const struct { const char *soname; const char *variable; } libraries[] = {
    { "libfreetype.so.6", "BUOY_LIBFREETYPE" },
    { "libharfbuzz.so.0", "BUOY_LIBHARFBUZZ" },
    { "libfontconfig.so.1", "BUOY_LIBFONTCONFIG" },
    { "libfribidi.so.0", "BUOY_LIBFRIBIDI" },
};

struct all_functions {
    struct buoy_text_functions text;
    struct buoy_freetype_functions freetype;
};
#define BUOY_TEXT_SYMBOL(library, name) { library, #name, offsetof(struct all_functions, text.name) },
#define BUOY_FREETYPE_SYMBOL(library, name) { library, #name, offsetof(struct all_functions, freetype.name) },
static const struct { int library; const char *name; size_t offset; } symbols[] = {
    BUOY_TEXT_FUNCTIONS(BUOY_TEXT_SYMBOL)
    BUOY_FREETYPE_FUNCTIONS(BUOY_FREETYPE_SYMBOL)
};
#undef BUOY_TEXT_SYMBOL
#undef BUOY_FREETYPE_SYMBOL

// Written once, inside pthread_once, and only read afterwards: the process has one of each.
static struct all_functions functions;
static int text_loaded;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handles[sizeof libraries / sizeof libraries[0]];
    const char *paths[sizeof libraries / sizeof libraries[0]];
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        const char *path = secure_getenv(libraries[i].variable);
        if (path == NULL || *path == 0) path = libraries[i].soname;
        paths[i] = path;
        // Never closed: fontconfig and glib (through HarfBuzz) keep process-wide state.
        handles[i] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handles[i] == NULL) {
            const char *why = dlerror();
            snprintf(load_error, sizeof load_error, "%s could not be loaded: %s", libraries[i].soname, why ? why : path);
            return;
        }
    }
    struct all_functions found;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *function = dlsym(handles[symbols[i].library], symbols[i].name);
        if (function == NULL) {
            snprintf(load_error, sizeof load_error, "%s has no %s (too old)", paths[symbols[i].library], symbols[i].name);
            return;
        }
        // POSIX guarantees a function pointer round-trips through void * (dlsym's contract).
        *(void **)((char *)&found + symbols[i].offset) = function;
    }
    functions = found;
    text_loaded = 1;
}

const struct buoy_text_functions *buoy_text_libraries(void) {
    pthread_once(&load_once, load);
    return text_loaded ? &functions.text : NULL;
}

const struct buoy_freetype_functions *buoy_freetype(void) {
    return buoy_text_libraries() ? &functions.freetype : NULL;
}

const char *buoy_text_libraries_unavailable(void) { return buoy_text_libraries() ? NULL : load_error; }
