import Foundation
import HeraldModels

/// `/v1/feed/...`: an app's channels, categories and card templates, and items sent straight
/// to named users (`POST /v1/feed/items`).
public struct FeedManagement: Sendable {
    let feed: any FeedRepository
    let users: any RecipientDirectory
    let publisher: FeedPublisher
    let clock: any WallClock

    public init(feed: any FeedRepository, users: any RecipientDirectory, publisher: FeedPublisher, clock: any WallClock = SystemWallClock()) {
        self.feed = feed
        self.users = users
        self.publisher = publisher
        self.clock = clock
    }

    // MARK: Set-up records

    public func list(appId: String, kind: FeedSetupKind, cursor: String?, limit: Int) async throws -> Page<FeedSetupRecord> {
        let limit = min(max(limit, 1), 100)
        let after = try cursor.map(Cursor.decode)
        return Page(probed: try await feed.setupRecords(appId: appId, kind: kind, after: after, limit: limit + 1), limit: limit, key: \.id)
    }

    public func get(appId: String, kind: FeedSetupKind, id: String) async throws -> FeedSetupRecord {
        guard let record = try await feed.setupRecord(appId: appId, kind: kind, id: id) else { throw HeraldError.notFound(kind.rawValue, id) }
        return record
    }

    public func delete(appId: String, kind: FeedSetupKind, id: String) async throws {
        guard try await feed.deleteSetupRecord(appId: appId, kind: kind, id: id) else { throw HeraldError.notFound(kind.rawValue, id) }
    }

    public func putChannel(appId: String, id: String, name: String, description: String?, create: Bool) async throws -> FeedChannel {
        try Validate.identifier(id, field: "id")
        try Validate.text(name, field: "name", maxLength: 200, required: true)
        try Validate.text(description, field: "description", maxLength: 1_000)
        let record = try await put(
            appId: appId,
            FeedChannel(id: id, name: name, description: description, createdAt: .distantPast, updatedAt: .distantPast).record,
            create: create
        )
        return FeedChannel(record)
    }

    public func putCategory(appId: String, id: String, label: String, create: Bool) async throws -> FeedCategory {
        try Validate.identifier(id, field: "id")
        try Validate.text(label, field: "label", maxLength: 100, required: true)
        return FeedCategory(
            try await put(
                appId: appId,
                FeedCategory(id: id, label: label, createdAt: .distantPast, updatedAt: .distantPast).record,
                create: create
            )
        )
    }

    public func putTemplate(
        appId: String,
        id: String,
        name: String,
        card: JSONValue,
        categoryId: String?,
        channelId: String?,
        create: Bool
    ) async throws -> FeedTemplate {
        try Validate.identifier(id, field: "id")
        try Validate.text(name, field: "name", maxLength: 200, required: true)
        try CardValidator.validate(card, at: "/card", template: true)
        try await requireFiling(appId: appId, categoryId: categoryId, channelId: channelId)
        let template = FeedTemplate(
            id: id,
            name: name,
            card: card,
            categoryId: categoryId,
            channelId: channelId,
            createdAt: .distantPast,
            updatedAt: .distantPast
        )
        return FeedTemplate(try await put(appId: appId, template.record, create: create))
    }

    func put(appId: String, _ record: FeedSetupRecord, create: Bool) async throws -> FeedSetupRecord {
        var record = record
        let now = clock.now()
        record.updatedAt = now
        record.createdAt = create ? now : (try await feed.setupRecord(appId: appId, kind: record.kind, id: record.id)?.createdAt ?? now)
        try await feed.putSetupRecord(appId: appId, record, create: create)
        return record
    }

    /// The category and channel an item or campaign is filed under must exist.
    func requireFiling(appId: String, categoryId: String?, channelId: String?) async throws {
        if let categoryId, try await feed.setupRecord(appId: appId, kind: .category, id: categoryId) == nil {
            throw HeraldError.invalidField("categoryId", "there is no category '\(categoryId)'")
        }
        if let channelId, try await feed.setupRecord(appId: appId, kind: .channel, id: channelId) == nil {
            throw HeraldError.invalidField("channelId", "there is no channel '\(channelId)'")
        }
    }

