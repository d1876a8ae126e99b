import Foundation

/// What the Matrix push gateway reports, for metrics (Sygnal's, under Herald's names).
public protocol MatrixObserver: Sendable {
    /// A notify arrived, with this many devices.
    func notifyReceived(devices: Int)
    /// A notify was answered after `duration`, rejecting `rejected` pushkeys.
    func notifyAnswered(after duration: Duration, rejected: Int)
    /// A device's push: `outcome` is `sent`, `duplicate`, `rejected` (known dead), `unknown_app`,
    /// or the delivery's final status.
    func device(appId: String, outcome: String)
}

public struct SilentMatrixObserver: MatrixObserver {
    public init() {}
    public func notifyReceived(devices: Int) {}
    public func notifyAnswered(after duration: Duration, rejected: Int) {}
    public func device(appId: String, outcome: String) {}
}
