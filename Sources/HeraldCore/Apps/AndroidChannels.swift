import Foundation

/// The Android notification channel each kind of push is posted to
/// (`android.notification.channel_id`); the app creates channels with these ids. A channel the
/// app has not created falls back to its manifest's default channel.
public struct AndroidChannels: Codable, Sendable, Equatable {
    public var messages: String
    public var mentions: String
    public var calls: String

    public init(messages: String = "messages", mentions: String = "mentions", calls: String = "calls") {
        self.messages = messages
        self.mentions = mentions
        self.calls = calls
    }

    /// Checks each id: Android accepts any string, Herald keeps them short and printable.
    public func validated(field: String = "androidChannels") throws -> AndroidChannels {
        for (name, value) in [("messages", messages), ("mentions", mentions), ("calls", calls)] {
            try Validate.text(value, field: "\(field).\(name)", maxLength: 100, required: true)
        }
        return self
    }
}
