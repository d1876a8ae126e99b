import Foundation
import HeraldModels

/// What to publish to each user of a batch: a card (with `{{variables}}`) and how it is filed.
public struct FeedItemSpec: Sendable, Equatable {
    public var card: JSONValue
    public var data: JSONObject
    public var channelId: String?
    public var categoryId: String?
    /// The category's label, copied onto each item.
    public var category: String?
    public var tags: [String]
    public var metadata: JSONObject
    /// Who the items are from (CometChat Campaigns' `sender`): the app, or the uid an admin names.
    public var sender: String
    public var push: CampaignPush?
    public var campaignId: String?
    public var campaignName: String?

    public init(
        card: JSONValue,
        data: JSONObject = [:],
        channelId: String? = nil,
        categoryId: String? = nil,
        category: String? = nil,
        tags: [String] = [],
        metadata: JSONObject = [:],
        sender: String,
        push: CampaignPush? = nil,
        campaignId: String? = nil,
        campaignName: String? = nil
    ) {
        self.card = card
        self.data = data
        self.channelId = channelId
        self.categoryId = categoryId
        self.category = category
        self.tags = tags
        self.metadata = metadata
        self.sender = sender
        self.push = push
        self.campaignId = campaignId
        self.campaignName = campaignName
    }
}
