import Foundation
import HeraldCore
import Metrics

/// The Matrix gateway's metrics, Sygnal's under Herald's names (the README has the table).
struct MatrixMetricsObserver: MatrixObserver {
    func notifyReceived(devices: Int) {
        Counter(label: "herald_matrix_notifications_received_total").increment()
        Counter(label: "herald_matrix_devices_received_total").increment(by: Int64(devices))
        Gauge(label: "herald_matrix_last_notification_received_timestamp_seconds").record(Date().timeIntervalSince1970)
    }

    func notifyAnswered(after duration: Duration, rejected: Int) {
        let (seconds, attoseconds) = duration.components
        Timer(label: "herald_matrix_notify_seconds").recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if rejected > 0 { Counter(label: "herald_matrix_pushkeys_rejected_total").increment(by: Int64(rejected)) }
    }

    func device(appId: String, outcome: String) {
        Counter(label: "herald_matrix_device_outcomes_total", dimensions: [("outcome", outcome)]).increment()
    }
}
