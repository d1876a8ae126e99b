import Foundation
import HeraldModels

/// Adding, changing and removing provider credentials. Secrets are checked (keys parse, the
/// certificate opens and is not expired), sealed, and never come back out through this type's
/// results, which carry only ``ProviderConfig``.
public struct ProviderManagement: Sendable {
    let providers: any ProviderRepository
    let inspector: any CredentialInspector
    let box: any SecretBox
    let webhookPolicy: WebhookURLPolicy
    let clock: any WallClock

    public init(
        providers: any ProviderRepository,
        inspector: any CredentialInspector,
        box: any SecretBox,
        webhookPolicy: WebhookURLPolicy,
        clock: any WallClock = SystemWallClock()
    ) {
        self.providers = providers
        self.inspector = inspector
        self.box = box
        self.webhookPolicy = webhookPolicy
        self.clock = clock
    }

    public func create(appId: String, _ input: ProviderInput) async throws -> ProviderCredential {
        guard let providerId = input.providerId else { throw HeraldError.invalidField("providerId", "is required") }
        try Validate.identifier(providerId, field: "providerId", maxLength: 64)
        guard let kindText = input.kind else { throw HeraldError.invalidField("kind", "is required") }
        guard let kind = ProviderKind(rawValue: kindText) else {
            throw HeraldError.invalidField("kind", "must be one of \(ProviderKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var secret = ProviderSecret()
        let config = try await configure(input, kind: kind, existing: nil, secret: &secret)
        let now = clock.now()
        let credential = ProviderCredential(
            appId: appId,
            providerId: providerId,
            config: config,
            sealedSecret: try seal(secret, appId: appId, providerId: providerId),
            createdAt: now,
            updatedAt: now
        )
        guard try await providers.insertProvider(credential) else {
            throw HeraldError(.conflict, code: "provider_exists", "a provider '\(providerId)' already exists", details: ["providerId": providerId])
        }
        return credential
    }

    public func update(appId: String, providerId: String, _ input: ProviderInput) async throws -> ProviderCredential {
        var credential = try await get(appId: appId, providerId: providerId)
        if let given = input.providerId, given != providerId {
            throw HeraldError.invalidField("providerId", "cannot be changed")
        }
        if let kind = input.kind, kind != credential.kind.rawValue {
            throw HeraldError.invalidField("kind", "cannot be changed; delete and add the provider again")
        }
        var secret = try self.secret(of: credential)
        // An operator's change is the answer to a broken credential: try it again (no `broken`).
        credential.config = try await configure(input, kind: credential.kind, existing: credential.config, secret: &secret)
        credential.sealedSecret = try seal(secret, appId: appId, providerId: providerId)
        credential.updatedAt = clock.now()
        try await providers.updateProvider(credential)
        return credential
    }

    public func get(appId: String, providerId: String) async throws -> ProviderCredential {
        guard let credential = try await providers.provider(appId: appId, providerId: providerId) else {
            throw HeraldError.notFound("provider", providerId)
        }
        return credential
    }

    public func list(appId: String) async throws -> [ProviderCredential] {
        try await providers.providers(appId: appId)
    }

    /// Deletes a provider. While tokens still use it the answer is `409`, unless `force`, which
    /// removes those tokens too. Returns the number of tokens removed.
    @discardableResult
    public func delete(appId: String, providerId: String, force: Bool) async throws -> Int {
        switch try await providers.deleteProvider(appId: appId, providerId: providerId, force: force) {
        case .notFound:
            throw HeraldError.notFound("provider", providerId)
        case .inUse(let tokens):
            throw HeraldError(
                .conflict,
                code: "provider_in_use",
                "\(tokens) push token(s) still use provider '\(providerId)'; delete with ?force=true to remove them too",
                details: ["providerId": providerId, "tokens": String(tokens)]
            )
        case .deleted(let tokensRemoved):
            return tokensRemoved
        }
    }

    /// The opened secret, for the provider clients.
    public func secret(of credential: ProviderCredential) throws -> ProviderSecret {
        let json = try box.open(credential.sealedSecret, context: Self.context(credential.appId, credential.providerId))
        return try JSONDecoder().decode(ProviderSecret.self, from: Data(json.utf8))
    }

    // MARK: Applying input

    private func seal(_ secret: ProviderSecret, appId: String, providerId: String) throws -> String {
        let json = String(decoding: try JSONEncoder().encode(secret), as: UTF8.self)
        return try box.seal(json, context: Self.context(appId, providerId))
    }

    static func context(_ appId: String, _ providerId: String) -> String { "provider:\(appId):\(providerId)" }

    /// The configuration after `input`: the kind's settings made anew from the input over the
    /// existing ones, checked; the secret's fields of the kind replaced where given.
    private func configure(
        _ input: ProviderInput,
        kind: ProviderKind,
        existing: ProviderConfig?,
        secret: inout ProviderSecret
    ) async throws -> ProviderConfig {
        try rejectForeignFields(input, kind: kind)
        let settings: ProviderSettings
        switch kind {
        case .fcm: settings = .fcm(try configureFCM(input, existing?.settings.fcm, &secret))
        case .apns: settings = .apns(try configureAPNs(input, existing?.settings.apns, &secret))
        case .custom: settings = .webhook(try await configureWebhook(input, existing?.settings.webhook, &secret))
        case .hms: settings = .hms(try configureHMS(input, existing?.settings.hms, &secret))
        case .webpush: settings = .webPush(try configureWebPush(input, existing?.settings.webPush, &secret))
        }
        return ProviderConfig(settings, enabled: input.enabled ?? existing?.enabled ?? true)
    }

    private func configureHMS(_ input: ProviderInput, _ existing: HMSSettings?, _ secret: inout ProviderSecret) throws -> HMSSettings {
        if let appId = input.hmsAppId {
            guard (1...32).contains(appId.count), appId.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
                throw HeraldError.invalidField("hmsAppId", "must be the numeric App ID from AppGallery Connect")
            }
        }
        guard let appId = input.hmsAppId ?? existing?.appId else { throw HeraldError.invalidField("hmsAppId", "is required for an hms provider") }
        if let clientSecret = input.clientSecret {
            guard (8...512).contains(clientSecret.count), clientSecret.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw HeraldError.invalidField("clientSecret", "must be the app's client secret (8 to 512 printable characters)")
            }
            secret.hmsClientSecret = clientSecret
        } else if existing == nil {
            throw HeraldError.invalidField("clientSecret", "is required for an hms provider")
        }
        return HMSSettings(appId: appId, includeNotificationKey: input.includeNotificationKey ?? existing?.includeNotificationKey ?? false)
    }

