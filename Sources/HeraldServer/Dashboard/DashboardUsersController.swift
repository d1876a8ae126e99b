import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Users: search by uid or name; one user's sessions, presence, tokens, preferences and recent
/// deliveries with the reason for each decision.
struct DashboardUsersController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/users", use: list)
        router.get("/dashboard/users/:uid", use: show)
    }

    private var services: HeraldServices { dashboard.services }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let query = request.uri.queryParameters.get("q")?.trimmingCharacters(in: .whitespaces) ?? ""
            let users = try await services.store.searchUsers(appId: signedIn.app.id, query: query, limit: 50)
            let rows = users.map {
                UsersPage.Row(
                    uid: $0.uid,
                    name: $0.name,
                    link: "/dashboard/users/\(DashboardFormat.pathComponent($0.uid))",
                    locale: $0.locale,
                    tags: $0.tags.joined(separator: ", ")
                )
            }
            let page = UsersPage(q: query, searched: !query.isEmpty, empty: users.isEmpty, users: rows)
            return dashboard.view.page(page, title: "Users", section: "/dashboard/users", signedIn: signedIn)
        }
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let uid = try context.parameters.require("uid")
            return dashboard.view.page(
                try await user(uid, appId: signedIn.app.id),
                title: "User \(uid)",
                section: "/dashboard/users",
                signedIn: signedIn
            )
        }
    }

    private func user(_ uid: String, appId: String) async throws -> UserPage {
        let user = try await services.directory.user(appId: appId, uid: uid)
        let presence = try await services.realtime.presence(appId: appId, uid: uid)
        let online = Dictionary(presence.map { ($0.sessionId, $0) }, uniquingKeysWith: { a, _ in a })
        let sessions = try await services.store.sessions(appId: appId, uid: uid).map { session in
            let presence = online[session.id].map {
                $0.isConnected ? "online since \(DashboardFormat.date($0.since))" : "offline at \(DashboardFormat.date($0.offlineAt))"
            }
            return UserPage.Session(
                id: session.id,
                device: session.deviceName ?? "—",
                created: DashboardFormat.date(session.createdAt),
                expires: DashboardFormat.date(session.expiresAt),
                presence: presence ?? "offline"
            )
        }
        let tokens = try await services.store.tokens(appId: appId, uid: uid).map {
            UserPage.Token(
                token: DashboardFormat.shortToken($0.token),
                platform: $0.platform.rawValue,
                provider: $0.providerId,
                session: $0.sessionId,
                lastSeen: DashboardFormat.date($0.lastSeenAt)
            )
        }
        let preferences = try await services.preferences.effective(appId: appId, uid: uid)
        let deliveries = try await services.store.deliveries(appId: appId, filter: DeliveryFilter(uid: uid), after: nil, limit: 50)
        return UserPage(
            uid: user.uid,
            name: user.name,
            locale: user.locale ?? "—",
            tags: user.tags.joined(separator: ", "),
            created: DashboardFormat.date(user.createdAt),
            sessions: sessions,
            online: presence.contains(where: \.isConnected),
            tokens: tokens,
            preferences: preferences.events.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                UserPage.Preference(event: $0.key.rawValue, on: $0.value)
            },
            mentionsOnly: preferences.groupMentionsOnly,
            dnd: preferences.doNotDisturb.map { "\($0)" },
            hasMutes: !preferences.mutes.isEmpty,
            mutes: preferences.mutes.map { UserPage.Mute(conversation: $0.conversationId, until: DashboardFormat.date($0.until)) },
            deliveries: try await DashboardDeliveryRows(store: services.store).rows(deliveries, appId: appId)
        )
    }
}
