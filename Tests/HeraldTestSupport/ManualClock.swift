import Foundation
import HeraldCore
import NIOConcurrencyHelpers

/// A wall clock a test moves by hand (backoff, expiry, token ages).
public final class ManualClock: WallClock {
    private let time: NIOLockedValueBox<Date>

    public init(_ start: Date = Date()) {
        self.time = NIOLockedValueBox(start)
    }

    public func now() -> Date { time.withLockedValue { $0 } }

    public func advance(by seconds: TimeInterval) {
        time.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}
