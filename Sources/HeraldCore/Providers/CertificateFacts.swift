import Foundation

/// Facts read from an APNs .p12.
public struct CertificateFacts: Sendable, Equatable {
    public var subject: String
    public var notValidAfter: Date

    public init(subject: String, notValidAfter: Date) {
        self.subject = subject
        self.notValidAfter = notValidAfter
    }
}
