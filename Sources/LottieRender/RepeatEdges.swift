import Glibc
import LottieModel
import Raster

/// After Effects' "Repeat Edge Pixels" of the Gaussian blur: the layer's own rectangle is what
/// the blur works on, its edge pixels continued outward where the blur reads past it, and the
/// result is cut to that rectangle. A full-frame layer so keeps its colour up to the frame's
/// edges instead of fading into the transparency around it.
///
/// The rectangle is the layer's source, as After Effects sizes it: a solid's, an image's or a
/// precomp's width and height; a shape or text layer is drawn at its composition's size, so its
/// composition's frame. Through a rotation or skew the rectangle's device bounding box stands
/// for it (its corners then continue the transparency there).
extension LayerCompositor {
    /// The layer's rectangle in device pixels, and the part of it `o`'s content can have been
    /// drawn in (inside the clip and within `reachable`), for a pass whose blurs repeat edge
    /// pixels; nil otherwise, or when the rectangle is unknown (an image asset without a size).
    func repeatedEdges(_ o: Offscreen, clip: Clip?, reachable: PixelRect) -> (frame: PixelRect, drawn: PixelRect)? {
        guard o.effects.repeatsEdges, let frame = Self.layerFrame(o.layer, world: o.world, compMatrix: o.compMatrix,
                                                                  compSize: compSize, images: renderer.animation.assets) else { return nil }
        let drawable = clip.map { $0.rect.intersection(reachable) } ?? reachable
        return (frame, frame.intersection(drawable))
    }

    /// The device pixels of `layer`'s rectangle: its source's size through `world`, or for a
    /// shape or text layer its composition's (`compSize`) through `compMatrix`.
    static func layerFrame(_ layer: Layer, world: Matrix, compMatrix: Matrix, compSize: (width: Double, height: Double),
                           images: [String: Asset]) -> PixelRect? {
        switch layer.kind {
        case .solid(_, let width, let height), .precomp(_, let width, let height):
            return deviceRect(width: width, height: height, matrix: world)
        case .image(let refId):
            guard case .image(let asset)? = images[refId] else { return nil }
            return deviceRect(width: asset.width, height: asset.height, matrix: world)
        case .shape, .text, .null, .unsupported:
            return deviceRect(width: compSize.width, height: compSize.height, matrix: compMatrix)
        }
    }

    /// The pixels of the rectangle (0, 0)–(width, height) through `matrix`: its edges rounded
    /// to the nearest pixel boundary (where a layer's edge pixels are half covered or more).
    static func deviceRect(width: Double, height: Double, matrix: Matrix) -> PixelRect? {
        guard width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
        let corners = [Point(0, 0), Point(width, 0), Point(width, height), Point(0, height)].map { matrix.apply($0) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { return nil }
        func pixel(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v)).rounded()) }
        let rect = PixelRect(x0: pixel(xs.min()!), y0: pixel(ys.min()!), x1: pixel(xs.max()!), y1: pixel(ys.max()!))
        return rect.isEmpty ? nil : rect
    }
}

extension Surface {
    /// Continues the pixels along the edges of `rect` outward, `across` pixels left and right
    /// and `down` pixels up and down (the corners take the corner pixels): what a blur reading
    /// past the edges of a layer that repeats its edge pixels sees. Only the surface's own
    /// pixels are written.
    mutating func repeatEdges(of rect: PixelRect, across: Int, down: Int) {
        let inner = rect.intersection(bounds)
        let (dx, dy) = (max(0, across), max(0, down))
        guard !inner.isEmpty, dx > 0 || dy > 0 else { return }
        let outer = PixelRect(x0: inner.x0 - dx, y0: inner.y0 - dy, x1: inner.x1 + dx, y1: inner.y1 + dy).intersection(bounds)
        guard outer != inner else { return }
        let (w, ox, oy) = (width, originX, originY)
        pixels.withUnsafeMutableBufferPointer { px in
            // The first pixel of device row y's part of `outer`.
            func start(_ y: Int) -> UnsafeMutablePointer<UInt32> { px.baseAddress! + (y - oy) * w + (outer.x0 - ox) }
            let (left, right, span) = (inner.x0 - outer.x0, outer.x1 - inner.x1, inner.width)
            for y in outer.y0..<outer.y1 {
                let row = start(y)
                let nearest = min(max(y, inner.y0), inner.y1 - 1)
                if nearest != y { (row + left).update(from: start(nearest) + left, count: span) }
                row.update(repeating: row[left], count: left)
                (row + left + span).update(repeating: row[left + span - 1], count: right)
            }
        }
        markPainted(outer)
    }
}
