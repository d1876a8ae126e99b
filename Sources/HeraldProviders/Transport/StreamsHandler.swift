import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK

/// The client side of one HTTP/2 connection, straight on TLS: writes requests as frames, reads
/// the answers' frames, keeps both directions' flow-control windows, and fails what cannot be
/// answered with a classified error.
///
/// It speaks the part of RFC 9113 a client of APNs and FCM needs, and all of it that a server may
/// use on such a client: the preface and SETTINGS (the server's stream limit, initial window and
/// header table size are honoured; server push is refused), HEADERS with CONTINUATION, DATA in
/// both directions within both windows, RST_STREAM, PING, WINDOW_UPDATE and GOAWAY. Anything else
/// the server does wrong closes the connection (a GOAWAY saying why), and its streams fail as a
/// dropped connection's do.
///
/// Why not swift-nio-http2's `NIOHTTP2Handler`: for a push it kept a stream state machine, frame
/// enums, per-stream flow-control buffers and sorted stream maps that shifted on every close,
/// and wrote each frame through the pipeline on its own (~4.8 µs of a 1:1 push's CPU in its own
/// frames, more in the pipeline and allocations around them). Here a run of requests is encoded
/// into one buffer and written to TLS once: the provider client's share of a push went from
/// 15.7 to 6.7 µs (profile-engine.sh). The tests' APNs and FCM stand-ins keep swift-nio-http2's
/// server, which checks the protocol strictly.
///
/// At most `maxOpenStreams` streams are open at a time (fewer if the server allows fewer); the
/// other requests wait here, in order, and go out as answers come back.
final class StreamsHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    typealias Frame = HTTP2WireFrame

    /// The receive window of the connection and of each stream (HTTP/2's initial 65,535 bytes):
    /// a window update goes out each time half of one is consumed.
    static let receiveWindow = 65_535

    private struct Stream {
        var batch: BatchResults
        var index: Int
        var deadline: NIODeadline
        var status: Int?
        var headers = HPACKHeaders()
        var body: ByteBuffer?
        /// What the server lets this stream send.
        var sendWindow: Int
        /// The request body's bytes not yet sent for want of window.
        var unsent: ByteBuffer?
        /// DATA received since this stream's receive window was last topped up.
        var received = 0
    }

    /// A request not yet written: its stream opens when one of the open ones closes.
    private struct Waiting {
        var batch: BatchResults
        var index: Int
        var request: HTTP2Request
        var deadline: NIODeadline
    }

    /// A header block whose CONTINUATION frames have not all come.
    private struct PartialBlock {
        var streamID: UInt32
        var endStream: Bool
        var block: ByteBuffer
    }

    private let authority: String
    private let shared: NIOLockedValueBox<HTTP2Connection.Shared>
    private let maxOpenStreams: Int
    private var context: ChannelHandlerContext?
    private var streams: [UInt32: Stream] = [:]
    private var waiting = CircularBuffer<Waiting>()
    private var nextStreamID: UInt32 = 1
    private var goneAway = false
    private var failed = false
    private var timer: RepeatedTask?

    /// The start of a frame whose end has not come yet.
    private var input = ByteBuffer()
    /// Frames not yet written to TLS.
    private var output = ByteBuffer()
    private var partial: PartialBlock?
    /// Huffman coding off: it cost ~0.7 µs a push for ~20 bytes fewer on a request's path.
    private var encoder = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: false)
    private var decoder = HPACKDecoder(allocator: ByteBufferAllocator())

    /// DATA received since the connection's receive window was last topped up.
    private var consumed = 0
    /// What the server lets this connection send, and the streams waiting for more of it.
    private var connectionSendWindow = 65_535
    private var blocked = CircularBuffer<UInt32>()
    /// The server's SETTINGS.
    private var peerMaxStreams = Int.max
    private var peerInitialWindow = 65_535

    init(authority: String, shared: NIOLockedValueBox<HTTP2Connection.Shared>, maxOpenStreams: Int) {
        self.authority = authority
        self.shared = shared
        self.maxOpenStreams = max(1, maxOpenStreams)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        output = context.channel.allocator.buffer(capacity: 16_384)
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { _ in
            loopBound.value.expire()
        }
        if context.channel.isActive { sendPreface() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        sendPreface()
        context.fireChannelActive()
    }

    /// The preface and Herald's SETTINGS: no server push; the default windows and table size.
    /// (TLS holds them until its handshake is done.)
    private func sendPreface() {
        output.writeBytes(Frame.clientPreface)
        output.writeHTTP2FrameHeader(length: 6, type: .settings, streamID: 0)
        output.writeInteger(Frame.Setting.enablePush)
        output.writeInteger(UInt32(0))
        flush()
    }

    // MARK: Requests out

    /// Takes every queued request and writes as many as the open streams allow (one write).
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
        flush()
    }

    /// How many streams may be open at once: Herald's limit or the server's, the lower.
    private var streamLimit: Int { min(maxOpenStreams, peerMaxStreams) }

    /// Opens streams for waiting requests while there is room, each request's HEADERS and then
    /// its DATA written in turn (so answers come, and streams close, in the order they opened).
    private func openWaiting() {
        while streams.count < streamLimit, let next = waiting.popFirst() {
            guard context?.channel.isActive == true, !goneAway, !failed, nextStreamID < UInt32(Int32.max) - 2 else {
                finish(next.batch, next.index, .failure(.notProcessed("the connection is closed")))
                continue
            }
            let streamID = nextStreamID
            nextStreamID += 2
            if nextStreamID >= UInt32(Int32.max) - 2 { markClosed() }
            do {
                try writeHeaders(of: next.request, streamID: streamID)
            } catch {
                // Nothing of it reached the buffer: the encoder refuses before it writes.
                finish(next.batch, next.index, .failure(.notProcessed("the request's headers cannot be encoded: \(error)")))
                continue
            }
            streams[streamID] = Stream(
                batch: next.batch,
                index: next.index,
                deadline: next.deadline,
                sendWindow: peerInitialWindow,
                unsent: next.request.body
            )
            if next.request.body != nil { sendBody(of: streamID) }
        }
    }

    /// The request's header block as HEADERS (and CONTINUATION frames past the frame size).
    private func writeHeaders(of request: HTTP2Request, streamID: UInt32) throws {
        try encoder.beginEncoding(allocator: .init())
        try encoder.append(header: ":method", value: request.method)
        try encoder.append(header: ":scheme", value: "https")
        // Never indexed: a path names one device, and would push the provider token out of the
        // HPACK table, which must then be sent whole again.
        try encoder.appendNonIndexed(header: ":path", value: request.path)
        try encoder.append(header: ":authority", value: authority)
        try encoder.append(headers: request.headers)
        var block = try encoder.endEncoding()
        output.writeHTTP2HeaderBlock(&block, streamID: streamID, endStream: request.body == nil)
    }

    /// Sends what the windows allow of a stream's body; the rest waits for WINDOW_UPDATE (the
    /// stream's own, or the connection's: then the stream queues for it).
    private func sendBody(of streamID: UInt32) {
        guard var stream = streams[streamID], var unsent = stream.unsent else { return }
        while true {
            let size = min(unsent.readableBytes, stream.sendWindow, connectionSendWindow, Frame.maxPayloadSize)
            if size == 0, unsent.readableBytes > 0 {
                if stream.sendWindow > 0 { blocked.append(streamID) }
                stream.unsent = unsent
                streams[streamID] = stream
                return
            }
            var piece = unsent.readSlice(length: size)!
            let last = unsent.readableBytes == 0
            output.writeHTTP2FrameHeader(length: size, type: .data, flags: last ? Frame.Flag.endStream : 0, streamID: streamID)
            output.writeBuffer(&piece)
            stream.sendWindow -= size
            connectionSendWindow -= size
            if last { break }
        }
        stream.unsent = nil
        streams[streamID] = stream
    }

    /// Streams waiting for the connection's window, in the order they queued, while it lasts.
    private func sendBlocked() {
        while connectionSendWindow > 0, let streamID = blocked.popFirst() {
            sendBody(of: streamID)
        }
    }

    // MARK: Frames in

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        guard !failed else { return }
        // Read in place; only the part of a frame that has not all come is kept for the next read.
        if input.readableBytes > 0 {
            input.writeBuffer(&bytes)
            swap(&input, &bytes)
        }
        input = Self.nothing
        do {
            while !failed, let frame = try Frame.read(from: &bytes) {
                read(frame)
            }
        } catch {
            connectionError(Frame.ErrorCode.frameSizeError, "a frame over \(Frame.maxPayloadSize) bytes")
        }
        if bytes.readableBytes > 0 { input = bytes }
    }

    private static let nothing = ByteBuffer()

    func channelReadComplete(context: ChannelHandlerContext) {
        if consumed >= Self.receiveWindow / 2 {
            output.writeHTTP2Frame(type: .windowUpdate, streamID: 0, words: UInt32(consumed))
            consumed = 0
        }
        // Streams that closed in this read make room for waiting requests.
        if !waiting.isEmpty { openWaiting() }
        flush()
        context.fireChannelReadComplete()
    }

    private func read(_ frame: Frame) {
        if let partial, frame.type != Frame.Kind.continuation.rawValue || frame.streamID != partial.streamID {
            return connectionError(Frame.ErrorCode.protocolError, "a header block interrupted")
        }
        var payload = frame.payload
        switch Frame.Kind(rawValue: frame.type) {
        case .data:
            guard frame.streamID != 0 else { return connectionError(Frame.ErrorCode.protocolError, "DATA on stream 0") }
            consumed += payload.readableBytes
            guard var data = frame.data else { return connectionError(Frame.ErrorCode.protocolError, "bad padding") }
            guard var stream = streams[frame.streamID] else { return }
            if stream.body == nil { stream.body = data } else { stream.body!.writeBuffer(&data) }
            if frame.has(Frame.Flag.endStream) {
                close(frame.streamID, stream)
                return
            }
            stream.received += frame.payload.readableBytes
            if stream.received >= Self.receiveWindow / 2 {
                output.writeHTTP2Frame(type: .windowUpdate, streamID: frame.streamID, words: UInt32(stream.received))
                stream.received = 0
            }
            streams[frame.streamID] = stream
        case .headers:
            guard frame.streamID != 0, let fragment = frame.headerFragment else {
                return connectionError(Frame.ErrorCode.protocolError, "a bad HEADERS frame")
            }
            if frame.has(Frame.Flag.endHeaders) {
                headerBlock(fragment, streamID: frame.streamID, endStream: frame.has(Frame.Flag.endStream))
            } else {
                partial = PartialBlock(streamID: frame.streamID, endStream: frame.has(Frame.Flag.endStream), block: fragment)
            }
        case .continuation:
            guard var block = partial else { return connectionError(Frame.ErrorCode.protocolError, "CONTINUATION without HEADERS") }
            block.block.writeBuffer(&payload)
            if frame.has(Frame.Flag.endHeaders) {
                partial = nil
                headerBlock(block.block, streamID: block.streamID, endStream: block.endStream)
            } else {
                partial = block
            }
        case .rstStream:
            guard let code = payload.readInteger(as: UInt32.self) else { return connectionError(Frame.ErrorCode.frameSizeError, "RST_STREAM") }
            fail(
                frame.streamID,
                code == Frame.ErrorCode.refusedStream ? .notProcessed("stream refused") : .noResponse("stream reset: \(Frame.ErrorCode.name(code))")
            )
        case .settings:
            guard !frame.has(Frame.Flag.ack) else { return }
            settings(payload)
        case .ping:
            guard !frame.has(Frame.Flag.ack) else { return }
            guard payload.readableBytes == 8 else { return connectionError(Frame.ErrorCode.frameSizeError, "PING") }
            output.writeHTTP2FrameHeader(length: 8, type: .ping, flags: Frame.Flag.ack, streamID: 0)
            output.writeBuffer(&payload)
        case .goAway:
            guard let last = payload.readInteger(as: UInt32.self) else { return connectionError(Frame.ErrorCode.frameSizeError, "GOAWAY") }
            goAway(lastStreamID: last & 0x7FFF_FFFF)
        case .windowUpdate:
            guard let word = payload.readInteger(as: UInt32.self) else { return connectionError(Frame.ErrorCode.frameSizeError, "WINDOW_UPDATE") }
            windowUpdate(streamID: frame.streamID, increment: Int(word & 0x7FFF_FFFF))
        case .pushPromise:
            connectionError(Frame.ErrorCode.protocolError, "PUSH_PROMISE after push was disabled")
        case .priority, nil:
            break
        }
    }

    /// A response's header block (its status and fields, or trailers). Every block is decoded,
    /// a closed stream's too: the decoder's table must follow the server's.
    private func headerBlock(_ block: ByteBuffer, streamID: UInt32, endStream: Bool) {
        var block = block
        let headers: HPACKHeaders
        do {
            headers = try decoder.decodeHeaders(from: &block)
        } catch {
            return connectionError(Frame.ErrorCode.compressionError, "a header block that does not decode: \(error)")
        }
        guard var stream = streams[streamID] else { return }
        if stream.status == nil, let text = headers.first(name: ":status"), let code = Int(text), code >= 200 {
            stream.status = code
            stream.headers = headers
        }
        if endStream {
            close(streamID, stream)
        } else {
            streams[streamID] = stream
        }
    }

    private func settings(_ payload: ByteBuffer) {
        var payload = payload
        guard payload.readableBytes % 6 == 0 else { return connectionError(Frame.ErrorCode.frameSizeError, "SETTINGS") }
        while let parameter = payload.readInteger(as: UInt16.self), let value = payload.readInteger(as: UInt32.self) {
            switch parameter {
            case Frame.Setting.headerTableSize:
                try? encoder.setDynamicTableSize(min(Int(value), HPACKEncoder.defaultDynamicTableSize))
            case Frame.Setting.maxConcurrentStreams:
                peerMaxStreams = Int(value)
            case Frame.Setting.initialWindowSize:
                guard value <= Frame.maxWindowSize else { return connectionError(Frame.ErrorCode.flowControlError, "an initial window too large") }
                let change = Int(value) - peerInitialWindow
                peerInitialWindow = Int(value)
                for id in streams.keys { streams[id]!.sendWindow += change }
                if change > 0 {
                    for (id, stream) in streams where stream.unsent != nil && !blocked.contains(id) { sendBody(of: id) }
                }
            default:
                // MAX_FRAME_SIZE can only allow more than Herald sends; the rest concern the server.
                break
            }
        }
        output.writeHTTP2FrameHeader(length: 0, type: .settings, flags: Frame.Flag.ack, streamID: 0)
    }

    private func windowUpdate(streamID: UInt32, increment: Int) {
        if streamID == 0 {
            connectionSendWindow += increment
            guard connectionSendWindow <= Frame.maxWindowSize else {
                return connectionError(Frame.ErrorCode.flowControlError, "the connection's window past 2^31-1")
            }
            sendBlocked()
        } else if let stream = streams[streamID] {
            streams[streamID]!.sendWindow += increment
            if stream.unsent != nil, stream.sendWindow <= 0, streams[streamID]!.sendWindow > 0, !blocked.contains(streamID) {
                sendBody(of: streamID)
            }
        }
    }

    private func goAway(lastStreamID: UInt32) {
        goneAway = true
        markClosed()
        // Streams above the last one the server took were never processed: safe to send again.
        for id in streams.keys where id > lastStreamID {
            fail(id, .notProcessed("GOAWAY before this stream"))
        }
        failWaiting("GOAWAY before this request was sent")
        if streams.isEmpty { context?.close(promise: nil) }
    }

    /// The server broke the protocol: say so in a GOAWAY and close; the open streams fail as a
    /// closed connection's.
    private func connectionError(_ code: UInt32, _ what: String) {
        guard !failed else { return }
        failed = true
        markClosed()
        output.writeHTTP2Frame(type: .goAway, streamID: 0, words: 0, code)
        flush()
        context?.close(promise: nil)
    }

    // MARK: Streams

    /// Fails every request still waiting for a stream: none was written, so each may go again.
    private func failWaiting(_ reason: String) {
        while let next = waiting.popFirst() {
            finish(next.batch, next.index, .failure(.notProcessed(reason)))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
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
        guard !streams.isEmpty || !waiting.isEmpty, context != nil else { return }
        let now = NIODeadline.now()
        for (id, stream) in streams where stream.deadline <= now {
            fail(id, .timedOut)
            output.writeHTTP2Frame(type: .rstStream, streamID: id, words: Frame.ErrorCode.cancel)
        }
        // Waiting requests whose time is up were never sent.
        if waiting.contains(where: { $0.deadline <= now }) {
            var kept = CircularBuffer<Waiting>(initialCapacity: waiting.count)
            while let next = waiting.popFirst() {
                if next.deadline <= now { finish(next.batch, next.index, .failure(.timedOut)) } else { kept.append(next) }
            }
            waiting = kept
        }
        openWaiting()
        flush()
    }

    private func flush() {
        guard output.readableBytes > 0, let context else { return }
        context.writeAndFlush(wrapOutboundOut(output), promise: nil)
        // Written out by now, unless TLS holds it (before its handshake): then a new one.
        output.clear()
    }

    private func markClosed() {
        shared.withLockedValue { $0.open = false }
    }

    /// The server ended the stream: its answer is complete. A request body it did not wait for
    /// is not sent on (the stream is reset).
    private func close(_ id: UInt32, _ stream: Stream) {
        streams[id] = nil
        if stream.unsent != nil {
            output.writeHTTP2Frame(type: .rstStream, streamID: id, words: Frame.ErrorCode.cancel)
        }
        finish(
            stream.batch,
            stream.index,
            .success(HTTP2Response(status: stream.status ?? 0, headers: stream.headers, body: stream.body ?? ByteBuffer()))
        )
        if goneAway, streams.isEmpty { context?.close(promise: nil) }
    }

    private func fail(_ id: UInt32, _ error: HTTP2TransportError) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        finish(stream.batch, stream.index, .failure(error))
        if goneAway, streams.isEmpty { context?.close(promise: nil) }
    }

    private func finish(_ batch: BatchResults, _ index: Int, _ result: Result<HTTP2Response, HTTP2TransportError>) {
        shared.withLockedValue { $0.activeStreams -= 1 }
        batch.set(index, result)
    }
}
