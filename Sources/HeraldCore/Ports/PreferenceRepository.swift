import Foundation

public protocol PreferenceRepository: Sendable {
    func preferences(appId: String, uids: [String]) async throws -> [String: NotificationPreferences]
    func setPreferences(appId: String, uid: String, _ preferences: NotificationPreferences, at: Date) async throws
    func mutes(appId: String, uid: String) async throws -> [ConversationMute]
    /// Every mute of these users.
    func mutes(appId: String, uids: [String]) async throws -> [String: [ConversationMute]]
    func setMute(appId: String, uid: String, _ mute: ConversationMute, at: Date) async throws
    func deleteMute(appId: String, uid: String, conversationId: String) async throws -> Bool
}
