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

/// Opens and checks provider secrets (keys, certificates). Implemented where the crypto lives;
/// every failure is a `HeraldError.invalidField` naming the field.
public protocol CredentialInspector: Sendable {
    func inspectServiceAccount(json: String) throws -> ServiceAccountFacts
    func inspectAPNsSigningKey(pem: String) throws
    func inspectAPNsCertificate(p12Base64: String, password: String) throws -> CertificateFacts
}

/// Resolves a host name to its IP addresses (textual form).
public protocol HostResolver: Sendable {
    func addresses(of host: String) async throws -> [String]
}
