import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

/// Requests waiting for the event loop, and who waits for their answers.
struct PendingBatch {
    var requests: [HTTP2Request]
    var continuation: UnsafeContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>
}
