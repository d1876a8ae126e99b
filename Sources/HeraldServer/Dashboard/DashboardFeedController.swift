import Foundation
import HeraldCards
import HeraldCore
import HeraldModels
import Hummingbird

/// The in-app feed: channels, categories, and card templates (a JSON editor whose problems are
/// shown at their JSON pointer, with a preview rendered by HeraldCards in light and dark).
/// Campaigns, listed on the same page, have a controller of their own.
struct DashboardFeedController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/feed", use: show)
        router.post("/dashboard/feed/channels", use: createChannel)
        router.post("/dashboard/feed/categories", use: createCategory)
        router.post("/dashboard/feed/:kind/:id/delete", use: delete)
        router.get("/dashboard/feed/templates/new", use: newTemplate)
        router.get("/dashboard/feed/templates/:id", use: showTemplate)
        router.post("/dashboard/feed/templates", use: saveTemplate)
        router.post("/dashboard/feed/templates/preview", use: previewCard)
    }

    private var services: HeraldServices { dashboard.services }

    // MARK: Channels and categories

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            try await feedPage(signedIn, values: [:], errors: [:], notice: request.uri.queryParameters.get("notice"))
        }
    }

    @Sendable func createChannel(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            do {
                _ = try await services.feed.putChannel(
                    appId: signedIn.app.id,
                    id: form.text("channelId") ?? "",
                    name: form.text("channelName") ?? "",
                    description: form.text("channelDescription"),
                    create: true
                )
                return DashboardView.redirect("/dashboard/feed?notice=channel")
            } catch {
                let errors = Dashboard.errors(error, fields: ["id": "channelId", "name": "channelName"])
                return try await feedPage(
                    signedIn,
                    values: form.values,
                    errors: errors,
                    status: .unprocessableContent
                )
            }
        }
    }

    @Sendable func createCategory(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            do {
                _ = try await services.feed.putCategory(
                    appId: signedIn.app.id,
                    id: form.text("categoryId") ?? "",
                    label: form.text("categoryLabel") ?? "",
                    create: true
                )
                return DashboardView.redirect("/dashboard/feed?notice=category")
            } catch {
                let errors = Dashboard.errors(error, fields: ["id": "categoryId", "label": "categoryLabel"])
                return try await feedPage(
                    signedIn,
                    values: form.values,
                    errors: errors,
                    status: .unprocessableContent
                )
            }
        }
    }

    /// Deletes a channel, a category or a card template.
    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, _ in
            guard let kind = FeedSetupKind(rawValue: try context.parameters.require("kind")) else { throw HeraldError.notFound("feed setup", "") }
            try await services.feed.delete(appId: signedIn.app.id, kind: kind, id: try context.parameters.require("id"))
            return DashboardView.redirect("/dashboard/feed?notice=deleted")
        }
    }

    // MARK: Card templates

    @Sendable func newTemplate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            try await templateForm(signedIn, values: ["card": Self.sampleCard], errors: [:], creating: true)
        }
    }

    @Sendable func showTemplate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let id = try context.parameters.require("id")
            let template = FeedTemplate(try await services.feed.get(appId: signedIn.app.id, kind: .template, id: id))
            let values = [
                "id": template.id, "name": template.name, "card": DashboardJSON.pretty(template.card),
                "categoryId": template.categoryId ?? "", "channelId": template.channelId ?? "",
            ]
            return try await templateForm(
                signedIn,
                values: values,
                errors: [:],
                creating: false,
                notice: request.uri.queryParameters.get("saved") != nil ? "Template saved." : nil
            )
        }
    }

    @Sendable func saveTemplate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            let creating = form.text("creating") == "1"
            do {
                let card = try DashboardJSON.parse(form.raw("card"), field: "card")
                let saved = try await services.feed.putTemplate(
                    appId: signedIn.app.id,
                    id: form.text("id") ?? "",
                    name: form.text("name") ?? "",
                    card: card,
                    categoryId: form.text("categoryId"),
                    channelId: form.text("channelId"),
                    create: creating
                )
                return DashboardView.redirect("/dashboard/feed/templates/\(DashboardFormat.pathComponent(saved.id))?saved=1")
            } catch {
                return try await templateForm(
                    signedIn,
                    values: form.values,
                    errors: Dashboard.errors(error),
                    creating: creating,
                    status: .unprocessableContent
                )
            }
        }
    }

    @Sendable func previewCard(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { _, form in
            dashboard.view.fragment(Self.cardPreview(form.raw("card")))
        }
    }

    /// What a new card template or campaign starts from.
    static let sampleCard = """
        {
          "version": "1.0",
          "fallbackText": "Welcome to Acme",
          "body": [
            {"type": "text", "id": "title", "content": "Welcome, {{name}}!", "variant": "heading2"},
            {"type": "text", "id": "intro", "content": "Thanks for joining. Here is what is new this week.", "variant": "body"},
            {"type": "button", "id": "open", "label": "See what's new", "variant": "filled",
             "action": {"type": "openUrl", "url": "https://example.com/new"}}
          ]
        }
        """

    /// The card's problems by pointer, and its rendering in light and dark.
    static func cardPreview(_ text: String) -> CardPreview {
        let card: JSONValue
        do {
            card = try DashboardJSON.parse(text, field: "card")
        } catch {
            return CardPreview(
                problems: [.init(pointer: "", message: Dashboard.message(DashboardErrors.heraldError(from: error)))],
                hasProblems: true
            )
        }
        let problems = CardValidator.problems(card, template: true)
        var preview = CardPreview(
            problems: problems.map { .init(pointer: $0.pointer.isEmpty ? "/" : $0.pointer, message: $0.message) },
            hasProblems: !problems.isEmpty
        )
        if case .object(let object) = card, let parsed = try? Card(json: object) {
            preview.light = CardHTMLRenderer(scheme: .light).fragment(parsed)
            preview.dark = CardHTMLRenderer(scheme: .dark).fragment(parsed)
        }
        return preview
    }

    // MARK: Pages

    private func feedPage(
        _ signedIn: DashboardSignedIn,
        values: [String: String],
        errors: [String: String],
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let appId = signedIn.app.id
        let feed = services.feed
        let channels = try await feed.list(appId: appId, kind: .channel, cursor: nil, limit: 200).items.map(FeedChannel.init)
        let categories = try await feed.list(appId: appId, kind: .category, cursor: nil, limit: 200).items.map(FeedCategory.init)
        let templates = try await feed.list(appId: appId, kind: .template, cursor: nil, limit: 200).items.map(FeedTemplate.init)
        let campaigns = try await services.campaigns.list(appId: appId, cursor: nil, limit: 50).items
        let page = FeedPage(
            values: values,
            errors: errors,
            channels: channels.map { FeedPage.Channel(id: $0.id, name: $0.name, description: $0.description) },
            categories: categories.map { FeedPage.Category(id: $0.id, label: $0.label) },
            templates: templates.map {
                FeedPage.Template(
                    id: $0.id,
                    name: $0.name,
                    link: "/dashboard/feed/templates/\(DashboardFormat.pathComponent($0.id))",
                    category: $0.categoryId,
                    channel: $0.channelId
                )
            },
            campaigns: campaigns.map {
                FeedPage.Campaign(
                    id: $0.id,
                    name: $0.name,
                    status: $0.status.rawValue,
                    link: "/dashboard/campaigns/\($0.id)",
                    audience: CampaignAudienceChoice.text($0.audience),
                    items: $0.itemsCreated,
                    size: $0.audienceSize,
                    sendAt: DashboardFormat.date($0.sendAt)
                )
            }
        )
        let notices = ["channel": "Channel added.", "category": "Category added.", "deleted": "Deleted."]
        return dashboard.view.page(
            page,
            title: "Feed",
            section: "/dashboard/feed",
            signedIn: signedIn,
            status: status,
            notice: notice.flatMap { notices[$0] }
        )
    }

    private func templateForm(
        _ signedIn: DashboardSignedIn,
        values: [String: String],
        errors: [String: String],
        creating: Bool,
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let filing = try await DashboardFiling(services.feed, appId: signedIn.app.id, values: values)
        let page = CardTemplatePage(
            values: values,
            errors: errors,
            creating: creating,
            preview: Self.cardPreview(values["card"] ?? ""),
            categories: filing.categories,
            channels: filing.channels
        )
        return dashboard.view.page(
            page,
            title: creating ? "New card template" : "Card template",
            section: "/dashboard/feed",
            signedIn: signedIn,
            status: status,
            notice: notice
        )
    }
}
