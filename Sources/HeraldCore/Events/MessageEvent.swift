import Foundation
import HeraldModels

/// A message, new, edited or deleted, in CometChat iOS's shape.
///
/// Its fields are kept in one shared, immutable box: every push, decision and payload of a message
/// reads a field or two out of the event (`case .message(let m)`), and each such read copied the
/// whole message, some thirty strings and objects retained and released again, several times
/// per push.
public struct MessageEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case new, edited, deleted
    }

    /// The message's fields, as the event gives them.
    public struct Fields: Codable, Sendable, Equatable {
        public var action: Action
        /// The message id as the chat backend gave it (CometChat iOS shows a number).
        public var id: JSONValue
        public var muid: String?
        /// `message`, `action`, `call` or `custom`.
        public var category: String
        /// `text`, `image`, `video`, `audio`, `file`, or a custom type.
        public var type: String
        public var text: String?
        public var data: JSONObject?
        public var metadata: JSONObject?
        public var sender: PersonRef
        public var receiver: String
        public var receiverUser: PersonRef?
        public var receiverGroup: GroupRef?
        public var receiverType: ReceiverType
        public var conversationId: String
        public var sentAt: Date
        /// The uids the message mentions.
        public var mentions: [String]
        /// The message mentions everyone (`@all`, `@channel`).
        public var mentionsAll: Bool = false
        public var parentId: String?
        public var suppressPush: Bool
        public var editedAt: Date?
        public var editedBy: String?
        public var deletedAt: Date?
        public var deletedBy: String?
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private let storage: Storage

    public init(_ fields: Fields) {
        storage = Storage(fields)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    public static func == (lhs: MessageEvent, rhs: MessageEvent) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public var action: Action { storage.fields.action }
    public var id: JSONValue { storage.fields.id }
    public var muid: String? { storage.fields.muid }
    public var category: String { storage.fields.category }
    public var type: String { storage.fields.type }
    public var text: String? { storage.fields.text }
    public var data: JSONObject? { storage.fields.data }
    public var metadata: JSONObject? { storage.fields.metadata }
    public var sender: PersonRef { storage.fields.sender }
    public var receiver: String { storage.fields.receiver }
    public var receiverUser: PersonRef? { storage.fields.receiverUser }
    public var receiverGroup: GroupRef? { storage.fields.receiverGroup }
    public var receiverType: ReceiverType { storage.fields.receiverType }
    public var conversationId: String { storage.fields.conversationId }
    public var sentAt: Date { storage.fields.sentAt }
    public var mentions: [String] { storage.fields.mentions }
    public var mentionsAll: Bool { storage.fields.mentionsAll }
    public var parentId: String? { storage.fields.parentId }
    public var suppressPush: Bool { storage.fields.suppressPush }
    public var editedAt: Date? { storage.fields.editedAt }
    public var editedBy: String? { storage.fields.editedBy }
    public var deletedAt: Date? { storage.fields.deletedAt }
    public var deletedBy: String? { storage.fields.deletedBy }

    /// The message id as text (the notification `tag`, the collapse id).
    public var idText: String { id.text }
}
