import Foundation

/// Facts read from an FCM service-account file.
public struct ServiceAccountFacts: Sendable, Equatable {
    public var projectId: String
    public var clientEmail: String
    public var privateKeyId: String?

    public init(projectId: String, clientEmail: String, privateKeyId: String?) {
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = privateKeyId
    }
}

/// Facts read from an APNs .p12.
public struct CertificateFacts: Sendable, Equatable {
    public var subject: String
    public var notValidAfter: Date

    public init(subject: String, notValidAfter: Date) {
        self.subject = subject
        self.notValidAfter = notValidAfter
    }
}

