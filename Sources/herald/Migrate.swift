import ArgumentParser
import Foundation
import HeraldServer

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations.")

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        let applied = try await AdminCommands.migrate(try await options.configuration())
        print(applied.isEmpty ? "database is up to date" : "applied migrations: \(applied.map(String.init).joined(separator: ", "))")
    }
}
