import Foundation
import HeraldCards
import HeraldCore
import HeraldModels
import Hummingbird

/// The in-app feed: channels, categories, card templates (a JSON editor whose problems are
/// shown at their JSON pointer, with a preview rendered by HeraldCards in light and dark), and
/// campaigns (audience, schedule, push, send and cancel, progress, a funnel of their stats).
extension Dashboard {
    static let campaignFields = ["push.title": "pushTitle", "push.body": "pushBody", "audience": "audienceValues", "sendAt": "sendAt"]

    func registerFeed(on router: Router<BasicRequestContext>) {
        router.get("/dashboard/feed") { request, _ in
            try await page(request) { signedIn in try await feedPage(signedIn, values: [:], errors: [:], notice: request.uri.queryParameters.get("notice")) }
        }
        router.post("/dashboard/feed/channels") { request, _ in
            try await form(request) { signedIn, form in
                do {
                    _ = try await services.feed.putChannel(appId: signedIn.app.id, id: form.text("channelId") ?? "", name: form.text("channelName") ?? "",
                                                           description: form.text("channelDescription"), create: true)
                    return DashboardView.redirect("/dashboard/feed?notice=channel")
                } catch {
                    return try await feedPage(signedIn, values: form.values, errors: Self.errors(error, fields: ["id": "channelId", "name": "channelName"]),
                                              status: .unprocessableContent)
                }
            }
        }
        router.post("/dashboard/feed/categories") { request, _ in
            try await form(request) { signedIn, form in
                do {
                    _ = try await services.feed.putCategory(appId: signedIn.app.id, id: form.text("categoryId") ?? "", label: form.text("categoryLabel") ?? "", create: true)
                    return DashboardView.redirect("/dashboard/feed?notice=category")
                } catch {
                    return try await feedPage(signedIn, values: form.values, errors: Self.errors(error, fields: ["id": "categoryId", "label": "categoryLabel"]),
                                              status: .unprocessableContent)
                }
            }
        }
        router.post("/dashboard/feed/:kind/:id/delete") { request, context in
            try await form(request) { signedIn, _ in
                guard let kind = FeedSetupKind(rawValue: try context.parameters.require("kind")) else { throw HeraldError.notFound("feed setup", "") }
                try await services.feed.delete(appId: signedIn.app.id, kind: kind, id: try context.parameters.require("id"))
                return DashboardView.redirect("/dashboard/feed?notice=deleted")
            }
        }

        // Card templates
        router.get("/dashboard/feed/templates/new") { request, _ in
            try await page(request) { signedIn in
                try await cardTemplateForm(signedIn, values: ["card": Self.sampleCard], errors: [:], creating: true)
            }
        }
        router.get("/dashboard/feed/templates/:id") { request, context in
            try await page(request) { signedIn in
                let record = try await services.feed.get(appId: signedIn.app.id, kind: .template, id: try context.parameters.require("id"))
                let template = FeedTemplate(record)
                return try await cardTemplateForm(signedIn, values: [
                    "id": template.id, "name": template.name, "card": DashboardJSON.pretty(template.card),
                    "categoryId": template.categoryId ?? "", "channelId": template.channelId ?? "",
                ], errors: [:], creating: false, notice: request.uri.queryParameters.get("saved") != nil ? "Template saved." : nil)
            }
        }
        router.post("/dashboard/feed/templates") { request, _ in
            try await form(request) { signedIn, form in
                let creating = form.text("creating") == "1"
                do {
                    let card = try DashboardJSON.parse(form.raw("card"), field: "card")
                    let saved = try await services.feed.putTemplate(appId: signedIn.app.id, id: form.text("id") ?? "", name: form.text("name") ?? "", card: card,
                                                                    categoryId: form.text("categoryId"), channelId: form.text("channelId"), create: creating)
                    return DashboardView.redirect("/dashboard/feed/templates/\(Self.pathComponent(saved.id))?saved=1")
                } catch {
                    return try await cardTemplateForm(signedIn, values: form.values, errors: Self.errors(error), creating: creating, status: .unprocessableContent)
                }
            }
        }
        router.post("/dashboard/feed/templates/preview") { request, _ in
            try await form(request) { _, form in
                view.fragment("card-preview", context: Self.cardPreview(form.raw("card")))
            }
        }

        // Campaigns
        router.get("/dashboard/campaigns/new") { request, _ in
            try await page(request) { signedIn in
                try await campaignForm(signedIn, values: ["audience": "all", "card": Self.sampleCard], errors: [:])
            }
        }
        router.post("/dashboard/campaigns") { request, _ in
            try await form(request) { signedIn, form in
                do {
                    let campaign = try await services.campaigns.create(appId: signedIn.app.id, try Self.campaignInput(form))
                    return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=created")
                } catch {
                    return try await campaignForm(signedIn, values: form.values, errors: Self.errors(error, fields: Self.campaignFields), status: .unprocessableContent)
                }
            }
        }
        router.get("/dashboard/campaigns/:id") { request, context in
            try await page(request) { signedIn in
                try await campaignPage(signedIn, id: try context.parameters.require("id"), notice: request.uri.queryParameters.get("notice"))
            }
        }
        router.post("/dashboard/campaigns/:id/send") { request, context in
            try await form(request) { signedIn, _ in
                let campaign = try await services.campaigns.send(appId: signedIn.app.id, id: try context.parameters.require("id"))
                return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=sending")
            }
        }
        router.post("/dashboard/campaigns/:id/cancel") { request, context in
            try await form(request) { signedIn, _ in
                let campaign = try await services.campaigns.cancel(appId: signedIn.app.id, id: try context.parameters.require("id"))
                return DashboardView.redirect("/dashboard/campaigns/\(campaign.id)?notice=cancelled")
            }
        }
    }

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

