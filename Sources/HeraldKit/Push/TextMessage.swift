import Foundation
import HeraldModels

public struct TextMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var text: String
    public var category: MessageCategory { .message }
    public var type: String { "text" }
}
