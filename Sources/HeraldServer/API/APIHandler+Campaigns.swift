import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

extension APIHandler {
    func listCampaigns(_ input: Operations.ListCampaigns.Input) async throws -> Operations.ListCampaigns.Output {
        let page = try await services.campaigns.list(appId: try await adminAppId(), cursor: input.query.cursor, limit: input.query.limit ?? 50)
        return .ok(.init(body: .json(.init(data: try page.items.map(CampaignWire.campaign), nextCursor: page.nextCursor))))
    }

    func createCampaign(_ input: Operations.CreateCampaign.Input) async throws -> Operations.CreateCampaign.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let campaign = try await services.campaigns.create(appId: appId, try CampaignWire.input(body))
        return .created(.init(body: .json(try CampaignWire.campaign(campaign))))
    }

    func getCampaign(_ input: Operations.GetCampaign.Input) async throws -> Operations.GetCampaign.Output {
        .ok(.init(body: .json(try CampaignWire.campaign(try await services.campaigns.get(appId: try await adminAppId(), id: input.path.id)))))
    }

    func updateCampaign(_ input: Operations.UpdateCampaign.Input) async throws -> Operations.UpdateCampaign.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let campaign = try await services.campaigns.update(appId: appId, id: input.path.id, try CampaignWire.input(body))
        return .ok(.init(body: .json(try CampaignWire.campaign(campaign))))
    }

    func deleteCampaign(_ input: Operations.DeleteCampaign.Input) async throws -> Operations.DeleteCampaign.Output {
        try await services.campaigns.delete(appId: try await adminAppId(), id: input.path.id)
        return .noContent(.init())
    }

    func sendCampaign(_ input: Operations.SendCampaign.Input) async throws -> Operations.SendCampaign.Output {
        let campaign = try await services.campaigns.send(appId: try await adminAppId(), id: input.path.id)
        return .accepted(.init(body: .json(try CampaignWire.campaign(campaign))))
    }

    func cancelCampaign(_ input: Operations.CancelCampaign.Input) async throws -> Operations.CancelCampaign.Output {
        .ok(.init(body: .json(try CampaignWire.campaign(try await services.campaigns.cancel(appId: try await adminAppId(), id: input.path.id)))))
    }

    func getCampaignStats(_ input: Operations.GetCampaignStats.Input) async throws -> Operations.GetCampaignStats.Output {
        let stats = try await services.campaigns.stats(appId: try await adminAppId(), id: input.path.id)
        return .ok(
            .init(
                body: .json(
                    .init(
                        audienceSize: stats.audienceSize,
                        itemsCreated: stats.itemsCreated,
                        delivered: stats.delivered,
                        read: stats.read,
                        engaged: .init(additionalProperties: stats.engaged),
                        pushes: .init(
                            sent: stats.pushesSent,
                            failed: stats.pushesFailed,
                            pending: stats.pushesPending,
                            delivered: stats.pushesDelivered,
                            clicked: stats.pushesClicked
                        ),
                        timeline: stats.timeline.map {
                            .init(
                                start: $0.start,
                                delivered: $0.delivered,
                                read: $0.read,
                                engaged: $0.engaged,
                                pushesDelivered: $0.pushesDelivered,
                                pushesClicked: $0.pushesClicked
                            )
                        }
                    )
                )
            )
        )
    }
}

enum CampaignWire {
    static func input(_ body: Components.Schemas.CampaignInput) throws -> CampaignManagement.Input {
        CampaignManagement.Input(
            name: body.name,
            audience: try audience(body.audience),
            content: FeedManagement.Content(
                card: try body.card.map(FeedWire.card),
                templateId: body.templateId,
                data: try body.data.map { try JSONBridge.object($0) } ?? [:],
                categoryId: body.categoryId,
                channelId: body.channelId,
                tags: body.tags ?? [],
                metadata: try body.metadata.map { try JSONBridge.object($0) } ?? [:],
                push: body.push.map(FeedWire.push)
            ),
            sendAt: body.sendAt
        )
    }

    static func audience(_ audience: Components.Schemas.Audience) throws -> Audience {
        switch audience._type {
        case .all: return .all
        case .uids: return .uids(audience.uids ?? [])
        case .tags: return .tags(audience.tags ?? [], all: audience.match == .all)
        case .groups: return .groups(audience.groups ?? [])
        }
    }

    static func audienceOut(_ audience: Audience) -> Components.Schemas.Audience {
        switch audience {
        case .all: return .init(_type: .all)
        case .uids(let uids): return .init(_type: .uids, uids: uids)
        case .tags(let tags, let all): return .init(_type: .tags, tags: tags, match: all ? .all : .any)
        case .groups(let guids): return .init(_type: .groups, groups: guids)
        }
    }

    static func campaign(_ campaign: Campaign) throws -> Components.Schemas.Campaign {
        .init(
            id: campaign.id,
            name: campaign.name,
            status: .init(rawValue: campaign.status.rawValue) ?? .draft,
            audience: audienceOut(campaign.audience),
            card: try campaign.card.map(FeedWire.cardOut),
            templateId: campaign.templateId,
            data: try JSONBridge.decode(campaign.data),
            categoryId: campaign.categoryId,
            channelId: campaign.channelId,
            tags: campaign.tags,
            metadata: try JSONBridge.decode(campaign.metadata),
            push: campaign.push.map(FeedWire.pushOut),
            sendAt: campaign.sendAt,
            startedAt: campaign.startedAt,
            finishedAt: campaign.finishedAt,
            progress: .init(audienceSize: campaign.audienceSize, itemsCreated: campaign.itemsCreated, pushesQueued: campaign.pushesQueued),
            createdAt: campaign.createdAt,
            updatedAt: campaign.updatedAt
        )
    }
}
