extension Mask {
    /// `row[i] = union(row[i], alpha[i])` for `count` pixels, eight at a time where that
    /// decides them all: the blocks an edge crosses are mostly empty or full on either side
    /// of it (empty coverage leaves the mask, full coverage makes it 255), and a mask still
    /// empty there takes the coverage as it is (`union(0, a)` is `a`). The rest goes byte by
    /// byte. The same bytes as the loop over `union` (`MaskUnionTests`).
    @inline(__always)
    static func unite(_ row: UnsafeMutablePointer<UInt8>, with alpha: UnsafePointer<UInt8>, count: Int) {
        var i = 0
        while i &+ 8 <= count {
            let a = UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self)
            if a != 0 {
                let target = UnsafeMutableRawPointer(row + i)
                if a == UInt64.max {
                    target.storeBytes(of: UInt64.max, as: UInt64.self)
                } else if target.loadUnaligned(as: UInt64.self) == 0 {
                    target.storeBytes(of: a, as: UInt64.self)
                } else {
                    for k in i..<i &+ 8 { row[k] = union(row[k], alpha[k]) }
                }
            }
            i &+= 8
        }
        while i < count { row[i] = union(row[i], alpha[i]); i &+= 1 }
    }
}
