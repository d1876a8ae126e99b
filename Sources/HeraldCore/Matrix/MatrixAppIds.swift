import Foundation
import HeraldModels

/// `PUT/GET/DELETE /v1/matrix/app-ids`: which Matrix app ids (exact, or Sygnal-style globs) an
/// app's providers serve. An app id another app holds is a conflict; options of another provider
/// kind are refused naming the field.
public struct MatrixAppIds: Sendable {
    let matrix: any MatrixRepository
    let providers: any ProviderRepository
    let clock: any WallClock
    let cache: BindingCache?

    public init(
        matrix: any MatrixRepository,
        providers: any ProviderRepository,
        clock: any WallClock = SystemWallClock(),
        gateway: MatrixGateway? = nil
    ) {
        self.matrix = matrix
        self.providers = providers
        self.clock = clock
        self.cache = gateway?.bindings
    }

    /// What a `PUT` gives.
    public struct Input: Sendable {
        public var providerId: String
        public var apnsPushType: String?
        public var convertDeviceTokenToHex: Bool?
        public var fcmOptions: JSONObject?
        public var allowedEndpoints: [String]?

        public init(
            providerId: String,
            apnsPushType: String? = nil,
            convertDeviceTokenToHex: Bool? = nil,
            fcmOptions: JSONObject? = nil,
            allowedEndpoints: [String]? = nil
        ) {
            self.providerId = providerId
            self.apnsPushType = apnsPushType
            self.convertDeviceTokenToHex = convertDeviceTokenToHex
            self.fcmOptions = fcmOptions
            self.allowedEndpoints = allowedEndpoints
        }
    }

    public func put(appId: String, pattern: String, _ input: Input) async throws -> MatrixAppBinding {
        try Self.checkPattern(pattern)
        guard let provider = try await providers.provider(appId: appId, providerId: input.providerId) else {
            throw HeraldError.invalidField("providerId", "no provider '\(input.providerId)' in this app")
        }
        guard [.apns, .fcm, .webpush].contains(provider.kind) else {
            throw HeraldError.invalidField(
                "providerId",
                "a Matrix app id needs an apns, fcm or webpush provider; '\(input.providerId)' is \(provider.kind.rawValue)"
            )
        }
        let foreign: [(String, ProviderKind, Bool)] = [
            ("apnsPushType", .apns, input.apnsPushType != nil), ("convertDeviceTokenToHex", .apns, input.convertDeviceTokenToHex != nil),
            ("fcmOptions", .fcm, input.fcmOptions != nil), ("allowedEndpoints", .webpush, input.allowedEndpoints != nil),
        ]
        if let (field, kind, _) = foreign.first(where: { $0.2 && $0.1 != provider.kind }) {
            throw HeraldError.invalidField(field, "applies only to \(kind.rawValue) providers, not \(provider.kind.rawValue)")
        }
        if let type = input.apnsPushType, APNsPushKind(rawValue: type) == nil {
            throw HeraldError.invalidField("apnsPushType", "must be one of \(APNsPushKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for (index, endpoint) in (input.allowedEndpoints ?? []).enumerated() where endpoint.isEmpty || endpoint.count > 255 {
            throw HeraldError.invalidField("allowedEndpoints[\(index)]", "must be a host name or glob of 1 to 255 characters")
        }
        let now = clock.now()
        let existing = try await matrix.matrixAppIds(appId: appId).first { $0.pattern == pattern }
        let binding = MatrixAppBinding(
            pattern: pattern,
            appId: appId,
            providerId: input.providerId,
            apnsPushType: provider.kind == .apns ? input.apnsPushType ?? "alert" : nil,
            convertDeviceTokenToHex: provider.kind == .apns ? input.convertDeviceTokenToHex ?? true : false,
            fcmOptions: input.fcmOptions,
            allowedEndpoints: input.allowedEndpoints,
            createdAt: existing?.createdAt ?? now,
            updatedAt: now
        )
        guard try await matrix.putMatrixAppId(binding) else {
            throw HeraldError(
                .conflict,
                code: "matrix_app_id_taken",
                "Matrix app id '\(pattern)' is bound to another app",
                details: ["field": "matrixAppId", "matrixAppId": pattern]
            )
        }
        cache?.invalidate()
        return binding
    }

    public func list(appId: String) async throws -> [MatrixAppBinding] {
        try await matrix.matrixAppIds(appId: appId)
    }

    public func delete(appId: String, pattern: String) async throws {
        guard try await matrix.deleteMatrixAppId(appId: appId, pattern: pattern) else { throw HeraldError.notFound("Matrix app id", pattern) }
        cache?.invalidate()
    }

    /// An app id as Matrix clients send them (reverse DNS, often with a platform suffix), or a glob.
    static func checkPattern(_ pattern: String) throws {
        guard (1...255).contains(pattern.count), pattern.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "/" }) else {
            throw HeraldError.invalidField("matrixAppId", "must be 1 to 255 printable ASCII characters without spaces or '/' (globs * and ? allowed)")
        }
    }
}
