import Foundation
import HeraldModels

public struct CallMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var sessionId: String
    /// `audio` or `video`.
    public var type: String
    /// `initiated`, `ongoing`, `ended`, `cancelled`, `rejected`, `busy`, `unanswered`.
    public var callAction: String
    public var category: MessageCategory { .call }
}
