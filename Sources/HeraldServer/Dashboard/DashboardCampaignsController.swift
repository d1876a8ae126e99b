import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Campaigns: audience, content, schedule and push; send and cancel; progress while sending,
/// and a funnel of their stats.
struct DashboardCampaignsController: Sendable {
    let dashboard: Dashboard
    /// API field names → this form's names.
    static let fields = ["push.title": "pushTitle", "push.body": "pushBody", "audience": "audienceValues", "sendAt": "sendAt"]

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/campaigns/new", use: new)
        router.post("/dashboard/campaigns", use: create)
        router.get("/dashboard/campaigns/:id", use: show)
        router.post("/dashboard/campaigns/:id/send", use: send)
        router.post("/dashboard/campaigns/:id/cancel", use: cancel)
    }

    private var services: HeraldServices { dashboard.services }

    @Sendable func new(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            try await form(signedIn, values: ["audience": "all", "card": DashboardFeedController.sampleCard], errors: [:])
        }
    }

    @Sendable func create(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            do {
                let campaign = try await services.campaigns.create(appId: signedIn.app.id, try Self.input(form))
                return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=created")
            } catch {
                return try await self.form(
                    signedIn,
                    values: form.values,
                    errors: Dashboard.errors(error, fields: Self.fields),
                    status: .unprocessableContent
                )
            }
        }
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let campaign = try await services.campaigns.get(appId: signedIn.app.id, id: try context.parameters.require("id"))
            let notices = [
                "created": "Campaign created.", "sending": "Sending: the page refreshes until it is done.",
                "cancelled": "Campaign cancelled.",
            ]
            let notice = request.uri.queryParameters.get("notice").flatMap { notices[$0] }
            return dashboard.view.page(
                try await page(campaign, appId: signedIn.app.id),
                title: "Campaign \(campaign.name)",
                section: "/dashboard/feed",
                signedIn: signedIn,
                notice: notice
            )
        }
    }

    @Sendable func send(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, _ in
            let campaign = try await services.campaigns.send(appId: signedIn.app.id, id: try context.parameters.require("id"))
            return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=sending")
        }
    }

    @Sendable func cancel(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, _ in
            let campaign = try await services.campaigns.cancel(appId: signedIn.app.id, id: try context.parameters.require("id"))
            return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=cancelled")
        }
    }

    /// The form as a campaign: the audience chosen, and a card template with its data or a card.
    static func input(_ form: DashboardForm) throws -> CampaignManagement.Input {
        guard let choice = CampaignAudienceChoice(rawValue: form.text("audience") ?? "all") else {
            throw HeraldError.invalidField("audience", "must be everyone, users, tags or groups")
        }
        let list = (form.text("audienceValues") ?? "").split(whereSeparator: { $0 == "," || $0.isNewline || $0 == " " }).map(String.init)
        let audience = try choice.audience(list)
        var content = FeedManagement.Content(categoryId: form.text("categoryId"), channelId: form.text("channelId"))
        if let templateId = form.text("templateId") {
            content.templateId = templateId
            if let data = form.text("data") {
                guard case .object(let object) = try DashboardJSON.parse(data, field: "data") else {
                    throw HeraldError.invalidField("data", "must be a JSON object")
                }
                content.data = object
            }
        } else {
            content.card = try DashboardJSON.parse(form.raw("card"), field: "card")
        }
        if form.checked("push") {
            content.push = CampaignPush(title: form.text("pushTitle") ?? "", body: form.text("pushBody") ?? "")
        }
        var sendAt: Date?
        if let text = form.text("sendAt") {
            guard let date = DashboardFormat.parseLocalInput(text) else { throw HeraldError.invalidField("sendAt", "must be a date and time (UTC)") }
            sendAt = date
        }
        return CampaignManagement.Input(name: form.text("name") ?? "", audience: audience, content: content, sendAt: sendAt)
    }

    private func form(
        _ signedIn: DashboardSignedIn,
        values: [String: String],
        errors: [String: String],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let filing = try await DashboardFiling(services.feed, appId: signedIn.app.id, values: values)
        let page = CampaignNewPage(
            values: values,
            errors: errors,
            categories: filing.categories,
            channels: filing.channels,
            templates: filing.templates,
            audiences: CampaignAudienceChoice.allCases.map { choice in
                DashboardOption(value: choice.rawValue, label: choice.label, selected: choice.rawValue == (values["audience"] ?? "all"))
            },
            pushChecked: values["push"] == "on",
            preview: DashboardFeedController.cardPreview(values["card"] ?? "")
        )
        return dashboard.view.page(page, title: "New campaign", section: "/dashboard/feed", signedIn: signedIn, status: status)
    }

    private func page(_ campaign: Campaign, appId: String) async throws -> CampaignPage {
        let stats = try await services.campaigns.stats(appId: appId, id: campaign.id)
        let engaged = stats.engaged.values.reduce(0, +)
        var funnel = DashboardCharts.funnel(
            title: "Campaign funnel",
            steps: [
                ("Audience", max(stats.audienceSize, campaign.audienceSize)), ("Items created", stats.itemsCreated), ("Delivered", stats.delivered),
                ("Read", stats.read), ("Engaged", engaged),
            ]
        )
        if campaign.push != nil {
            funnel += DashboardCharts.funnel(
                title: "Push funnel",
                steps: [
                    ("Pushes sent", stats.pushesSent), ("Delivered", stats.pushesDelivered), ("Clicked", stats.pushesClicked),
                ]
            )
        }
        let progress =
            campaign.audienceSize > 0
            ? min(100, campaign.itemsCreated * 100 / campaign.audienceSize) : (campaign.status == .sent ? 100 : 0)
        return CampaignPage(
            id: campaign.id,
            name: campaign.name,
            status: campaign.status.rawValue,
            audience: CampaignAudienceChoice.text(campaign.audience),
            sendAt: DashboardFormat.date(campaign.sendAt),
            started: DashboardFormat.date(campaign.startedAt),
            finished: DashboardFormat.date(campaign.finishedAt),
            canSend: [.draft, .scheduled].contains(campaign.status),
            canCancel: [.draft, .scheduled, .sending].contains(campaign.status),
            refresh: [.scheduled, .sending].contains(campaign.status),
            progress: progress,
            items: stats.itemsCreated,
            size: max(stats.audienceSize, campaign.audienceSize),
            delivered: stats.delivered,
            read: stats.read,
            engaged: engaged,
            pushesSent: stats.pushesSent,
            pushesFailed: stats.pushesFailed,
            pushesPending: stats.pushesPending,
            pushesDelivered: stats.pushesDelivered,
            pushesClicked: stats.pushesClicked,
            hasPush: campaign.push != nil,
            pushTitle: campaign.push?.title,
            pushBody: campaign.push?.body,
            hasEngagements: !stats.engaged.isEmpty,
            engagements: stats.engaged.sorted { $0.key < $1.key }.map { .init(name: $0.key, count: $0.value) },
            funnel: funnel,
            template: campaign.templateId
        )
    }
}
