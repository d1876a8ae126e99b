import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOSSL

/// Operator settings for provider connections (never per tenant).
public struct ProviderEndpoints: Sendable {
    public var apns = APNsEndpoints()
    public var fcm = FCMEndpoints()
    public var hms = HMSEndpoints()
    /// Trust roots for provider connections: the system's, plus `HERALD_CA_FILE`'s PEM certificates.
    public var tls = TLSConfiguration.makeClientConfiguration()
    /// How long a custom webhook has to answer (CometChat: 2 seconds).
    public var webhookTimeout: Duration = .seconds(2)

    public init() {}

    /// `HERALD_APNS_SANDBOX_URL`, `HERALD_APNS_PRODUCTION_URL`, `HERALD_FCM_URL`, `HERALD_FCM_TOKEN_URL`,
    /// `HERALD_HMS_URL`, `HERALD_HMS_TOKEN_URL`, `HERALD_CA_FILE`, `HERALD_WEBHOOK_TIMEOUT_MS`.
    public init(environment: [String: String]) throws {
        apns = try APNsEndpoints(environment: environment)
        fcm = try FCMEndpoints(environment: environment)
        hms = try HMSEndpoints(environment: environment)
        if let ms = environment["HERALD_WEBHOOK_TIMEOUT_MS"].flatMap(Int.init), ms > 0 { webhookTimeout = .milliseconds(ms) }
        if let path = environment["HERALD_CA_FILE"], !path.isEmpty {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(path))]
            } catch {
                throw HeraldError(.invalidField, "HERALD_CA_FILE \(path) is not a PEM file of certificates")
            }
        }
    }
}
