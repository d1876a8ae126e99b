import Foundation
import NIOCore
import NIOHPACK
import NIOSSL

/// A small HTTP/2 server for load benchmarks: parses frames off the TLS stream and answers each
/// request in the same read burst, with no per-stream state machine. It speaks enough of RFC 9113
/// for a conforming client (preface, SETTINGS and their ACK, PING, WINDOW_UPDATE for what it
/// reads, HEADERS/CONTINUATION/DATA, RST_STREAM, GOAWAY) and answers every request through the
/// same `handle` as the full stand-in, so the checks are the same. Answer bodies respect the
/// client's connection window (they are short: one never exceeds a stream's initial window).
/// Tests use the full server, whose swift-nio-http2 stack checks the client's protocol strictly.
final class LeanHTTP2ServerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    private static let maxFrameSize = 16_384

    private let handle: @Sendable (StandInRequest) -> StandInResponse
    private let maxConcurrentStreams: Int
    private var input = ByteBuffer()
    private var output = ByteBuffer()
    private var sawPreface = false
    private var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
    private var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
    private var requests: [UInt32: (headers: HPACKHeaders, body: ByteBuffer)] = [:]
    /// A header block still waiting for its CONTINUATION frames.
    private var partialBlock: (streamID: UInt32, endStream: Bool, block: ByteBuffer)?
    private var consumed = 0
    private var lastStreamID: UInt32?
    private var clientCertificateSubject: String??
    private var failed = false
    /// What the client lets us send (connection level), and bodies waiting for more of it.
    private var sendWindow = 65_535
    private var waitingBodies: [(streamID: UInt32, body: ByteBuffer)] = []

    init(maxConcurrentStreams: Int, handle: @escaping @Sendable (StandInRequest) -> StandInResponse) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.handle = handle
    }

    func channelActive(context: ChannelHandlerContext) {
        output = context.channel.allocator.buffer(capacity: 16_384)
        var settings = ByteBuffer()
        settings.writeInteger(UInt16(0x3))  // SETTINGS_MAX_CONCURRENT_STREAMS
        settings.writeInteger(UInt32(maxConcurrentStreams))
        writeFrame(type: 0x4, flags: 0, streamID: 0, payload: settings)
        flush(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        input.writeBuffer(&bytes)
        guard !failed else { return }
        if !sawPreface {
            guard input.readableBytes >= Self.preface.count else { return }
            guard input.readBytes(length: Self.preface.count) == Self.preface else { return protocolError(context) }
            sawPreface = true
        }
        while input.readableBytes >= 9, !failed {
            let header = input.getSlice(at: input.readerIndex, length: 9)!
            let length = Int(header.getInteger(at: 0, as: UInt16.self)!) << 8 | Int(header.getInteger(at: 2, as: UInt8.self)!)
            guard length <= Self.maxFrameSize else { return protocolError(context) }
            guard input.readableBytes >= 9 + length else { break }
            let type = header.getInteger(at: 3, as: UInt8.self)!
            let flags = header.getInteger(at: 4, as: UInt8.self)!
            let streamID = header.getInteger(at: 5, as: UInt32.self)! & 0x7FFF_FFFF
            input.moveReaderIndex(forwardBy: 9)
            let payload = input.readSlice(length: length)!
            frame(type: type, flags: flags, streamID: streamID, payload: payload, context: context)
        }
        input.discardReadBytes()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush(context)
        context.fireChannelReadComplete()
    }

    private func frame(type: UInt8, flags: UInt8, streamID: UInt32, payload: ByteBuffer, context: ChannelHandlerContext) {
        var payload = payload
        switch type {
        case 0x0:  // DATA
            consumed += payload.readableBytes
            if consumed >= 32_768 {
                windowUpdate(streamID: 0, increment: consumed)
                consumed = 0
            }
            guard unpad(&payload, flags: flags) else { return protocolError(context) }
            requests[streamID]?.body.writeBuffer(&payload)
            if flags & 0x1 != 0 { respond(streamID, context) }
        case 0x1:  // HEADERS
            guard unpad(&payload, flags: flags) else { return protocolError(context) }
            if flags & 0x20 != 0 { payload.moveReaderIndex(forwardBy: min(5, payload.readableBytes)) }  // PRIORITY fields
            if flags & 0x4 != 0 {
                headerBlock(streamID: streamID, endStream: flags & 0x1 != 0, block: payload, context: context)
            } else {
                partialBlock = (streamID, flags & 0x1 != 0, payload)
            }
        case 0x9:  // CONTINUATION
            guard var partial = partialBlock, partial.streamID == streamID else { return protocolError(context) }
            partial.block.writeBuffer(&payload)
            if flags & 0x4 != 0 {
                partialBlock = nil
                headerBlock(streamID: streamID, endStream: partial.endStream, block: partial.block, context: context)
            } else {
                partialBlock = partial
            }
        case 0x3:  // RST_STREAM
            requests[streamID] = nil
        case 0x4:  // SETTINGS
            if flags & 0x1 == 0 { writeFrame(type: 0x4, flags: 0x1, streamID: 0, payload: ByteBuffer()) }
        case 0x6:  // PING
            if flags & 0x1 == 0 { writeFrame(type: 0x6, flags: 0x1, streamID: 0, payload: payload) }
        case 0x7:  // GOAWAY
            context.close(promise: nil)
        case 0x8:  // WINDOW_UPDATE
            if streamID == 0, let increment = payload.readInteger(as: UInt32.self) {
                sendWindow += Int(increment & 0x7FFF_FFFF)
                while let next = waitingBodies.first, next.body.readableBytes <= sendWindow {
                    waitingBodies.removeFirst()
                    sendBody(next.body, streamID: next.streamID)
                }
            }
        default:  // PRIORITY, unknown: nothing to do
            break
        }
    }

    private func unpad(_ payload: inout ByteBuffer, flags: UInt8) -> Bool {
        guard flags & 0x8 != 0 else { return true }
        guard let padding = payload.readInteger(as: UInt8.self), Int(padding) <= payload.readableBytes else { return false }
        payload.moveWriterIndex(to: payload.writerIndex - Int(padding))
        return true
    }

    private func headerBlock(streamID: UInt32, endStream: Bool, block: ByteBuffer, context: ChannelHandlerContext) {
        var block = block
        guard let headers = try? decoder.decodeHeaders(from: &block) else { return protocolError(context) }
        requests[streamID] = (headers, ByteBuffer())
        if endStream { respond(streamID, context) }
    }

    private func respond(_ streamID: UInt32, _ context: ChannelHandlerContext) {
        guard let (headers, body) = requests.removeValue(forKey: streamID) else { return }
        if let lastStreamID, streamID > lastStreamID { return }
        if clientCertificateSubject == nil {
            let ssl = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            clientCertificateSubject = .some(ssl?.peerCertificate.map { "\($0)" })
        }
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        for (name, value, _) in headers { fields[name] = value }
        let request = StandInRequest(
            method: fields[":method"] ?? "",
            path: fields[":path"] ?? "",
            headers: fields,
            body: Data(body.readableBytesView),
            clientCertificateSubject: clientCertificateSubject ?? nil
        )
        let response = handle(request)
        if let delay = response.delay {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let (handler, context) = loopBound.value
                handler.write(response, streamID, context)
                handler.flush(context)
            }
        } else {
            write(response, streamID, context)
        }
    }

    private func write(_ response: StandInResponse, _ streamID: UInt32, _ context: ChannelHandlerContext) {
        var out: HPACKHeaders = [":status": String(response.status)]
        for (name, value) in response.headers { out.add(name: name, value: value, indexing: name == "apns-id" ? .nonIndexable : .indexable) }
        if response.body != nil { out.add(name: "content-type", value: "application/json; charset=UTF-8") }
        var block = context.channel.allocator.buffer(capacity: 64)
        guard (try? encoder.encode(headers: out, to: &block)) != nil else { return protocolError(context) }
        if let body = response.body {
            writeFrame(type: 0x1, flags: 0x4, streamID: streamID, payload: block)
            let bytes = ByteBuffer(string: body)
            if waitingBodies.isEmpty, bytes.readableBytes <= sendWindow {
                sendBody(bytes, streamID: streamID)
            } else {
                waitingBodies.append((streamID, bytes))
            }
        } else {
            writeFrame(type: 0x1, flags: 0x5, streamID: streamID, payload: block)
        }
        if response.goAway {
            lastStreamID = streamID
            var payload = ByteBuffer()
            payload.writeInteger(streamID)
            payload.writeInteger(UInt32(0))  // NO_ERROR
            writeFrame(type: 0x7, flags: 0, streamID: 0, payload: payload)
            flush(context)
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(50)) { channel.close(promise: nil) }
        }
    }

    private func sendBody(_ body: ByteBuffer, streamID: UInt32) {
        sendWindow -= body.readableBytes
        writeFrame(type: 0x0, flags: 0x1, streamID: streamID, payload: body)
    }

    private func windowUpdate(streamID: UInt32, increment: Int) {
        var payload = ByteBuffer()
        payload.writeInteger(UInt32(increment))
        writeFrame(type: 0x8, flags: 0, streamID: streamID, payload: payload)
    }

    private func writeFrame(type: UInt8, flags: UInt8, streamID: UInt32, payload: ByteBuffer) {
        var payload = payload
        let length = payload.readableBytes
        output.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        output.writeInteger(UInt16(truncatingIfNeeded: length))
        output.writeInteger(type)
        output.writeInteger(flags)
        output.writeInteger(streamID)
        output.writeBuffer(&payload)
    }

    private func flush(_ context: ChannelHandlerContext) {
        guard output.readableBytes > 0 else { return }
        context.writeAndFlush(wrapOutboundOut(output), promise: nil)
        output = context.channel.allocator.buffer(capacity: 16_384)
    }

    private func protocolError(_ context: ChannelHandlerContext) {
        failed = true
        var payload = ByteBuffer()
        payload.writeInteger(UInt32(0))
        payload.writeInteger(UInt32(0x1))  // PROTOCOL_ERROR
        writeFrame(type: 0x7, flags: 0, streamID: 0, payload: payload)
        flush(context)
        context.close(promise: nil)
    }
}
