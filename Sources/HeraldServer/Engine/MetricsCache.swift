import Synchronization

/// Metrics of one name by their dimensions' values, each made once and kept.
final class MetricsCache<Labels: Hashable & Sendable, Metric: Sendable>: Sendable {
    private let made = Mutex<[Labels: Metric]>([:])

    /// The metric of these dimension values, made by `make` the first time.
    func metric(_ values: Labels, make: () -> Metric) -> Metric {
        made.withLock { made in
            if let metric = made[values] { return metric }
            let metric = make()
            made[values] = metric
            return metric
        }
    }
}
