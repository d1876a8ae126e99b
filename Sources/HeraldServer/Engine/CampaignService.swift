import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

/// Sends campaigns when they fall due: each process polls, one claims a campaign and sends it a
/// batch at a time; if it dies, another process carries on from its cursor (at once when its
/// heartbeat stops, else when its lease runs out). A graceful stop finishes the batch in hand;
/// the engine then hands the campaign's claim on.
struct CampaignService: Service {
    let services: HeraldServices
    let logger: Logger

    func run() async throws {
        let stopping = StopSignal()
        await withGracefulShutdownHandler {
            while !stopping.isSignalled, !Task.isCancelled {
                do {
                    if try await services.campaigns.runDue() {
                        await services.engine.eventsAccepted()
                        continue
                    }
                } catch  where !Task.isCancelled {
                    logger.error("campaign failed", metadata: ["error": .error(error)])
                } catch {
                    return
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        } onGracefulShutdown: {
            stopping.signal()
        }
    }
}
