import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// The client side of every stream of one connection: writes requests as frames, gathers the
/// responses, fails what cannot be answered with a classified error, and keeps the connection's
/// inbound flow-control window open.
///
/// At most `maxOpenStreams` streams are open at a time; the other requests wait here, in order,
/// and go out as answers come back. A provider allows many more (APNs 1,000), but swift-nio-http2
/// keeps its open streams in sorted buffers that shift on every close: with a whole batch of
/// 1,000 open, closing them cost a tenth of the server's CPU at full load. Each request is
/// flushed through the HTTP/2 handler as it is written, so that the DATA frames leave (and the
/// answers come, and the streams close) in the order the streams opened, each closing stream off
/// the front of those buffers; ``FlushCoalescer`` makes the run's flushes one write to TLS.
final class StreamsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The connection-level receive window (HTTP/2's initial 65,535 bytes, which nothing but a
    /// multiplexer would manage): a window update goes out each time half of it is consumed.
    static let connectionWindow = 65_535

    private struct Stream {
        var batch: BatchResults
        var index: Int
        var deadline: NIODeadline
        var status: Int?
        var headers = HPACKHeaders()
        var body: ByteBuffer?
    }

    /// A request not yet written: its stream opens when one of the open ones closes.
    private struct Waiting {
        var batch: BatchResults
        var index: Int
        var request: HTTP2Request
        var deadline: NIODeadline
    }

    private let authority: String
    private let shared: NIOLockedValueBox<HTTP2Connection.Shared>
    private let maxOpenStreams: Int
    private let coalescer: FlushCoalescer
    private var context: ChannelHandlerContext?
    private var streams: [HTTP2StreamID: Stream] = [:]
    private var waiting = CircularBuffer<Waiting>()
    private var nextStreamID = 1
    private var goneAway = false
    private var consumed = 0
    private var timer: RepeatedTask?

    init(authority: String, shared: NIOLockedValueBox<HTTP2Connection.Shared>, maxOpenStreams: Int, coalescer: FlushCoalescer) {
        self.authority = authority
        self.shared = shared
        self.maxOpenStreams = max(1, maxOpenStreams)
        self.coalescer = coalescer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { _ in
            loopBound.value.expire()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    /// Takes every queued request and writes as many as the open streams allow (flushed once).
    func drain() {
        let queued = shared.withLockedValue { shared in
            shared.drainScheduled = false
            defer { shared.queue = [] }
            return shared.queue
        }
        let now = NIODeadline.now()
        for pending in queued {
            let batch = BatchResults(pending)
            for (index, request) in pending.requests.enumerated() {
                waiting.append(Waiting(batch: batch, index: index, request: request, deadline: now + request.timeout))
            }
        }
        openWaiting()
    }

    /// Opens streams for waiting requests while there is room, flushing the HTTP/2 handler after
    /// each (one flush reaches TLS, at the end); says whether it wrote any.
    @discardableResult
    private func openWaiting() -> Bool {
        coalescer.holdingFlushes(openWaitingInOrder)
    }

    private func openWaitingInOrder() -> Bool {
        var wrote = false
        while streams.count < maxOpenStreams, let next = waiting.popFirst() {
            guard let context, context.channel.isActive, !goneAway, nextStreamID < Int(Int32.max) - 2 else {
                finish(next.batch, next.index, .failure(.notProcessed("the connection is closed")))
                continue
            }
            let request = next.request
            let streamID = HTTP2StreamID(nextStreamID)
            nextStreamID += 2
            if nextStreamID >= Int(Int32.max) - 2 { markClosed() }
            var headers = HPACKHeaders()
            headers.reserveCapacity(request.headers.count + 4)
            headers.add(name: ":method", value: request.method)
            headers.add(name: ":scheme", value: "https")
            // Never indexed: a path names one device, and would push the provider token out of
            // the HPACK table, which must then be sent whole again.
            headers.add(name: ":path", value: request.path, indexing: .nonIndexable)
            headers.add(name: ":authority", value: authority)
            headers.add(contentsOf: request.headers)
            streams[streamID] = Stream(batch: next.batch, index: next.index, deadline: next.deadline)
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenFailure { [weak self] error in
                self?.fail(streamID, .notProcessed("the request was not written: \(error)"))
            }
            if let body = request.body {
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: false)))),
                    promise: written
                )
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true)))),
                    promise: nil
                )
            } else {
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true)))),
                    promise: written
                )
            }
            // Out now, before the next stream's: flushed together, the HTTP/2 handler would send
            // the DATA frames in no particular order.
            context.flush()
            wrote = true
        }
        return wrote
    }

    /// Fails every request still waiting for a stream: none was written, so each may go again.
    private func failWaiting(_ reason: String) {
        while let next = waiting.popFirst() {
            finish(next.batch, next.index, .failure(.notProcessed(reason)))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let block):
            guard var stream = streams[frame.streamID] else { return }
            if stream.status == nil, let text = block.headers.first(name: ":status"), let code = Int(text), code >= 200 {
                stream.status = code
                stream.headers = block.headers
            }
            if block.endStream {
                streams[frame.streamID] = nil
                complete(stream)
            } else {
                streams[frame.streamID] = stream
            }
        case .data(let block):
            // The window update goes out in `channelReadComplete`: writing here would let the HTTP/2
            // handler deliver this stream's pending close event before the stream has completed.
            consumed += block.data.readableBytes + (block.paddingBytes ?? 0)
            guard var stream = streams[frame.streamID] else { return }
            if case .byteBuffer(var buffer) = block.data {
                if stream.body == nil { stream.body = buffer } else { stream.body!.writeBuffer(&buffer) }
            }
            if block.endStream {
                streams[frame.streamID] = nil
                complete(stream)
            } else {
                streams[frame.streamID] = stream
            }
        case .rstStream(let code):
            fail(frame.streamID, code == .refusedStream ? .notProcessed("stream refused") : .noResponse("stream reset: \(code)"))
        case .goAway(let lastStreamID, _, _):
            goneAway = true
            markClosed()
            // Streams above the last one the server took were never processed: safe to send again.
            for id in streams.keys where id > lastStreamID {
                fail(id, .notProcessed("GOAWAY before this stream"))
            }
            failWaiting("GOAWAY before this request was sent")
            if streams.isEmpty { context.close(promise: nil) }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if consumed >= Self.connectionWindow / 2 {
            context.writeAndFlush(
                wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: consumed))),
                promise: nil
            )
            consumed = 0
        }
        // Streams that closed in this read make room for waiting requests.
        if !waiting.isEmpty { openWaiting() }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent, let stream = streams[closed.streamID] {
            // Closed without a complete response (reset, or dropped by the connection).
            fail(
                closed.streamID,
                closed.reason == .refusedStream || stream.status == nil && goneAway
                    ? .notProcessed("stream closed: \(String(describing: closed.reason))")
                    : .noResponse("stream closed: \(String(describing: closed.reason))")
            )
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            fail(streamError.streamID, .noResponse("\(streamError.baseError)"))
            return
        }
        markClosed()
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markClosed()
        failWaiting("the connection closed before this request was sent")
        for (id, stream) in streams {
            fail(
                id,
                stream.status == nil ? .notProcessed("the connection closed before a response") : .noResponse("the connection closed mid-response")
            )
        }
        context.fireChannelInactive()
    }

    /// Fails the requests whose time is up, resetting their streams, and opens streams for
    /// waiting requests in their place.
    private func expire() {
        guard !streams.isEmpty || !waiting.isEmpty, let context else { return }
        let now = NIODeadline.now()
        var wrote = false
        for (id, stream) in streams where stream.deadline <= now {
            fail(id, .timedOut)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .rstStream(.cancel))), promise: nil)
            wrote = true
        }
        // Waiting requests whose time is up were never sent.
        if waiting.contains(where: { $0.deadline <= now }) {
            var kept = CircularBuffer<Waiting>(initialCapacity: waiting.count)
            while let next = waiting.popFirst() {
                if next.deadline <= now { finish(next.batch, next.index, .failure(.timedOut)) } else { kept.append(next) }
            }
            waiting = kept
        }
        if openWaiting() { wrote = true }
        if wrote { context.flush() }
    }

    private func markClosed() {
        shared.withLockedValue { $0.open = false }
    }

    private func complete(_ stream: Stream) {
        finish(
            stream.batch,
            stream.index,
            .success(HTTP2Response(status: stream.status ?? 0, headers: stream.headers, body: stream.body ?? ByteBuffer()))
        )
    }

    private func fail(_ id: HTTP2StreamID, _ error: HTTP2TransportError) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        finish(stream.batch, stream.index, .failure(error))
        if goneAway, streams.isEmpty { context?.close(promise: nil) }
    }

    private func finish(_ batch: BatchResults, _ index: Int, _ result: Result<HTTP2Response, HTTP2TransportError>) {
        shared.withLockedValue { $0.activeStreams -= 1 }
        batch.set(index, result)
    }
}
