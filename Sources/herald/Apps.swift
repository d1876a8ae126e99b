import ArgumentParser
import Foundation
import HeraldServer

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
            print(
                json
                    ? AdminCommands.json(["appId": key.appId, "apiKey": key.apiKey, "keyId": key.keyId])
                    : "appId:  \(key.appId)\napiKey: \(key.apiKey)\nkeep the API key: it is shown only once"
            )
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
            print(
                json
                    ? AdminCommands.json(["appId": key.appId, "apiKey": key.apiKey, "keyId": key.keyId])
                    : "keyId:  \(key.keyId)\napiKey: \(key.apiKey)"
            )
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
