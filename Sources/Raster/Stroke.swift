import Glibc

public enum LineCap: Sendable { case butt, round, square }
public enum LineJoin: Sendable { case miter, round, bevel }

public struct StrokeStyle: Equatable, Sendable {
    public var width: Double = 1
    public var cap: LineCap = .butt
    public var join: LineJoin = .miter
    /// Longest miter, in stroke widths, before a miter join falls back to a bevel.
    public var miterLimit: Double = 4
    /// Dash and gap lengths alternating; empty for a solid line.
    public var dashes: [Double] = []
    public var dashOffset: Double = 0

    public init() {}
}

/// The outline of a stroke as a path to fill with the non-zero rule: one polygon per run of
/// segments that meet smoothly (a flattened curve), then join and cap pieces at corners and
/// ends, all wound the same way so that overlaps add up instead of cancelling.
///
/// A round or square cap at the end of a run, and a round join at a corner, are made part of
/// the pieces they close (a cap joins its run's polygon, a join is the sector of its circle
/// outside the corner) where that covers the same region as a whole circle or square of its
/// own; `separatePieces` makes every cap and round join a polygon of its own (the reference:
/// overlapping pieces count twice at pixels their edges share, so the merged outline is the
/// closer of the two to the stroke's true area; `StrokeOutlineTests` compares both with it).
///
/// Built by `StrokeOutliner`; `referenceStrokeOutline` is the plain construction it is tested
/// against (`StrokeOutlinerTests`).
public func strokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double, separatePieces: Bool = false) -> Path {
    if separatePieces { return referenceStrokeOutline(path, style: style, tolerance: tolerance, separatePieces: true) }
    var outliner = StrokeOutliner(style: style, tolerance: tolerance, transform: nil)
    outliner.stroke(path)
    return outliner.output
}

/// `strokeOutline(path, style:, tolerance:)` transformed by `transform`, each point mapped as
/// it is written (`Path.transformed` would copy the whole outline once more).
public func strokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double, transform: Transform) -> Path {
    var scratch = StrokeScratch()
    return strokeOutline(path, style: style, tolerance: tolerance, transform: transform, scratch: &scratch)
}

/// `strokeOutline(path, style:, tolerance:, transform:)` outlined in the buffers of `scratch`
/// (the same points: only where they are worked out differs).
func strokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double, transform: Transform, scratch: inout StrokeScratch) -> Path {
    var outliner = StrokeOutliner(style: style, tolerance: tolerance, transform: transform, scratch: &scratch)
    outliner.stroke(path)
    return outliner.finish(keepingIn: &scratch)
}
