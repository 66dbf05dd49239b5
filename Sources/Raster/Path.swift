/// A vector path: contours of lines and cubic Béziers.
public struct Path: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case cubic(Point, Point, Point)  // control 1, control 2, end
        case close
    }

    public private(set) var elements: [Element] = []
    private var current = Point.zero
    private var contourStart = Point.zero
    /// The extent of every point so far (`bounds`), kept as the path is built: every path
    /// that is drawn has its bounds asked once or twice (the area to rasterize, the bands),
    /// and reading a large outline again for them cost more than keeping them as it is made.
    private var extent = Extent()

    public init() {}

    /// Room for `count` elements in all, so that a path built element by element (a stroke's
    /// outline) does not move its storage each time it outgrows it.
    public mutating func reserveCapacity(_ count: Int) {
        elements.reserveCapacity(count)
    }

    /// Empties the path, equal to `Path()` after it; with `keepingCapacity`, its storage is
    /// kept to build the next path in (a shape evaluated again at every frame).
    public mutating func removeAll(keepingCapacity: Bool) {
        elements.removeAll(keepingCapacity: keepingCapacity)
        current = .zero
        contourStart = .zero
        extent = Extent()
    }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) {
        elements.append(.move(p))
        extent.add(p)
        current = p
        contourStart = p
    }

    public mutating func line(to p: Point) {
        if elements.isEmpty { move(to: current) }
        elements.append(.line(p))
        extent.add(p)
        current = p
    }

    public mutating func cubic(to p: Point, control1: Point, control2: Point) {
        if elements.isEmpty { move(to: current) }
        elements.append(.cubic(control1, control2, p))
        extent.add(control1); extent.add(control2); extent.add(p)
        current = p
    }

    /// A quadratic Bézier, stored as the equivalent cubic.
    public mutating func quad(to p: Point, control: Point) {
        let c1 = Point(current.x + 2 / 3 * (control.x - current.x), current.y + 2 / 3 * (control.y - current.y))
        let c2 = Point(p.x + 2 / 3 * (control.x - p.x), p.y + 2 / 3 * (control.y - p.y))
        cubic(to: p, control1: c1, control2: c2)
    }

    public mutating func close() {
        guard !elements.isEmpty else { return }
        if case .close = elements[elements.count - 1] { return }
        elements.append(.close)
        current = contourStart
    }

    public mutating func append(_ other: Path) {
        elements.append(contentsOf: other.elements)
        extent.add(other.extent)
        current = other.current
        contourStart = other.contourStart
    }

    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.x, r.y))
        line(to: Point(r.maxX, r.y))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.x, r.maxY))
        close()
    }

    public mutating func addEllipse(in r: Rect) {
        let k = 0.5519150244935105
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2, rx = r.width / 2, ry = r.height / 2
        move(to: Point(cx + rx, cy))
        cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ry * k), control2: Point(cx + rx * k, cy + ry))
        cubic(to: Point(cx - rx, cy), control1: Point(cx - rx * k, cy + ry), control2: Point(cx - rx, cy + ry * k))
        cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ry * k), control2: Point(cx - rx * k, cy - ry))
        cubic(to: Point(cx + rx, cy), control1: Point(cx + rx * k, cy - ry), control2: Point(cx + rx, cy - ry * k))
        close()
    }

    public func transformed(by m: Transform) -> Path {
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        var extent = Extent()
        for e in elements {
            switch e {
            case .move(let p):
                let q = m.apply(p)
                out.elements.append(.move(q)); extent.add(q)
            case .line(let p):
                let q = m.apply(p)
                out.elements.append(.line(q)); extent.add(q)
            case .cubic(let c1, let c2, let p):
                let (d1, d2, q) = (m.apply(c1), m.apply(c2), m.apply(p))
                out.elements.append(.cubic(d1, d2, q)); extent.add(d1); extent.add(d2); extent.add(q)
            case .close: out.elements.append(.close)
            }
        }
        out.extent = extent
        out.current = m.apply(current)
        out.contourStart = m.apply(contourStart)
        return out
    }

    /// The bounds of all points including control points (a cheap superset of the shape).
    /// `referenceBounds`, kept as the path is built.
    public var bounds: Rect? { extent.rect }

    /// The bounds found by reading every element (what `bounds` keeps; `PathTests`).
    var referenceBounds: Rect? {
        var extent = Extent()
        for e in elements {
            switch e {
            case .move(let p), .line(let p): extent.add(p)
            case .cubic(let c1, let c2, let p): extent.add(c1); extent.add(c2); extent.add(p)
            case .close: break
            }
        }
        return extent.rect
    }

    /// Appends a closed contour through `count` points, `point(0)` first: a move, the lines
    /// and the close (what `move`, `line` and `close` make), with the extent kept in
    /// registers, as a stroke's outline emits its polygons. Room is the caller's to make
    /// (`reserveCapacity` per polygon would grow the storage by a polygon at a time).
    @inline(__always)
    mutating func appendPolygon(count: Int, _ point: (Int) -> Point) {
        guard count > 0 else { return }
        let first = point(0)
        var extent = self.extent
        extent.add(first)
        elements.append(.move(first))
        for i in 1..<count {
            let p = point(i)
            extent.add(p)
            elements.append(.line(p))
        }
        elements.append(.close)
        self.extent = extent
        current = first
        contourStart = first
    }
}

/// The least and greatest coordinates of points added (none: an empty extent, no rect).
struct Extent: Equatable, Sendable {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    @inline(__always)
    mutating func add(_ p: Point) {
        minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }

    mutating func add(_ other: Extent) {
        minX = min(minX, other.minX); minY = min(minY, other.minY); maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY)
    }

    var rect: Rect? {
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

public enum FillRule: Sendable {
    case nonZero
    case evenOdd
}

extension Path {
    /// The rectangle this path outlines, when it is one contour of four axis-aligned sides
    /// (as a rectangle shape without rounded corners is); nil for anything else.
    public var axisAlignedRectangle: Rect? {
        // Corner i is the point of element i (a move, then lines): read from the elements, not
        // gathered into arrays, since the backdrop test asks this of a layer at every frame.
        var count = 0
        for (i, element) in elements.enumerated() {
            switch element {
            case .move where i == 0: count += 1
            case .line where i > 0: count += 1
            case .close where i == elements.count - 1: break
            default: return nil
            }
        }
        func corner(_ i: Int) -> Point {
            switch elements[i] {
            case .move(let p), .line(let p): return p
            default: return .zero
            }
        }
        if count == 5, corner(4) == corner(0) { count = 4 }
        guard count == 4 else { return nil }
        // Each side is vertical or horizontal, alternately.
        for i in 0..<4 {
            let a = corner(i), b = corner((i + 1) % 4), c = corner((i + 2) % 4)
            let firstVertical = a.x == b.x, secondVertical = b.x == c.x
            guard firstVertical ? (a.y != b.y && b.y == c.y && !secondVertical) : (a.y == b.y && a.x != b.x && secondVertical) else { return nil }
        }
        // Least and greatest as `Sequence.min()` and `max()` find them, corner by corner.
        var (minX, minY, maxX, maxY) = (corner(0).x, corner(0).y, corner(0).x, corner(0).y)
        for i in 1..<4 {
            let p = corner(i)
            if p.x < minX { minX = p.x }
            if p.y < minY { minY = p.y }
            if maxX < p.x { maxX = p.x }
            if maxY < p.y { maxY = p.y }
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