    /// Web Push: the VAPID subject (required), and the key pair — imported when given, generated
    /// for a new provider otherwise, kept on a change that gives none. A new key invalidates the
    /// browsers' subscriptions made with the old public key.
    private func configureWebPush(_ input: ProviderInput, _ existing: WebPushSettings?, _ secret: inout ProviderSecret) throws -> WebPushSettings {
        if let subject = input.subject { try WebPushSettings.checkSubject(subject) }
        guard let subject = input.subject ?? existing?.subject else {
            throw HeraldError.invalidField("subject", "is required for a webpush provider")
        }
        let key: VAPIDKey
        if let imported = input.vapidPrivateKey {
            key = try VAPIDKey(importing: imported)
        } else if let stored = secret.vapidPrivateKey, existing != nil {
            key = try VAPIDKey(importing: stored)
        } else {
            key = .generate()
        }
        secret.vapidPrivateKey = key.storedText
        return WebPushSettings(subject: subject, publicKey: key.publicKeyText)
    }

    private func configureFCM(_ input: ProviderInput, _ existing: FCMSettings?, _ secret: inout ProviderSecret) throws -> FCMSettings {
        var settings: FCMSettings
        if let json = input.serviceAccountJSON {
            let facts = try inspector.inspectServiceAccount(json: json)
            settings = FCMSettings(projectId: facts.projectId, clientEmail: facts.clientEmail, privateKeyId: facts.privateKeyId)
            secret.serviceAccountJSON = json
        } else if let existing {
            settings = existing
        } else {
            throw HeraldError.invalidField("serviceAccount", "is required for an fcm provider")
        }
        settings.includeNotificationKey = input.includeNotificationKey ?? existing?.includeNotificationKey ?? false
        return settings
    }

