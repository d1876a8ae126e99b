import HeraldCore

/// An APNs push type on the wire: the `apns-push-type` header, the topic it needs and the
/// largest payload APNs takes for it.
public struct APNsPushType: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    /// Appended to the bundle id to make `apns-topic`.
    public let topicSuffix: String
    /// The largest payload APNs accepts for this type.
    public let maxPayloadBytes: Int

    init(rawValue: String, topicSuffix: String = "", maxPayloadBytes: Int = 4096) {
        self.rawValue = rawValue
        self.topicSuffix = topicSuffix
        self.maxPayloadBytes = maxPayloadBytes
    }

    public static let alert = APNsPushType(rawValue: "alert")
    public static let background = APNsPushType(rawValue: "background")
    public static let voip = APNsPushType(rawValue: "voip", topicSuffix: ".voip", maxPayloadBytes: 5120)

    /// The wire type of a kind of push Core makes.
    public init(_ kind: APNsPushKind) {
        switch kind {
        case .alert: self = .alert
        case .background: self = .background
        case .voip: self = .voip
        }
    }

    public func topic(bundleId: String) -> String { bundleId + topicSuffix }

    /// The types Herald sends.
    public static let known: [APNsPushType] = [.alert, .background, .voip]

    public var description: String { rawValue }
}
