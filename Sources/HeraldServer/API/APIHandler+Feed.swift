import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

/// Feed set-up (admin), items sent to users, and the user's own feed.
extension APIHandler {
    // MARK: Channels

    func listFeedChannels(_ input: Operations.ListFeedChannels.Input) async throws -> Operations.ListFeedChannels.Output {
        let page = try await services.feed.list(
            appId: try await adminAppId(),
            kind: .channel,
            cursor: input.query.cursor,
            limit: input.query.limit ?? 50
        )
        return .ok(.init(body: .json(.init(data: page.items.map { FeedWire.channel(FeedChannel($0)) }, nextCursor: page.nextCursor))))
    }

    func createFeedChannel(_ input: Operations.CreateFeedChannel.Input) async throws -> Operations.CreateFeedChannel.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let channel = try await services.feed.putChannel(
            appId: appId,
            id: try FeedWire.required(body.id),
            name: body.name,
            description: body.description,
            create: true
        )
        return .created(.init(body: .json(FeedWire.channel(channel))))
    }

    func getFeedChannel(_ input: Operations.GetFeedChannel.Input) async throws -> Operations.GetFeedChannel.Output {
        let record = try await services.feed.get(appId: try await adminAppId(), kind: .channel, id: input.path.id)
        return .ok(.init(body: .json(FeedWire.channel(FeedChannel(record)))))
    }

    func updateFeedChannel(_ input: Operations.UpdateFeedChannel.Input) async throws -> Operations.UpdateFeedChannel.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let channel = try await services.feed.putChannel(
            appId: appId,
            id: input.path.id,
            name: body.name,
            description: body.description,
            create: false
        )
        return .ok(.init(body: .json(FeedWire.channel(channel))))
    }

    func deleteFeedChannel(_ input: Operations.DeleteFeedChannel.Input) async throws -> Operations.DeleteFeedChannel.Output {
        try await services.feed.delete(appId: try await adminAppId(), kind: .channel, id: input.path.id)
        return .noContent(.init())
    }

    // MARK: Categories

    func listFeedCategories(_ input: Operations.ListFeedCategories.Input) async throws -> Operations.ListFeedCategories.Output {
        let page = try await services.feed.list(
            appId: try await adminAppId(),
            kind: .category,
            cursor: input.query.cursor,
            limit: input.query.limit ?? 50
        )
        return .ok(.init(body: .json(.init(data: page.items.map { FeedWire.category(FeedCategory($0)) }, nextCursor: page.nextCursor))))
    }

    func createFeedCategory(_ input: Operations.CreateFeedCategory.Input) async throws -> Operations.CreateFeedCategory.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let category = try await services.feed.putCategory(appId: appId, id: try FeedWire.required(body.id), label: body.label, create: true)
        return .created(.init(body: .json(FeedWire.category(category))))
    }

    func getFeedCategory(_ input: Operations.GetFeedCategory.Input) async throws -> Operations.GetFeedCategory.Output {
        let record = try await services.feed.get(appId: try await adminAppId(), kind: .category, id: input.path.id)
        return .ok(.init(body: .json(FeedWire.category(FeedCategory(record)))))
    }

    func updateFeedCategory(_ input: Operations.UpdateFeedCategory.Input) async throws -> Operations.UpdateFeedCategory.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let category = try await services.feed.putCategory(appId: appId, id: input.path.id, label: body.label, create: false)
        return .ok(.init(body: .json(FeedWire.category(category))))
    }

    func deleteFeedCategory(_ input: Operations.DeleteFeedCategory.Input) async throws -> Operations.DeleteFeedCategory.Output {
        try await services.feed.delete(appId: try await adminAppId(), kind: .category, id: input.path.id)
        return .noContent(.init())
    }

    // MARK: Templates

    func listFeedTemplates(_ input: Operations.ListFeedTemplates.Input) async throws -> Operations.ListFeedTemplates.Output {
        let page = try await services.feed.list(
            appId: try await adminAppId(),
            kind: .template,
            cursor: input.query.cursor,
            limit: input.query.limit ?? 50
        )
        return .ok(.init(body: .json(.init(data: try page.items.map { try FeedWire.template(FeedTemplate($0)) }, nextCursor: page.nextCursor))))
    }

    func createFeedTemplate(_ input: Operations.CreateFeedTemplate.Input) async throws -> Operations.CreateFeedTemplate.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let template = try await services.feed.putTemplate(
            appId: appId,
            id: try FeedWire.required(body.id),
            name: body.name,
            card: try FeedWire.card(body.card),
            categoryId: body.categoryId,
            channelId: body.channelId,
            create: true
        )
        return .created(.init(body: .json(try FeedWire.template(template))))
    }

    func getFeedTemplate(_ input: Operations.GetFeedTemplate.Input) async throws -> Operations.GetFeedTemplate.Output {
        let record = try await services.feed.get(appId: try await adminAppId(), kind: .template, id: input.path.id)
        return .ok(.init(body: .json(try FeedWire.template(FeedTemplate(record)))))
    }

    func updateFeedTemplate(_ input: Operations.UpdateFeedTemplate.Input) async throws -> Operations.UpdateFeedTemplate.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let template = try await services.feed.putTemplate(
            appId: appId,
            id: input.path.id,
            name: body.name,
            card: try FeedWire.card(body.card),
            categoryId: body.categoryId,
            channelId: body.channelId,
            create: false
        )
        return .ok(.init(body: .json(try FeedWire.template(template))))
    }

    func deleteFeedTemplate(_ input: Operations.DeleteFeedTemplate.Input) async throws -> Operations.DeleteFeedTemplate.Output {
        try await services.feed.delete(appId: try await adminAppId(), kind: .template, id: input.path.id)
        return .noContent(.init())
    }

    // MARK: Items

    func sendFeedItems(_ input: Operations.SendFeedItems.Input) async throws -> Operations.SendFeedItems.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let content = FeedManagement.Content(
            card: try body.card.map(FeedWire.card),
            templateId: body.templateId,
            data: try body.data.map { try JSONBridge.object($0) } ?? [:],
            categoryId: body.categoryId,
            channelId: body.channelId,
            tags: body.tags ?? [],
            metadata: try body.metadata.map { try JSONBridge.object($0) } ?? [:],
            sender: body.sender,
            push: body.push.map(FeedWire.push)
        )
        let (result, unknown) = try await services.feed.send(appId: appId, uids: body.uids, content)
        if result.pushes > 0 { await services.engine.eventsAccepted() }
        return .ok(
            .init(
                body: .json(
                    .init(
                        sent: result.stored,
                        pushes: result.pushes,
                        items: result.items.map { .init(uid: $0.uid, id: $0.id) },
                        unknownUids: unknown,
                        rejected: .init(additionalProperties: result.rejected)
                    )
                )
            )
        )
    }

    // MARK: The user's feed

    /// The generated form of `GET /v1/me/feed`, which the generated protocol requires. It is never
    /// routed: ``HotRoutes`` writes the page without the generated types.
    func listMyFeed(_ input: Operations.ListMyFeed.Input) async throws -> Operations.ListMyFeed.Output {
        let session = try await userSession()
        let query = input.query
        let tags = (query.tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let page = try await services.userFeed.page(
            appId: session.appId,
            uid: session.uid,
            FeedQuery(
                limit: query.limit ?? 20,
                cursor: query.cursor,
                readState: query.readState.flatMap { FeedQuery.ReadState(rawValue: $0.rawValue) },
                category: query.category,
                categoryId: query.categoryId,
                channelId: query.channelId,
                tags: tags,
                dateFrom: query.dateFrom,
                dateTo: query.dateTo
            )
        )
        return .ok(.init(body: .json(.init(data: try page.items.map(FeedWire.item), nextCursor: page.nextCursor))))
    }

    func listMyFeedCategories(_ input: Operations.ListMyFeedCategories.Input) async throws -> Operations.ListMyFeedCategories.Output {
        let session = try await userSession()
        let page = try await services.feed.list(appId: session.appId, kind: .category, cursor: input.query.cursor, limit: input.query.limit ?? 50)
        return .ok(.init(body: .json(.init(data: page.items.map { FeedWire.category(FeedCategory($0)) }, nextCursor: page.nextCursor))))
    }

    func getMyFeedUnreadCount(_ input: Operations.GetMyFeedUnreadCount.Input) async throws -> Operations.GetMyFeedUnreadCount.Output {
        let session = try await userSession()
        let count = try await services.userFeed.unreadCount(
            appId: session.appId,
            uid: session.uid,
            categoryId: input.query.categoryId,
            category: input.query.category
        )
        return .ok(.init(body: .json(.init(unreadCount: count))))
    }

    func getMyFeedItem(_ input: Operations.GetMyFeedItem.Input) async throws -> Operations.GetMyFeedItem.Output {
        let session = try await userSession()
        return .ok(.init(body: .json(try FeedWire.item(try await services.userFeed.item(appId: session.appId, uid: session.uid, id: input.path.id)))))
    }

    func markMyFeedItemRead(_ input: Operations.MarkMyFeedItemRead.Input) async throws -> Operations.MarkMyFeedItemRead.Output {
        let session = try await userSession()
        let item = try await services.userFeed.mark(appId: session.appId, uid: session.uid, id: input.path.id, .read)
        return .ok(.init(body: .json(try FeedWire.item(item))))
    }

    func markMyFeedItemDelivered(_ input: Operations.MarkMyFeedItemDelivered.Input) async throws -> Operations.MarkMyFeedItemDelivered.Output {
        let session = try await userSession()
        let item = try await services.userFeed.mark(appId: session.appId, uid: session.uid, id: input.path.id, .delivered)
        return .ok(.init(body: .json(try FeedWire.item(item))))
    }

    func engageMyFeedItem(_ input: Operations.EngageMyFeedItem.Input) async throws -> Operations.EngageMyFeedItem.Output {
        let session = try await userSession()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let recorded = try await services.userFeed.engage(appId: session.appId, uid: session.uid, id: input.path.id, interaction: body.interaction)
        return .ok(.init(body: .json(.init(itemId: input.path.id, interaction: body.interaction, recorded: recorded))))
    }

    func markMyPushDelivered(_ input: Operations.MarkMyPushDelivered.Input) async throws -> Operations.MarkMyPushDelivered.Output {
        let session = try await userSession()
        let item = try await services.userFeed.trackPush(
            appId: session.appId,
            uid: session.uid,
            pushNotificationId: input.path.pushNotificationId,
            clicked: false
        )
        return .ok(.init(body: .json(FeedWire.tracking(item))))
    }

    func markMyPushClicked(_ input: Operations.MarkMyPushClicked.Input) async throws -> Operations.MarkMyPushClicked.Output {
        let session = try await userSession()
        let item = try await services.userFeed.trackPush(
            appId: session.appId,
            uid: session.uid,
            pushNotificationId: input.path.pushNotificationId,
            clicked: true
        )
        return .ok(.init(body: .json(FeedWire.tracking(item))))
    }
}

