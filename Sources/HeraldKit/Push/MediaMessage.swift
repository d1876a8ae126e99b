import Foundation
import HeraldModels

/// An image, video, audio or file message.
public struct MediaMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    public var type: String
    public var caption: String?
    /// The attachment's URL, when the push carries it.
    public var url: String?
    public var category: MessageCategory { .message }
}
