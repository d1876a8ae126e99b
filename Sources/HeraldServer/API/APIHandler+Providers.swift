import Foundation
import HeraldAPI
import HeraldCore

extension APIHandler {
    func createProvider(_ input: Operations.CreateProvider.Input) async throws -> Operations.CreateProvider.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let credential = try await services.providers.create(appId: appId, try ProviderInputMapping.input(body))
        return .created(.init(body: .json(Wire.provider(credential))))
    }

    func listProviders(_ input: Operations.ListProviders.Input) async throws -> Operations.ListProviders.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(.init(data: try await services.providers.list(appId: appId).map(Wire.provider)))))
    }

    func getProvider(_ input: Operations.GetProvider.Input) async throws -> Operations.GetProvider.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(Wire.provider(try await services.providers.get(appId: appId, providerId: input.path.providerId)))))
    }

    func updateProvider(_ input: Operations.UpdateProvider.Input) async throws -> Operations.UpdateProvider.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let credential = try await services.providers.update(appId: appId, providerId: input.path.providerId, try ProviderInputMapping.input(body))
        return .ok(.init(body: .json(Wire.provider(credential))))
    }

    func deleteProvider(_ input: Operations.DeleteProvider.Input) async throws -> Operations.DeleteProvider.Output {
        let appId = try await adminAppId()
        try await services.providers.delete(appId: appId, providerId: input.path.providerId, force: input.query.force ?? false)
        return .noContent(.init())
    }

    func getPushSettings(_ input: Operations.GetPushSettings.Input) async throws -> Operations.GetPushSettings.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(try Wire.settings(try await services.apps.settings(appId: appId)))))
    }

    func updatePushSettings(_ input: Operations.UpdatePushSettings.Input) async throws -> Operations.UpdatePushSettings.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        var patch = PushSettingsPatch(
            enabled: body.enabled,
            maxTokensPerUser: body.maxTokensPerUser,
            multiDevicePolicy: body.multiDevicePolicy,
            onlineGraceSeconds: body.onlineGraceSeconds
        )
        patch.badge = body.badge
        patch.includeMessageObject = body.includeMessageObject
        patch.payloadFormat = body.payloadFormat
        if let custom = body.customJSON {
            let object = try JSONBridge.object(custom)
            patch.customJSON = .some(object.isEmpty ? nil : object)
        }
        patch.hideMessageText = body.hideMessageText
        patch.localizationKeys = body.localizationKeys
        patch.includeConversationUnread = body.includeConversationUnread
        patch.chatTTLSeconds = body.chatTTLSeconds
        patch.callTTLSeconds = body.callTTLSeconds
        patch.defaultPreferences = try body.defaultPreferences.map(Wire.preferences)
        patch.retentionDays = body.retentionDays
        patch.clearOnRead = body.clearOnRead
        patch.clearCoalesceSeconds = body.clearCoalesceSeconds
        patch.burstWindowSeconds = body.burstWindowSeconds
        patch.contentMode = body.contentMode
        patch.androidChannels = body.androidChannels.map { .init(messages: $0.messages, mentions: $0.mentions, calls: $0.calls) }
        let settings = try await services.apps.updateSettings(appId: appId, patch)
        return .ok(.init(body: .json(try Wire.settings(settings))))
    }
}

/// From the API's flat provider bodies to Core's ``ProviderInput``.
enum ProviderInputMapping {
    static func input(_ body: Components.Schemas.ProviderCreate) throws -> ProviderInput {
        var input = ProviderInput()
        switch body {
        case .fcm(let fcm):
            input.providerId = fcm.providerId
            input.kind = "fcm"
            input.enabled = fcm.enabled
            input.serviceAccountJSON = try JSONBridge.text(fcm.serviceAccount)
            input.includeNotificationKey = fcm.includeNotificationKey
        case .apns(let apns):
            input.providerId = apns.providerId
            input.kind = "apns"
            input.enabled = apns.enabled
            input.auth = apns.auth.rawValue
            input.keyId = apns.keyId
            input.teamId = apns.teamId
            input.bundleId = apns.bundleId
            input.privateKey = apns.privateKey
            input.p12 = apns.p12
            input.password = apns.password
            input.production = apns.production
            input.contentAvailable = apns.contentAvailable
            input.mutableContent = apns.mutableContent
        case .custom(let custom):
            input.providerId = custom.providerId
            input.kind = "custom"
            input.enabled = custom.enabled
            input.url = custom.url
            input.basicAuthUsername = custom.basicAuth?.username
            input.basicAuthPassword = custom.basicAuth?.password
        case .hms(let hms):
            input.providerId = hms.providerId
            input.kind = "hms"
            input.enabled = hms.enabled
            input.hmsAppId = hms.hmsAppId
            input.clientSecret = hms.clientSecret
            input.includeNotificationKey = hms.includeNotificationKey
        case .webpush(let webPush):
            input.providerId = webPush.providerId
            input.kind = "webpush"
            input.enabled = webPush.enabled
            input.subject = webPush.subject
            input.vapidPrivateKey = webPush.vapidPrivateKey
        }
        return input
    }

    static func input(_ body: Components.Schemas.ProviderPatch) throws -> ProviderInput {
        var input = ProviderInput()
        input.providerId = body.providerId
        input.kind = body.kind
        input.enabled = body.enabled
        input.serviceAccountJSON = try body.serviceAccount.map { try JSONBridge.text($0) }
        input.includeNotificationKey = body.includeNotificationKey
        input.auth = body.auth?.rawValue
        input.keyId = body.keyId
        input.teamId = body.teamId
        input.bundleId = body.bundleId
        input.privateKey = body.privateKey
        input.p12 = body.p12
        input.password = body.password
        input.production = body.production
        input.contentAvailable = body.contentAvailable
        input.mutableContent = body.mutableContent
        input.url = body.url
        input.basicAuthUsername = body.basicAuth?.username
        input.basicAuthPassword = body.basicAuth?.password
        input.hmsAppId = body.hmsAppId
        input.clientSecret = body.clientSecret
        input.subject = body.subject
        input.vapidPrivateKey = body.vapidPrivateKey
        return input
    }
}
