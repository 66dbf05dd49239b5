#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

// DRM fourcc codes are function-like macros Swift cannot import; these are the ones Buoy
// drives panels with.
static const uint32_t buoy_drm_format_xrgb8888 = DRM_FORMAT_XRGB8888;
static const uint32_t buoy_drm_format_rgb565 = DRM_FORMAT_RGB565;
static const uint32_t buoy_drm_mode_page_flip_event = DRM_MODE_PAGE_FLIP_EVENT;
static const int buoy_drm_event_context_version = 2;
