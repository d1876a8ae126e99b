import Foundation
import HeraldModels

/// A campaign's numbers (`GET /v1/campaigns/{id}/stats`).
public struct CampaignStats: Sendable, Equatable {
    public struct Bucket: Sendable, Equatable {
        public var start: Date
        public var delivered: Int
        public var read: Int
        public var engaged: Int
        public var pushesDelivered: Int
        public var pushesClicked: Int

        public init(start: Date, delivered: Int = 0, read: Int = 0, engaged: Int = 0, pushesDelivered: Int = 0, pushesClicked: Int = 0) {
            self.start = start
            self.delivered = delivered
            self.read = read
            self.engaged = engaged
            self.pushesDelivered = pushesDelivered
            self.pushesClicked = pushesClicked
        }
    }

    public var audienceSize: Int
    public var itemsCreated: Int
    public var delivered: Int
    public var read: Int
    /// Engagements by interaction (`clicked`, `viewed`, a button's id…).
    public var engaged: [String: Int]
    public var pushesSent: Int
    public var pushesFailed: Int
    /// Pushes still waiting for their (next) attempt.
    public var pushesPending: Int = 0
    public var pushesDelivered: Int
    public var pushesClicked: Int
    /// The same, per hour.
    public var timeline: [Bucket]

    public init(
        audienceSize: Int = 0,
        itemsCreated: Int = 0,
        delivered: Int = 0,
        read: Int = 0,
        engaged: [String: Int] = [:],
        pushesSent: Int = 0,
        pushesFailed: Int = 0,
        pushesDelivered: Int = 0,
        pushesClicked: Int = 0,
        timeline: [Bucket] = []
    ) {
        self.audienceSize = audienceSize
        self.itemsCreated = itemsCreated
        self.delivered = delivered
        self.read = read
        self.engaged = engaged
        self.pushesSent = pushesSent
        self.pushesFailed = pushesFailed
        self.pushesDelivered = pushesDelivered
        self.pushesClicked = pushesClicked
        self.timeline = timeline
    }
}
