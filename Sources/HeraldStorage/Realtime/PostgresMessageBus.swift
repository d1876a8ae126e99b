import Foundation
import HeraldCore
import SQLKit

/// `LISTEN/NOTIFY` between the Herald processes of one PostgreSQL database. NOTIFY carries at
/// most 8,000 bytes, so a larger payload is stored in `realtime_payloads` and the notification
/// carries its reference (`ref:<id>`); the row is purged with stale presence.
final class PostgresMessageBus: MessageBus {
    private let source: PostgresSource
    private let store: SQLStore

    /// The largest payload sent inline (NOTIFY's limit is 8,000 bytes, with some room kept).
    static let inlineLimit = 7_900

    init(source: PostgresSource, store: SQLStore) {
        self.source = source
        self.store = store
    }

    func publish(_ payload: String, channel: String) async throws {
        var message = payload
        if payload.utf8.count > Self.inlineLimit {
            let id = Identifier.hex(bytes: 12)
            try await store.write { db in
                try await db.raw(
                    """
                    INSERT INTO realtime_payloads (id, payload, created_at) VALUES (\(bind: id), \(bind: payload), \(bind: Date().ms))
                    """
                ).perform()
            }
            message = "ref:" + id
        }
        let notification = message
        try await store.write { db in
            try await db.raw("SELECT pg_notify(\(bind: channel), \(bind: notification))").perform()
        }
    }

    func listen(channel: String, handler: @escaping @concurrent @Sendable (String) async -> Void) async throws {
        let store = self.store
        try await source.listen(channel: channel) { message in
            guard message.hasPrefix("ref:") else { return await handler(message) }
            let id = String(message.dropFirst(4))
            let payload = try? await store.lookup { db in
                try await db.raw("SELECT payload FROM realtime_payloads WHERE id = \(bind: id)").firstRow()?.string("payload")
            }
            if let payload { await handler(payload) }
        }
    }
}

extension SQLStore {
    /// The bus between processes, when the database has one (PostgreSQL).
    public var messageBus: (any MessageBus)? {
        guard let postgres = source as? PostgresSource else { return nil }
        return PostgresMessageBus(source: postgres, store: self)
    }

    /// Whether several Herald processes may share this database.
    public var isShared: Bool { dialect == .postgres }
}
