/// Writes a JSON object's text member by member, for payloads made on every push: no dictionary
/// is built to be encoded and dropped.
public struct JSONObjectWriter: JSONObjectSink {
    private var out: [UInt8]
    private var empty = true

    public init(capacity: Int = 256) {
        out = []
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "{"))
    }

    /// Appends `"key":value`.
    public mutating func member(_ key: String, _ value: JSONValue) {
        member(key) { value.write(into: &$0) }
    }

    /// Appends `"key":` and the value's text, which `write` appends.
    public mutating func member(_ key: String, _ write: (inout [UInt8]) -> Void) {
        if !empty { out.append(UInt8(ascii: ",")) }
        empty = false
        JSONValue.write(string: key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(&out)
    }

    /// Appends `"key":` and an object whose members `members` writes.
    public mutating func member(_ key: String, object members: (inout JSONObjectWriter) -> Void) {
        member(key) { $0.append(UInt8(ascii: "{")) }
        empty = true
        members(&self)
        out.append(UInt8(ascii: "}"))
        empty = false
    }

    /// The object's text, closed.
    public consuming func finish() -> [UInt8] {
        out.append(UInt8(ascii: "}"))
        return out
    }
}
