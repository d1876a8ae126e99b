import Foundation
import HeraldModels

/// A campaign's optional push: title and body templates, and which providers to use (all when
/// nil).
public struct CampaignPush: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    public var providerIds: [String]?
    /// The badge to set (`aps.badge`); none when nil.
    public var badge: Int?

    public init(title: String, body: String, providerIds: [String]? = nil, badge: Int? = nil) {
        self.title = title
        self.body = body
        self.providerIds = providerIds
        self.badge = badge
    }
}
