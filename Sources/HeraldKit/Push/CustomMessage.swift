import Foundation
import HeraldModels

public struct CustomMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var type: String
    public var customData: JSONObject
    public var category: MessageCategory { .custom }
}
