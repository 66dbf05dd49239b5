extension Rasterizer {
    /// Sweeps one whole 16-cell block under the non-zero rule: the running sum cell by cell in
    /// order (the same additions as the pixel-by-pixel loop, so the same sums, written back in
    /// place), then the coverage of all 16 pixels at once in `Float` lanes, with the same
    /// operations per lane as `byte(min(abs(sum), 1) * scale)`, and the cells cleared. The
    /// bytes are those of the scalar loop, exactly: the reference for `sweepBlockNonZero`.
    ///
    /// The sweeps take `sweepBlockNonZero` for every block an edge crossed under the non-zero rule (a row's
    /// cells span whole blocks, `Rasterizer.stride`): at a row's first block the cells before
    /// its first edge, and at its last block those after its last edge, are untouched zeros,
    /// which leave the sum as it is; past the row, the sum may take in the shares of edges at
    /// its right side, but no byte past the row is reported and nothing after the row's last
    /// block reads the sum (the bytes past the row's last edge are scratch).
    @inline(__always)
    static func sweepBlockNonZeroInOrder(_ cells: UnsafeMutablePointer<Float>, _ alpha: UnsafeMutablePointer<UInt8>,
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
        bytes(of: sums, scale: scale, into: alpha)
    }

    /// The coverage bytes of 16 running sums under the non-zero rule, with the same operations
    /// per lane as `byte(min(abs(sum), 1) * scale)`.
    @inline(__always)
    static func bytes(of sums: SIMD16<Float>, scale: Float, into alpha: UnsafeMutablePointer<UInt8>) {
        // |sum| by clearing the sign bit.
        let magnitude = unsafeBitCast(unsafeBitCast(sums, to: SIMD16<UInt32>.self) & 0x7fff_ffff, to: SIMD16<Float>.self)
        // `byte`: adding 1.5·2²³ leaves the rounded value in the low bits. min(·, 1) is taken
        // after the scaling and the rounding, as the smaller of the value and 1's rounded value:
        // both are monotone, so a magnitude over 1 gives 1's value and any other its own, as
        // `min` before them gives (the sums are finite). Before them, the compiler folds the
        // scaling into the choice and makes it three instructions a lane group, not one `minps`.
        let rounder = SIMD16<Float>(repeating: 12_582_912)
        let full = SIMD16<Float>(repeating: scale) + rounder
        let scaled = magnitude * scale + rounder
        let rounded = scaled.replacing(with: full, where: full .< scaled)
        // The low byte of each lane (a generic vector narrowing here is a call, not inlined).
        let bits = unsafeBitCast(rounded, to: SIMD16<UInt32>.self)
        withUnsafeBytes(of: bits) { raw in
            for i in 0..<16 { alpha[i] = raw[i &* 4] }
        }
    }
}

extension Rasterizer {
    /// `sweepBlockNonZeroInOrder` with the running sum found four lanes at a time: each group of
    /// four cells sums in two shifted additions, and the groups carry their totals on. The
    /// cells are read once as vectors and never written but to clear them: the in-order loop's
    /// sixteen dependent additions, and its reading back as a vector of sixteen scalar stores
    /// (which the processor cannot forward), were most of a block's time.
    /// The sums are added in another order, so a byte may differ from the in-order loop's by
    /// one where a sum lies within rounding of a step (`SweepBlockTests` checks it).
    @inline(__always)
    static func sweepBlockNonZero(_ cells: UnsafeMutablePointer<Float>, _ alpha: UnsafeMutablePointer<UInt8>,
                                  sum: inout Float, scale: Float) {
        let raw = UnsafeMutableRawPointer(cells)
        var carry = SIMD4<Float>(repeating: sum)
        let q0 = prefix(raw.loadUnaligned(as: SIMD4<Float>.self), &carry)
        let q1 = prefix(raw.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self), &carry)
        let q2 = prefix(raw.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self), &carry)
        let q3 = prefix(raw.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self), &carry)
        raw.storeBytes(of: SIMD16<Float>.zero, as: SIMD16<Float>.self)
        sum = q3[3]
        bytes(of: SIMD16(lowHalf: SIMD8(lowHalf: q0, highHalf: q1), highHalf: SIMD8(lowHalf: q2, highHalf: q3)),
              scale: scale, into: alpha)
    }

    /// The running sums of four cells [a, b, c, d] after `carry`, which becomes their total:
    /// [a, a+b, c, c+d] as v + [0, a, 0, c] (the shifted lanes are one shift of the register's
    /// two 64-bit halves), then a+b added to the upper two. The additions of
    /// `prefixByPairs` (the reference: b+a is a+b, a+0 is a), in fewer instructions.
    @inline(__always)
    static func prefix(_ v: SIMD4<Float>, _ carry: inout SIMD4<Float>) -> SIMD4<Float> {
        let halves = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        let shifted = unsafeBitCast(halves &<< 32, to: SIMD4<Float>.self)  // [0, a, 0, c]
        let pairs = v + shifted
        let result = pairs + SIMD4(lowHalf: .zero, highHalf: SIMD2(repeating: pairs[1])) + carry
        carry = SIMD4(repeating: result[3])
        return result
    }

    /// `prefix` by the pairs' first lanes and sums (an interleave, not lane shifts, which
    /// compile to a shuffle each): the reference `SweepBlockTests` holds `prefix` to.
    @inline(__always)
    static func prefixByPairs(_ v: SIMD4<Float>, _ carry: inout SIMD4<Float>) -> SIMD4<Float> {
        let (first, sums) = (v.evenHalf, v.evenHalf + v.oddHalf)
        let pairs = SIMD4(first[0], sums[0], first[1], sums[1])
        let result = pairs + SIMD4(lowHalf: .zero, highHalf: SIMD2(repeating: sums[0])) + carry
        carry = SIMD4(repeating: result[3])
        return result
    }
}
