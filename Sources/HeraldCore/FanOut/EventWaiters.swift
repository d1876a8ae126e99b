import Foundation
import Synchronization

/// Lets a caller wait for the deliveries of events it handed to the engine, as they are recorded:
/// the Matrix push gateway answers a notify with the pushkeys the providers rejected. A waiter
/// registered before its event is accepted cannot miss it; one whose event is recorded elsewhere
/// (another process, or after the timeout) gets nothing.
public final class EventWaiters: Sendable {
    private let waiting = Mutex<[String: CheckedContinuation<[Delivery], Never>]>([:])
    /// Deliveries recorded before their waiter got to wait (register, accept, record, then wait).
    private let early = Mutex<[String: [Delivery]]>([:])
    private let registered = Mutex<Set<String>>([])

    public init() {}

    /// Marks events as awaited; call before they are accepted.
    public func register(_ eventIds: [String]) {
        registered.withLock { $0.formUnion(eventIds) }
    }

    /// Forgets events that will never be recorded (a duplicate not stored).
    public func cancel(_ eventIds: [String]) {
        registered.withLock { $0.subtract(eventIds) }
        early.withLock { early in for id in eventIds { early[id] = nil } }
    }

    /// The deliveries of each registered event recorded within `timeout` (absent: not yet).
    public func wait(for eventIds: [String], timeout: Duration) async -> [String: [Delivery]] {
        await withTaskGroup(of: (String, [Delivery])?.self) { group in
            for id in eventIds {
                group.addTask { [self] in
                    let deliveries = await withCheckedContinuation { continuation in
                        let ready: [Delivery]? = early.withLock { $0.removeValue(forKey: id) }
                        if let ready { return continuation.resume(returning: ready) }
                        waiting.withLock { $0[id] = continuation }
                        // Recorded between the two looks: resume now.
                        if let late = early.withLock({ $0.removeValue(forKey: id) }), let waiter = waiting.withLock({ $0.removeValue(forKey: id) }) {
                            waiter.resume(returning: late)
                        }
                    }
                    return deliveries.isEmpty ? nil : (id, deliveries)
                }
            }
            group.addTask { [self] in
                try? await Task.sleep(for: timeout)
                // Whoever removes a waiter resumes it, exactly once.
                let left = waiting.withLock { waiting in
                    let left = eventIds.compactMap { waiting.removeValue(forKey: $0) }
                    return left
                }
                for waiter in left { waiter.resume(returning: []) }
                return nil
            }
            var results: [String: [Delivery]] = [:]
            for await result in group {
                guard let (id, deliveries) = result else { continue }
                results[id] = deliveries
                // All answered: the timeout's sleep is cancelled.
                if results.count == eventIds.count { group.cancelAll() }
            }
            registered.withLock { $0.subtract(eventIds) }
            return results
        }
    }

    /// The engine recorded these deliveries: their awaited events' waiters get them.
    func settled(_ deliveries: @autoclosure () -> [Delivery]) {
        let awaited = registered.withLock { $0 }
        guard !awaited.isEmpty else { return }
        let deliveries = deliveries()
        var byEvent: [String: [Delivery]] = [:]
        for delivery in deliveries where awaited.contains(delivery.subject.id) { byEvent[delivery.subject.id, default: []].append(delivery) }
        for (id, list) in byEvent {
            if let waiter = waiting.withLock({ $0.removeValue(forKey: id) }) {
                waiter.resume(returning: list)
            } else {
                early.withLock { $0[id] = list }
            }
        }
    }
}
