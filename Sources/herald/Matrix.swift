import ArgumentParser
import Foundation
import HeraldServer

struct Matrix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The Matrix push gateway.", subcommands: [ImportSygnalConfig.self])

    struct ImportSygnalConfig: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-sygnal-config",
            abstract: "Turn a Sygnal configuration's apps into this app's providers and Matrix app ids."
        )
        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The Sygnal configuration (sygnal.yaml); its key files are read relative to it.") var file: String
        @Option(name: .customLong("app"), help: "The app id.") var appId: String

        func run() async throws {
            let report = try await SygnalImport.run(try await options.configuration(), appId: appId, file: URL(fileURLWithPath: file))
            for line in report.providers { print("provider created: \(line)") }
            for line in report.bound { print("app id bound: \(line)") }
            for line in report.notCarried { print("not carried over: \(line)") }
            if report.bound.isEmpty { throw ExitCode(2) }
        }
    }
}
