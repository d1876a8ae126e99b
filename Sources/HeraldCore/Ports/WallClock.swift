import Foundation

/// Wall-clock time, injected so that expiry rules are testable.
public protocol WallClock: Sendable {
    func now() -> Date
}
