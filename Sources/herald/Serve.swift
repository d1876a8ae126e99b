import ArgumentParser
import Foundation
import HeraldServer

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
