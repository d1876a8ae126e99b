import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

/// Housekeeping: the delivery log kept only for each app's retention period; sessions that
/// expire logged out (their devices told by a silent push, their sockets closed).
struct MaintenanceService: Service {
    let services: HeraldServices
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var purged = ContinuousClock.now - .seconds(3_600)
            var measured = ContinuousClock.now - .seconds(3_600)
            while !Task.isCancelled {
                do {
                    try await services.expireSessions()
                    if ContinuousClock.now - measured > .seconds(60) {
                        measured = .now
                        try await reportCertificateExpiry()
                    }
                    if ContinuousClock.now - purged > .seconds(3_600) {
                        purged = .now
                        for app in try await services.store.apps() {
                            let before = Date().addingTimeInterval(-Double(app.settings.retentionDays) * 86_400)
                            _ = try await services.store.purge(appId: app.id, before: before)
                        }
                    }
                } catch  where !Task.isCancelled {
                    logger.warning("maintenance failed", metadata: ["error": .error(error)])
                } catch {
                    return
                }
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }
}

extension MaintenanceService {
    /// `herald_apns_certificate_expiry_seconds{app,provider}`: how long each APNs certificate has
    /// left (negative once expired), for an alert well before Apple starts refusing it.
    func reportCertificateExpiry() async throws {
        let now = services.clock.now()
        for app in try await services.store.apps() {
            for credential in try await services.store.providers(appId: app.id) {
                guard let expires = credential.config.settings.certificateExpiresAt else { continue }
                Gauge(label: "herald_apns_certificate_expiry_seconds", dimensions: [("app", app.id), ("provider", credential.providerId)])
                    .record(expires.timeIntervalSince(now))
            }
        }
    }
}
