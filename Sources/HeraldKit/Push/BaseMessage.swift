import Foundation
import HeraldModels

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
