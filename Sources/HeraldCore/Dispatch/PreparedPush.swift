import Foundation

/// A delivery with the push that carries it, ready for its provider. The fan-out hands these to
/// the dispatcher straight from its decisions; only a retry rebuilds the push from a stored row.
public struct PreparedPush: Sendable {
    public var delivery: Delivery
    public var push: OutgoingPush

    public init(delivery: Delivery, push: OutgoingPush) {
        self.delivery = delivery
        self.push = push
    }
}
