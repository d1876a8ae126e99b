import Foundation
import HeraldCore
import HeraldProviders
import HeraldStorage
import Logging

/// Everything `herald serve` is started with. Built from flags and the environment by the
/// executable, or directly by tests.
public struct HeraldConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: DatabaseURL
    /// `HERALD_SECRET_KEY`; nil means the key file in the data folder.
    public var secretKey: String?
    /// The folder for the key file (defaults to the SQLite file's folder).
    public var dataFolder: String?
    /// `HERALD_WEBHOOK_ALLOW_PRIVATE=1`: accept webhook URLs on loopback and private networks (dev, tests).
    public var allowPrivateWebhooks: Bool
    /// Resolves webhook hosts when a provider is saved and before its connections (tests inject one).
    public var hostResolver: any HostResolver = SystemHostResolver()
    public var maxBodyBytes: Int
    /// Requests per second per API key and per user token (`HERALD_RATE_LIMIT`,
    /// `HERALD_USER_RATE_LIMIT`; 0 is no limit), bursts of twice that.
    public var rateLimits = RateLimits()
    public var logLevel: Logger.Level
    /// `json` (one object per line, the default) or `text` (`HERALD_LOG_FORMAT`).
    public var logFormat = "json"
    /// Provider endpoints and extra trust roots (`HERALD_APNS_*_URL`, `HERALD_FCM_*URL`, `HERALD_CA_FILE`).
    public var providerEndpoints = ProviderEndpoints()
    /// WebSocket ping period and, with PostgreSQL, heartbeat timings (`HERALD_WS_PING_SECONDS`).
    public var realtime = RealtimeSettings()
    /// Run the delivery engine's workers and housekeeping in this process (tests that drive the
    /// engine by hand turn them off).
    public var engineWorkers = true
    /// How long a claimed event or delivery belongs to its process before another may take it
    /// over (`HERALD_ENGINE_LEASE_SECONDS`): the longest a killed process's work waits.
    public var engineLease: TimeInterval = 60
    /// Accepted events the intake hands straight to this process's fan-out, in MiB of their posts
    /// (`HERALD_ENGINE_HANDOFF_MIB`), and at most 1,600 events a MiB; past that they wait in the
    /// table.
    public var handOffMiB = 64
    /// Serve `/metrics` on this port only (`HERALD_METRICS_PORT`), not on the API's.
    public var metricsPort: Int?
    /// An OpenTelemetry collector's OTLP/HTTP address (`HERALD_OTEL_ENDPOINT`): traces are exported
    /// there; none are made when nil.
    public var otelEndpoint: String?
    /// `http/protobuf` (the default) or `http/json` (`HERALD_OTEL_PROTOCOL`).
    public var otelProtocol = "http/protobuf"

    public init(
        host: String = "0.0.0.0",
        port: Int = 8080,
        database: DatabaseURL = .default,
        secretKey: String? = nil,
        dataFolder: String? = nil,
        allowPrivateWebhooks: Bool = false,
        maxBodyBytes: Int = 1 << 20,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.secretKey = secretKey
        self.dataFolder = dataFolder
        self.allowPrivateWebhooks = allowPrivateWebhooks
        self.maxBodyBytes = maxBodyBytes
        self.logLevel = logLevel
    }

    /// Reads `HERALD_PORT`, `HERALD_HOST`, `HERALD_DATABASE_URL`, `HERALD_SECRET_KEY`,
    /// `HERALD_DATA_DIR`, `HERALD_WEBHOOK_ALLOW_PRIVATE`, `HERALD_MAX_BODY_BYTES`, `HERALD_RATE_LIMIT`,
    /// `HERALD_USER_RATE_LIMIT`, `HERALD_LOG_LEVEL`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> HeraldConfiguration {
        var configuration = HeraldConfiguration()
        if let host = environment["HERALD_HOST"] { configuration.host = host }
        if let port = environment["HERALD_PORT"].flatMap(Int.init) { configuration.port = port }
        if let url = environment["HERALD_DATABASE_URL"], !url.isEmpty { configuration.database = try DatabaseURL(parsing: url) }
        configuration.secretKey = environment["HERALD_SECRET_KEY"]
        configuration.dataFolder = environment["HERALD_DATA_DIR"]
        configuration.allowPrivateWebhooks = ["1", "true", "yes"].contains(environment["HERALD_WEBHOOK_ALLOW_PRIVATE"]?.lowercased() ?? "")
        if let bytes = environment["HERALD_MAX_BODY_BYTES"].flatMap(Int.init), bytes > 0 { configuration.maxBodyBytes = bytes }
        if let rate = environment["HERALD_RATE_LIMIT"].flatMap(Double.init) { configuration.rateLimits.apiKey = rate > 0 ? .init(rate: rate) : nil }
        if let rate = environment["HERALD_USER_RATE_LIMIT"].flatMap(Double.init) {
            configuration.rateLimits.userToken = rate > 0 ? .init(rate: rate) : nil
        }
        if let level = environment["HERALD_LOG_LEVEL"].flatMap({ Logger.Level(rawValue: $0.lowercased()) }) { configuration.logLevel = level }
        if let format = environment["HERALD_LOG_FORMAT"]?.lowercased(), format == "text" { configuration.logFormat = format }
        configuration.providerEndpoints = try ProviderEndpoints(environment: environment)
        if let seconds = environment["HERALD_WS_PING_SECONDS"].flatMap(Int.init), seconds > 0 {
            configuration.realtime.pingInterval = .seconds(seconds)
        }
        if let seconds = environment["HERALD_ENGINE_LEASE_SECONDS"].flatMap(Double.init), seconds >= 1 { configuration.engineLease = seconds }
        if let mebibytes = environment["HERALD_ENGINE_HANDOFF_MIB"].flatMap(Int.init), mebibytes > 0 { configuration.handOffMiB = mebibytes }
        if let port = environment["HERALD_METRICS_PORT"].flatMap(Int.init), port > 0 { configuration.metricsPort = port }
        if let endpoint = environment["HERALD_OTEL_ENDPOINT"], !endpoint.isEmpty { configuration.otelEndpoint = endpoint }
        if let wire = environment["HERALD_OTEL_PROTOCOL"], !wire.isEmpty { configuration.otelProtocol = wire }
        return configuration
    }

    var resolvedDataFolder: String { dataFolder ?? database.dataFolder }
}
