import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Users (search; sessions, presence, tokens, preferences and recent deliveries with the reason
/// for each decision) and Events (the delivery log; one event's every recipient).
extension Dashboard {
    func registerUsers(on router: Router<BasicRequestContext>) {
        router.get("/dashboard/users") { request, _ in
            try await page(request) { signedIn in
                let query = request.uri.queryParameters.get("q")?.trimmingCharacters(in: .whitespaces) ?? ""
                let users = try await services.store.searchUsers(appId: signedIn.app.id, query: query, limit: 50)
                return view.page("users", title: "Users", section: "/dashboard/users", context: [
                    "q": query, "searched": !query.isEmpty, "empty": users.isEmpty,
                    "users": users.map { ["uid": $0.uid, "name": $0.name, "link": "/dashboard/users/\(Self.pathComponent($0.uid))",
                                          "locale": $0.locale ?? "", "tags": $0.tags.joined(separator: ", ")] },
                ], signedIn: signedIn)
            }
        }
        router.get("/dashboard/users/:uid") { request, context in
            try await page(request) { signedIn in
                let uid = try context.parameters.require("uid")
                let appId = signedIn.app.id
                let user = try await services.directory.user(appId: appId, uid: uid)
                let sessions = try await services.store.sessions(appId: appId, uid: uid)
                let presence = try await services.realtime.presence(appId: appId, uid: uid)
                let tokens = try await services.store.tokens(appId: appId, uid: uid)
                let preferences = try await services.preferences.effective(appId: appId, uid: uid)
                let deliveries = try await services.store.deliveries(appId: appId, filter: DeliveryFilter(uid: uid), after: nil, limit: 50)
                let online = Dictionary(presence.map { ($0.sessionId, $0) }, uniquingKeysWith: { a, _ in a })
                return view.page("user", title: "User \(uid)", section: "/dashboard/users", context: [
                    "uid": user.uid, "name": user.name, "locale": user.locale ?? "—", "tags": user.tags.joined(separator: ", "),
                    "created": DashboardFormat.date(user.createdAt),
                    "sessions": sessions.map { session -> [String: Any] in
                        let record = online[session.id]
                        return ["id": session.id, "device": session.deviceName ?? "—", "created": DashboardFormat.date(session.createdAt),
                                "expires": DashboardFormat.date(session.expiresAt),
                                "presence": record.map { $0.isConnected ? "online since \(DashboardFormat.date($0.since))" : "offline at \(DashboardFormat.date($0.offlineAt))" } ?? "offline"]
                    },
                    "online": presence.contains(where: \.isConnected),
                    "tokens": tokens.map { token -> [String: Any] in
                        ["token": Self.shortToken(token.token), "platform": token.platform.rawValue, "provider": token.providerId,
                         "session": token.sessionId, "lastSeen": DashboardFormat.date(token.lastSeenAt)]
                    },
                    "preferences": preferences.events.sorted { $0.key.rawValue < $1.key.rawValue }.map { ["event": $0.key.rawValue, "on": $0.value] },
                    "mentionsOnly": preferences.groupMentionsOnly,
                    "dnd": preferences.doNotDisturb.map { "\($0)" } ?? "",
                    "hasMutes": !preferences.mutes.isEmpty,
                    "mutes": preferences.mutes.map { ["conversation": $0.conversationId, "until": DashboardFormat.date($0.until)] },
                    "deliveries": try await deliveryRows(deliveries, appId: appId),
                ], signedIn: signedIn)
            }
        }
        router.get("/dashboard/events") { request, _ in
            try await page(request) { signedIn in
                let status = request.uri.queryParameters.get("status").flatMap(DeliveryStatus.init(rawValue:))
                let cursor = request.uri.queryParameters.get("after")
                let deliveries = try await services.store.deliveries(appId: signedIn.app.id, filter: DeliveryFilter(status: status), after: cursor, limit: 50)
                let next = deliveries.count == 50 ? deliveries.last?.id : nil
                return view.page("events", title: "Events", section: "/dashboard/events", context: [
                    "deliveries": try await deliveryRows(deliveries, appId: signedIn.app.id), "empty": deliveries.isEmpty,
                    "statuses": Self.options([""] + DeliveryStatus.allCases.map(\.rawValue), selected: status?.rawValue ?? "", labels: ["": "any"]),
                    "next": next.map { "/dashboard/events?after=\($0)" + (status.map { "&status=\($0.rawValue)" } ?? "") } ?? "",
                ], signedIn: signedIn)
            }
        }
        router.get("/dashboard/events/:eventId") { request, context in
            try await page(request) { signedIn in
                let eventId = try context.parameters.require("eventId")
                if FeedItem.isItemId(eventId) {
                    // A feed item's push: its campaign (or its user) says what it was.
                    guard let item = try await services.store.feedItems(appId: signedIn.app.id, ids: [eventId])[eventId] else {
                        throw HeraldError.notFound("feed item", eventId)
                    }
                    return DashboardView.redirect(Self.feedItemLink(item))
                }
                guard let stored = try await services.store.storedEvent(appId: signedIn.app.id, id: eventId) else {
                    throw HeraldError.notFound("event", eventId)
                }
                var all: [Delivery] = []
                var cursor: String?
                repeat {
                    let page = try await services.store.deliveries(appId: signedIn.app.id, filter: DeliveryFilter(eventId: eventId), after: cursor, limit: 500)
                    all += page
                    cursor = page.count == 500 && all.count < 5_000 ? page.last?.id : nil
                } while cursor != nil
                let counts = Dictionary(grouping: all, by: \.status).map { ["status": $0.key.rawValue, "count": $0.value.count] }
                    .sorted { ($0["status"] as? String ?? "") < ($1["status"] as? String ?? "") }
                return view.page("event", title: "Event \(eventId)", section: "/dashboard/events", context: [
                    "id": eventId, "type": stored.event.kind.rawValue, "status": stored.status.rawValue, "recipients": stored.recipients,
                    "received": DashboardFormat.date(stored.event.receivedAt), "finished": DashboardFormat.date(stored.finishedAt),
                    "counts": counts, "deliveries": try await deliveryRows(all, appId: signedIn.app.id), "truncated": all.count >= 5_000,
                    "body": (try? stored.event.publicJSON.jsonText()) ?? "", "reason": stored.reason.map(Self.nobodyText) ?? "",
                ], signedIn: signedIn)
            }
        }
    }

    /// Table rows for deliveries. A feed item's push (its "event" is the item) links to its
    /// campaign, or to its user when it was sent on its own.
    func deliveryRows(_ deliveries: [Delivery], appId: String) async throws -> [[String: Any]] {
        let itemIds = Set(deliveries.compactMap(\.subject.feedItemId))
        let items = itemIds.isEmpty ? [:] : try await services.store.feedItems(appId: appId, ids: Array(itemIds))
        return deliveries.map { delivery in
            var row = Self.deliveryRow(delivery)
            if let itemId = delivery.subject.feedItemId {
                let item = items[itemId]
                row["eventLabel"] = item?.campaignId != nil ? "campaign push" : "feed item push"
                row["eventLink"] = item.map(Self.feedItemLink) ?? ""
            }
            return row
        }
    }

    static func feedItemLink(_ item: FeedItem) -> String {
        if let campaignId = item.campaignId { return "/dashboard/campaigns/\(pathComponent(campaignId))" }
        return "/dashboard/users/\(pathComponent(item.uid))"
    }

    static func deliveryRow(_ delivery: Delivery) -> [String: Any] {
        [
            "id": delivery.id, "event": delivery.subject.id, "eventLink": "/dashboard/events/\(pathComponent(delivery.subject.id))",
            "eventLabel": "",
            "uid": delivery.uid, "userLink": "/dashboard/users/\(pathComponent(delivery.uid))", "channel": delivery.channel.rawValue,
            "target": delivery.target.token.map(shortToken) ?? Wire.targetText(delivery.target), "provider": delivery.providerId ?? "—",
            "platform": delivery.platform?.rawValue ?? "", "status": delivery.status.rawValue, "reason": delivery.reason ?? "",
            "attempts": delivery.attempts, "providerStatus": delivery.providerStatus.map(String.init) ?? "",
            "when": DashboardFormat.date(delivery.updatedAt ?? delivery.createdAt),
        ]
    }

    static func nobodyText(_ reason: NobodyReason) -> String {
        switch reason {
        case .unknownUser: "Reached nobody: the receiver is not a user Herald knows (unknown_user). Sync the user with PUT /v1/users/{uid}."
        case .unknownGroup: "Reached nobody: the group does not exist (unknown_group). Sync it with PUT /v1/groups/{guid} and its members."
        case .noMembers: "Reached nobody: the group has no member but the sender (no_members)."
        }
    }

    /// A device token's start and end (enough to recognise it).
    static func shortToken(_ token: String) -> String {
        token.count > 20 ? "\(token.prefix(10))…\(token.suffix(6))" : token
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }
}
