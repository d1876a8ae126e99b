import Foundation
import HeraldModels

/// A campaign: a card for an audience, now or at `sendAt`, with an optional push.
public struct Campaign: Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case draft, scheduled, sending, sent, cancelled
    }

    public var id: String
    public var appId: String
    public var name: String
    public var status: Status
    public var audience: Audience
    public var templateId: String?
    /// The card, when no template is used.
    public var card: JSONValue?
    /// Variables for the template (`{{campaign.data.…}}`, `{{data.…}}`).
    public var data: JSONObject
    public var channelId: String?
    public var categoryId: String?
    public var tags: [String]
    public var metadata: JSONObject
    public var push: CampaignPush?
    public var sendAt: Date?
    public var startedAt: Date?
    public var finishedAt: Date?
    /// Where the audience stream is (the last uid done, and which group for group audiences).
    public var cursor: String?
    public var audienceSize: Int
    public var itemsCreated: Int
    public var pushesQueued: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String,
        appId: String,
        name: String,
        status: Status,
        audience: Audience,
        templateId: String? = nil,
        card: JSONValue? = nil,
        data: JSONObject = [:],
        channelId: String? = nil,
        categoryId: String? = nil,
        tags: [String] = [],
        metadata: JSONObject = [:],
        push: CampaignPush? = nil,
        sendAt: Date? = nil,
        startedAt: Date? = nil,
        finishedAt: Date? = nil,
        cursor: String? = nil,
        audienceSize: Int = 0,
        itemsCreated: Int = 0,
        pushesQueued: Int = 0,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.appId = appId
        self.name = name
        self.status = status
        self.audience = audience
        self.templateId = templateId
        self.card = card
        self.data = data
        self.channelId = channelId
        self.categoryId = categoryId
        self.tags = tags
        self.metadata = metadata
        self.push = push
        self.sendAt = sendAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.cursor = cursor
        self.audienceSize = audienceSize
        self.itemsCreated = itemsCreated
        self.pushesQueued = pushesQueued
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
