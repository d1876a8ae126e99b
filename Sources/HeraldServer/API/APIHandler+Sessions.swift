import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

extension APIHandler {
    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        let appId = try await adminAppId()
        var request: Components.Schemas.SessionRequest?
        if case .json(let body) = input.body { request = body }
        let issued = try await services.sessions.open(
            appId: appId,
            uid: input.path.uid,
            deviceName: request?.deviceName,
            expiresAt: request?.expiresAt
        )
        let session = issued.session
        return .created(
            .init(
                body: .json(
                    .init(
                        sessionId: session.id,
                        authToken: issued.authToken,
                        uid: session.uid,
                        deviceName: session.deviceName,
                        createdAt: session.createdAt,
                        expiresAt: session.expiresAt
                    )
                )
            )
        )
    }

    func listSessions(_ input: Operations.ListSessions.Input) async throws -> Operations.ListSessions.Output {
        let appId = try await adminAppId()
        let sessions = try await services.sessions.list(appId: appId, uid: input.path.uid)
        return .ok(.init(body: .json(.init(data: sessions.map(Wire.session)))))
    }

    func deleteSession(_ input: Operations.DeleteSession.Input) async throws -> Operations.DeleteSession.Output {
        let appId = try await adminAppId()
        try await services.closeSession(appId: appId, uid: input.path.uid, sessionId: input.path.sessionId, reason: "session revoked")
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let session = try await userSession()
        return .ok(.init(body: .json(.init(appId: session.appId, uid: session.uid, sessionId: session.id))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let session = try await userSession()
        try await services.closeSession(appId: session.appId, uid: session.uid, sessionId: session.id, reason: "logged out")
        return .noContent(.init())
    }
}

extension APIHandler {
    /// The generated form of `POST /v1/me/push-tokens`, which the generated protocol requires. It
    /// is never routed: ``HotRoutes`` reads the body straight from its JSON.
    func registerPushToken(_ input: Operations.RegisterPushToken.Input) async throws -> Operations.RegisterPushToken.Output {
        let session = try await userSession()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let request = PushTokenRequest(
            platform: body.platform,
            providerId: body.providerId,
            pushToken: body.pushToken,
            unique: body.unique,
            encryption: body.encryption.map { PushTokenRequest.Keys(p256dh: $0.p256dh, auth: $0.auth) },
            subscription: body.subscription.map { ($0.endpoint, PushTokenRequest.Keys(p256dh: $0.keys.p256dh, auth: $0.keys.auth)) }
        )
        let registration = try await request.register(session: session, tokens: services.tokens)
        return .ok(.init(body: .json(.init(token: Wire.pushToken(registration.token), removedTokens: registration.removedTokens.count))))
    }

    func postMyReceipts(_ input: Operations.PostMyReceipts.Input) async throws -> Operations.PostMyReceipts.Output {
        let session = try await userSession()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let now = services.clock.now()
        let receipts = try body.receipts.enumerated().map { index, receipt in
            try DeviceReceipt.parse(
                kind: receipt._type.rawValue,
                messageId: receipt.messageId,
                pushNotificationId: receipt.pushNotificationId,
                at: receipt.at,
                now: now,
                field: "receipts[\(index)]"
            )
        }
        let recorded = try await services.receipts.record(appId: session.appId, uid: session.uid, receipts)
        return .ok(.init(body: .json(.init(recorded: recorded))))
    }

    func listMyPushTokens(_ input: Operations.ListMyPushTokens.Input) async throws -> Operations.ListMyPushTokens.Output {
        let session = try await userSession()
        return .ok(.init(body: .json(.init(data: try await services.tokens.tokens(ofSession: session).map(Wire.pushToken)))))
    }

    func unregisterMyPushTokens(_ input: Operations.UnregisterMyPushTokens.Input) async throws -> Operations.UnregisterMyPushTokens.Output {
        let session = try await userSession()
        let removed = try await services.tokens.unregisterAll(session: session)
        return .ok(.init(body: .json(.init(removed: removed))))
    }

    func unregisterPushToken(_ input: Operations.UnregisterPushToken.Input) async throws -> Operations.UnregisterPushToken.Output {
        let session = try await userSession()
        try await services.tokens.unregister(session: session, pushToken: input.path.pushToken)
        return .noContent(.init())
    }
}
