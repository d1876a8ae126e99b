import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// Where Linux distributions keep the CA certificates TLS connections are verified with.
enum SystemTrustRoots {
    static let paths = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem",
        "/etc/pki/tls/cacert.pem", "/etc/ssl/cert.pem",
    ]

    static var found: Bool {
        #if os(Linux)
        paths.contains { FileManager.default.isReadableFile(atPath: $0) }
        #else
        true
        #endif
    }
}
