import Foundation
import HeraldModels

/// `/v1/campaigns`: campaigns created, scheduled, sent, cancelled, counted — and the runner that
/// sends a due campaign a batch of its audience at a time, resuming where it was after a restart.
public struct CampaignManagement: Sendable {
    let feed: any FeedRepository
    let setup: FeedManagement
    let publisher: FeedPublisher
    let clock: any WallClock
    /// Users per batch (items and pushes written in one transaction).
    public var batchSize = 1_000
    /// How long a process holds a campaign between batches before another may take it over.
    /// Who this process claims campaigns as, and for how long at a time.
    public var claims = ClaimPolicy.anonymous()
    /// Sends a batch's pushes as soon as the batch is stored (claimed by this process in the same
    /// transaction), rather than leaving them to the outbox's next claim; nil leaves them there.
    public var dispatcher: Dispatcher?
    /// Batches whose pushes are being sent while the next ones are stored.
    public var batchesSending = 2
    /// Pushes sent and recorded at a time within a batch: what a killed process may have sent
    /// and not recorded (sent again after a restart) is at most this, per batch sending — as
    /// much as the outbox holds claimed.
    public var pushesPerSend = 500
    var lease: TimeInterval { claims.lease }

    public init(feed: any FeedRepository, setup: FeedManagement, publisher: FeedPublisher, clock: any WallClock = SystemWallClock()) {
        self.feed = feed
        self.setup = setup
        self.publisher = publisher
        self.clock = clock
    }

    public struct Input: Sendable {
        public var name: String
        public var audience: Audience
        public var content: FeedManagement.Content
        public var sendAt: Date?

        public init(name: String, audience: Audience, content: FeedManagement.Content, sendAt: Date? = nil) {
            self.name = name
            self.audience = audience
            self.content = content
            self.sendAt = sendAt
        }
    }

    public func create(appId: String, _ input: Input) async throws -> Campaign {
        let now = clock.now()
        var campaign = Campaign(
            id: Identifier.timeOrdered("cmp_", now: now),
            appId: appId,
            name: input.name,
            status: .draft,
            audience: input.audience,
            createdAt: now,
            updatedAt: now
        )
        try await apply(input, to: &campaign)
        try await feed.insertCampaign(campaign)
        return campaign
    }

    /// Replaces a draft's or scheduled campaign's settings.
    public func update(appId: String, id: String, _ input: Input) async throws -> Campaign {
        var campaign = try await get(appId: appId, id: id)
        guard [.draft, .scheduled].contains(campaign.status) else {
            throw HeraldError(
                .conflict,
                code: "campaign_started",
                "campaign \(id) is \(campaign.status.rawValue); only drafts and scheduled campaigns change"
            )
        }
        try await apply(input, to: &campaign)
        campaign.updatedAt = clock.now()
        try await feed.updateCampaign(campaign)
        return campaign
    }

    func apply(_ input: Input, to campaign: inout Campaign) async throws {
        try Validate.text(input.name, field: "name", maxLength: 200, required: true)
        try Self.check(input.audience)
        _ = try await setup.spec(appId: campaign.appId, input.content, campaignId: campaign.id, campaignName: input.name)
        campaign.name = input.name
        campaign.audience = input.audience
        campaign.templateId = input.content.templateId
        campaign.card = input.content.card
        campaign.data = input.content.data
        campaign.channelId = input.content.channelId
        campaign.categoryId = input.content.categoryId
        campaign.tags = input.content.tags
        campaign.metadata = input.content.metadata
        campaign.push = input.content.push
        campaign.sendAt = input.sendAt
        campaign.status = input.sendAt == nil ? .draft : .scheduled
    }

    static func check(_ audience: Audience) throws {
        switch audience {
        case .all: break
        case .uids(let uids):
            guard (1...100_000).contains(uids.count) else { throw HeraldError.invalidField("audience.uids", "give 1 to 100,000 uids") }
        case .tags(let tags, _):
            guard (1...20).contains(tags.count) else { throw HeraldError.invalidField("audience.tags", "give 1 to 20 tags") }
        case .groups(let guids):
            guard (1...20).contains(guids.count) else { throw HeraldError.invalidField("audience.groups", "give 1 to 20 groups") }
        }
    }

    public func get(appId: String, id: String) async throws -> Campaign {
        guard let campaign = try await feed.campaign(appId: appId, id: id) else { throw HeraldError.notFound("campaign", id) }
        return campaign
    }

    public func list(appId: String, cursor: String?, limit: Int) async throws -> Page<Campaign> {
        let limit = min(max(limit, 1), 100)
        return Page(probed: try await feed.campaigns(appId: appId, after: try cursor.map(Cursor.decode), limit: limit + 1), limit: limit, key: \.id)
    }

    public func delete(appId: String, id: String) async throws {
        let campaign = try await get(appId: appId, id: id)
        guard campaign.status != .sending else {
            throw HeraldError(.conflict, code: "campaign_sending", "campaign \(id) is sending; cancel it first")
        }
        guard try await feed.deleteCampaign(appId: appId, id: id) else { throw HeraldError.notFound("campaign", id) }
    }

