// Raster: paths, coverage, paint, compositing, pixel formats.
