import Foundation
import HeraldAPI
import HeraldCore

extension APIHandler {
    func getMyPreferences(_ input: Operations.GetMyPreferences.Input) async throws -> Operations.GetMyPreferences.Output {
        let session = try await userSession()
        return .ok(.init(body: .json(Wire.effective(try await services.preferences.effective(appId: session.appId, uid: session.uid)))))
    }

    func updateMyPreferences(_ input: Operations.UpdateMyPreferences.Input) async throws -> Operations.UpdateMyPreferences.Output {
        let session = try await userSession()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let effective = try await services.preferences.update(
            appId: session.appId,
            uid: session.uid,
            events: try NotificationPreferences.events(body.events?.additionalProperties),
            groupMentionsOnly: body.groupMentionsOnly,
            doNotDisturb: body.doNotDisturb.map(Wire.doNotDisturb),
            keywords: body.keywords,
            contentMode: body.contentMode
        )
        return .ok(.init(body: .json(Wire.effective(effective))))
    }

    func getUserPreferences(_ input: Operations.GetUserPreferences.Input) async throws -> Operations.GetUserPreferences.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(Wire.effective(try await services.preferences.effective(appId: appId, uid: input.path.uid)))))
    }

    func muteConversation(_ input: Operations.MuteConversation.Input) async throws -> Operations.MuteConversation.Output {
        let session = try await userSession()
        var until: Date?
        if case .json(let body) = input.body { until = body.until }
        let mute = try await services.preferences.mute(
            appId: session.appId,
            uid: session.uid,
            conversationId: input.path.conversationId,
            until: until
        )
        return .ok(.init(body: .json(Wire.mute(mute))))
    }

    func unmuteConversation(_ input: Operations.UnmuteConversation.Input) async throws -> Operations.UnmuteConversation.Output {
        let session = try await userSession()
        try await services.preferences.unmute(appId: session.appId, uid: session.uid, conversationId: input.path.conversationId)
        return .noContent(.init())
    }
}