    // MARK: Items

    /// The content of an item or campaign: a card given inline, or a template's, checked and
    /// with its filing (the template's category and channel unless given).
    public struct Content: Sendable {
        public var card: JSONValue?
        public var templateId: String?
        public var data: JSONObject
        public var categoryId: String?
        public var channelId: String?
        public var tags: [String]
        public var metadata: JSONObject
        public var sender: String?
        public var push: CampaignPush?

        public init(
            card: JSONValue? = nil,
            templateId: String? = nil,
            data: JSONObject = [:],
            categoryId: String? = nil,
            channelId: String? = nil,
            tags: [String] = [],
            metadata: JSONObject = [:],
            sender: String? = nil,
            push: CampaignPush? = nil
        ) {
            self.card = card
            self.templateId = templateId
            self.data = data
            self.categoryId = categoryId
            self.channelId = channelId
            self.tags = tags
            self.metadata = metadata
            self.sender = sender
            self.push = push
        }
    }

    /// The spec every user's item is made from.
    public func spec(appId: String, _ content: Content, campaignId: String? = nil, campaignName: String? = nil) async throws -> FeedItemSpec {
        var categoryId = content.categoryId
        var channelId = content.channelId
        let card: JSONValue
        switch (content.card, content.templateId) {
        case (let inline?, nil):
            try CardValidator.validate(inline, at: "/card", template: true)
            card = inline
        case (nil, let templateId?):
            guard let record = try await feed.setupRecord(appId: appId, kind: .template, id: templateId) else {
                throw HeraldError.invalidField("templateId", "there is no template '\(templateId)'")
            }
            let template = FeedTemplate(record)
            card = template.card
            categoryId = categoryId ?? template.categoryId
            channelId = channelId ?? template.channelId
        default:
            throw HeraldError.invalidField("card", "give either card or templateId")
        }
        guard content.tags.count <= 20 else { throw HeraldError.invalidField("tags", "at most 20 tags") }
        for (index, tag) in content.tags.enumerated() { try Validate.text(tag, field: "tags[\(index)]", maxLength: 50, required: true) }
        if let push = content.push {
            try Validate.text(push.title, field: "push.title", maxLength: 500, required: true)
            try Validate.text(push.body, field: "push.body", maxLength: 2_000, required: true)
        }
        try Validate.text(content.sender, field: "sender", maxLength: 100)
        try await requireFiling(appId: appId, categoryId: categoryId, channelId: channelId)
        let label = try await categoryId.asyncMap { try await feed.setupRecord(appId: appId, kind: .category, id: $0).map(FeedCategory.init)?.label }
        return FeedItemSpec(
            card: card,
            data: content.data,
            channelId: channelId,
            categoryId: categoryId,
            category: label ?? nil,
            tags: content.tags,
            metadata: content.metadata,
            sender: content.sender ?? "app",
            push: content.push,
            campaignId: campaignId,
            campaignName: campaignName
        )
    }

    /// Sends one item to each of `uids` (≤ 1,000); unknown users are reported, not sent to.
    public func send(appId: String, uids: [String], _ content: Content) async throws -> (result: FeedPublisher.BatchResult, unknown: [String]) {
        let uids = Array(NSOrderedSet(array: uids)) as? [String] ?? uids
        guard !uids.isEmpty, uids.count <= 1_000 else { throw HeraldError.invalidField("uids", "give 1 to 1,000 uids") }
        let spec = try await spec(appId: appId, content)
        let found = try await users.users(appId: appId, uids: uids)
        let result = try await publisher.publish(appId: appId, users: uids.compactMap { found[$0] }, spec: spec)
        return (result, uids.filter { found[$0] == nil })
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
