import Foundation

/// What happened to an app's deliveries over a period: counts by time bucket and status, by
/// provider and status, and the most frequent reasons for failing or skipping.
public struct DeliveryStats: Sendable, Equatable {
    public struct Bucket: Sendable, Equatable {
        public var start: Date
        public var counts: [DeliveryStatus: Int]

        public init(start: Date, counts: [DeliveryStatus: Int]) {
            self.start = start
            self.counts = counts
        }
    }

    public struct Reason: Sendable, Equatable {
        public var status: DeliveryStatus
        public var reason: String
        public var count: Int

        public init(status: DeliveryStatus, reason: String, count: Int) {
            self.status = status
            self.reason = reason
            self.count = count
        }
    }

    public var since: Date
    public var bucketSeconds: Int
    /// Every bucket from `since` to now, empty ones included, oldest first.
    public var buckets: [Bucket]
    /// Provider id (or `-` for deliveries that went to none) → status → count.
    public var byProvider: [String: [DeliveryStatus: Int]]
    public var topReasons: [Reason]
    /// Pushes devices reported received, and opened (HeraldKit's receipts).
    public var received = 0
    public var opened = 0

    public init(since: Date, bucketSeconds: Int, buckets: [Bucket], byProvider: [String: [DeliveryStatus: Int]], topReasons: [Reason]) {
        self.since = since
        self.bucketSeconds = bucketSeconds
        self.buckets = buckets
        self.byProvider = byProvider
        self.topReasons = topReasons
    }

    public func total(_ status: DeliveryStatus) -> Int {
        buckets.reduce(0) { $0 + ($1.counts[status] ?? 0) }
    }
}
