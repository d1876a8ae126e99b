import Foundation
import HeraldModels

/// `POST /v1/push/providers/{id}/test` and `POST /v1/users/{uid}/push-test`: send now and answer
/// the provider's verdict. Tokens the provider declares dead are pruned, with why and when.
public struct TestSends: Sendable {
    let apps: any AppRepository
    let users: any UserRepository
    let providers: any ProviderRepository
    let tokens: any PushTokenRepository
    let gateway: any PushGateway
    let clock: any WallClock

    public init(
        apps: any AppRepository,
        users: any UserRepository,
        providers: any ProviderRepository,
        tokens: any PushTokenRepository,
        gateway: any PushGateway,
        clock: any WallClock = SystemWallClock()
    ) {
        self.apps = apps
        self.users = users
        self.providers = providers
        self.tokens = tokens
        self.gateway = gateway
        self.clock = clock
    }

    public func viaProvider(appId: String, providerId: String, _ input: TestPushInput) async throws -> TestSendVerdict {
        try validate(input)
        guard let app = try await apps.app(id: appId) else { throw HeraldError.notFound("app", appId) }
        guard let credential = try await providers.provider(appId: appId, providerId: providerId) else {
            throw HeraldError.notFound("provider", providerId)
        }
        if credential.kind == .custom {
            return await sendToWebhook(app: app, credential: credential, uid: input.uid ?? "herald-test", input: input)
        }
        guard let platformText = input.platform else {
            throw HeraldError.invalidField("platform", "is required for an \(credential.kind.rawValue) provider")
        }
        guard let platform = PushPlatform(parsing: platformText) else {
            throw HeraldError.invalidField("platform", "'\(platformText)' is not a platform")
        }
        guard platform.tokenKind.providerKind == credential.kind else {
            throw HeraldError.invalidField(
                "platform",
                "\(platform.rawValue) needs an \(platform.tokenKind.providerKind.rawValue) provider; '\(providerId)' is \(credential.kind.rawValue)"
            )
        }
        guard let rawToken = input.pushToken else { throw HeraldError.invalidField("pushToken", "is required") }
        let token = try PushTokenFormat.normalise(rawToken, kind: platform.tokenKind)
        if platform == .webPush {
            // A subscription's keys come with its registration; a bare endpoint cannot be sealed to.
            throw HeraldError.invalidField(
                "platform",
                "a web_push test needs the subscription's keys: test a registered one with POST /v1/users/{uid}/push-test"
            )
        }
        return await send(app: app, credential: credential, token: token, platform: platform, uid: input.uid ?? "herald-test", input: input)
    }

    /// Sends to every token of the user, and through every enabled custom provider of the app.
    public func toUser(appId: String, uid: String, _ input: TestPushInput) async throws -> [TestSendVerdict] {
        try validate(input)
        guard let app = try await apps.app(id: appId) else { throw HeraldError.notFound("app", appId) }
        guard try await users.user(appId: appId, uid: uid) != nil else { throw HeraldError.notFound("user", uid) }
        let credentials = Dictionary(try await providers.providers(appId: appId).map { ($0.providerId, $0) }, uniquingKeysWith: { $1 })
        let userTokens = try await tokens.tokens(appId: appId, uid: uid)
        return await withTaskGroup(of: TestSendVerdict?.self) { group in
            for token in userTokens {
                guard let credential = credentials[token.providerId] else { continue }
                group.addTask {
                    await send(
                        app: app,
                        credential: credential,
                        token: token.token,
                        platform: token.platform,
                        uid: uid,
                        input: input,
                        keys: token.encryption
                    )
                }
            }
            for credential in credentials.values where credential.kind == .custom && credential.config.enabled {
                group.addTask { await sendToWebhook(app: app, credential: credential, uid: uid, input: input) }
            }
            var verdicts: [TestSendVerdict] = []
            for await verdict in group { if let verdict { verdicts.append(verdict) } }
            return verdicts.sorted { ($0.providerId, $0.pushToken ?? "") < ($1.providerId, $1.pushToken ?? "") }
        }
    }

    /// A test through a custom (webhook) provider: its envelope, no token.
    private func sendToWebhook(app: App, credential: ProviderCredential, uid: String, input: TestPushInput) async -> TestSendVerdict {
        let push = TestPayload.build(
            settings: credential.config.settings,
            tokenKind: nil,
            token: "",
            uid: uid,
            app: app,
            title: input.title,
            body: input.body,
            data: input.data,
            at: clock.now()
        )
        return TestSendVerdict(
            providerId: credential.providerId,
            pushToken: nil,
            platform: nil,
            result: await gateway.send(push, credential: credential),
            pruned: false
        )
    }

    private func send(
        app: App,
        credential: ProviderCredential,
        token: String,
        platform: PushPlatform,
        uid: String,
        input: TestPushInput,
        keys: PushEncryptionKeys? = nil
    ) async -> TestSendVerdict {
        let push = TestPayload.build(
            settings: credential.config.settings,
            tokenKind: platform.tokenKind,
            token: token,
            uid: uid,
            app: app,
            title: input.title,
            body: input.body,
            data: input.data,
            at: clock.now(),
            keys: keys
        )
        let result = await gateway.send(push, credential: credential)
        var pruned = false
        if case .tokenInvalid(let since, let hint) = result.outcome {
            pruned =
                (try? await tokens.prune(
                    appId: app.id,
                    token: token,
                    reason: result.reason ?? "invalid",
                    hint: hint,
                    invalidSince: since,
                    at: clock.now()
                )) ?? false
        }
        return TestSendVerdict(providerId: credential.providerId, pushToken: token, platform: platform, result: result, pruned: pruned)
    }

    private func validate(_ input: TestPushInput) throws {
        try Validate.text(input.title, field: "title", maxLength: 200, required: true)
        try Validate.text(input.body, field: "body", maxLength: 1000, required: true)
        guard input.data.count <= 50 else { throw HeraldError.invalidField("data", "at most 50 keys") }
        for key in input.data.keys where key == "from" || key == "gcm" || key.hasPrefix("google") || key == "aps" {
            throw HeraldError.invalidField("data", "'\(key)' is a reserved key")
        }
    }
}
