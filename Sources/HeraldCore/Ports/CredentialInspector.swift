import Foundation
import HeraldModels

/// Opens and checks provider secrets (keys, certificates). Implemented where the crypto lives;
/// every failure is a `HeraldError.invalidField` naming the field.
public protocol CredentialInspector: Sendable {
    func inspectServiceAccount(json: String) throws -> ServiceAccountFacts
    func inspectAPNsSigningKey(pem: String) throws
    func inspectAPNsCertificate(p12Base64: String, password: String) throws -> CertificateFacts
}
