import Foundation

/// Events resolved against the directory for pushes sent again (a retry's event is read once,
/// then kept for its next retries).
actor ResolvedEventCache {
    private let ports: EnginePorts
    private var resolved: [String: ResolvedEvent] = [:]
    private let capacity = 10_000

    init(ports: EnginePorts) {
        self.ports = ports
    }

    func resolvedEvent(appId: String, eventId: String, snapshots: AppSnapshots) async throws -> ResolvedEvent? {
        if let known = resolved[eventId] { return known }
        guard let stored = try await ports.events.storedEvent(appId: appId, id: eventId), let snapshot = try await snapshots.app(appId) else {
            return nil
        }
        let users = try await ports.directory.users(appId: appId, uids: ResolvedEvent.namedUids(stored.event))
        var group: Group?
        if let guid = ResolvedEvent.namedGroup(stored.event) { group = try await ports.groups.group(appId: appId, guid: guid) }
        let event = ResolvedEvent.resolve(stored.event, app: snapshot.app, users: users, group: group)
        if resolved.count >= capacity { resolved.removeAll(keepingCapacity: true) }
        resolved[eventId] = event
        return event
    }
}
