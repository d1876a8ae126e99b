import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// Waits for graceful shutdown, then closes provider connections and the database (after the
/// HTTP server has drained).
struct ShutdownService: Service {
    let logger: Logger
    let action: @Sendable () async throws -> Void

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("graceful shutdown: stopping the workers and closing connections")
        do {
            try await action()
            logger.info("Herald stopped")
        } catch {
            logger.warning("shutting down failed", metadata: ["error": .error(error)])
        }
    }
}
