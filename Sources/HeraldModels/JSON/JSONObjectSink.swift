/// Where the members of a JSON object go as code names them: into a dictionary
/// (``JSONObjectBuilder``) or straight into its text (``JSONObjectWriter``). A payload described
/// once against it is both: the object tests and tools look at, and the bytes sent on every push
/// without a dictionary built and dropped.
public protocol JSONObjectSink {
    /// Adds `"key": value`. Each key is added once.
    mutating func member(_ key: String, _ value: JSONValue)
    /// Adds `"key"` with an object whose members `members` adds.
    mutating func member(_ key: String, object members: (inout Self) -> Void)
}

/// Members into a ``JSONObject``.
public struct JSONObjectBuilder: JSONObjectSink {
    public private(set) var object: JSONObject = [:]

    public init() {}

    /// The object `members` describes.
    public static func object(_ members: (inout JSONObjectBuilder) -> Void) -> JSONObject {
        var builder = JSONObjectBuilder()
        members(&builder)
        return builder.object
    }

    public mutating func member(_ key: String, _ value: JSONValue) {
        object[key] = value
    }

    public mutating func member(_ key: String, object members: (inout JSONObjectBuilder) -> Void) {
        object[key] = .object(Self.object(members))
    }
}
