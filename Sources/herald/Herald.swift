import ArgumentParser
import Foundation
import HeraldServer

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Herald, the self-hosted notification server for chat apps.",
        version: HeraldVersion.description,
        subcommands: [Serve.self, Migrate.self, Apps.self, Push.self, Backup.self, Restore.self, Config.self]
    )
}

/// `--config` and `--database`, shared by every command: flags win over the environment
/// (`HERALD_*`), which wins over the configuration file (`--config`, else `HERALD_CONFIG`).
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A YAML configuration file (HERALD_CONFIG); see herald.example.yaml")
    var config: String?
    @Option(help: "sqlite:///path/file.sqlite (default ./herald-data/herald.sqlite) or postgres://user:pass@host:port/db")
    var database: String?

    func loader(flags: [String: String] = [:]) -> HeraldConfigurationLoader {
        var flags = flags
        if let database { flags["HERALD_DATABASE_URL"] = database }
        return HeraldConfigurationLoader(flags: flags, file: config)
    }

    func configuration(flags: [String: String] = [:]) async throws -> HeraldConfiguration {
        do {
            return try await loader(flags: flags).load()
        } catch let problem as HeraldConfigurationLoader.Problem {
            throw ValidationError("configuration: \(problem.description)")
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (migrates the database first).")

    @OptionGroup var options: DatabaseOptions
    @Option(help: "Port to listen on (HERALD_PORT, default 8080).") var port: Int?
    @Option(help: "Address to bind (HERALD_HOST, default 0.0.0.0).") var host: String?

    func run() async throws {
        var flags: [String: String] = [:]
        if let port { flags["HERALD_PORT"] = String(port) }
        if let host { flags["HERALD_HOST"] = host }
        let configuration = try await options.configuration(flags: flags)
        HeraldLogging.bootstrap(level: configuration.logLevel, format: configuration.logFormat)
        try await HeraldServerRunner.serve(configuration)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations.")

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        let applied = try await AdminCommands.migrate(try await options.configuration())
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
            let key = try await AdminCommands.createApp(try await options.configuration(), name: name, region: region)
            print(json ? AdminCommands.json(["appId": key.appId, "apiKey": key.apiKey, "keyId": key.keyId])
                       : "appId:  \(key.appId)\napiKey: \(key.apiKey)\nkeep the API key: it is shown only once")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the apps.")
        @OptionGroup var options: DatabaseOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let apps = try await AdminCommands.listApps(try await options.configuration())
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
            let keys = try await AdminCommands.listKeys(try await options.configuration(), appId: appId)
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
            let key = try await AdminCommands.rotateKey(try await options.configuration(), appId: appId)
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
            try await AdminCommands.revokeKey(try await options.configuration(), appId: appId, keyId: keyId)
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
                try await options.configuration(), appId: appId, providerId: providerId,
                input: .init(pushToken: pushToken, platform: platform, uid: uid, title: title, body: body, data: fields)
            )
            print(AdminCommands.json(AdminCommands.describe(verdict)))
            if verdict.result.outcome != .delivered { throw ExitCode(2) }
        }
    }
}

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a SQLite database while the server keeps serving (PostgreSQL: use pg_dump).")
    @OptionGroup var options: DatabaseOptions
    @Option(help: "The new file to write the copy to.") var to: String

    func run() async throws {
        let configuration = try await options.configuration()
        try await AdminCommands.backup(configuration, to: to)
        print("backed up \(configuration.database) to \(to)")
        print(AdminCommands.secretKeyAdvice(configuration))
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup in place of the configured SQLite database (PostgreSQL: use pg_restore).")
    @OptionGroup var options: DatabaseOptions
    @Option(help: "The backup file (herald backup --to wrote it).") var from: String
    @Flag(help: "Replace an existing database (stop the server first).") var force = false

    func run() async throws {
        let configuration = try await options.configuration()
        let version = try await AdminCommands.restore(configuration, from: from, replace: force)
        print("restored \(from) (schema version \(version)) to \(configuration.database), migrated to this version")
        print(AdminCommands.secretKeyAdvice(configuration))
    }
}

struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Configuration tools.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective configuration (secrets redacted) and where each value comes from; non-zero on a problem.")
        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let loader = options.loader()
            let resolved: [HeraldConfigurationLoader.Resolved]
            do {
                resolved = try await loader.resolve()
                _ = try await loader.load()
            } catch {
                print("configuration problem: \(error)")
                throw ExitCode(1)
            }
            print(HeraldConfigurationLoader.describe(resolved, file: loader.file))
        }
    }
}