    private func configureAPNs(_ input: ProviderInput, _ existing: APNsSettings?, _ secret: inout ProviderSecret) throws -> APNsSettings {
        let auth: APNsAuth
        if let text = input.auth {
            guard let parsed = APNsAuth(rawValue: text) else { throw HeraldError.invalidField("auth", "must be token or certificate") }
            auth = parsed
        } else if let existing {
            auth = existing.auth.kind
        } else {
            throw HeraldError.invalidField("auth", "is required for an apns provider (token or certificate)")
        }
        if let bundleId = input.bundleId, !Self.isBundleId(bundleId) {
            throw HeraldError.invalidField("bundleId", "must be a bundle identifier such as com.acme.app")
        }
        guard let bundleId = input.bundleId ?? existing?.bundleId else {
            throw HeraldError.invalidField("bundleId", "is required for an apns provider")
        }
        let kept = existing?.auth.kind == auth ? existing?.auth : nil
        let authentication: APNsSettings.Auth
        switch auth {
        case .token: authentication = try tokenAuth(input, kept: kept, &secret)
        case .certificate: authentication = try certificateAuth(input, kept: kept, &secret)
        }
        return APNsSettings(
            auth: authentication,
            bundleId: bundleId,
            production: input.production ?? existing?.production ?? false,
            contentAvailable: input.contentAvailable ?? existing?.contentAvailable ?? false,
            mutableContent: input.mutableContent ?? existing?.mutableContent ?? false
        )
    }

    /// Token auth: the key id and team (given, or kept), and the .p8 (given, or kept). Switching
    /// from certificate auth forgets the certificate.
    private func tokenAuth(_ input: ProviderInput, kept: APNsSettings.Auth?, _ secret: inout ProviderSecret) throws -> APNsSettings.Auth {
        if input.p12 != nil || input.password != nil {
            throw HeraldError.invalidField(input.p12 != nil ? "p12" : "password", "applies only to auth certificate")
        }
        for (field, value) in [("keyId", input.keyId), ("teamId", input.teamId)] {
            if let value, !Self.isAppleId(value) { throw HeraldError.invalidField(field, "must be 10 upper-case letters or digits") }
        }
        var keptIds: (keyId: String, teamId: String)?
        if case .token(let keyId, let teamId) = kept { keptIds = (keyId, teamId) }
        guard let keyId = input.keyId ?? keptIds?.keyId else { throw HeraldError.invalidField("keyId", "is required for token auth") }
        guard let teamId = input.teamId ?? keptIds?.teamId else { throw HeraldError.invalidField("teamId", "is required for token auth") }
        if kept == nil {
            secret.p12Base64 = nil
            secret.p12Password = nil
        }
        if let pem = input.privateKey {
            try inspector.inspectAPNsSigningKey(pem: pem)
            secret.privateKeyPEM = pem
        } else if kept == nil || secret.privateKeyPEM == nil {
            throw HeraldError.invalidField("privateKey", "is required for token auth (the .p8 PEM)")
        }
        return .token(keyId: keyId, teamId: teamId)
    }

