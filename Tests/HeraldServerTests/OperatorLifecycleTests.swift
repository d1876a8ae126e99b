import Foundation
import HeraldServer
import HeraldStorage
import HeraldTestSupport
import Testing

/// What an operator relies on: one configuration file (flags over environment over file over
/// defaults, mistakes named with their key and file), backups taken while the server serves and
/// restored into a new data folder, and databases of every earlier schema migrated forward.
@Suite("Operator lifecycle")
struct OperatorLifecycleTests {
    static func file(_ text: String) throws -> String {
        let url = TestScratch.path("herald", suffix: ".yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func settingsComeFromFlagsThenEnvironmentThenFileThenDefaults() async throws {
        let path = try Self.file(
            """
            database: sqlite:///var/lib/herald/herald.sqlite
            port: 9000
            host: 127.0.0.1
            secretKey: "\(String(repeating: "ab", count: 32))"
            log:
              level: warning
              format: text
            limits.rateLimit: 50
            webhooks:
              allowPrivate: true
            engine:
              handOffMiB: 16
            """
        )
        let fromFile = try await HeraldConfigurationLoader(environment: [:], file: path).load()
        #expect(fromFile.handOffMiB == 16)
        let database = TestScratch.path("herald-handoff")
        let services = try HeraldServices(store: try await SQLStore.open(.sqlite(path: database.path + ".sqlite")), configuration: fromFile)
        let handOff = services.engine.fanOut.handOff
        #expect(handOff.byteCapacity == 16 << 20 && handOff.capacity == 16 * 1_600, "the fan-out holds what the setting says")
        try await services.shutdown()
        for suffix in [".sqlite", ".sqlite-wal", ".sqlite-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        #expect(fromFile.port == 9000 && fromFile.host == "127.0.0.1" && fromFile.database == .sqlite(path: "/var/lib/herald/herald.sqlite"))
        #expect(fromFile.logLevel == .warning && fromFile.logFormat == "text" && fromFile.allowPrivateWebhooks)
        #expect(fromFile.rateLimits.apiKey?.rate == 50 && fromFile.secretKey == String(repeating: "ab", count: 32))
        #expect(fromFile.maxBodyBytes == 1 << 20, "a default stays")
        // HERALD_CONFIG names the file; the environment wins over it; a flag wins over both.
        let environment = ["HERALD_CONFIG": path, "HERALD_PORT": "9100"]
        #expect(try await HeraldConfigurationLoader(environment: environment).load().port == 9100)
        #expect(try await HeraldConfigurationLoader(flags: ["HERALD_PORT": "9200"], environment: environment).load().port == 9200)
        let resolved = try await HeraldConfigurationLoader(environment: environment).resolve()
        #expect(resolved.first { $0.key == "port" }?.source == "the environment (HERALD_PORT)")
        #expect(resolved.first { $0.key == "host" }?.source == "\(path): host")
    }

    @Test func mistakesStopTheStartNamingTheKeyAndTheFile() async throws {
        let typo = try Self.file("prot: 8080\n")
        await #expect { try await HeraldConfigurationLoader(environment: [:], file: typo).load() } throws: { error in
            "\(error)".contains(typo) && "\(error)".contains("unknown key 'prot'")
        }
        let nested = try Self.file("log:\n  levle: debug\n")
        await #expect { try await HeraldConfigurationLoader(environment: [:], file: nested).load() } throws: { error in
            "\(error)".contains("unknown key 'log.levle'")
        }
        let bad = try Self.file("port: eighty\n")
        await #expect { try await HeraldConfigurationLoader(environment: [:], file: bad).load() } throws: { error in
            "\(error)".contains("\(bad): port") && "\(error)".contains("'eighty' is not a port")
        }
        await #expect { try await HeraldConfigurationLoader(environment: ["HERALD_LOG_LEVEL": "loud"]).load() } throws: { error in
            "\(error)".contains("HERALD_LOG_LEVEL") && "\(error)".contains("'loud'")
        }
        await #expect { try await HeraldConfigurationLoader(environment: [:], file: "/nonexistent/herald.yaml").load() } throws: { error in
            "\(error)".contains("/nonexistent/herald.yaml")
        }
    }

    @Test func configCheckPrintsTheEffectiveConfigurationWithSecretsRedacted() throws {
        let secret = String(repeating: "cd", count: 32)
        let path = try Self.file("database: postgres://herald:hunter2@db.internal:5432/herald\nsecretKey: \"\(secret)\"\nport: 8081\n")
        let herald = HeraldProcess.executable.path
        let check = try HeraldProcess.runCapturing(herald, ["config", "check", "--config", path], environment: [:])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("port") && check.output.contains("8081") && check.output.contains("\(path): port"), "\(check.output)")
        #expect(!check.output.contains(secret) && !check.output.contains("hunter2") && check.output.contains("<redacted>"), "\(check.output)")
        let bad = try Self.file("port: 0\n")
        let refused = try HeraldProcess.runCapturing(herald, ["config", "check", "--config", bad], environment: [:])
        #expect(refused.status != 0 && refused.output.contains("port"), "\(refused.output)")
        // A command reads its database from the file: no --database needed.
        let folder = TestScratch.path("herald-config").path
        let config = try Self.file("database: sqlite://\(folder)/herald.sqlite\nsecretKey: \"\(secret)\"\n")
        #expect(try HeraldProcess.runCapturing(herald, ["apps", "create", "--name", "FromFile", "--config", config], environment: [:]).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/herald.sqlite"))
    }

    @Test(arguments: TestBackend.available)
    func everyEarlierSchemaMigratesToTheNewest(_ backend: TestBackend) async throws {
        let newest = SQLStore.migrationVersions.last ?? 0
        for version in SQLStore.migrationVersions.dropLast() {
            let url: DatabaseURL =
                switch backend {
                case .sqlite:
                    .sqlite(
                        path: TestScratch.path("herald-v\(version)", suffix: ".sqlite").path
                    )
                case .postgres: try DatabaseURL(parsing: try await TestBackend.createPostgresDatabase())
                }
            let old = try await SQLStore.open(url, migrate: false)
            #expect(try await old.migrate(through: version) == Array(1...version))
            #expect(try await old.check().version == version)
            try await old.shutdown()
            // The current server opens it (migrating) and works on it.
            let configuration = HeraldConfiguration(database: url, secretKey: String(repeating: "ef", count: 32))
            #expect(try await AdminCommands.migrate(configuration) == Array((version + 1)...newest), "from version \(version)")
            let app = try await AdminCommands.createApp(configuration, name: "Migrated from \(version)", region: "us")
            #expect(try await AdminCommands.listKeys(configuration, appId: app.appId).count == 1)
        }
    }

    @Test func aBackupTakenWhileEventsFlowRestoresIntoANewFolderWithEverything() async throws {
        let world = try await ProcessWorld.make(.sqlite, name: "Backup", record: true)
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        try await world.addProviders(process)
        let tokens = try await world.addUsers(process, count: 10)
        let item = try await world.call(
            process,
            .POST,
            "/v1/feed/items",
            [
                "uids": ["u0001"], "card": ["version": "1.0", "fallbackText": "Kept", "body": [["type": "text", "id": "t", "content": "Kept"]]],
            ]
        )
        #expect(item.status < 300, "\(item.text)")
        // Events keep flowing while the backup is taken.
        let flowing = Task {
            var posted = 0
            while !Task.isCancelled, posted < 400 {
                _ = try? await world.call(process, .POST, "/v1/events", EngineWorld.message(from: "u0000", to: "u000\(posted % 10)"))
                posted += 1
            }
            return posted
        }
        try await Task.sleep(for: .milliseconds(200))
        let backup = TestScratch.path("herald-backup", suffix: ".sqlite").path
        let herald = HeraldProcess.executable.path
        let taken = try HeraldProcess.runCapturing(herald, ["backup", "--to", backup], environment: world.environment)
        flowing.cancel()
        #expect(taken.status == 0 && taken.output.contains("HERALD_SECRET_KEY"), "\(taken.output)")
        #expect(await flowing.value > 0)

        // Restored into a new data folder, with the same secret key.
        let folder = TestScratch.path("herald-restored").path
        var environment = world.environment
        environment["HERALD_DATABASE_URL"] = "sqlite://\(folder)/herald.sqlite"
        let restored = try HeraldProcess.runCapturing(herald, ["restore", "--from", backup], environment: environment)
        #expect(restored.status == 0, "\(restored.output)")
        let again = try HeraldProcess.runCapturing(herald, ["restore", "--from", backup], environment: environment)
        #expect(again.status != 0 && again.output.contains("--force"), "a restore never overwrites a database unasked: \(again.output)")

        let second = try await HeraldProcess.start(environment: environment)
        defer { second.kill(SIGTERM) }
        // The app and its key, the providers (their secrets open: a test push is delivered), the
        // tokens and the feed item.
        let providers = try await world.call(second, .GET, "/v1/push/providers")
        #expect(providers.status == 200 && providers.text.contains("apns-1") && providers.text.contains("fcm-1"), "\(providers.text)")
        let iPhone = try #require(tokens["u0000"])
        let push = try await world.call(second, .POST, "/v1/push/providers/apns-1/test", ["pushToken": iPhone, "platform": "apns_ios_device"])
        #expect(push["status"] as? String == "delivered", "\(push.text)")
        let listed = try await world.call(second, .GET, "/v1/users/u0001/push-tokens")
        #expect(listed.text.contains(try #require(tokens["u0001"])), "\(listed.text)")
        let session = try await world.call(second, .POST, "/v1/users/u0001/sessions", [String: Any]())
        let feed = try await world.call(second, .GET, "/v1/me/feed", bearer: session["authToken"] as? String)
        #expect(feed.text.contains("Kept"), "\(feed.text)")
    }
}
