import Foundation
import HeraldCore
import HeraldModels
import HeraldServer
import HeraldStorage
import HeraldTestSupport
import Testing

/// The in-app feed: set-up, cards checked against the schema, items filtered and paged, marks,
/// engagements, live delivery, campaigns with their pushes, tracking and numbers.
@Suite("Notification feed and campaigns")
struct FeedTests {
    static func card(_ text: String = "Hello {{user.name}}", url: String = "https://example.com/offer") -> [String: Any] {
        [
            "version": "1.0", "fallbackText": text,
            "body": [
                ["type": "text", "id": "title", "content": text, "variant": "heading2"],
                [
                    "type": "row", "id": "actions",
                    "items": [
                        ["type": "button", "id": "open", "label": "Open", "action": ["type": "openUrl", "url": url]],
                        ["type": "iconButton", "id": "chat", "icon": "chat", "action": ["type": "chatWithUser", "uid": "support"]],
                    ],
                ],
            ], "style": ["background": ["light": "#FFFFFF", "dark": "#000000"]],
        ]
    }

    /// Sends one item to each uid; returns their ids by uid.
    static func send(_ client: HeraldClient, _ apiKey: String, _ uids: [String], _ extra: [String: Any] = [:]) async throws -> [String: String] {
        var body: [String: Any] = ["uids": uids, "card": card()]
        body.merge(extra) { $1 }
        let response = try await client.request(.post, "/v1/feed/items", bearer: apiKey, json: body)
        guard response.status == 200 else { throw TestFailure("feed items: \(response.status) \(response.text)") }
        var ids: [String: String] = [:]
        for item in response["items"] as? [[String: Any]] ?? [] { ids[item["uid"] as! String] = item["id"] as? String }
        return ids
    }

    /// Every page of a feed query, following cursors.
    static func all(_ client: HeraldClient, _ token: String, _ query: String, limit: Int = 4) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        repeat {
            var path = "/v1/me/feed?limit=\(limit)" + (query.isEmpty ? "" : "&" + query)
            if let cursor { path += "&cursor=" + cursor }
            let page = try await client.request(.get, path, bearer: token)
            guard page.status == 200 else { throw TestFailure("\(path): \(page.status) \(page.text)") }
            items += page["data"] as? [[String: Any]] ?? []
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        return items
    }

    @Test(arguments: TestBackend.available)
    func setupRecordsAndCardsAreChecked(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let key = app.apiKey
            #expect(try await client.request(.post, "/v1/feed/categories", bearer: key, json: ["id": "promo", "label": "Promotions"]).status == 201)
            let again = try await client.request(.post, "/v1/feed/categories", bearer: key, json: ["id": "promo", "label": "Other"])
            #expect(again.status == 409)
            #expect(try await client.request(.post, "/v1/feed/categories", bearer: key, json: ["label": "No id"]).errorDetails?["field"] == "id")
            #expect(try await client.request(.put, "/v1/feed/categories/promo", bearer: key, json: ["label": "Deals"])["label"] as? String == "Deals")
            #expect(try await client.request(.put, "/v1/feed/categories/nope", bearer: key, json: ["label": "X"]).status == 404)
            #expect(
                try await client.request(.post, "/v1/feed/channels", bearer: key, json: ["id": "main", "name": "Main", "description": "All"]).status
                    == 201
            )
            for id in ["a", "b", "c"] {
                #expect(try await client.request(.post, "/v1/feed/channels", bearer: key, json: ["id": id, "name": id]).status == 201)
            }
            let first = try await client.request(.get, "/v1/feed/channels?limit=2", bearer: key)
            let second = try await client.request(.get, "/v1/feed/channels?limit=2&cursor=\(first["nextCursor"] as! String)", bearer: key)
            let names = ((first["data"] as? [[String: Any]] ?? []) + (second["data"] as? [[String: Any]] ?? [])).compactMap { $0["id"] as? String }
            #expect(names == ["a", "b", "c", "main"] && second["nextCursor"] == nil)