    /// Certificate auth: the .p12 and its password (given, or kept), opened and not expired.
    /// Switching from token auth forgets the key.
    private func certificateAuth(_ input: ProviderInput, kept: APNsSettings.Auth?, _ secret: inout ProviderSecret) throws -> APNsSettings.Auth {
        if let field = [("keyId", input.keyId), ("teamId", input.teamId), ("privateKey", input.privateKey)].first(where: { $0.1 != nil })?.0 {
            throw HeraldError.invalidField(field, "applies only to auth token")
        }
        if kept == nil { secret.privateKeyPEM = nil }
        if case .certificate = kept, input.p12 == nil, input.password == nil, secret.p12Base64 != nil, let kept { return kept }
        guard let p12 = input.p12 ?? (kept == nil ? nil : secret.p12Base64) else {
            throw HeraldError.invalidField("p12", "is required for certificate auth (base64 of the .p12 file)")
        }
        let password = input.password ?? secret.p12Password ?? ""
        let facts = try inspector.inspectAPNsCertificate(p12Base64: p12, password: password)
        guard facts.notValidAfter > clock.now() else {
            throw HeraldError.invalidField("p12", "the certificate expired on \(ISO8601DateFormatter().string(from: facts.notValidAfter))")
        }
        secret.p12Base64 = p12
        secret.p12Password = password
        return .certificate(subject: facts.subject, expiresAt: facts.notValidAfter)
    }

    private func configureWebhook(
        _ input: ProviderInput,
        _ existing: WebhookSettings?,
        _ secret: inout ProviderSecret
    ) async throws -> WebhookSettings {
        if let url = input.url { try await webhookPolicy.check(url) }
        guard let url = input.url ?? existing?.url else { throw HeraldError.invalidField("url", "is required for a custom provider") }
        var settings = WebhookSettings(url: url, basicAuthUsername: existing?.basicAuthUsername)
        switch (input.basicAuthUsername, input.basicAuthPassword) {
        case (nil, nil):
            break
        case (let username?, let password?):
            guard !username.isEmpty, !username.contains(":"), username.count <= 200 else {
                throw HeraldError.invalidField("basicAuth.username", "must be 1 to 200 characters without ':'")
            }
            guard !password.isEmpty, password.count <= 200 else {
                throw HeraldError.invalidField("basicAuth.password", "must be 1 to 200 characters")
            }
            settings.basicAuthUsername = username
            secret.basicAuthPassword = password
        case (nil, _):
            throw HeraldError.invalidField("basicAuth.username", "is required with a password")
        case (_, nil):
            throw HeraldError.invalidField("basicAuth.password", "is required with a username")
        }
        return settings
    }

    /// A field of another kind is a mistake worth naming, not something to ignore.
    private func rejectForeignFields(_ input: ProviderInput, kind: ProviderKind) throws {
        let fields: [(String, Set<ProviderKind>, Bool)] = [
            ("serviceAccount", [.fcm], input.serviceAccountJSON != nil),
            ("includeNotificationKey", [.fcm, .hms], input.includeNotificationKey != nil),
            ("auth", [.apns], input.auth != nil),
            ("keyId", [.apns], input.keyId != nil),
            ("teamId", [.apns], input.teamId != nil),
            ("bundleId", [.apns], input.bundleId != nil),
            ("privateKey", [.apns], input.privateKey != nil),
            ("p12", [.apns], input.p12 != nil),
            ("password", [.apns], input.password != nil),
            ("production", [.apns], input.production != nil),
            ("contentAvailable", [.apns], input.contentAvailable != nil),
            ("mutableContent", [.apns], input.mutableContent != nil),
            ("url", [.custom], input.url != nil),
            ("basicAuth", [.custom], input.basicAuthUsername != nil || input.basicAuthPassword != nil),
            ("hmsAppId", [.hms], input.hmsAppId != nil),
            ("clientSecret", [.hms], input.clientSecret != nil),
            ("subject", [.webpush], input.subject != nil),
            ("vapidPrivateKey", [.webpush], input.vapidPrivateKey != nil),
        ]
        if let (field, owners, _) = fields.first(where: { $0.2 && !$0.1.contains(kind) }) {
            let names = owners.map(\.rawValue).sorted().joined(separator: " and ")
            throw HeraldError.invalidField(field, "applies only to \(names) providers, not \(kind.rawValue)")
        }
    }

    static func isAppleId(_ value: String) -> Bool {
        value.count == 10 && value.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    static func isBundleId(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        return value.count <= 155 && parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "-" }
            }
    }
}
