import ArgumentParser
import Foundation
import HeraldServer

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
                try await options.configuration(),
                appId: appId,
                providerId: providerId,
                input: .init(pushToken: pushToken, platform: platform, uid: uid, title: title, body: body, data: fields)
            )
            print(AdminCommands.json(AdminCommands.describe(verdict)))
            if verdict.result.outcome != .delivered { throw ExitCode(2) }
        }
    }
}