            // A card with several problems: each reported with its JSON pointer.
            var bad = Self.card()
            bad["version"] = "2.0"
            bad["body"] = [
                ["type": "text", "content": "no id"],
                ["type": "button", "id": "x", "label": "Go", "action": ["type": "teleport"]],
                ["type": "image", "id": "x", "url": "ftp://example.com/a.png"],
                ["type": "text", "id": "c", "content": "Hi", "color": ["light": "red", "dark": "#000000"]],
                [
                    "type": "column", "id": "col",
                    "items": [["type": "link", "id": "l", "text": "Call", "action": ["type": "initiateCall", "callType": "video"]]],
                ],
            ]
            bad["extra"] = true
            let refused = try await client.request(.post, "/v1/feed/templates", bearer: key, json: ["id": "t1", "name": "Offer", "card": bad])
            #expect(refused.status == 422 && refused.errorCode == "invalid_card")
            let details = refused.errorDetails ?? [:]
            for pointer in [
                "/card/version", "/card/body/0/id", "/card/body/1/action/type", "/card/body/2/url", "/card/body/2/id",
                "/card/body/3/color/light", "/card/body/4/items/0/action", "/card/extra",
            ] {
                #expect(details[pointer] != nil, "\(pointer) in \(details)")
            }
            #expect(details["/card/body/2/id"]?.contains("unique") == true)

