extension Surface {
    /// A run of one coverage value `value` painted with no clip mask: what `blendRow` does
    /// with a row of `value` bytes, without the bytes. One colour is stored or blended over
    /// the run as `paintRuns` does. With a gradient or an image, each pixel's
    /// strength there is (o·value + 127) / 255, the same for the whole run, so it becomes the
    /// opacity of a blend with no coverage (the same arithmetic, `SpanKernels.blend`); and an
    /// opaque gradient at full strength covers the row with its colours, so it is shaded
    /// straight into the row, with no second pass to copy them. The inside of a shape is such
    /// a run; `ShadedRunTests` compares the pixels with `referenceFill`'s.
    @inline(__always)
    static func paintConstantRun(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, value: UInt8,
                                 colors: UnsafeMutablePointer<UInt32>, shader: Shader, opacity o: UInt32) {
        // A gradient of one colour at full opacity is that colour (`Shader.uniform`).
        if let solid = shader.solidColor ?? (o == 255 ? shader.uniform : nil) {
            // As `paintRuns` paints a constant run: opacity into the colour, then the coverage.
            let color = o == 255 ? solid : PixelMath.scale(solid, o)
            if value == 255, color >> 24 == 255 {
                PixelStores.fill(row, with: color, count: count)
            } else if value != 0 {
                SpanKernels.paintOverSolid(row, color: value == 255 ? color : PixelMath.scale(color, UInt32(value)), count: count)
            }
            return
        }
        let strength = (o * UInt32(value) + 127) / 255
        guard strength > 0 else { return }
        if strength == 255, shader.isOpaqueGradient {
            shader.shade(y: y, x0: x, count: count, into: row)
            return
        }
        shader.shade(y: y, x0: x, count: count, into: colors)
        SpanKernels.paint(row, colors, coverage: nil, opacity: strength, count: count)
    }
}
