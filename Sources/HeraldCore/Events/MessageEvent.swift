import Foundation
import HeraldModels

/// A message, new, edited or deleted, in CometChat iOS's shape.
public struct MessageEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case new, edited, deleted
    }

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

    /// The message id as text (the notification `tag`, the collapse id).
    public var idText: String { id.text }
}
