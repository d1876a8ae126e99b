import ArgumentParser
import Foundation
import HeraldServer

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup in place of the configured SQLite database (PostgreSQL: use pg_restore)."
    )
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
