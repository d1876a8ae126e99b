import Foundation
import HeraldModels

/// Who a campaign is for.
public enum Audience: Codable, Sendable, Equatable {
    case all
    case uids([String])
    /// Users with any (`all: false`) or all of these tags.
    case tags([String], all: Bool)
    /// Members of any of these groups.
    case groups([String])
}

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

    public init(id: String, appId: String, name: String, status: Status, audience: Audience, templateId: String? = nil, card: JSONValue? = nil,
                data: JSONObject = [:], channelId: String? = nil, categoryId: String? = nil, tags: [String] = [], metadata: JSONObject = [:],
                push: CampaignPush? = nil, sendAt: Date? = nil, startedAt: Date? = nil, finishedAt: Date? = nil, cursor: String? = nil,
                audienceSize: Int = 0, itemsCreated: Int = 0, pushesQueued: Int = 0, createdAt: Date, updatedAt: Date) {
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

/// A campaign's numbers (`GET /v1/campaigns/{id}/stats`).
public struct CampaignStats: Sendable, Equatable {
    public struct Bucket: Sendable, Equatable {
        public var start: Date
        public var delivered: Int
        public var read: Int
        public var engaged: Int
        public var pushesDelivered: Int
        public var pushesClicked: Int

        public init(start: Date, delivered: Int = 0, read: Int = 0, engaged: Int = 0, pushesDelivered: Int = 0, pushesClicked: Int = 0) {
            self.start = start
            self.delivered = delivered
            self.read = read
            self.engaged = engaged
            self.pushesDelivered = pushesDelivered
            self.pushesClicked = pushesClicked
        }
    }

    public var audienceSize: Int
    public var itemsCreated: Int
    public var delivered: Int
    public var read: Int
    /// Engagements by interaction (`clicked`, `viewed`, a button's id…).
    public var engaged: [String: Int]
    public var pushesSent: Int
    public var pushesFailed: Int
    /// Pushes still waiting for their (next) attempt.
    public var pushesPending: Int = 0
    public var pushesDelivered: Int
    public var pushesClicked: Int
    /// The same, per hour.
    public var timeline: [Bucket]

    public init(audienceSize: Int = 0, itemsCreated: Int = 0, delivered: Int = 0, read: Int = 0, engaged: [String: Int] = [:], pushesSent: Int = 0,
                pushesFailed: Int = 0, pushesDelivered: Int = 0, pushesClicked: Int = 0, timeline: [Bucket] = []) {
        self.audienceSize = audienceSize
        self.itemsCreated = itemsCreated
        self.delivered = delivered
        self.read = read
        self.engaged = engaged
        self.pushesSent = pushesSent
        self.pushesFailed = pushesFailed
        self.pushesDelivered = pushesDelivered
        self.pushesClicked = pushesClicked
        self.timeline = timeline
    }
}
