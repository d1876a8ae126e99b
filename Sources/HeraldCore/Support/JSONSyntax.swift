import HeraldModels

/// A strict RFC 8259 check: whether a payload is a JSON object before it goes to a provider.
/// One pass of HeraldModels' reader, cheap enough for every push.
public enum JSONSyntax {
    /// Whether `bytes` is exactly one JSON object, with optional surrounding whitespace.
    public static func isObject<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard case .object = try? JSONValue(jsonBytes: bytes) else { return false }
        return true
    }

    /// Whether `bytes` is exactly one JSON object, with optional surrounding whitespace.
    public static func isObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard case .object = try? JSONValue(jsonBytes: bytes) else { return false }
        return true
    }
}