    // MARK: Channels, categories, templates

    func feedPage(_ signedIn: DashboardSignedIn, values: [String: String], errors: [String: String], notice: String? = nil,
                  status: HTTPResponse.Status = .ok) async throws -> Response {
        let appId = signedIn.app.id
        let channels = try await services.feed.list(appId: appId, kind: .channel, cursor: nil, limit: 200).items.map(FeedChannel.init)
        let categories = try await services.feed.list(appId: appId, kind: .category, cursor: nil, limit: 200).items.map(FeedCategory.init)
        let templates = try await services.feed.list(appId: appId, kind: .template, cursor: nil, limit: 200).items.map(FeedTemplate.init)
        let campaigns = try await services.campaigns.list(appId: appId, cursor: nil, limit: 50).items
        let notices = ["channel": "Channel added.", "category": "Category added.", "deleted": "Deleted."]
        return view.page("feed", title: "Feed", section: "/dashboard/feed", context: [
            "values": values, "errors": errors,
            "channels": channels.map { ["id": $0.id, "name": $0.name, "description": $0.description ?? ""] },
            "categories": categories.map { ["id": $0.id, "label": $0.label] },
            "templates": templates.map { ["id": $0.id, "name": $0.name, "link": "/dashboard/feed/templates/\(Self.pathComponent($0.id))",
                                          "category": $0.categoryId ?? "", "channel": $0.channelId ?? ""] },
            "campaigns": campaigns.map { ["id": $0.id, "name": $0.name, "status": $0.status.rawValue, "link": "/dashboard/campaigns/\($0.id)",
                                          "audience": Self.audienceText($0.audience), "items": $0.itemsCreated, "size": $0.audienceSize,
                                          "sendAt": DashboardFormat.date($0.sendAt)] },
        ], signedIn: signedIn, status: status, notice: notice.flatMap { notices[$0] })
    }

    /// The card's problems by pointer, and its rendering in light and dark.
    static func cardPreview(_ text: String) -> [String: Any] {
        let card: JSONValue
        do {
            card = try DashboardJSON.parse(text, field: "card")
        } catch {
            return ["problems": [["pointer": "", "message": message(DashboardErrors.heraldError(from: error))]], "hasProblems": true]
        }
        let problems = CardValidator.problems(card, template: true)
        var context: [String: Any] = ["problems": problems.map { ["pointer": $0.pointer.isEmpty ? "/" : $0.pointer, "message": $0.message] },
                                      "hasProblems": !problems.isEmpty]
        if case .object(let object) = card, let parsed = try? Card(json: object) {
            context["light"] = CardHTMLRenderer(scheme: .light).fragment(parsed)
            context["dark"] = CardHTMLRenderer(scheme: .dark).fragment(parsed)
        }
        return context
    }

    func cardTemplateForm(_ signedIn: DashboardSignedIn, values: [String: String], errors: [String: String], creating: Bool, notice: String? = nil,
                          status: HTTPResponse.Status = .ok) async throws -> Response {
        let filing = try await filingOptions(signedIn, values)
        return view.page("card-template", title: creating ? "New card template" : "Card template", section: "/dashboard/feed", context: [
            "values": values, "errors": errors, "creating": creating, "preview": Self.cardPreview(values["card"] ?? ""),
            "categories": filing.categories, "channels": filing.channels,
        ], signedIn: signedIn, status: status, notice: notice)
    }

    func filingOptions(_ signedIn: DashboardSignedIn, _ values: [String: String]) async throws -> (categories: [[String: Any]], channels: [[String: Any]], templates: [[String: Any]]) {
        let appId = signedIn.app.id
        let categories = try await services.feed.list(appId: appId, kind: .category, cursor: nil, limit: 200).items.map(\.id)
        let channels = try await services.feed.list(appId: appId, kind: .channel, cursor: nil, limit: 200).items.map(\.id)
        let templates = try await services.feed.list(appId: appId, kind: .template, cursor: nil, limit: 200).items.map(\.id)
        return (Self.options([""] + categories, selected: values["categoryId"] ?? "", labels: ["": "none"]),
                Self.options([""] + channels, selected: values["channelId"] ?? "", labels: ["": "none"]),
                Self.options([""] + templates, selected: values["templateId"] ?? "", labels: ["": "none: the card below"]))
    }

    // MARK: Campaigns

