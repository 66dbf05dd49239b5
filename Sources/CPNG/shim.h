#include <png.h>

// libpng's simplified-API format codes are macros built from other macros; these are the
// ones Buoy uses, as constants Swift can import.
static const unsigned int buoy_png_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int buoy_png_image_version = PNG_IMAGE_VERSION;
