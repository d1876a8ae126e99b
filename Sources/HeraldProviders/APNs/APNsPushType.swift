/// An APNs push type: the `apns-push-type` header, the topic it needs and the priority it allows.
/// A struct rather than a closed enum, so that new types are a new static value.
public struct APNsPushType: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    /// Appended to the bundle id to make `apns-topic`.
    public let topicSuffix: String
    /// The priority used when the request does not set one.
    public let defaultPriority: Int
    /// The largest payload APNs accepts for this type.
    public let maxPayloadBytes: Int

    public init(rawValue: String, topicSuffix: String = "", defaultPriority: Int = 10, maxPayloadBytes: Int = 4096) {
        self.rawValue = rawValue
        self.topicSuffix = topicSuffix
        self.defaultPriority = defaultPriority
        self.maxPayloadBytes = maxPayloadBytes
    }

    public static let alert = APNsPushType(rawValue: "alert")
    /// Background pushes must use priority 5.
    public static let background = APNsPushType(rawValue: "background", defaultPriority: 5)
    public static let voip = APNsPushType(rawValue: "voip", topicSuffix: ".voip", maxPayloadBytes: 5120)
    public static let liveActivity = APNsPushType(rawValue: "liveactivity", topicSuffix: ".push-type.liveactivity")
    public static let location = APNsPushType(rawValue: "location", topicSuffix: ".location-query")
    public static let complication = APNsPushType(rawValue: "complication", topicSuffix: ".complication")
    public static let fileProvider = APNsPushType(rawValue: "fileprovider", topicSuffix: ".pushkit.fileprovider")
    public static let widgets = APNsPushType(rawValue: "widgets", topicSuffix: ".push-type.widgets")

    public func topic(bundleId: String) -> String { bundleId + topicSuffix }

    /// The known types by their header value.
    public static let known: [APNsPushType] = [.alert, .background, .voip, .liveActivity, .location, .complication, .fileProvider, .widgets]

    /// A known type by name, or a new one with Apple's defaults.
    public static func named(_ name: String) -> APNsPushType {
        known.first { $0.rawValue == name } ?? APNsPushType(rawValue: name)
    }

    public var description: String { rawValue }
}