            // Templates may hold variables where a URL goes; category and channel must exist.
            let template =
                ["id": "t1", "name": "Offer", "card": Self.card(url: "{{data.link}}"), "categoryId": "promo", "channelId": "main"] as [String: Any]
            let created = try await client.request(.post, "/v1/feed/templates", bearer: key, json: template)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.body["card"]["body"].array?.count == 2)
            var orphan = template
            orphan["id"] = "t2"
            orphan["categoryId"] = "missing"
            #expect(try await client.request(.post, "/v1/feed/templates", bearer: key, json: orphan).errorDetails?["field"] == "categoryId")
            #expect(try await client.request(.get, "/v1/feed/templates/t1", bearer: key)["categoryId"] as? String == "promo")
            #expect(try await client.request(.delete, "/v1/feed/templates/t1", bearer: key).status == 204)
            #expect(try await client.request(.get, "/v1/feed/templates/t1", bearer: key).status == 404)
            // The schema is served beside the API description.
            let schema = try await client.request(.get, "/card-schema.json")
            #expect(schema.status == 200 && schema.body["$defs"].object != nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func everyFilterAndCombinationPagesNewestFirst(_ backend: TestBackend) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
        // Hundreds of reads with one auth token, as fast as the router answers: not a test of the rate limit.
        let herald = try await TestHerald.make(backend, clock: clock, rateLimits: .off)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let key = app.apiKey
            let ana = try await client.login("ana", apiKey: key)
            for (id, label) in [("promo", "Promotions"), ("news", "News")] {
                try await client.request(.post, "/v1/feed/categories", bearer: key, json: ["id": id, "label": label])
            }
            try await client.request(.post, "/v1/feed/channels", bearer: key, json: ["id": "main", "name": "Main"])
            try await client.request(.post, "/v1/feed/channels", bearer: key, json: ["id": "alt", "name": "Alt"])
            struct Sent {
                var id: String
                var categoryId: String?
                var channelId: String
                var tags: [String]
                var at: Date
                var read: Bool
            }
            var sent: [Sent] = []
            let tagSets = [["a"], ["b"], ["a", "b"], []]
            for index in 0..<12 {
                clock.advance(by: 60)
                let categoryId = [nil, "promo", "news"][index % 3]
                let channelId = index % 2 == 0 ? "main" : "alt"
                var extra: [String: Any] = ["channelId": channelId, "tags": tagSets[index % 4]]
                if let categoryId { extra["categoryId"] = categoryId }
                let id = try #require(try await Self.send(client, key, ["ana"], extra)["ana"])
                sent.append(
                    Sent(id: id, categoryId: categoryId, channelId: channelId, tags: tagSets[index % 4], at: clock.now(), read: index % 5 == 0)
                )
            }
            for item in sent where item.read {
                #expect(try await client.request(.post, "/v1/me/feed/\(item.id)/read", bearer: ana).status == 200)
            }
            let iso = Date.ISO8601FormatStyle()
            let from = sent[3].at
            let to = sent[8].at
            let labels = ["promo": "Promotions", "news": "News"]
            for readState in [nil, "read", "unread"] {
                for category in [nil, "categoryId=promo", "category=News", "categoryId=promo&category=News"] {
                    for channel in [nil, "main"] {
                        for tags in [nil, "a", "a,b"] {
                            for dates in [nil, "from", "to", "both"] {
                                var query: [String] = []
                                if let readState { query.append("readState=\(readState)") }
                                if let category { query.append(category) }
                                if let channel { query.append("channelId=\(channel)") }
                                if let tags { query.append("tags=\(tags)") }
                                if dates == "from" || dates == "both" { query.append("dateFrom=\(iso.format(from))") }
                                if dates == "to" || dates == "both" { query.append("dateTo=\(iso.format(to))") }
                                let expected = sent.filter { item in
                                    if readState == "read", !item.read { return false }
                                    if readState == "unread", item.read { return false }
                                    if let category {
                                        // categoryId wins when both are given.
                                        if category.hasPrefix("categoryId=promo") {
                                            if item.categoryId != "promo" { return false }
                                        } else if labels[item.categoryId ?? ""] != "News" {
                                            return false
                                        }
                                    }
                                    if let channel, item.channelId != channel { return false }
                                    if let tags, Set(tags.split(separator: ",").map(String.init)).isDisjoint(with: item.tags) { return false }
                                    if dates == "from" || dates == "both", item.at < from { return false }
                                    if dates == "to" || dates == "both", item.at > to { return false }
                                    return true
                                }.reversed().map(\.id)
                                let got = try await Self.all(client, ana, query.joined(separator: "&"), limit: 3).compactMap { $0["id"] as? String }
                                #expect(got == Array(expected), "\(query)")
                            }
                        }
                    }
                }
            }
            // Items carry CometChat Campaigns' fields.
            let newest = try #require(try await Self.all(client, ana, "").first)
            for field in ["id", "content", "sentAt", "metadata", "tags", "sender", "receiver", "receiverType", "isRead", "category", "categoryId"] {
                #expect(newest[field] != nil, "\(field)")
            }
            #expect(newest["receiver"] as? String == "ana" && newest["receiverType"] as? String == "user" && newest["category"] as? String == "News")
            #expect(try await client.request(.get, "/v1/me/feed?limit=101", bearer: ana).status == 422)
            #expect(try await client.request(.get, "/v1/me/feed?cursor=bogus", bearer: ana).status == 422)
            #expect(try await client.request(.get, "/v1/me/feed?dateFrom=\(iso.format(to))&dateTo=\(iso.format(from))", bearer: ana).status == 422)
        }
    }

    /// The feed page is written by hand (``HotRoutes``); the single item through the generated
    /// types. Both say the same of every item, and a wrong query value is named.
    @Test(arguments: TestBackend.available)
    func theFeedPageSaysOfEachItemWhatTheItemRouteSays(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let ana = try await client.login("ana", apiKey: app.apiKey)
            let category = try await client.request(.post, "/v1/feed/categories", bearer: app.apiKey, json: ["id": "promo", "label": "Promotions"])
            let channel = try await client.request(.post, "/v1/feed/channels", bearer: app.apiKey, json: ["id": "main", "name": "Main"])
            #expect(category.status == 201 && channel.status == 201)
            _ = try await Self.send(client, app.apiKey, ["ana"])
            _ = try await Self.send(
                client,
                app.apiKey,
                ["ana"],
                [
                    "categoryId": "promo", "channelId": "main", "tags": ["a", "b/c"], "sender": "Acme \"Deals\"",
                    "metadata": ["score": 1.5, "count": 3, "nested": ["list": [1, "two", true], "ok": false], "url": "https://x.test/a"],
                ]
            )
            let ids = try #require(try await Self.all(client, ana, "").compactMap { $0["id"] as? String }.first)
            #expect(try await client.request(.post, "/v1/me/feed/\(ids)/read", bearer: ana).status == 200)
            let page = try await client.request(.get, "/v1/me/feed?limit=20", bearer: ana)
            #expect(page.status == 200 && page.headers[.contentType]?.hasPrefix("application/json") == true)
            guard case .array(let items) = page.body["data"] else { throw TestFailure("no data: \(page.text)") }
            #expect(items.count == 2)
            for item in items {
                let id = try #require(item["id"].string)
                let single = try await client.request(.get, "/v1/me/feed/\(id)", bearer: ana)
                #expect(single.status == 200 && item == single.body, "\(page.text) vs \(single.text)")
            }
            #expect(items[0]["isRead"] == .bool(true) && items[0]["readAt"].string != nil && items[1]["readAt"] == .null)
            #expect(items[0]["metadata"]["nested"]["list"] == .array([.number(1), .string("two"), .bool(true)]))
            for (query, field) in [
                ("limit=many", "limit"), ("readState=seen", "readState"), ("dateFrom=yesterday", "dateFrom"), ("dateTo=2026-13-01", "dateTo"),
            ] {
                let refused = try await client.request(.get, "/v1/me/feed?\(query)", bearer: ana)
                #expect(refused.status == 422 && refused.errorDetails?["field"] == field, "\(query): \(refused.status) \(refused.text)")
            }
            #expect(try await client.request(.get, "/v1/me/feed", bearer: app.apiKey).status == 403)
            #expect(try await client.request(.get, "/v1/me/feed").status == 401)
        }
    }

    @Test(arguments: TestBackend.available)
    func cursorsHoldWhileItemsArriveAndUsersSeeOnlyTheirOwn(_ backend: TestBackend) async throws {
        let clock = ManualClock()
        let herald = try await TestHerald.make(backend, clock: clock)
        let app = try await herald.makeApp()
        let other = try await herald.makeApp(name: "Other")
        try await herald.run { client in
            let ana = try await client.login("ana", apiKey: app.apiKey)
            let bo = try await client.login("bo", apiKey: app.apiKey)
            let elsewhere = try await client.login("ana", apiKey: other.apiKey)
            var ids: [String] = []
            for _ in 0..<7 {
                clock.advance(by: 1)
                ids.append(try await Self.send(client, app.apiKey, ["ana"])["ana"]!)
            }
            let first = try await client.request(.get, "/v1/me/feed?limit=3", bearer: ana)
            #expect((first["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(ids.reversed().prefix(3)))
            // New items arrive between pages: the next pages neither repeat nor skip.
            for _ in 0..<4 {
                clock.advance(by: 1)
                _ = try await Self.send(client, app.apiKey, ["ana", "bo"])
            }
            var rest: [String] = []
            var cursor = first["nextCursor"] as? String
            while let next = cursor {
                let page = try await client.request(.get, "/v1/me/feed?limit=3&cursor=\(next)", bearer: ana)
                rest += (page["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            }
            #expect(rest == Array(ids.reversed().dropFirst(3)))
            // An exhausted feed answers an empty page.
            let last = try await client.request(.get, "/v1/me/feed?limit=3&cursor=\(Cursor.encode(ids[0]))", bearer: ana)
            #expect(last.status == 200 && (last["data"] as? [Any])?.isEmpty == true && last["nextCursor"] == nil)

            // Bo and the other app's Ana see none of Ana's items, and cannot touch them.
            let boFeed = try await Self.all(client, bo, "")
            #expect(boFeed.count == 4 && boFeed.allSatisfy { $0["receiver"] as? String == "bo" })
            #expect(try await Self.all(client, elsewhere, "").isEmpty)
            for token in [bo, elsewhere] {
                #expect(try await client.request(.get, "/v1/me/feed/\(ids[0])", bearer: token).status == 404)
                #expect(try await client.request(.post, "/v1/me/feed/\(ids[0])/read", bearer: token).status == 404)
                #expect(
                    try await client.request(.post, "/v1/me/feed/\(ids[0])/engagements", bearer: token, json: ["interaction": "clicked"]).status
                        == 404
                )
            }
            #expect(try await client.request(.get, "/v1/me/feed/unread-count", bearer: elsewhere)["unreadCount"] as? Int == 0)
            // Admin keys are not user tokens.
            #expect(try await client.request(.get, "/v1/me/feed", bearer: app.apiKey).status == 403)
        }
    }

    @Test(arguments: TestBackend.available)
    func marksAndEngagementsAreIdempotent(_ backend: TestBackend) async throws {
        let clock = ManualClock()
        let herald = try await TestHerald.make(backend, clock: clock)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let ana = try await client.login("ana", apiKey: app.apiKey)
            try await client.request(.post, "/v1/feed/categories", bearer: app.apiKey, json: ["id": "promo", "label": "Promotions"])
            let plain = try await Self.send(client, app.apiKey, ["ana"])["ana"]!
            let promo = try await Self.send(client, app.apiKey, ["ana"], ["categoryId": "promo"])["ana"]!
            #expect(try await client.request(.get, "/v1/me/feed/unread-count", bearer: ana)["unreadCount"] as? Int == 2)
            #expect(try await client.request(.get, "/v1/me/feed/unread-count?categoryId=promo", bearer: ana)["unreadCount"] as? Int == 1)
            #expect(try await client.request(.get, "/v1/me/feed/unread-count?category=Promotions", bearer: ana)["unreadCount"] as? Int == 1)

            let delivered = try await client.request(.post, "/v1/me/feed/\(plain)/delivered", bearer: ana)
            let deliveredAt = try #require(delivered["deliveredAt"] as? String)
            #expect(delivered["readAt"] == nil && delivered["isRead"] as? Bool == false)
            clock.advance(by: 30)
            #expect(try await client.request(.post, "/v1/me/feed/\(plain)/delivered", bearer: ana)["deliveredAt"] as? String == deliveredAt)
            let read = try await client.request(.post, "/v1/me/feed/\(plain)/read", bearer: ana)
            let readAt = try #require(read["readAt"] as? String)
            #expect(read["isRead"] as? Bool == true && readAt != deliveredAt)
            clock.advance(by: 30)
            let again = try await client.request(.post, "/v1/me/feed/\(plain)/read", bearer: ana)
            #expect(again["readAt"] as? String == readAt && again["deliveredAt"] as? String == deliveredAt)
            // Reading marks delivered too.
            #expect(try await client.request(.post, "/v1/me/feed/\(promo)/read", bearer: ana)["deliveredAt"] != nil)
            #expect(try await client.request(.get, "/v1/me/feed/unread-count", bearer: ana)["unreadCount"] as? Int == 0)

            let engage = { (interaction: String) in
                try await client.request(.post, "/v1/me/feed/\(plain)/engagements", bearer: ana, json: ["interaction": interaction])
            }
            #expect(try await engage("clicked")["recorded"] as? Bool == true)
            #expect(try await engage("clicked")["recorded"] as? Bool == false)
            #expect(try await engage("open")["recorded"] as? Bool == true)
            #expect(try await engage("").status == 422)
            #expect(try await client.request(.post, "/v1/me/feed/fit_nope/read", bearer: ana).status == 404)
            #expect(try await client.request(.get, "/v1/me/feed/categories", bearer: ana)["data"].map { ($0 as? [[String: Any]])?.count } == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func newItemsReachOnlineSessionsLive(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.runLive { client, port in
            let ana = try await client.login("ana", apiKey: app.apiKey)
            let ws = try await RealtimeTestClient.connect(port: port, token: ana)
            let id = try await Self.send(client, app.apiKey, ["ana"], ["data": ["x": 1]])["ana"]
            guard case .feedItem(let envelope) = try await ws.next() else {
                Issue.record("no feed_item")
                return
            }
            #expect(envelope.item["id"]?.stringValue == id && envelope.item["content"]?.objectValue?["fallbackText"]?.stringValue == "Hello Ana")
            #expect(try await ws.next() == .unread(.init(unreadCount: 1)))
            _ = try await client.request(.post, "/v1/me/feed/\(id!)/read", bearer: ana)
            #expect(try await ws.next() == .unread(.init(unreadCount: 0)))
            ws.close()
        }
    }

    @Test(arguments: TestBackend.available)
    func campaignsReachTheirAudienceOnceOnScheduleAcrossRestarts(_ backend: TestBackend) async throws {
        let clock = ManualClock()
        let herald = try await TestHerald.make(backend, clock: clock, engineWorkers: false)
        let app = try await herald.makeApp()
        let key = app.apiKey
        let campaignId: String = try await herald.run { client in
            for index in 0..<25 {
                let tags = index % 2 == 0 ? ["vip"] : ["free"]
                try await client.request(
                    .put,
                    "/v1/users/u\(String(format: "%02d", index))",
                    bearer: key,
                    json: ["name": "U\(index)", "tags": tags + (index % 5 == 0 ? ["beta"] : [])]
                )
            }
            try await client.request(.put, "/v1/groups/hikers", bearer: key, json: ["name": "Hikers"])
            try await client.request(.post, "/v1/groups/hikers/members", bearer: key, json: ["uids": ["u01", "u02", "u03"]])
            try await client.request(.put, "/v1/groups/climbers", bearer: key, json: ["name": "Climbers"])
            try await client.request(.post, "/v1/groups/climbers/members", bearer: key, json: ["uids": ["u03", "u04"]])

            // Audiences: every kind, streamed in small batches.
            var campaigns = herald.services.campaigns
            campaigns.batchSize = 4
            let audiences: [([String: Any], Int)] = [
                (["type": "all"], 25), (["type": "uids", "uids": ["u01", "u07", "ghost", "u07"]], 2), (["type": "tags", "tags": ["vip"]], 13),
                (["type": "tags", "tags": ["vip", "beta"], "match": "all"], 3), (["type": "tags", "tags": ["free", "beta"]], 15),
                (["type": "groups", "groups": ["hikers", "climbers"]], 4),
            ]
            for (audience, size) in audiences {
                let created = try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: key,
                    json: ["name": "C", "audience": audience, "card": Self.card()]
                )
                #expect(created.status == 201 && created["status"] as? String == "draft", "\(created.text)")
                let id = try #require(created["id"] as? String)
                #expect(try await client.request(.post, "/v1/campaigns/\(id)/send", bearer: key).status == 202)
                #expect(try await campaigns.runDue())
                let done = try await client.request(.get, "/v1/campaigns/\(id)", bearer: key)
                let progress = done.body["progress"]
                #expect(
                    done["status"] as? String == "sent" && progress["itemsCreated"].int == size && progress["audienceSize"].int == size,
                    "\(audience): \(done.text)"
                )
                #expect(try await client.request(.post, "/v1/campaigns/\(id)/send", bearer: key).status == 409)
                #expect(
                    try await client.request(
                        .put,
                        "/v1/campaigns/\(id)",
                        bearer: key,
                        json: ["name": "D", "audience": ["type": "all"], "card": Self.card()]
                    ).status == 409
                )
            }
            #expect(
                try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: key,
                    json: ["name": "C", "audience": ["type": "tags", "tags": [String]()], "card": Self.card()]
                )
                .errorDetails?["field"] == "audience.tags"
            )
            #expect(
                try await client.request(.post, "/v1/campaigns", bearer: key, json: ["name": "C", "audience": ["type": "all"]]).errorDetails?["field"]
                    == "card"
            )

            // A cancelled campaign never sends.
            let later = clock.now().addingTimeInterval(3_600)
            let cancelled = try await client.request(
                .post,
                "/v1/campaigns",
                bearer: key,
                json: [
                    "name": "Never", "audience": ["type": "all"], "card": Self.card(), "sendAt": Date.ISO8601FormatStyle().format(later),
                ]
            )
            #expect(cancelled["status"] as? String == "scheduled")
            #expect(
                try await client.request(.post, "/v1/campaigns/\(cancelled["id"] as! String)/cancel", bearer: key)["status"] as? String == "cancelled"
            )

            // Scheduled for in an hour.
            let scheduled = try await client.request(
                .post,
                "/v1/campaigns",
                bearer: key,
                json: [
                    "name": "Weekly", "audience": ["type": "tags", "tags": ["vip"]], "card": Self.card(),
                    "sendAt": Date.ISO8601FormatStyle().format(later),
                ]
            )
            #expect(try await herald.services.campaigns.runDue() == false)
            return try #require(scheduled["id"] as? String)
        }
        // Two processes start on the same database after the hour: exactly one sends it.
        clock.advance(by: 3_601)
        let configuration = herald.configuration
        let processes = try await (0..<2).asyncMap { _ in
            try HeraldServices(store: try await SQLStore.open(herald.databaseURL), configuration: configuration, clock: clock)
        }
        let ran = await withTaskGroup(of: Bool.self) { group in
            for process in processes { group.addTask { (try? await process.campaigns.runDue()) ?? false } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(ran.filter { $0 }.count == 1, "\(ran)")
        let sent = try #require(try await processes[0].store.campaign(appId: app.appId, id: campaignId))
        #expect(sent.status == .sent && sent.itemsCreated == 13)
        #expect(try await processes[0].store.feedItems(appId: app.appId, uid: "u00", query: FeedQuery(limit: 100), before: nil).count == 5)

        // A process that claimed a campaign and died: after its lease another carries it through.
        let revived = try await processes[0].campaigns.create(
            appId: app.appId,
            .init(
                name: "Revived",
                audience: .all,
                content: .init(card: try JSONValue.parse(String(decoding: JSONSerialization.data(withJSONObject: Self.card()), as: UTF8.self)))
            )
        )
        _ = try await processes[0].campaigns.send(appId: app.appId, id: revived.id)
        #expect(
            try await processes[0].store.claimCampaign(now: clock.now(), claim: Claim(owner: "test", until: clock.now().addingTimeInterval(60)))
                != nil
        )
        #expect(try await processes[1].campaigns.runDue() == false)
        clock.advance(by: 61)
        #expect(try await processes[1].campaigns.runDue())
        #expect(try await processes[1].store.campaign(appId: app.appId, id: revived.id)?.itemsCreated == 25)
        for process in processes { try await process.shutdown() }
    }

    @Test(arguments: TestBackend.available)
    func campaignPushesAreTrackedAndCounted(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (ana, iphone) = try await world.device(client, "ana", "apns_ios_device", name: "Ana")
                let (bo, android) = try await world.device(client, "bo", "fcm_android", name: "Bo")
                _ = android
                let created = try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: world.apiKey,
                    json: [
                        "name": "Spring", "audience": ["type": "uids", "uids": ["ana", "bo"]], "card": Self.card(),
                        "push": ["title": "Hi {{user.name}}", "body": "{{data.offer}} for you", "badge": 1], "data": ["offer": "20% off"],
                    ]
                )
                let campaignId = try #require(created["id"] as? String)
                #expect(try await client.request(.post, "/v1/campaigns/\(campaignId)/send", bearer: world.apiKey).status == 202)
                #expect(try await world.herald.services.campaigns.runDue())
                // The runner sent the pushes as it stored each batch: the outbox has none left.
                #expect(try await world.drain() == 0)
                #expect(world.apns.received.count + world.fcm.messages.count == 2)

                let item = try #require(try await Self.all(client, ana, "").first)
                let pushed = try #require(world.apnsPayloads(to: iphone).first)
                #expect(
                    pushed.headers["apns-push-type"] == "alert" && pushed.headers["apns-topic"] == "com.acme.app"
                        && pushed.headers["apns-priority"] == "10"
                )
                let aps = pushed.payload["aps"]
                try #require(aps.object != nil)
                #expect(aps["alert"].stringObject == ["title": "Hi Ana", "body": "20% off for you"])
                #expect(aps["badge"].int == 1 && aps["mutable-content"].int == 1)
                let cometchat = try #require(pushed.payload["cometchat"].stringObject)
                #expect(Set(cometchat.keys) == ["type", "appId", "campaignId", "notificationId", "pushNotificationId", "uid", "sentAt"])
                #expect(cometchat["type"] == "business_messaging" && cometchat["appId"] == world.appId && cometchat["campaignId"] == campaignId)
                #expect(
                    cometchat["notificationId"] == item["id"] as? String && cometchat["uid"] == "ana"
                        && cometchat["sentAt"] == item["sentAt"] as? String
                )
                let pushId = try #require(cometchat["pushNotificationId"])
                #expect(pushId == item["pushNotificationId"] as? String && UUID(uuidString: pushId) != nil)
                #expect(cometchat["sentAt"]?.hasSuffix("Z") == true && cometchat["sentAt"]?.contains(".") == true)

                let fcm = try #require(world.fcm.lastMessage)
                let data = try #require(fcm["data"].stringObject)
                #expect(
                    data["type"] == "business_messaging" && data["uid"] == "bo" && data["campaignId"] == campaignId
                        && data["pushNotificationId"] != nil
                )
                #expect(fcm["notification"].stringObject == ["title": "Hi Bo", "body": "20% off for you"])

                // Tracking: idempotent, and only for the push's own user.
                let delivered = try await client.request(.post, "/v1/me/push-notifications/\(pushId)/delivered", bearer: ana)
                let deliveredAt = try #require(delivered["deliveredAt"] as? String)
                #expect(delivered["notificationId"] as? String == item["id"] as? String && delivered["clickedAt"] == nil)
                #expect(
                    try await client.request(.post, "/v1/me/push-notifications/\(pushId)/delivered", bearer: ana)["deliveredAt"] as? String
                        == deliveredAt
                )
                let clicked = try await client.request(.post, "/v1/me/push-notifications/\(pushId)/clicked", bearer: ana)
                #expect(clicked["clickedAt"] != nil && clicked["deliveredAt"] as? String == deliveredAt)
                #expect(try await client.request(.post, "/v1/me/push-notifications/\(pushId)/clicked", bearer: bo).status == 404)
                #expect(try await client.request(.post, "/v1/me/push-notifications/nope/clicked", bearer: ana).status == 404)
                _ = try await client.request(.post, "/v1/me/feed/\(item["id"] as! String)/read", bearer: ana)
                _ = try await client.request(.post, "/v1/me/feed/\(item["id"] as! String)/engagements", bearer: ana, json: ["interaction": "open"])

                let stats = try await client.request(.get, "/v1/campaigns/\(campaignId)/stats", bearer: world.apiKey)
                #expect(
                    stats["audienceSize"] as? Int == 2 && stats["itemsCreated"] as? Int == 2 && stats["read"] as? Int == 1
                        && stats["delivered"] as? Int == 1
                )
                #expect(stats["engaged"] as? [String: Int] == ["open": 1])
                #expect(stats["pushes"] as? [String: Int] == ["sent": 2, "failed": 0, "pending": 0, "delivered": 1, "clicked": 1], "\(stats.text)")
                let timeline = try #require(stats["timeline"] as? [[String: Any]])
                #expect(
                    timeline.reduce(0) { $0 + ($1["read"] as? Int ?? 0) } == 1 && timeline.reduce(0) { $0 + ($1["pushesClicked"] as? Int ?? 0) } == 1
                )
            }
        }
    }
}
