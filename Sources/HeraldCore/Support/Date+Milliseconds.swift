import Foundation

extension Date {
    /// Milliseconds since 1970, the unit Herald stores times in.
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// This time in whole milliseconds, as stored: what is answered or sent now says the same
    /// time as what is read back later.
    public var asStored: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}