    static func audienceText(_ audience: Audience) -> String {
        switch audience {
        case .all: "everyone"
        case .uids(let uids): "users: " + uids.prefix(5).joined(separator: ", ") + (uids.count > 5 ? " and \(uids.count - 5) more" : "")
        case .tags(let tags, let all): (all ? "users with all of the tags: " : "users with any of the tags: ") + tags.joined(separator: ", ")
        case .groups(let guids): "members of: " + guids.joined(separator: ", ")
        }
    }

    static func campaignInput(_ form: DashboardForm) throws -> CampaignManagement.Input {
        let list = (form.text("audienceValues") ?? "").split(whereSeparator: { $0 == "," || $0.isNewline || $0 == " " }).map(String.init)
        let audience: Audience
        switch form.text("audience") ?? "all" {
        case "all": audience = .all
        case "uids", "tagsAny", "tagsAll", "groups":
            guard !list.isEmpty else { throw HeraldError.invalidField("audienceValues", "list the users, tags or groups, separated by commas") }
            audience = switch form.text("audience") {
            case "uids": .uids(list)
            case "tagsAny": .tags(list, all: false)
            case "tagsAll": .tags(list, all: true)
            default: .groups(list)
            }
        default: throw HeraldError.invalidField("audience", "must be everyone, users, tags or groups")
        }
        var content = FeedManagement.Content(categoryId: form.text("categoryId"), channelId: form.text("channelId"))
        if let templateId = form.text("templateId") {
            content.templateId = templateId
            if let data = form.text("data") {
                guard case .object(let object) = try DashboardJSON.parse(data, field: "data") else { throw HeraldError.invalidField("data", "must be a JSON object") }
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

    func campaignForm(_ signedIn: DashboardSignedIn, values: [String: String], errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        let filing = try await filingOptions(signedIn, values)
        return view.page("campaign-new", title: "New campaign", section: "/dashboard/feed", context: [
            "values": values, "errors": errors, "categories": filing.categories, "channels": filing.channels, "templates": filing.templates,
            "audiences": Self.options(["all", "uids", "tagsAny", "tagsAll", "groups"], selected: values["audience"] ?? "all", labels: [
                "all": "Everyone", "uids": "These users", "tagsAny": "Users with any of these tags", "tagsAll": "Users with all of these tags",
                "groups": "Members of these groups",
            ]),
            "pushChecked": values["push"] == "on", "preview": Self.cardPreview(values["card"] ?? ""),
        ], signedIn: signedIn, status: status)
    }

    func campaignPage(_ signedIn: DashboardSignedIn, id: String, notice: String?) async throws -> Response {
        let campaign = try await services.campaigns.get(appId: signedIn.app.id, id: id)
        let stats = try await services.campaigns.stats(appId: signedIn.app.id, id: id)
        let engaged = stats.engaged.values.reduce(0, +)
        var funnel = DashboardCharts.funnel(title: "Campaign funnel", steps: [
            ("Audience", max(stats.audienceSize, campaign.audienceSize)), ("Items created", stats.itemsCreated), ("Delivered", stats.delivered),
            ("Read", stats.read), ("Engaged", engaged),
        ])
        if campaign.push != nil {
            funnel += DashboardCharts.funnel(title: "Push funnel", steps: [
                ("Pushes sent", stats.pushesSent), ("Delivered", stats.pushesDelivered), ("Clicked", stats.pushesClicked),
            ])
        }
        let running = [.scheduled, .sending].contains(campaign.status)
        let notices = ["created": "Campaign created.", "sending": "Sending: the page refreshes until it is done.", "cancelled": "Campaign cancelled."]
        return view.page("campaign", title: "Campaign \(campaign.name)", section: "/dashboard/feed", context: [
            "id": campaign.id, "name": campaign.name, "status": campaign.status.rawValue, "audience": Self.audienceText(campaign.audience),
            "sendAt": DashboardFormat.date(campaign.sendAt), "started": DashboardFormat.date(campaign.startedAt), "finished": DashboardFormat.date(campaign.finishedAt),
            "canSend": [.draft, .scheduled].contains(campaign.status), "canCancel": [.draft, .scheduled, .sending].contains(campaign.status),
            "refresh": running, "progress": campaign.audienceSize > 0 ? min(100, campaign.itemsCreated * 100 / campaign.audienceSize) : (campaign.status == .sent ? 100 : 0),
            "items": stats.itemsCreated, "size": max(stats.audienceSize, campaign.audienceSize), "delivered": stats.delivered, "read": stats.read,
            "engaged": engaged, "pushesSent": stats.pushesSent, "pushesFailed": stats.pushesFailed, "pushesPending": stats.pushesPending,
            "pushesDelivered": stats.pushesDelivered, "pushesClicked": stats.pushesClicked, "hasPush": campaign.push != nil,
            "pushTitle": campaign.push?.title ?? "", "pushBody": campaign.push?.body ?? "",
            "hasEngagements": !stats.engaged.isEmpty,
            "engagements": stats.engaged.sorted { $0.key < $1.key }.map { ["name": $0.key, "count": $0.value] },
            "funnel": funnel, "template": campaign.templateId ?? "",
        ], signedIn: signedIn, notice: notice.flatMap { notices[$0] })
    }
}
