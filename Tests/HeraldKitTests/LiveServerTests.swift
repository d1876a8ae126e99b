import Foundation
import HeraldKit
import HeraldTestSupport
import Synchronization
import Testing

/// HeraldKit against a Herald server listening on a port (SQLite), as an app would use it.
@Suite("HeraldKit: against a live server")
struct LiveServerTests {
    static func card(_ title: String) -> [String: Any] {
        ["version": "1.0", "fallbackText": title, "body": [["type": "text", "id": "t", "content": title]]]
    }

    @Test func loginTokensPendingRegistrationAndLogout() async throws {
        try await EngineWorld.with(.sqlite) { world in
            try await world.herald.runLive { client, port in
                let token = try await client.login("ana", apiKey: world.apiKey)
                let herald = Herald(configuration: .init(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appId: world.appId))
                let device = String(repeating: "ab", count: 32)

                // Before login the registration waits; login completes it.
                let pending = try await herald.registerPushToken(device, platform: .apnsIOSDevice, providerId: "apns-1")
                let waiting = await herald.pendingToken
                #expect(pending.isPending && waiting == pending)
                await #expect(throws: HeraldKitError.notLoggedIn) { try await herald.markFeedItemAsRead("fit_x") }
                await #expect(throws: HeraldKitError.self) { try await herald.login(authToken: "hs_bogus") }
                let me = try await herald.login(authToken: token)
                let stillWaiting = await herald.pendingToken
                #expect(me.uid == "ana" && me.appId == world.appId && stillWaiting == nil)
                let tokens = { try await client.request(.get, "/v1/users/ana/push-tokens", bearer: world.apiKey)["data"] as? [[String: Any]] ?? [] }
                #expect(try await tokens().compactMap { $0["pushToken"] as? String } == [device])

                // A second token after login goes straight through; a bad one is the server's 422.
                let fcm = try await herald.registerPushToken(
                    "fcm-token-" + String(repeating: "x", count: 140),
                    platform: .fcmIOS,
                    providerId: "fcm-1"
                )
                let both = try await tokens()
                #expect(!fcm.isPending && both.count == 2)
                do {
                    _ = try await herald.registerPushToken("short", platform: .apnsIOSDevice, providerId: "apns-1")
                    Issue.record("a bad token was accepted")
                } catch {
                    #expect((error as? HeraldKitError)?.code == "invalid_field")
                }

                // Logout unregisters this session's tokens first, then ends the session.
                try await herald.logout()
                #expect(try await tokens().isEmpty)
                let user = await herald.loggedInUser
                #expect(user == nil)
                await #expect(throws: HeraldKitError.self) { try await herald.login(authToken: token) }
            }
        }
    }

