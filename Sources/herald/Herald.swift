import ArgumentParser
import Foundation
import HeraldServer

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Herald, the self-hosted notification server for chat apps.",
        version: HeraldVersion.description,
        subcommands: [Serve.self, Migrate.self, Apps.self, Push.self, Matrix.self, Backup.self, Restore.self, Config.self]
    )
}
