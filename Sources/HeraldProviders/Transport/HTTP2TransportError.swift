import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

public enum HTTP2TransportError: Error, Sendable, Equatable {
    /// The server did not process the request (no connection, GOAWAY before its stream, refused
    /// stream): it is safe to send it again.
    case notProcessed(String)
    /// The request may have reached the server but no answer came.
    case noResponse(String)
    case timedOut
    /// The server chose another protocol than HTTP/2 by ALPN (`http/1.1`): nothing was sent.
    case notHTTP2(String)
}
