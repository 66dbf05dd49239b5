/// The colour tables of the last few gradients a surface painted, kept with the exact stops
/// they were made from. An animation's gradients mostly hold their stops still from frame to
/// frame (and a gradient is often both filled and stroked), so the 256 colours of a table are
/// made again only when a gradient's stops change. A value kept by one `Surface`: nothing is
/// shared between threads.
struct GradientTables {
    /// How many tables are kept: the gradients painted in turn each find theirs. Kept in
    /// turn (the oldest goes first), so a frame painting more gradients than this would
    /// find none of them: 4 made about half the tables of a frame again in files with a
    /// dozen gradients (each ~36 000 instructions); 16 tables are 16 KB.
    static let capacity = 16
    private var stops: [[GradientStop]] = []
    private var tables: [[UInt32]] = []
    private var next = 0

    /// `Shader.lookupTable(stops)`, from a kept table when these very stops (every offset and
    /// colour component the same to the bit) made one.
    mutating func table(for stops: [GradientStop]) -> [UInt32] {
        for i in self.stops.indices where Self.same(self.stops[i], stops) { return tables[i] }
        let table = Shader.lookupTable(stops)
        if self.stops.count < Self.capacity {
            self.stops.append(stops)
            tables.append(table)
        } else {
            self.stops[next] = stops
            tables[next] = table
            next = (next + 1) % Self.capacity
        }
        return table
    }

    /// Bitwise equality: NaN stops match themselves (and make the same table), and 0 and −0
    /// are told apart, so a kept table is always the one `lookupTable` would make.
    static func same(_ a: [GradientStop], _ b: [GradientStop]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            guard x.offset.bitPattern == y.offset.bitPattern, x.color.r.bitPattern == y.color.r.bitPattern,
                  x.color.g.bitPattern == y.color.g.bitPattern, x.color.b.bitPattern == y.color.b.bitPattern,
                  x.color.a.bitPattern == y.color.a.bitPattern else { return false }
        }
        return true
    }
}
