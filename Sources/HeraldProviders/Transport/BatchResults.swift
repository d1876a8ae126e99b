import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

/// Gathers the answers of one batch on the event loop; the last one resumes the caller.
final class BatchResults {
    private var results: [Result<HTTP2Response, HTTP2TransportError>]
    private var remaining: Int
    private let continuation: UnsafeContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>

    init(_ batch: PendingBatch) {
        results = Array(repeating: .failure(.noResponse("unanswered")), count: batch.requests.count)
        remaining = batch.requests.count
        continuation = batch.continuation
    }

    func set(_ index: Int, _ result: Result<HTTP2Response, HTTP2TransportError>) {
        results[index] = result
        remaining -= 1
        if remaining == 0 { continuation.resume(returning: results) }
    }
}