/// Core feed types to and from the generated ones.
enum FeedWire {
    static func required(_ id: String?) throws -> String {
        guard let id else { throw HeraldError.invalidField("id", "is required") }
        return id
    }

    static func card(_ card: Components.Schemas.Card) throws -> JSONValue {
        .object(try JSONBridge.object(card))
    }

    static func cardOut(_ card: JSONValue) throws -> Components.Schemas.Card {
        try JSONBridge.decode(card.objectValue ?? [:])
    }

    static func push(_ push: Components.Schemas.CampaignPush) -> CampaignPush {
        CampaignPush(title: push.title, body: push.body, providerIds: push.providerIds, badge: push.badge)
    }

    static func pushOut(_ push: CampaignPush) -> Components.Schemas.CampaignPush {
        .init(title: push.title, body: push.body, providerIds: push.providerIds, badge: push.badge)
    }

    static func channel(_ channel: FeedChannel) -> Components.Schemas.FeedChannel {
        .init(id: channel.id, name: channel.name, description: channel.description, createdAt: channel.createdAt, updatedAt: channel.updatedAt)
    }

    static func category(_ category: FeedCategory) -> Components.Schemas.FeedCategory {
        .init(id: category.id, label: category.label, createdAt: category.createdAt, updatedAt: category.updatedAt)
    }

