import Crypto
import Foundation
import HeraldCore
import NIOSSL
import X509
import _CryptoExtras

/// Opens provider secrets with the real parsers: an RSA key for FCM service accounts, a P-256
/// key for APNs .p8 files, and BoringSSL's PKCS#12 reader for APNs .p12 certificates.
public struct CryptoCredentialInspector: CredentialInspector {
    public init() {}

    public func inspectServiceAccount(json: String) throws -> ServiceAccountFacts {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw HeraldError.invalidField("serviceAccount", "must be the service-account JSON object")
        }
        guard object["type"] as? String == "service_account" else {
            throw HeraldError.invalidField("serviceAccount.type", "must be \"service_account\"")
        }
        guard let projectId = object["project_id"] as? String, !projectId.isEmpty else {
            throw HeraldError.invalidField("serviceAccount.project_id", "is required")
        }
        guard let clientEmail = object["client_email"] as? String, clientEmail.contains("@") else {
            throw HeraldError.invalidField("serviceAccount.client_email", "must be the service account's e-mail address")
        }
        guard let pem = object["private_key"] as? String else {
            throw HeraldError.invalidField("serviceAccount.private_key", "is required")
        }
        do {
            _ = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw HeraldError.invalidField("serviceAccount.private_key", "is not a parseable RSA private key")
        }
        return ServiceAccountFacts(projectId: projectId, clientEmail: clientEmail, privateKeyId: object["private_key_id"] as? String)
    }

    public func inspectAPNsSigningKey(pem: String) throws {
        do {
            _ = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw HeraldError.invalidField("privateKey", "is not a P-256 private key in PEM form (the .p8 file)")
        }
    }

    public func inspectAPNsCertificate(p12Base64: String, password: String) throws -> CertificateFacts {
        let compact = p12Base64.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), !data.isEmpty else {
            throw HeraldError.invalidField("p12", "must be the base64 of a .p12 file")
        }
        let bundle: NIOSSLPKCS12Bundle
        do {
            bundle = try NIOSSLPKCS12Bundle(buffer: Array(data), passphrase: Array(password.utf8))
        } catch {
            throw HeraldError.invalidField("p12", "does not open: not a PKCS#12 file, or the password is wrong")
        }
        guard let leaf = bundle.certificateChain.first else {
            throw HeraldError.invalidField("p12", "holds no certificate")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: try leaf.toDERBytes())
        } catch {
            throw HeraldError.invalidField("p12", "holds a certificate that cannot be read")
        }
        return CertificateFacts(subject: certificate.subject.description, notValidAfter: certificate.notValidAfter)
    }
}
