import Raster

extension Raster.Mask {
    /// Multiplies every coverage value by `factor` (0...1), for a mask's opacity.
    mutating func scale(by factor: Double) {
        let f = UInt32(max(0, min(1, factor)) * 256)
        values.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = UInt8((UInt32(buffer[i]) * f) >> 8) }
        }
    }
}