    static func template(_ template: FeedTemplate) throws -> Components.Schemas.FeedTemplate {
        .init(
            id: template.id,
            name: template.name,
            card: try cardOut(template.card),
            categoryId: template.categoryId,
            channelId: template.channelId,
            createdAt: template.createdAt,
            updatedAt: template.updatedAt
        )
    }

    static func item(_ item: FeedItem) throws -> Components.Schemas.FeedItem {
        .init(
            id: item.id,
            category: item.category,
            categoryId: item.categoryId,
            channelId: item.channelId,
            campaignId: item.campaignId,
            content: try cardOut(item.content),
            readAt: item.readAt,
            deliveredAt: item.deliveredAt,
            sentAt: item.sentAt,
            metadata: try JSONBridge.decode(item.metadata),
            tags: item.tags,
            sender: item.sender,
            receiver: item.receiver,
            receiverType: item.receiverType,
            isRead: item.isRead,
            pushNotificationId: item.pushNotificationId
        )
    }

    static func tracking(_ item: FeedItem) -> Components.Schemas.PushTracking {
        .init(
            pushNotificationId: item.pushNotificationId ?? "",
            notificationId: item.id,
            campaignId: item.campaignId,
            deliveredAt: item.pushDeliveredAt,
            clickedAt: item.pushClickedAt
        )
    }
}
