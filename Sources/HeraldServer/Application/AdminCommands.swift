import Foundation
import HeraldCore
import HeraldStorage
import Logging

/// What the CLI's admin commands do, so that the executable holds no logic of its own.
public enum AdminCommands {
    static let logger = Logger(label: "herald.cli")

    static func withServices<T: Sendable>(_ configuration: HeraldConfiguration, _ body: (HeraldServices) async throws -> T) async throws -> T {
        let services = try await HeraldServices.open(configuration, logger: logger)
        do {
            let value = try await body(services)
            try await services.shutdown()
            return value
        } catch {
            try? await services.shutdown()
            throw error
        }
    }

    public static func migrate(_ configuration: HeraldConfiguration) async throws -> [Int] {
        let store = try await SQLStore.open(configuration.database, logger: logger, migrate: false)
        do {
            let applied = try await store.migrate()
            try await store.shutdown()
            return applied
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    public static func createApp(_ configuration: HeraldConfiguration, name: String, region: String) async throws -> IssuedAPIKey {
        try await withServices(configuration) { try await $0.apps.createApp(name: name, region: region) }
    }

    public static func listApps(_ configuration: HeraldConfiguration) async throws -> [App] {
        try await withServices(configuration) { try await $0.store.apps() }
    }

    public static func listKeys(_ configuration: HeraldConfiguration, appId: String) async throws -> [APIKeyInfo] {
        try await withServices(configuration) { services in
            guard try await services.store.app(id: appId) != nil else { throw HeraldError.notFound("app", appId) }
            return try await services.store.keys(appId: appId)
        }
    }

    public static func rotateKey(_ configuration: HeraldConfiguration, appId: String) async throws -> IssuedAPIKey {
        try await withServices(configuration) { try await $0.apps.rotateKey(appId: appId) }
    }

    public static func revokeKey(_ configuration: HeraldConfiguration, appId: String, keyId: String) async throws {
        try await withServices(configuration) { try await $0.apps.revokeKey(appId: appId, keyId: keyId) }
    }

    /// `herald push test`: one push now through a provider; the same verdict as the API's.
    public static func testPush(
        _ configuration: HeraldConfiguration,
        appId: String,
        providerId: String,
        input: TestPushInput
    ) async throws -> TestSendVerdict {
        try await withServices(configuration) { try await $0.testSends.viaProvider(appId: appId, providerId: providerId, input) }
    }

    /// A verdict as the CLI prints it.
    public static func describe(_ verdict: TestSendVerdict) -> [String: Any] {
        var out: [String: Any] = [
            "status": verdict.result.outcome == .delivered ? "delivered" : "failed",
            "outcome": verdict.result.outcome.name, "providerId": verdict.providerId, "pruned": verdict.pruned,
            "latencyMs": (verdict.result.latency.seconds * 1000).rounded(),
        ]
        if let status = verdict.result.providerStatus { out["providerStatus"] = status }
        if let reason = verdict.result.reason { out["reason"] = reason }
        if let id = verdict.result.providerMessageId { out["providerMessageId"] = id }
        return out
    }

    /// Compact, key-sorted JSON for the CLI's `--json` output.
    public static func json(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension AdminCommands {
    /// `herald backup --to FILE`: a consistent copy of a SQLite database, taken while the server
    /// keeps serving.
    public static func backup(_ configuration: HeraldConfiguration, to path: String) async throws {
        let store = try await SQLStore.open(configuration.database, logger: logger, migrate: false)
        do {
            try await store.backup(to: path)
            try await store.shutdown()
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    /// `herald restore --from FILE`: the backup in place of the configured SQLite database
    /// (which must not exist unless `replace`), migrated to this version. Returns the schema
    /// version the backup had.
    public static func restore(_ configuration: HeraldConfiguration, from path: String, replace: Bool) async throws -> Int {
        try await SQLStore.restore(from: path, to: configuration.database, replace: replace)
    }

    /// What to say about the secret key after a backup or a restore.
    public static func secretKeyAdvice(_ configuration: HeraldConfiguration) -> String {
        if configuration.secretKey != nil {
            return "provider secrets open only with the same HERALD_SECRET_KEY: keep it with the backup (it is not in the file)"
        }
        let keyFile = (configuration.resolvedDataFolder as NSString).appendingPathComponent("secret.key")
        return "provider secrets open only with the key file \(keyFile): copy it beside the restored database (it is not in the backup)"
    }
}
