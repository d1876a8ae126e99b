import Foundation
import HeraldModels

/// What one fan-out batch decided: a step per event page (its deliveries and unread changes),
/// the pushes to send now, the in-app notices for online sessions, and the events with pages to go.
struct FanOutPlan: Sendable {
    /// An envelope for the sessions of one app that are online now.
    struct InAppNotice: Sendable {
        var appId: String
        var eventId: String
        var envelope: RealtimeEnvelope
        var sessions: [String]
    }

    var steps: [FanOutStep] = []
    var pushes: [PreparedPush] = []
    var snapshots: [String: AppSnapshot] = [:]
    var events: [String: ResolvedEvent] = [:]
    var inApp: [InAppNotice] = []
    /// Unread increments decided here and not yet committed (in the ledger until then).
    var unreadInFlight: [(appId: String, keys: [UnreadKey])] = []
    /// Events with more pages, kept claimed by this process.
    var nextPages: [StoredEvent] = []
    /// The recipients' decisions, counted for the batch (reported once per kind).
    var decisions = Tally<Decided>()

    /// A decision as counted: its name (`push`, `inapp`, the skip reason) for an event type.
    struct Decided: Equatable, Sendable {
        var decision: String
        var eventType: EventKind
    }

    /// The sends' outcomes, copied onto the deliveries they were for.
    mutating func record(_ updates: [DeliveryUpdate]) {
        guard !updates.isEmpty else { return }
        let outcomes = Dictionary(updates.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for index in steps.indices {
            for position in steps[index].deliveries.indices {
                if let outcome = outcomes[steps[index].deliveries[position].id] { steps[index].deliveries[position].apply(outcome) }
            }
        }
    }
}
