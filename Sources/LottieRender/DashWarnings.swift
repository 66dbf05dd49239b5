import Glibc
import LottieModel
import Raster

/// A dash pattern that would cut its path into more than `maxDashPieces` pieces is drawn solid
/// (`dashed`): the renderer says so once, naming the stroke's place in the file, rather than
/// leaving a solid line unexplained.
extension ShapeTree {
    /// The JSON paths of the dashed strokes drawn solid at this frame because their pattern is
    /// too fine along the shapes they paint; `path(i)` is op i's shapes joined in its space.
    /// A bound from the control polygons (a curve is no longer than its polygon) settles
    /// nearly every stroke without measuring it; only a pattern that bound cannot clear is
    /// measured as `dashed` measures it.
    func dashedStrokesDrawnSolid(path: (Int) -> RasterPath) -> [String] {
        var found: [String] = []
        // Ops are read in place and only strokes' dashes are bound: copied, every op's paint,
        // style, ids and JSON path were retained and released at each evaluation.
        for index in ops.indices where ops[index].opacity > 0 && !ops[index].nodeIDs.isEmpty {
            guard let dashes = Self.dashes(of: ops[index].kind), !dashes.isEmpty else { continue }
            let joined = path(index)
            guard Self.dashesMayBeTooFine(joined, dashes: dashes), dashPatternIsTooFine(joined, dashes: dashes) else { continue }
            found.append(ops[index].jsonPath)
        }
        return found
    }

    /// A stroke's dash pattern; nil for a fill.
    private static func dashes(of kind: StyleKind) -> [Double]? {
        if case .stroke(_, let style) = kind { return style.dashes }
        return nil
    }

    /// False when `dashes` surely cut `path` into at most `maxDashPieces` pieces: the bound of
    /// `dashPieceEstimate` with each contour's length taken as its control polygon's.
    static func dashesMayBeTooFine(_ path: RasterPath, dashes: [Double]) -> Bool {
        let pattern = dashes.map { $0.isFinite ? max(0, $0) : 0 }
        let period = pattern.reduce(0, +)
        guard period > 0, period.isFinite else { return false }
        var (length, contours) = (0.0, 0)
        var (current, start) = (Point(0, 0), Point(0, 0))
        func run(to p: Point) {
            length += ((p.x - current.x) * (p.x - current.x) + (p.y - current.y) * (p.y - current.y)).squareRoot()
            current = p
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                (current, start) = (p, p)
                contours += 1
            case .line(let p): run(to: p)
            case .cubic(let c1, let c2, let p): run(to: c1); run(to: c2); run(to: p)
            case .close: run(to: start)
            }
        }
        let bound = (length / period + 2 * Double(contours)) * Double(pattern.count)
        return !bound.isFinite || bound > Double(maxDashPieces)
    }
}

extension LayerShapes {
    /// Notes, once for each, the dashed strokes of these shapes drawn solid (see above).
    func noteDashesDrawnSolid(_ notes: RenderNotes) {
        let joined = prepared?.paths
        for place in tree.dashedStrokesDrawnSolid(path: { joined?[$0] ?? tree.joinedPath(of: tree.ops[$0]) }) {
            Self.noteDashDrawnSolid(at: place, notes)
        }
    }

    /// Notes, once, that the dashed stroke at `place` (its JSON path) is drawn solid.
    static func noteDashDrawnSolid(at place: String, _ notes: RenderNotes) {
        let at = place.isEmpty ? "" : "at \(place): "
        notes.note("\(at)the dash pattern would cut the stroke into more than \(maxDashPieces) pieces; it is drawn solid")
    }
}
