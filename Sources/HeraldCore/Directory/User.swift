import Foundation
import HeraldModels

/// A user of the integrator's chat app, synced into Herald.
///
/// Its fields live behind one immutable reference: a user is copied into each recipient's facts,
/// each event's sender and each cache lookup on a push's path, and a copy of seven fields retained
/// each of their references (~45 retains a 1:1 push, `Benchmarks/count-calls.sh`); a copy of the
/// reference retains one. A change makes a new reference (users change through the directory's
/// API, not on a push's path), so a value never changes under another copy.
public struct User: Sendable, Equatable {
    private struct Fields: Sendable, Equatable {
        var uid: String
        var name: String
        var avatar: String?
        var metadata: JSONObject?
        var tags: [String]
        var locale: String?
        var timeZone: String?
        var createdAt: Date
        var updatedAt: Date
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    public init(
        uid: String,
        name: String,
        avatar: String? = nil,
        metadata: JSONObject? = nil,
        tags: [String] = [],
        locale: String? = nil,
        timeZone: String? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        storage = Storage(
            Fields(
                uid: uid,
                name: name,
                avatar: avatar,
                metadata: metadata,
                tags: tags,
                locale: locale,
                timeZone: timeZone,
                createdAt: createdAt,
                updatedAt: updatedAt
            )
        )
    }

    public var uid: String {
        get { storage.fields.uid }
        set { change { $0.uid = newValue } }
    }
    public var name: String {
        get { storage.fields.name }
        set { change { $0.name = newValue } }
    }
    public var avatar: String? {
        get { storage.fields.avatar }
        set { change { $0.avatar = newValue } }
    }
    public var metadata: JSONObject? {
        get { storage.fields.metadata }
        set { change { $0.metadata = newValue } }
    }
    public var tags: [String] {
        get { storage.fields.tags }
        set { change { $0.tags = newValue } }
    }
    public var locale: String? {
        get { storage.fields.locale }
        set { change { $0.locale = newValue } }
    }
    public var timeZone: String? {
        get { storage.fields.timeZone }
        set { change { $0.timeZone = newValue } }
    }
    public var createdAt: Date {
        get { storage.fields.createdAt }
        set { change { $0.createdAt = newValue } }
    }
    public var updatedAt: Date {
        get { storage.fields.updatedAt }
        set { change { $0.updatedAt = newValue } }
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    public static func == (lhs: User, rhs: User) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }
}
