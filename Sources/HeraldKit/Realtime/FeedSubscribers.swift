import Foundation
import HeraldModels

/// Subscribers to the live feed: streams and listeners registered by id.
struct FeedSubscribers {
    var streams: [UUID: AsyncStream<FeedUpdate>.Continuation] = [:]
    var listeners: [String: @Sendable (FeedUpdate) -> Void] = [:]
    var isEmpty: Bool { streams.isEmpty && listeners.isEmpty }

    func deliver(_ update: FeedUpdate) {
        for continuation in streams.values { continuation.yield(update) }
        for listener in listeners.values { listener(update) }
    }

    mutating func finish() {
        for continuation in streams.values { continuation.finish() }
        streams.removeAll()
    }
}
