import ArgumentParser
import Foundation
import HeraldServer

struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Configuration tools.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective configuration (secrets redacted) and where each value comes from; non-zero on a problem."
        )
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