    @Test func aBrowserSubscriptionAndAUnifiedPushEndpointRegisterAndTheirPushesOpen() async throws {
        try await EngineWorld.with(.sqlite) { world in
            try await world.herald.runLive { client, port in
                let provider = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: world.apiKey,
                    json: ["providerId": "web-1", "kind": "webpush", "subject": "mailto:push@acme.test"]
                )
                #expect(provider.status == 201, "\(provider.text)")
                let token = try await client.login("ana", apiKey: world.apiKey)
                let herald = Herald(configuration: .init(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appId: world.appId))
                _ = try await herald.login(authToken: token)

                // What a page's service worker hands over: JSON.stringify(subscription).
                let keys = Fixtures.webPushKeys()
                let subscription = try JSONSerialization.data(withJSONObject: [
                    "endpoint": world.hook.url + "/wpush/v2/tab", "expirationTime": NSNull(), "keys": ["p256dh": keys.p256dh, "auth": keys.auth],
                ])
                let browser = try await herald.registerWebPushSubscription(json: subscription, providerId: "web-1")
                #expect(browser.platform == .webPush && !browser.isPending)
                await #expect(throws: HeraldKitError.self) {
                    try await herald.registerWebPushSubscription(json: Data("{}".utf8), providerId: "web-1")
                }
                let decryptor = HeraldPushDecryptor.generate()
                let phone = try await herald.registerUnifiedPushEndpoint(world.hook.url + "/up/phone", providerId: "web-1", decryptor: decryptor)
                #expect(phone.platform == .unifiedPush && phone.encryption != nil)
                let listed = try await client.request(.get, "/v1/users/ana/push-tokens", bearer: world.apiKey)["data"] as? [[String: Any]] ?? []
                #expect(Set(listed.compactMap { $0["tokenKind"] as? String }) == ["web_push", "unifiedpush"])

                try await world.post(client, EngineWorld.message(from: "bo", to: "ana", text: "ping", id: 3))
                try await world.drain()
                #expect(world.hook.requests.filter { $0.path == "/wpush/v2/tab" }.count == 1)
                let sealed = try #require(world.hook.requests.first { $0.path == "/up/phone" })
                let opened = try decryptor.open(Array(sealed.body))
                let json = try JSONSerialization.jsonObject(with: Data(opened)) as? [String: Any]
                #expect(json?["body"] as? String == "ping")
            }
        }
    }

    @Test func receiptsFromThePushPayloadAreBatchedAndRecordedOnce() async throws {
        try await EngineWorld.with(.sqlite) { world in
            try await world.herald.runLive { client, port in
                let (session, phone) = try await world.device(client, "bo", "apns_ios_device")
                let herald = Herald(configuration: .init(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appId: world.appId))
                _ = try await herald.login(authToken: session)
                let ids = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", id: 88))
                try await world.drain()
                let userInfo = try #require(world.apnsUserInfos(to: phone).last)
                await herald.noteReceipt(.received, payload: userInfo)
                await herald.noteReceipt(.opened, payload: userInfo)
                await herald.noteReceipt(.opened, payload: ["aps": ["content-available": 1], "herald": ["type": "clear", "conversationId": "c"]])
                #expect(await herald.pendingReceiptCount == 2, "a clear names no push to report")
                #expect(try await herald.flushReceipts() == 2)
                await herald.noteReceipt(.received, payload: userInfo)
                #expect(try await herald.flushReceipts() == 0, "recorded once")
                #expect(await herald.pendingReceiptCount == 0)
                let log = try await world.log(client, ids[0])
                #expect(log.body["counts"]["received"].int == 1 && log.body["counts"]["opened"].int == 1)
            }
        }
    }

    @Test func theFeedPagesFiltersMarksAndTracksPushes() async throws {
        try await EngineWorld.with(.sqlite) { world in
            try await world.herald.runLive { client, port in
                let key = world.apiKey
                let (token, iphone) = try await world.device(client, "ana", "apns_ios_device", name: "Ana")
                try await client.request(.post, "/v1/feed/categories", bearer: key, json: ["id": "promo", "label": "Promotions"])
                try await client.request(.post, "/v1/feed/channels", bearer: key, json: ["id": "main", "name": "Main"])
                var ids: [String] = []
                for index in 0..<5 {
                    var body: [String: Any] = ["uids": ["ana"], "card": Self.card("Item \(index)"), "tags": index % 2 == 0 ? ["even"] : ["odd"]]
                    if index < 2 { body["categoryId"] = "promo" }
                    if index == 4 { body["channelId"] = "main" }
                    let sent = try await client.request(.post, "/v1/feed/items", bearer: key, json: body)
                    ids.append(try #require((sent["items"] as? [[String: Any]])?.first?["id"] as? String))
                    world.clock.advance(by: 1)
                }
                let herald = Herald(configuration: .init(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appId: world.appId))
                try await herald.login(authToken: token)

                func all(_ builder: NotificationFeedRequest.Builder) async throws -> [String] {
                    let request = builder.set(limit: 2).build(herald)
                    var found: [String] = []
                    while true {
                        let page = try await request.fetchNext()
                        if page.isEmpty { break }
                        found += page.map(\.id)
                    }
                    #expect(try await request.fetchNext().isEmpty)
                    return found
                }
                let newestFirst = Array(ids.reversed())
                #expect(try await all(.init()) == newestFirst)
                #expect(try await all(.init().set(categoryId: "promo")) == [ids[1], ids[0]])
                #expect(try await all(.init().set(category: "Promotions")) == [ids[1], ids[0]])
                #expect(try await all(.init().set(category: "Nothing").set(categoryId: "promo")) == [ids[1], ids[0]])
                #expect(try await all(.init().set(channelId: "main")) == [ids[4]])
                #expect(try await all(.init().set(tags: ["odd"])) == [ids[3], ids[1]])
                #expect(try await all(.init().set(dateFrom: world.clock.now().addingTimeInterval(60))).isEmpty)
                #expect(try await all(.init().set(dateTo: world.clock.now())) == newestFirst)

                // Marks and engagement.
                let read = try await herald.markFeedItemAsRead(ids[0])
                #expect(read.isRead && read.readAt != nil && read.content["fallbackText"]?.stringValue == "Item 0")
                #expect(try await herald.markFeedItemAsRead(ids[0]).readAt == read.readAt)
                #expect(try await herald.markFeedItemAsDelivered(ids[1]).deliveredAt != nil)
                #expect(try await all(.init().set(readState: .unread)) == Array(newestFirst.dropLast()))
                #expect(try await all(.init().set(readState: .read)) == [ids[0]])
                #expect(try await herald.reportFeedEngagement(ids[1], interaction: "clicked"))
                #expect(try await herald.reportFeedEngagement(ids[1], interaction: "clicked") == false)
                #expect(try await herald.notificationFeedUnreadCount() == 4)
                #expect(try await herald.notificationFeedUnreadCount(categoryId: "promo") == 1)
                #expect(try await herald.notificationFeedItem(id: ids[2]).tags == ["even"])
                do {
                    _ = try await herald.notificationFeedItem(id: "fit_missing")
                    Issue.record("a missing item was found")
                } catch {
                    #expect((error as? HeraldKitError)?.code == "not_found")
                }
                #expect(
                    try await NotificationCategoriesRequest(herald: herald).fetchNext() == [NotificationCategory(id: "promo", label: "Promotions")]
                )

                // A campaign push, as the device gets it, tracked back.
                let campaign = try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: key,
                    json: [
                        "name": "Spring", "audience": ["type": "uids", "uids": ["ana"]], "card": Self.card("Spring"),
                        "push": ["title": "Hi", "body": "Sale"],
                    ]
                )
                let campaignId = try #require(campaign["id"] as? String)
                try await client.request(.post, "/v1/campaigns/\(campaignId)/send", bearer: key)
                try await world.herald.services.campaigns.runDue()
                try await world.drain()
                let payload = try #require(world.apnsUserInfos(to: iphone).last)
                #expect(PushNotification.isCampaignPush(payload))
                let push = try PushNotification.fromPayload(payload)
                #expect(push.campaignId == campaignId && push.uid == "ana")
                try await herald.markPushNotificationDelivered(push)
                try await herald.markPushNotificationClicked(push)
                let stats = try await client.request(.get, "/v1/campaigns/\(campaignId)/stats", bearer: key)
                #expect((stats["pushes"] as? [String: Int])?["delivered"] == 1 && (stats["pushes"] as? [String: Int])?["clicked"] == 1)
                #expect(try await herald.notificationFeedItem(id: push.announcementId).campaignId == campaignId)
            }
        }
    }

    @Test func theLiveStreamReceivesACampaignsItem() async throws {
        try await EngineWorld.with(.sqlite) { world in
            try await world.herald.runLive { client, port in
                let token = try await client.login("ana", apiKey: world.apiKey)
                let herald = Herald(configuration: .init(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appId: world.appId))
                try await herald.login(authToken: token)
                let heard = ListenerLog()
                await herald.addFeedListener("badge") { update in heard.append(update) }
                let updates = await herald.feedUpdates()
                // Wait until the socket is up (the session shows online), then send a campaign.
                for _ in 0..<100 {
                    let presence = try await client.request(.get, "/v1/users/ana/presence", bearer: world.apiKey)
                    if presence["online"] as? Bool == true { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let campaign = try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: world.apiKey,
                    json: [
                        "name": "Live", "audience": ["type": "all"], "card": Self.card("Live {{user.name}}"),
                    ]
                )
                try await client.request(.post, "/v1/campaigns/\(campaign["id"] as! String)/send", bearer: world.apiKey)
                try await world.herald.services.campaigns.runDue()
                // The stream is read by a task of its own, so that a lost update fails the test instead of hanging it.
                let streamed = ListenerLog()
                let ended = ListenerLog()
                let reader = Task {
                    for await update in updates { streamed.append(update) }
                    ended.append(.unreadCount(-1))
                }
                for _ in 0..<500 where streamed.updates.count < 2 || heard.updates.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
                guard case .item(let item)? = streamed.updates.first else {
                    Issue.record("no item: \(streamed.updates)")
                    reader.cancel()
                    return
                }
                #expect(item.campaignId == campaign["id"] as? String && item.card?.fallbackText == "Live Ana")
                #expect(streamed.updates.dropFirst().first == .unreadCount(1))
                #expect(heard.updates == streamed.updates)
                try await herald.logout()
                for _ in 0..<250 where ended.updates.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                #expect(!ended.updates.isEmpty, "the stream did not end at logout")
                reader.cancel()
            }
        }
    }
}

/// What a listener heard, safely from any thread.
final class ListenerLog: Sendable {
    private let box = Mutex<[FeedUpdate]>([])
    func append(_ update: FeedUpdate) { box.withLock { $0.append(update) } }
    var updates: [FeedUpdate] { box.withLock { $0 } }
}
