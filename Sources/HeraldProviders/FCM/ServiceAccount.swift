import Foundation
import HeraldCore
import HeraldModels
import _CryptoExtras

/// The parts of a Firebase service-account file the FCM client uses.
public struct ServiceAccount: Sendable {
    public let projectId: String
    public let clientEmail: String
    public let privateKeyId: String?
    public let tokenURI: String?
    let privateKey: _RSA.Signing.PrivateKey

    public init(json: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let projectId = object["project_id"] as? String, let clientEmail = object["client_email"] as? String,
            let pem = object["private_key"] as? String
        else {
            throw HeraldError(.internal, "the service account is incomplete")
        }
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = object["private_key_id"] as? String
        self.tokenURI = object["token_uri"] as? String
        self.privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
    }

    public static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    public static let googleTokenURL = "https://oauth2.googleapis.com/token"

    /// Where to ask for access tokens: the operator's override, else the file's own `token_uri`
    /// only when it is Google's, else Google's endpoint. A tenant cannot aim Herald elsewhere.
    public func tokenURL(override: String?) -> String {
        if let override { return override }
        if let uri = tokenURI, let host = URLComponents(string: uri)?.host,
            ["oauth2.googleapis.com", "accounts.google.com", "www.googleapis.com"].contains(host), uri.hasPrefix("https://")
        {
            return uri
        }
        return Self.googleTokenURL
    }

    /// The RS256 JWT assertion of the OAuth 2.0 service-account flow.
    func assertion(audience: String, issuedAt: Date) throws -> String {
        var header = #"{"alg":"RS256","typ":"JWT""#
        if let privateKeyId { header += #","kid":"\#(privateKeyId)""# }
        header += "}"
        let iat = Int(issuedAt.timeIntervalSince1970)
        let claims = #"{"iss":"\#(clientEmail)","scope":"\#(Self.messagingScope)","aud":"\#(audience)","iat":\#(iat),"exp":\#(iat + 3600)}"#
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        let signature = try privateKey.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