    /// Sends now: a draft or scheduled campaign becomes due at once.
    public func send(appId: String, id: String) async throws -> Campaign {
        var campaign = try await get(appId: appId, id: id)
        guard [.draft, .scheduled].contains(campaign.status) else {
            throw HeraldError(.conflict, code: "campaign_started", "campaign \(id) is \(campaign.status.rawValue)")
        }
        campaign.sendAt = clock.now()
        campaign.status = .scheduled
        campaign.updatedAt = campaign.sendAt!
        try await feed.updateCampaign(campaign)
        return campaign
    }

    /// Stops a campaign that has not finished; items already sent stay.
    public func cancel(appId: String, id: String) async throws -> Campaign {
        guard try await feed.transitionCampaign(appId: appId, id: id, from: [.draft, .scheduled, .sending], to: .cancelled, at: clock.now()) else {
            let campaign = try await get(appId: appId, id: id)
            throw HeraldError(.conflict, code: "campaign_finished", "campaign \(id) is \(campaign.status.rawValue)")
        }
        return try await get(appId: appId, id: id)
    }

    public func stats(appId: String, id: String) async throws -> CampaignStats {
        _ = try await get(appId: appId, id: id)
        return try await feed.campaignStats(appId: appId, id: id)
    }

    // MARK: Running

    /// The audience's next page after `cursor`, prepared (nil when the page is empty).
    private func nextBatch(
        appId: String,
        audience: Audience,
        after cursor: String?,
        spec: FeedItemSpec
    ) async throws -> (
        users: [User], prepared: FeedPublisher.Prepared?
    ) {
        let users = try await feed.audience(appId: appId, audience, after: cursor, limit: batchSize)
        guard !users.isEmpty else { return (users, nil) }
        return (users, try await publisher.prepare(appId: appId, users: users, spec: spec))
    }

    /// Takes one due campaign, if any, and sends it to the end (or until it is cancelled).
    /// Returns whether there was one.
    @discardableResult
    public func runDue() async throws -> Bool {
        let now = clock.now()
        guard var campaign = try await feed.claimCampaign(now: now, claim: claims.claim(at: now)) else { return false }
        let content = FeedManagement.Content(
            card: campaign.card,
            templateId: campaign.templateId,
            data: campaign.data,
            categoryId: campaign.categoryId,
            channelId: campaign.channelId,
            tags: campaign.tags,
            metadata: campaign.metadata,
            push: campaign.push
        )
        let spec: FeedItemSpec
        do {
            spec = try await setup.spec(appId: campaign.appId, content, campaignId: campaign.id, campaignName: campaign.name)
        } catch let error as HeraldError {
            // Its template or category went away after it was scheduled.
            campaign.status = .cancelled
            campaign.finishedAt = clock.now()
            campaign.metadata["herald.error"] = .string(error.message)
            _ = try await feed.recordCampaignProgress(campaign, leaseUntil: nil)
            return true
        }
        // Each batch is stored while the next is read and prepared (its cards filled and
        // checked, its tokens found), and its pushes are sent while the next batches are stored:
        // the writer, the CPU and the provider work side by side.
        let (appId, audience) = (campaign.appId, campaign.audience)
        let dispatcher = dispatcher
        let batchesSending = max(1, batchesSending)
        let step = max(1, pushesPerSend)
        return try await withThrowingTaskGroup(of: Void.self) { sending in
            var inFlight = 0
            var batch = try await nextBatch(appId: appId, audience: audience, after: campaign.cursor, spec: spec)
            while true {
                let users = batch.users
                if let prepared = batch.prepared, let last = users.last {
                    async let following = nextBatch(appId: appId, audience: audience, after: last.uid, spec: spec)
                    // A sending slot first, then the claim: claimed pushes start at once, never
                    // waiting behind other batches while their lease runs out (the outbox would
                    // take them over and send them a second time).
                    if dispatcher != nil, inFlight == batchesSending {
                        try await sending.next()
                        inFlight -= 1
                    }
                    // The claim covers the batch's sends one after another. (A process that dies
                    // loses its claims at once to its successor or within seconds to the others:
                    // the lease bounds only how long a slow live process keeps them.)
                    let sends = (prepared.deliveries.count + step - 1) / step
                    let claim = Claim(owner: claims.owner, until: clock.now().addingTimeInterval(lease * Double(max(1, sends))))
                    let result = try await publisher.store(prepared, claim: dispatcher == nil ? nil : claim)
                    campaign.cursor = last.uid
                    campaign.audienceSize += users.count
                    campaign.itemsCreated += result.stored
                    campaign.pushesQueued += result.pushes
                    if let dispatcher, !result.claimed.isEmpty {
                        let items = Dictionary(result.items.map { ($0.id, $0) }) { first, _ in first }
                        let sends = result.claimed.chunks(of: step)
                        // Pushes that fail to send or record stay claimed: the outbox takes them
                        // over once their lease runs out.
                        sending.addTask {
                            for pushes in sends { _ = try? await dispatcher.retry(pushes, items: items) }
                        }
                        inFlight += 1
                    }
                    batch = try await following
                }
                let done = users.isEmpty
                let now = clock.now()
                if done {
                    campaign.status = .sent
                    campaign.finishedAt = now
                }
                campaign.updatedAt = now
                guard try await feed.recordCampaignProgress(campaign, leaseUntil: done ? nil : now.addingTimeInterval(lease)) else { return true }
                if done { return true }
            }
        }
    }
}
