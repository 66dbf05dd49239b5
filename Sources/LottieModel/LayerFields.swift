/// A layer's values. `Layer` keeps them in a `LayerBox`: a layer is read every frame, and
/// copied where it is handed on (lent from an array by a pointer, a copy is the only safe
/// read); as a plain struct each copy retained and released every part of it (name,
/// kind, the seven animated properties of its transform, masks, effects, styles).
@usableFromInline
struct LayerFields: Sendable {
    @usableFromInline var name: String
    @usableFromInline var index: Int?
    @usableFromInline var parent: Int?
    @usableFromInline var kind: LayerKind
    @usableFromInline var inPoint: Double
    @usableFromInline var outPoint: Double
    @usableFromInline var startTime: Double
    @usableFromInline var timeStretch: Double
    @usableFromInline var transform: Transform
    @usableFromInline var autoOrient: Bool
    @usableFromInline var hidden: Bool
    @usableFromInline var blendMode: BlendMode
    @usableFromInline var masks: [Mask]
    @usableFromInline var matteMode: MatteMode
    /// `tp`: the index of the layer that mattes this one, when not simply the one above.
    @usableFromInline var matteParent: Int?
    /// `td`: this layer is used as a matte and is not drawn itself.
    @usableFromInline var isMatteSource: Bool
    /// Seconds of the precomp's time at each frame of this layer.
    @usableFromInline var timeRemap: Animated<Double>?
    @usableFromInline var effects: [Effect]
    /// `sy`: layer styles.
    @usableFromInline var styles: [LayerStyle]
}

/// The box of a layer's values. Never changed once made (`let`): layers sharing it see the
/// same values from any thread, and reading it needs no exclusivity check.
@usableFromInline
final class LayerBox: Sendable {
    @usableFromInline
    let fields: LayerFields

    @usableFromInline
    init(_ fields: LayerFields) { self.fields = fields }
}

// Each property is read in place from the box (`_read`: a borrow, no copy) and changed by
// boxing the changed values anew (`_modify`), which only loading and rebinding providers do.
extension Layer {
    @inlinable public var name: String {
        _read { yield box.fields.name }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.name }
    }
    @inlinable public var index: Int? {
        _read { yield box.fields.index }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.index }
    }
    @inlinable public var parent: Int? {
        _read { yield box.fields.parent }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.parent }
    }
    @inlinable public var kind: LayerKind {
        _read { yield box.fields.kind }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.kind }
    }
    @inlinable public var inPoint: Double {
        _read { yield box.fields.inPoint }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.inPoint }
    }
    @inlinable public var outPoint: Double {
        _read { yield box.fields.outPoint }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.outPoint }
    }
    @inlinable public var startTime: Double {
        _read { yield box.fields.startTime }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.startTime }
    }
    @inlinable public var timeStretch: Double {
        _read { yield box.fields.timeStretch }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.timeStretch }
    }
    @inlinable public var transform: Transform {
        _read { yield box.fields.transform }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.transform }
    }
    @inlinable public var autoOrient: Bool {
        _read { yield box.fields.autoOrient }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.autoOrient }
    }
    @inlinable public var hidden: Bool {
        _read { yield box.fields.hidden }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.hidden }
    }
    @inlinable public var blendMode: BlendMode {
        _read { yield box.fields.blendMode }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.blendMode }
    }
    @inlinable public var masks: [Mask] {
        _read { yield box.fields.masks }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.masks }
    }
    @inlinable public var matteMode: MatteMode {
        _read { yield box.fields.matteMode }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.matteMode }
    }
    /// `tp`: the index of the layer that mattes this one, when not simply the one above.
    @inlinable public var matteParent: Int? {
        _read { yield box.fields.matteParent }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.matteParent }
    }
    /// `td`: this layer is used as a matte and is not drawn itself.
    @inlinable public var isMatteSource: Bool {
        _read { yield box.fields.isMatteSource }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.isMatteSource }
    }
    /// Seconds of the precomp's time at each frame of this layer.
    @inlinable public var timeRemap: Animated<Double>? {
        _read { yield box.fields.timeRemap }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.timeRemap }
    }
    @inlinable public var effects: [Effect] {
        _read { yield box.fields.effects }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.effects }
    }
    /// `sy`: layer styles.
    @inlinable public var styles: [LayerStyle] {
        _read { yield box.fields.styles }
        _modify { var f = box.fields; defer { box = LayerBox(f) }; yield &f.styles }
    }
}
