import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

/// Sends campaigns when they fall due: each process polls, one claims a campaign and sends it a
/// batch at a time; if it dies, its lease runs out and another process carries on from its cursor.
struct CampaignService: Service {
    let services: HeraldServices
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await services.campaigns.runDue() {
                        await services.engine.eventsAccepted()
                        continue
                    }
                } catch where !Task.isCancelled {
                    logger.error("campaign failed", metadata: ["error": "\(error)"])
                } catch {
                    return
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}
