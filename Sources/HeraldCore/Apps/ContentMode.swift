import Foundation

/// What a chat push carries (`contentMode` in the push settings, overridable per user).
public enum ContentMode: String, Codable, Sendable, CaseIterable {
    /// The notification as today: title, body, the notification details.
    case full
    /// Signal's way: a localisable "New message" alert (`loc-key`), `mutable-content: 1`, and
    /// only the ids (message, conversation, sender) for a Notification Service Extension to
    /// fetch the message and fill the notification in.
    case idOnly
    /// The whole notification sealed with RFC 8291 (`aes128gcm`) to a key the device registered
    /// with its token; the provider sees a "New message" alert and ciphertext. Devices that
    /// registered no key get `idOnly`.
    case encrypted

    /// The value by its wire name, or an error naming `field`.
    public static func named(_ text: String, field: String) throws -> ContentMode {
        guard let mode = ContentMode(rawValue: text) else {
            throw HeraldError.invalidField(field, "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
    }
}
