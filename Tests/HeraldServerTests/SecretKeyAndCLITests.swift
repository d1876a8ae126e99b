import Foundation
import HeraldCore
import HeraldStorage
import HeraldTestSupport
import Testing

@testable import HeraldServer

@Suite("Secret key and admin commands")
struct SecretKeyAndCLITests {
    @Test func keyFileIsCreatedPrivateAndReused() throws {
        let folder = TestScratch.path("herald-key").path
        let first = try SecretKeyLoader.load(environmentValue: nil, dataFolder: folder)
        let path = folder + "/secret.key"
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let second = try SecretKeyLoader.load(environmentValue: nil, dataFolder: folder)
        let reopened = try AESGCMSecretBox(key: second).open(try AESGCMSecretBox(key: first).seal("x", context: "c"), context: "c")
        #expect(reopened == "x")

        // A box sealed with one key opens only with that key, and only for the same provider.
        let box = AESGCMSecretBox(key: first)
        let sealed = try box.seal("-----BEGIN PRIVATE KEY-----", context: "provider:app:p1")
        #expect(!sealed.contains("PRIVATE"))
        #expect(try box.open(sealed, context: "provider:app:p1") == "-----BEGIN PRIVATE KEY-----")
        #expect(throws: HeraldError.self) { try box.open(sealed, context: "provider:app:p2") }
        let other = AESGCMSecretBox(key: try SecretKeyLoader.load(environmentValue: String(repeating: "ab", count: 32), dataFolder: folder))
        #expect(throws: HeraldError.self) { try other.open(sealed, context: "provider:app:p1") }
        #expect(throws: HeraldError.self) { try SecretKeyLoader.load(environmentValue: "too-short", dataFolder: folder) }
    }

    @Test func appsCreateRotateRevokeFromTheCLI() async throws {
        let folder = TestScratch.path("herald-cli").path
        let configuration = HeraldConfiguration(database: .sqlite(path: folder + "/herald.sqlite"))
        #expect(try await AdminCommands.migrate(configuration) == SQLStore.migrationVersions)
        #expect(SQLStore.migrationVersions == Array(1...SQLStore.migrationVersions.count))
        #expect(try await AdminCommands.migrate(configuration) == [])
        let created = try await AdminCommands.createApp(configuration, name: "Acme", region: "eu")
        #expect(created.apiKey.hasPrefix("hk_"))
        let apps = try await AdminCommands.listApps(configuration)
        #expect(apps.map(\.id) == [created.appId])
        #expect(apps.first?.region == "eu")
        let rotated = try await AdminCommands.rotateKey(configuration, appId: created.appId)
        try await AdminCommands.revokeKey(configuration, appId: created.appId, keyId: created.keyId)
        let keys = try await AdminCommands.listKeys(configuration, appId: created.appId)
        #expect(keys.count == 2)
        #expect(keys.first { $0.id == created.keyId }?.revokedAt != nil)
        #expect(keys.first { $0.id == rotated.keyId }?.revokedAt == nil)
        await #expect(throws: HeraldError.self) { try await AdminCommands.createApp(configuration, name: "", region: "us") }
        let json = AdminCommands.json(["appId": created.appId, "apiKey": created.apiKey])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded == ["appId": created.appId, "apiKey": created.apiKey])
        // The file holds only the key's hash.
        let file =
            try String(decoding: Data(contentsOf: URL(fileURLWithPath: folder + "/herald.sqlite")), as: UTF8.self)
            + ((try? String(decoding: Data(contentsOf: URL(fileURLWithPath: folder + "/herald.sqlite-wal")), as: UTF8.self)) ?? "")
        #expect(!file.contains(created.apiKey))
    }
}
