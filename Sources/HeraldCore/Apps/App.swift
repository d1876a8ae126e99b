import Foundation
import HeraldModels

/// A tenant. Every other resource belongs to exactly one app.
public struct App: Sendable, Equatable {
    public var id: String
    public var name: String
    /// The region label CometChat's webhook envelope carries (`us`, `eu`, `in`, …).
    public var region: String
    public var settings: PushSettings
    public var createdAt: Date

    public init(id: String, name: String, region: String, settings: PushSettings = .init(), createdAt: Date) {
        self.id = id
        self.name = name
        self.region = region
        self.settings = settings
        self.createdAt = createdAt
    }
}
