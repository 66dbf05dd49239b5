extension Rasterizer {
    /// Sweeps one whole 16-cell block under the non-zero rule: the running sum cell by cell in
    /// order (the same additions as the pixel-by-pixel loop, so the same sums, written back in
    /// place), then the coverage of all 16 pixels at once in `Float` lanes, with the same
    /// operations per lane as `byte(min(abs(sum), 1) * scale)`, and the cells cleared. The
    /// bytes are those of the scalar loop, exactly (both sweeps use it, and the tests that
    /// compare their pixels with a per-pixel fill hold).
    ///
    /// The sweeps take it for every block an edge crossed under the non-zero rule (a row's
    /// cells span whole blocks, `Rasterizer.stride`): at a row's first block the cells before
    /// its first edge, and at its last block those after its last edge, are untouched zeros,
    /// which leave the sum as it is; past the row, the sum may take in the shares of edges at
    /// its right side, but no byte past the row is reported and nothing after the row's last
    /// block reads the sum (the bytes past the row's last edge are scratch).
    @inline(__always)
    static func sweepBlockNonZero(_ cells: UnsafeMutablePointer<Float>, _ alpha: UnsafeMutablePointer<UInt8>,
                                  sum: inout Float, scale: Float) {
        var s = sum
        for i in 0..<16 {
            s += cells[i]
            cells[i] = s
        }
        sum = s
        let raw = UnsafeMutableRawPointer(cells)
        let sums = raw.loadUnaligned(as: SIMD16<Float>.self)
        raw.storeBytes(of: SIMD16<Float>.zero, as: SIMD16<Float>.self)
        // |sum| by clearing the sign bit; min(·, 1) as `min` does (1 unless the sum is below it).
        let magnitude = unsafeBitCast(unsafeBitCast(sums, to: SIMD16<UInt32>.self) & 0x7fff_ffff, to: SIMD16<Float>.self)
        let one = SIMD16<Float>(repeating: 1)
        let coverage = magnitude.replacing(with: one, where: magnitude .> one) * scale
        // `byte`: adding 1.5·2²³ leaves the rounded value in the low bits.
        let rounded = coverage + SIMD16<Float>(repeating: 12_582_912)
        // The low byte of each lane (a generic vector narrowing here is a call, not inlined).
        let bits = unsafeBitCast(rounded, to: SIMD16<UInt32>.self)
        withUnsafeBytes(of: bits) { raw in
            for i in 0..<16 { alpha[i] = raw[i &* 4] }
        }
    }
}
