import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A feed category (the label of a filter chip).
public struct NotificationCategory: Sendable, Equatable, Identifiable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}
