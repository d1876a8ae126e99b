import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A self-signed certificate for `localhost` / 127.0.0.1, made at run time, for TLS stand-ins.
public struct TestCertificate: Sendable {
    public let certificate: NIOSSLCertificate
    public let privateKey: NIOSSLPrivateKey

    /// Each certificate gets its own subject: trust stores look issuers up by subject, so several
    /// stand-ins trusted at once must not share one.
    public static func make(commonName: String = "Herald stand-in \(UUID().uuidString)") throws -> TestCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(digitalSignature: true, keyCertSign: true)
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return TestCertificate(
            certificate: try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der),
            privateKey: try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)
        )
    }

    /// The certificate in PEM, written to a new file (what `HERALD_CA_FILE` takes).
    public func writePEM() throws -> URL {
        let der = Data(try certificate.toDERBytes()).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let file = TestScratch.path("herald-ca", suffix: ".pem")
        try "-----BEGIN CERTIFICATE-----\n\(der)\n-----END CERTIFICATE-----\n".write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A client TLS configuration that trusts this certificate besides the system's roots.
    public var clientTLS: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates([certificate])]
        return tls
    }
}
