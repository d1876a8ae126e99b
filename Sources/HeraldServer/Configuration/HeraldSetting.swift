import Foundation
import Logging

/// One setting of `herald serve`: its key in the configuration file (YAML, nested or dotted:
/// `log.level`), the environment variable that sets it, and what a value must be.
public struct HeraldSetting: Sendable {
    public enum Kind: Sendable {
        case text, url, database, port, positiveInt, nonNegativeNumber, positiveNumber, flag, logLevel, logFormat, file, otlpProtocol
    }

    public var key: String
    public var environment: String
    public var kind: Kind
    /// Never printed (`herald config check` shows `<redacted>`).
    public var secret = false
    public var help: String

    /// Every setting, in the order `herald config check` prints them.
    public static let all: [HeraldSetting] = [
        .init(
            key: "database",
            environment: "HERALD_DATABASE_URL",
            kind: .database,
            help: "sqlite:///path/herald.sqlite (one process) or postgres://user:pass@host:5432/db (many)"
        ),
        .init(key: "host", environment: "HERALD_HOST", kind: .text, help: "address to listen on"),
        .init(key: "port", environment: "HERALD_PORT", kind: .port, help: "port to listen on"),
        .init(key: "dataDir", environment: "HERALD_DATA_DIR", kind: .text, help: "folder of the secret key file (default: the SQLite file's folder)"),
        .init(
            key: "secretKey",
            environment: "HERALD_SECRET_KEY",
            kind: .text,
            secret: true,
            help: "32 bytes, base64 or hex, that seal provider secrets (default: secret.key in the data folder)"
        ),
        .init(key: "log.level", environment: "HERALD_LOG_LEVEL", kind: .logLevel, help: "trace, debug, info, notice, warning, error or critical"),
        .init(key: "log.format", environment: "HERALD_LOG_FORMAT", kind: .logFormat, help: "json (one object per line) or text"),
        .init(key: "limits.maxBodyBytes", environment: "HERALD_MAX_BODY_BYTES", kind: .positiveInt, help: "largest request body"),
        .init(
            key: "limits.rateLimit",
            environment: "HERALD_RATE_LIMIT",
            kind: .nonNegativeNumber,
            help: "requests per second per API key (0: no limit)"
        ),
        .init(
            key: "limits.userRateLimit",
            environment: "HERALD_USER_RATE_LIMIT",
            kind: .nonNegativeNumber,
            help: "requests per second per user token (0: no limit)"
        ),
        .init(
            key: "webhooks.allowPrivate",
            environment: "HERALD_WEBHOOK_ALLOW_PRIVATE",
            kind: .flag,
            help: "accept webhook URLs on loopback and private networks"
        ),
        .init(key: "webhooks.timeoutMs", environment: "HERALD_WEBHOOK_TIMEOUT_MS", kind: .positiveInt, help: "how long a webhook may take to answer"),
        .init(key: "realtime.pingSeconds", environment: "HERALD_WS_PING_SECONDS", kind: .positiveInt, help: "WebSocket ping period"),
        .init(
            key: "otel.endpoint",
            environment: "HERALD_OTEL_ENDPOINT",
            kind: .url,
            help: "an OpenTelemetry collector's OTLP/HTTP address, e.g. http://collector:4318 (traces go to /v1/traces); no traces when unset"
        ),
        .init(key: "otel.protocol", environment: "HERALD_OTEL_PROTOCOL", kind: .otlpProtocol, help: "http/protobuf (the default) or http/json"),
        .init(key: "metrics.port", environment: "HERALD_METRICS_PORT", kind: .port, help: "serve /metrics on this port only, not on the API's"),
        .init(
            key: "engine.leaseSeconds",
            environment: "HERALD_ENGINE_LEASE_SECONDS",
            kind: .positiveNumber,
            help: "how long a claimed event belongs to its process"
        ),
        .init(
            key: "engine.handOffMiB",
            environment: "HERALD_ENGINE_HANDOFF_MIB",
            kind: .positiveInt,
            help: "accepted events held in memory for the fan-out: MiB of posts, 1,600 events per MiB (short messages: ~2 MB per MiB)"
        ),
        .init(key: "providers.apnsSandboxURL", environment: "HERALD_APNS_SANDBOX_URL", kind: .url, help: "APNs development host"),
        .init(key: "providers.apnsProductionURL", environment: "HERALD_APNS_PRODUCTION_URL", kind: .url, help: "APNs production host"),
        .init(key: "providers.fcmURL", environment: "HERALD_FCM_URL", kind: .url, help: "FCM send base"),
        .init(key: "providers.fcmTokenURL", environment: "HERALD_FCM_TOKEN_URL", kind: .url, help: "FCM OAuth endpoint"),
        .init(key: "providers.hmsURL", environment: "HERALD_HMS_URL", kind: .url, help: "Huawei Push Kit send base"),
        .init(key: "providers.hmsTokenURL", environment: "HERALD_HMS_TOKEN_URL", kind: .url, help: "Huawei OAuth endpoint"),
        .init(key: "providers.caFile", environment: "HERALD_CA_FILE", kind: .file, help: "extra trust roots (PEM) for provider connections"),
    ]

    /// The key swift-configuration's environment provider reads this variable by
    /// (`HERALD_DATABASE_URL` ↔ `herald.database.url`).
    var environmentKey: String {
        environment.lowercased().replacingOccurrences(of: "_", with: ".")
    }

    /// Why `value` is not a value of this setting, or nil when it is.
    func problem(with value: String) -> String? {
        switch kind {
        case .text:
            return nil
        case .url:
            guard let url = URL(string: value), ["https", "http"].contains(url.scheme ?? ""), url.host != nil else {
                return "'\(value)' is not an http(s) URL"
            }
            return nil
        case .database:
            return value.hasPrefix("sqlite://") || value.hasPrefix("postgres://") || value.hasPrefix("postgresql://")
                ? nil : "'\(value)' is not sqlite:///path/file.sqlite or postgres://user:pass@host:port/db"
        case .port:
            guard let port = Int(value), (1...65_535).contains(port) else { return "'\(value)' is not a port (1–65535)" }
            return nil
        case .positiveInt:
            guard let number = Int(value), number > 0 else { return "'\(value)' is not a whole number above 0" }
            return nil
        case .nonNegativeNumber:
            guard let number = Double(value), number >= 0 else { return "'\(value)' is not a number (0 or more)" }
            return nil
        case .positiveNumber:
            guard let number = Double(value), number >= 1 else { return "'\(value)' is not a number of seconds (1 or more)" }
            return nil
        case .flag:
            return Self.flagValues.keys.contains(value.lowercased()) ? nil : "'\(value)' is not true or false"
        case .logLevel:
            return Logger.Level(rawValue: value.lowercased()) == nil ? "'\(value)' is not a log level (\(Self.levels))" : nil
        case .logFormat:
            return ["json", "text"].contains(value.lowercased()) ? nil : "'\(value)' is not json or text"
        case .file:
            return FileManager.default.isReadableFile(atPath: value) ? nil : "'\(value)' is not a readable file"
        case .otlpProtocol:
            return ["http/protobuf", "http/json"].contains(value) ? nil : "'\(value)' is not http/protobuf or http/json"
        }
    }

    static let flagValues = ["1": true, "true": true, "yes": true, "on": true, "0": false, "false": false, "no": false, "off": false]
    static let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
}
