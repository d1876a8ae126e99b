import Foundation
import HeraldModels

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
