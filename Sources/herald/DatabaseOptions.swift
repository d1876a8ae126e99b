import ArgumentParser
import Foundation
import HeraldServer

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
