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
    func registerPushToken(_ input: Operations.RegisterPushToken.Input) async throws -> Operations.RegisterPushToken.Output {
        let session = try await userSession()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let pushToken: String
        let encryption: PushEncryptionKeys?
        if let subscription = body.subscription {
            // A browser's PushSubscription.toJSON(): the endpoint is the token, the keys seal each push.
            guard PushPlatform(parsing: body.platform)?.tokenKind.providerKind == .webpush else {
                throw HeraldError.invalidField("subscription", "applies only to the web_push and unifiedpush platforms")
            }
            if body.pushToken != nil { throw HeraldError.invalidField("pushToken", "give either pushToken or subscription, not both") }
            if body.encryption != nil { throw HeraldError.invalidField("encryption", "a subscription carries its keys in subscription.keys") }
            pushToken = try PushTokenFormat.normalise(subscription.endpoint, kind: .webPush, field: "subscription.endpoint")
            encryption = try PushEncryptionKeys(p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, field: "subscription.keys")
        } else {
            guard let token = body.pushToken else { throw HeraldError.invalidField("pushToken", "is required (or, for web_push, subscription)") }
            pushToken = token
            encryption = try body.encryption.map { try PushEncryptionKeys(p256dh: $0.p256dh, auth: $0.auth) }
        }
        let registration = try await services.tokens.register(
            session: session,
            pushToken: pushToken,
            platform: body.platform,
            providerId: body.providerId,
            unique: body.unique ?? false,
            encryption: encryption
        )
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
