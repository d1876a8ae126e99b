import Foundation
import HeraldModels

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
