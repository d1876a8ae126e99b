import ArgumentParser
import Foundation
import HeraldServer

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a SQLite database while the server keeps serving (PostgreSQL: use pg_dump)."
    )
    @OptionGroup var options: DatabaseOptions
    @Option(help: "The new file to write the copy to.") var to: String

    func run() async throws {
        let configuration = try await options.configuration()
        try await AdminCommands.backup(configuration, to: to)
        print("backed up \(configuration.database) to \(to)")
        print(AdminCommands.secretKeyAdvice(configuration))
    }
}
