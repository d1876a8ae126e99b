import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

public enum HeraldServerRunner {
    /// `herald serve`: runs until SIGTERM or SIGINT, then shuts down gracefully.
    public static func serve(_ configuration: HeraldConfiguration) async throws {
        let logger = Logger(label: "herald")
        let lock = try ServerLock.acquire(for: configuration.database)
        logger.info(
            "starting Herald",
            metadata: [
                "version": "\(HeraldVersion.version)", "database": "\(configuration.database)", "port": "\(configuration.port)",
                "host": "\(configuration.host)",
            ]
        )
        // The tracer is bootstrapped first (once per process); its exporter runs beside the server.
        let tracing: [any Service] =
            try configuration.otelEndpoint.map { [try HeraldTracing.bootstrap(endpoint: $0, protocol: configuration.otelProtocol)] } ?? []
        if let endpoint = configuration.otelEndpoint {
            logger.info("exporting traces", metadata: ["endpoint": "\(endpoint)", "protocol": "\(configuration.otelProtocol)"])
        }
        // A graceful stop ends within 25 seconds, inside systemd's TimeoutStopSec (30 s).
        let app = try await buildApplication(configuration, logger: logger, background: tracing, stopLimit: .seconds(25))
        if !SystemTrustRoots.found {
            // Found by the release check: in a root without them every provider connection failed
            // its TLS set-up and was retried until the push timed out, with nothing in the log.
            logger.error(
                "no system CA certificates found (install ca-certificates): connections to APNs, FCM, HMS and webhooks cannot be verified",
                metadata: ["looked in": "\(SystemTrustRoots.paths.joined(separator: ", "))"]
            )
        }
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        _ = consume lock
    }
}
