import ArgumentParser
import Foundation
import HeraldServer

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Herald, the self-hosted notification server for chat apps.",
        version: HeraldVersion.description,
        subcommands: [Serve.self, Migrate.self, Apps.self, Push.self]
    )
}

/// `--database`, shared by every command; falls back to `HERALD_DATABASE_URL`, then the default SQLite file.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "sqlite:///path/file.sqlite (default ./herald-data/herald.sqlite) or postgres://user:pass@host:port/db")
    var database: String?

    func configuration() throws -> HeraldConfiguration {
        var configuration = try HeraldConfiguration.fromEnvironment()
        if let database { configuration.database = try .init(parsing: database) }
        return configuration
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (migrates the database first).")

    @OptionGroup var options: DatabaseOptions
    @Option(help: "Port to listen on (HERALD_PORT, default 8080).") var port: Int?
    @Option(help: "Address to bind (HERALD_HOST, default 0.0.0.0).") var host: String?

    func run() async throws {
        var configuration = try options.configuration()
        if let port { configuration.port = port }
        if let host { configuration.host = host }
        HeraldLogging.bootstrap(level: configuration.logLevel)
        try await HeraldServerRunner.serve(configuration)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations.")

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        let applied = try await AdminCommands.migrate(try options.configuration())
        print(applied.isEmpty ? "database is up to date" : "applied migrations: \(applied.map(String.init).joined(separator: ", "))")
    }
}

struct Apps: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create apps and manage their API keys.",
        subcommands: [Create.self, List.self, Keys.self, RotateKey.self, RevokeKey.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an app and print its first API key.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: "The app's name.") var name: String
        @Option(help: "Region label carried by webhook envelopes (us, eu, in, …).") var region: String = "us"
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let key = try await AdminCommands.createApp(try options.configuration(), name: name, region: region)
            print(json ? AdminCommands.json(["appId": key.appId, "apiKey": key.apiKey, "keyId": key.keyId])
                       : "appId:  \(key.appId)\napiKey: \(key.apiKey)\nkeep the API key: it is shown only once")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the apps.")
        @OptionGroup var options: DatabaseOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let apps = try await AdminCommands.listApps(try options.configuration())
            if json {
                print(AdminCommands.json(apps.map { ["appId": $0.id, "name": $0.name, "region": $0.region] }))
            } else if apps.isEmpty {
                print("no apps yet: create one with `herald apps create --name NAME`")
            } else {
                for app in apps { print("\(app.id)  \(app.region)  \(app.name)") }
            }
        }
    }

    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an app's API keys (ids only).")
        @OptionGroup var options: DatabaseOptions
        @Option(name: .customLong("app"), help: "The app id.") var appId: String

        func run() async throws {
            let keys = try await AdminCommands.listKeys(try options.configuration(), appId: appId)
            if keys.isEmpty { print("app \(appId) has no API keys: issue one with `herald apps rotate-key --app \(appId)`") }
            for key in keys {
                print("\(key.id)  created \(key.createdAt)" + (key.revokedAt.map { "  revoked \($0)" } ?? ""))
            }
        }
    }

    struct RotateKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue a new API key; older keys work until revoked.")
        @OptionGroup var options: DatabaseOptions
        @Option(name: .customLong("app"), help: "The app id.") var appId: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let key = try await AdminCommands.rotateKey(try options.configuration(), appId: appId)
            print(json ? AdminCommands.json(["appId": key.appId, "apiKey": key.apiKey, "keyId": key.keyId])
                       : "keyId:  \(key.keyId)\napiKey: \(key.apiKey)")
        }
    }

    struct RevokeKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an API key by its id.")
        @OptionGroup var options: DatabaseOptions
        @Option(name: .customLong("app"), help: "The app id.") var appId: String
        @Option(name: .customLong("key"), help: "The key id (see `herald apps keys`).") var keyId: String

        func run() async throws {
            try await AdminCommands.revokeKey(try options.configuration(), appId: appId, keyId: keyId)
            print("revoked \(keyId)")
        }
    }
}

struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Push tools.", subcommands: [Test.self])

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send one push now through a provider and print its verdict.")
        @OptionGroup var options: DatabaseOptions
        @Option(name: .customLong("app"), help: "The app id.") var appId: String
        @Option(name: .customLong("provider"), help: "The providerId.") var providerId: String
        @Option(name: .customLong("token"), help: "The device's push token (fcm, apns).") var pushToken: String?
        @Option(help: "The token's platform, e.g. fcm_android or apns_ios_device.") var platform: String?
        @Option(help: "The recipient uid named in a custom webhook envelope.") var uid: String?
        @Option(help: "Notification title.") var title = "Herald test"
        @Option(help: "Notification body.") var body = "It works."
        @Option(name: .customLong("data"), help: "A data field as key=value (repeatable).") var data: [String] = []

        func run() async throws {
            var fields: [String: String] = [:]
            for pair in data {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw ValidationError("--data takes key=value") }
                fields[String(parts[0])] = String(parts[1])
            }
            let verdict = try await AdminCommands.testPush(
                try options.configuration(), appId: appId, providerId: providerId,
                input: .init(pushToken: pushToken, platform: platform, uid: uid, title: title, body: body, data: fields)
            )
            print(AdminCommands.json(AdminCommands.describe(verdict)))
            if verdict.result.outcome != .delivered { throw ExitCode(2) }
        }
    }
}
