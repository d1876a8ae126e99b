import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// A graceful stop (SIGTERM: `systemctl restart`, every deploy) is bounded: when it starts, this
/// service starts a clock, and a stop still running at `limit` is logged and the process exits —
/// within systemd's `TimeoutStopSec` (30 s), rather than hanging until SIGKILL. (Seen in the fault
/// suite on PostgreSQL: a process told to stop while providers refused and hung never ended.)
struct ShutdownWatchdog: Service {
    let logger: Logger
    let limit: Duration

    func run() async throws {
        try? await gracefulShutdown()
        let logger = self.logger
        let limit = self.limit
        Task.detached {
            try? await Task.sleep(for: limit)
            logger.error("graceful shutdown did not finish in time: exiting", metadata: ["limit": "\(limit)"])
            exit(1)
        }
    }
}
