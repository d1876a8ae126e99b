import Foundation
import HeraldModels

/// A chat user as a push names them.
public struct ChatUser: Sendable, Equatable {
    public var uid: String
    public var name: String
    public var avatar: String?
    public var role: String?
    public var status: String?

    public init(uid: String, name: String, avatar: String? = nil, role: String? = nil, status: String? = nil) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.role = role
        self.status = status
    }
}

/// A group as a push names it.
public struct ChatGroup: Sendable, Equatable {
    public var guid: String
    public var name: String
    public var icon: String?

    public init(guid: String, name: String, icon: String? = nil) {
        self.guid = guid
        self.name = name
        self.icon = icon
    }
}

/// Who a message went to: a user (1:1) or a group.
public enum MessageReceiver: Sendable, Equatable {
    case user(ChatUser)
    case group(ChatGroup)

    public var id: String {
        switch self {
        case .user(let user): user.uid
        case .group(let group): group.guid
        }
    }
}

public enum ReceiverType: String, Sendable, Equatable {
    case user, group
}

/// CometChat iOS's message categories.
public enum MessageCategory: String, Sendable, Equatable {
    case message, custom, action, call, interactive
}

/// What every message parsed from a push has.
public protocol BaseMessage: Sendable {
    /// The message id (or the call's message id); nil for pushes that carry none (group actions).
    var id: String? { get }
    var muid: String? { get }
    var category: MessageCategory { get }
    /// `text`, `image`, `video`, `audio`, `file`, a custom type, `groupMember`, `audio`/`video` calls…
    var type: String { get }
    var sender: ChatUser { get }
    var receiver: MessageReceiver { get }
    var receiverType: ReceiverType { get }
    var conversationId: String { get }
    var sentAt: Date? { get }
    /// The push's own title and body (what the notification showed).
    var title: String? { get }
    var body: String? { get }
}

/// Fields every message type shares.
public struct MessageHeader: Sendable, Equatable {
    public var id: String?
    public var muid: String?
    public var sender: ChatUser
    public var receiver: MessageReceiver
    public var conversationId: String
    public var sentAt: Date?
    public var editedAt: Date?
    public var deletedAt: Date?
    public var title: String?
    public var body: String?

    public var receiverType: ReceiverType {
        if case .group = receiver { return .group }
        return .user
    }
}

/// Forwards ``BaseMessage``'s fields to a message's ``MessageHeader``.
public protocol HeaderedMessage: BaseMessage {
    var header: MessageHeader { get }
}

extension HeaderedMessage {
    public var id: String? { header.id }
    public var muid: String? { header.muid }
    public var sender: ChatUser { header.sender }
    public var receiver: MessageReceiver { header.receiver }
    public var receiverType: ReceiverType { header.receiverType }
    public var conversationId: String { header.conversationId }
    public var sentAt: Date? { header.sentAt }
    public var title: String? { header.title }
    public var body: String? { header.body }
}

public struct TextMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var text: String
    public var category: MessageCategory { .message }
    public var type: String { "text" }
}

/// An image, video, audio or file message.
public struct MediaMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var type: String
    public var caption: String?
    /// The attachment's URL, when the push carries it.
    public var url: String?
    public var category: MessageCategory { .message }
}

public struct CustomMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var type: String
    public var customData: JSONObject
    public var category: MessageCategory { .custom }
}

/// Something that happened rather than something said: a group member added, a reaction…
public struct ActionMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    /// `added`, `joined`, `kicked`… when the push says; the reaction for reactions.
    public var action: String?
    /// What the notification said.
    public var message: String
    public var type: String
    public var category: MessageCategory { .action }
}

public struct CallMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var sessionId: String
    /// `audio` or `video`.
    public var type: String
    /// `initiated`, `ongoing`, `ended`, `cancelled`, `rejected`, `busy`, `unanswered`.
    public var callAction: String
    public var category: MessageCategory { .call }
}
