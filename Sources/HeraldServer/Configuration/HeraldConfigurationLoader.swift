import Configuration
import Foundation
import HeraldStorage
import SystemPackage
import Yams

/// Where `herald` reads its settings, highest first: command-line flags, the environment
/// (`HERALD_*`), the configuration file (`--config FILE` or `HERALD_CONFIG`), then defaults. The
/// file and the environment are read with swift-configuration (its YAML and environment
/// providers); an unknown key in the file, or a value a setting cannot take from any source,
/// stops the start with a message naming the key and where it came from.
public struct HeraldConfigurationLoader: Sendable {
    /// A setting's value and where it came from.
    public struct Resolved: Sendable, Equatable {
        public var key: String
        public var value: String
        public var source: String
        public var secret: Bool
    }

    /// Flags given on the command line, by environment variable name (`HERALD_PORT`).
    public var flags: [String: String]
    public var environment: [String: String]
    /// The configuration file: the `--config` flag, else `HERALD_CONFIG`.
    public var file: String?

    public init(flags: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment, file: String? = nil) {
        self.flags = flags
        self.environment = environment
        self.file = file ?? environment["HERALD_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A setting that cannot be used, named with its source.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Every setting that is set, with its source; throws on the first problem.
    public func resolve() async throws -> [Resolved] {
        let fileValues = try await readFile()
        let environmentReader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        var resolved: [Resolved] = []
        for setting in HeraldSetting.all {
            let candidate: (String, String)? =
                flags[setting.environment].map { ($0, "the --\(Self.flagName(setting)) flag") }
                ?? environmentReader.string(forKey: ConfigKey(setting.environmentKey), isSecret: setting.secret).map {
                    ($0, "the environment (\(setting.environment))")
                }
                ?? fileValues[setting.key].map { ($0, "\(file ?? "the configuration file"): \(setting.key)") }
            guard let (value, source) = candidate else { continue }
            if let problem = setting.problem(with: value.trimmingCharacters(in: .whitespaces)) {
                throw Problem(description: "\(source): \(setting.secret ? "the value is not allowed" : problem) — \(setting.help)")
            }
            resolved.append(Resolved(key: setting.key, value: value.trimmingCharacters(in: .whitespaces), source: source, secret: setting.secret))
        }
        return resolved
    }

    /// The configuration `herald serve` runs with.
    public func load() async throws -> HeraldConfiguration {
        let resolved = try await resolve()
        var merged = environment
        for setting in HeraldSetting.all { merged[setting.environment] = nil }
        for value in resolved {
            guard let setting = HeraldSetting.all.first(where: { $0.key == value.key }) else { continue }
            merged[setting.environment] =
                setting.kind == .flag ? (HeraldSetting.flagValues[value.value.lowercased()] == true ? "1" : "0") : value.value
        }
        do {
            return try HeraldConfiguration.fromEnvironment(merged)
        } catch {
            throw Problem(description: "\(error)")
        }
    }

    /// The file's settings by key (nested maps read as dotted keys). A key no setting has is a
    /// problem: a typo would otherwise be ignored silently.
    func readFile() async throws -> [String: String] {
        guard let file else { return [:] }
        guard FileManager.default.isReadableFile(atPath: file) else { throw Problem(description: "\(file): the configuration file cannot be read") }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw Problem(description: "\(file): the configuration file cannot be read (\(error.localizedDescription))")
        }
        let keys: [String]
        do {
            keys = try Self.keys(ofYAML: text)
        } catch {
            throw Problem(description: "\(file): not valid YAML: \(error)")
        }
        let known = Set(HeraldSetting.all.map(\.key))
        if let unknown = keys.first(where: { !known.contains($0) }) {
            throw Problem(description: "\(file): unknown key '\(unknown)'; the keys are \(HeraldSetting.all.map(\.key).joined(separator: ", "))")
        }
        let provider: FileProvider<YAMLSnapshot>
        do {
            provider = try await FileProvider<YAMLSnapshot>(filePath: FilePath(file))
        } catch {
            throw Problem(description: "\(file): \(error)")
        }
        let reader = ConfigReader(provider: provider)
        var values: [String: String] = [:]
        for setting in HeraldSetting.all where keys.contains(setting.key) {
            // Scalars are read as text and checked by the setting: `port: 80` and `port: "80"` alike.
            guard let value = reader.string(forKey: ConfigKey(setting.key), isSecret: setting.secret) else {
                throw Problem(description: "\(file): \(setting.key): not a single value — \(setting.help)")
            }
            values[setting.key] = value
        }
        return values
    }

    /// The dotted keys of a YAML mapping's leaves (`log: {level: info}` → `log.level`).
    static func keys(ofYAML text: String) throws -> [String] {
        guard let node = try Yams.compose(yaml: text) else { return [] }
        guard case .mapping(let root) = node else { throw Problem(description: "the file must be a mapping of keys to values") }
        var keys: [String] = []
        func walk(_ mapping: Node.Mapping, prefix: String) {
            for (key, value) in mapping {
                let name = prefix + (key.string ?? "")
                if case .mapping(let inner) = value { walk(inner, prefix: name + ".") } else { keys.append(name) }
            }
        }
        walk(root, prefix: "")
        return keys
    }

    static func flagName(_ setting: HeraldSetting) -> String {
        setting.key
    }

    /// `herald config check`'s table: every setting, its value (secrets redacted, a database
    /// URL without its password) and where it comes from.
    public static func describe(_ resolved: [Resolved], file: String?) -> String {
        let rows = HeraldSetting.all.map { setting -> (key: String, value: String, source: String) in
            guard let value = resolved.first(where: { $0.key == setting.key }) else { return (setting.key, "(default)", "") }
            var shown = value.value
            if setting.secret { shown = "<redacted>" }
            if setting.kind == .database, let url = try? DatabaseURL(parsing: value.value) { shown = url.description }
            return (setting.key, shown, value.source)
        }
        let keyWidth = rows.map(\.key.count).max() ?? 0
        let valueWidth = min(48, rows.map(\.value.count).max() ?? 0)
        let lines = rows.map { row in
            let line =
                row.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                + (row.source.isEmpty
                    ? row.value : row.value.padding(toLength: max(valueWidth, row.value.count), withPad: " ", startingAt: 0) + "  ← " + row.source)
            return line
        }
        return (["configuration file: \(file ?? "none (--config FILE or HERALD_CONFIG)")"] + lines).joined(separator: "\n")
    }
}
