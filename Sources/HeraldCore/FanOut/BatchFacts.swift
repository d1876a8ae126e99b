import Foundation
import HeraldModels

/// What the fan-out knows about one app's batch, read in bulk before anyone is decided: the
/// people and groups the events name, each recipient's record (preferences, mutes, tokens and
/// unread counts, with the increments of batches still in flight) and presence.
struct BatchFacts: Sendable {
    var users: [String: User] = [:]
    var groups: [String: Group] = [:]
    /// By uid; a recipient with nothing stored may have none.
    var records: [String: RecipientRecord] = [:]
    var presence: [String: [PresenceRecord]] = [:]
    /// The recipients' notice windows (read when the app coalesces clears or holds bursts).
    var windows: [NoticeWindow.Key: NoticeWindow] = [:]
    /// For the edits and deletes of the batch (by event id): the recipients who were alerted to
    /// the message.
    var alerted: [String: Set<String>] = [:]

    /// The event with the people and group it names resolved.
    func resolve(_ event: ChatEvent, app: App) -> ResolvedEvent {
        ResolvedEvent.resolve(event, app: app, users: users, group: ResolvedEvent.namedGroup(event).flatMap { groups[$0] })
    }

    /// What the decider needs of one recipient, with the record it was made from.
    func recipient(_ uid: String, of event: ChatEvent, settings: PushSettings) -> (facts: RecipientFacts, record: RecipientRecord) {
        let record = records[uid] ?? .empty
        let facts = RecipientFacts(
            uid: uid,
            user: users[uid],
            preferences: (record.preferences ?? .init()).over(settings.defaultPreferences),
            mutes: record.mutes,
            presence: presence.isEmpty ? [] : presence[uid] ?? [],
            tokens: record.tokens,
            alerted: alerted.isEmpty ? nil : alerted[event.id].map { $0.contains(uid) }
        )
        return (facts, record)
    }

    /// Reads everything at once: the recipients' records and presence run together (PostgreSQL
    /// and SQLite's readers take them in parallel), beside the users and groups the events name.
    static func load(
        ports: EnginePorts,
        appId: String,
        recipients: [String],
        events: [StoredEvent],
        windows needsWindows: Bool = false
    ) async throws -> BatchFacts {
        let named = Set(events.flatMap { ResolvedEvent.namedUids($0.event) }).union(recipients)
        async let users = ports.directory.users(appId: appId, uids: Array(named))
        var facts = BatchFacts()
        if !recipients.isEmpty {
            async let records = ports.directory.records(appId: appId, uids: recipients)
            async let presence = ports.presence.onlineSessions(appId: appId, uids: recipients)
            facts.records = try await records
            facts.presence = try await presence
            if needsWindows {
                facts.windows = Dictionary(try await ports.windows.windows(appId: appId, uids: recipients).map { ($0.key, $0) }) { $1 }
            }
        }
        // Read in place, by index: `for stored in events` copies every event to look at its kind.
        for index in events.indices where !recipients.isEmpty && events[index].event.body.isMessageChange {
            guard let messageId = events[index].event.messageId else { continue }
            facts.alerted[events[index].event.id] = try await ports.events.alertedRecipients(
                appId: appId,
                messageId: messageId,
                excluding: events[index].event.id,
                uids: recipients
            )
        }
        for guid in Set(events.compactMap { ResolvedEvent.namedGroup($0.event) }) {
            facts.groups[guid] = try await ports.groups.group(appId: appId, guid: guid)
        }
        facts.users = try await users
        return facts
    }
}
