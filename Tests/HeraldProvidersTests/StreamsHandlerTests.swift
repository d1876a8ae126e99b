import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHPACK
import Testing

@testable import HeraldProviders

/// The HTTP/2 client's framing against a scripted server: the frames it writes, and what it makes
/// of every frame a server may send it. The stand-ins' swift-nio-http2 server checks the common
/// path end to end (HTTP2ConnectionTests); these reach what that server never does.
@Suite("HTTP/2 client framing")
struct StreamsHandlerTests {
    typealias Frame = HTTP2WireFrame
    typealias Answer = Result<HTTP2Response, HTTP2TransportError>

    /// The server's side of one connection on an embedded channel.
    final class Server {
        let channel = EmbeddedChannel()
        let shared = NIOLockedValueBox(HTTP2Connection.Shared())
        let handler: StreamsHandler
        var encoder = HPACKEncoder(allocator: .init())
        var decoder = HPACKDecoder(allocator: .init(), maxDynamicTableSize: 4_096, maxHeaderListSize: 1 << 20)
        private var unread = ByteBuffer()
        private(set) var sawPreface = false

        init(maxOpenStreams: Int) {
            handler = StreamsHandler(authority: "api.example", shared: shared, maxOpenStreams: maxOpenStreams)
            try! channel.pipeline.syncOperations.addHandler(handler)
            try! channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        }

        /// The frames the client wrote since the last call.
        func frames() throws -> [Frame] {
            while var chunk = try channel.readOutbound(as: ByteBuffer.self) { unread.writeBuffer(&chunk) }
            if !sawPreface, unread.readableBytes >= Frame.clientPreface.count {
                sawPreface = unread.readBytes(length: Frame.clientPreface.count) == Frame.clientPreface
            }
            var frames: [Frame] = []
            while let frame = try Frame.read(from: &unread) { frames.append(frame) }
            return frames
        }

        /// One frame from the server, as one read.
        func send(_ type: Frame.Kind, flags: UInt8 = 0, stream: UInt32, _ payload: ByteBuffer = ByteBuffer()) throws {
            var buffer = ByteBuffer()
            var payload = payload
            buffer.writeHTTP2FrameHeader(length: payload.readableBytes, type: type, flags: flags, streamID: stream)
            buffer.writeBuffer(&payload)
            try channel.writeInbound(buffer)
            channel.pipeline.fireChannelReadComplete()
        }

        func settings(_ values: [(UInt16, UInt32)]) throws {
            var payload = ByteBuffer()
            for (parameter, value) in values {
                payload.writeInteger(parameter)
                payload.writeInteger(value)
            }
            try send(.settings, stream: 0, payload)
        }

        func words(_ values: UInt32...) -> ByteBuffer {
            var payload = ByteBuffer()
            for value in values { payload.writeInteger(value) }
            return payload
        }

        func block(_ headers: HPACKHeaders) throws -> ByteBuffer {
            var block = ByteBuffer()
            try encoder.encode(headers: headers, to: &block)
            return block
        }

        /// A complete answer: HEADERS, then DATA ending the stream.
        func answer(_ stream: UInt32, status: Int = 200, body: String = "{}") throws {
            try send(.headers, flags: Frame.Flag.endHeaders, stream: stream, block([":status": String(status), "apns-id": "id-\(stream)"]))
            try send(.data, flags: Frame.Flag.endStream, stream: stream, ByteBuffer(string: body))
        }

        func headers(of frame: Frame) throws -> HPACKHeaders {
            var payload = frame.payload
            return try decoder.decodeHeaders(from: &payload)
        }
    }

    /// Runs `script` as the server of one connection whose client was given `requests` (after
    /// the server's first SETTINGS, when given), all on this thread, the embedded channel's. What
    /// is still open when the script ends fails as the connection closes.
    static func exchange(
        _ requests: [HTTP2Request],
        maxOpenStreams: Int = 100,
        settings: [(UInt16, UInt32)]? = nil,
        _ script: (Server) throws -> Void
    ) async -> [Answer] {
        await withUnsafeContinuation { continuation in
            let server = Server(maxOpenStreams: maxOpenStreams)
            do {
                if let settings { try server.settings(settings) }
                server.shared.withLockedValue { $0.queue.append(PendingBatch(requests: requests, continuation: continuation)) }
                server.handler.drain()
                try script(server)
            } catch {
                Issue.record("the script failed: \(error)")
            }
            server.channel.pipeline.fireChannelInactive()
        }
    }

    static func error(_ answer: Answer) -> HTTP2TransportError? {
        if case .failure(let error) = answer { return error }
        return nil
    }

    static func request(_ path: String, body: String? = "{}", headers: HPACKHeaders = ["apns-topic": "com.acme.app"]) -> HTTP2Request {
        HTTP2Request(path: path, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test func aRequestGoesAfterThePrefaceAndItsAnswerIsRead() async throws {
        var written: [Frame] = []
        var requestHeaders = HPACKHeaders()
        var sawPreface = false
        let answers = await Self.exchange([Self.request("/3/device/ab", body: #"{"aps":{}}"#)]) { server in
            written = try server.frames()
            sawPreface = server.sawPreface
            requestHeaders = try server.headers(of: written[1])
            try server.answer(1, body: #"{"ok":true}"#)
        }
        #expect(sawPreface)
        try #require(written.count == 3)
        // SETTINGS: server push off, nothing else.
        #expect(written[0].type == Frame.Kind.settings.rawValue && written[0].payload.readableBytesView.elementsEqual([0, 2, 0, 0, 0, 0]))
        #expect(written[1].type == Frame.Kind.headers.rawValue && written[1].streamID == 1 && written[1].flags == Frame.Flag.endHeaders)
        #expect(
            requestHeaders.map { "\($0.name)=\($0.value)" } == [
                ":method=POST", ":scheme=https", ":path=/3/device/ab", ":authority=api.example", "apns-topic=com.acme.app",
            ]
        )
        #expect(written[2].type == Frame.Kind.data.rawValue && written[2].flags == Frame.Flag.endStream)
        #expect(String(buffer: written[2].payload) == #"{"aps":{}}"#)
        let response = try answers[0].get()
        #expect(response.status == 200 && response.headers.first(name: "apns-id") == "id-1" && String(buffer: response.body) == #"{"ok":true}"#)
    }

    /// A server may pad its frames, give a priority, and split a header block over CONTINUATION
    /// frames; an informational 1xx block comes before the answer's own.
    @Test func paddedSplitAndInformationalAnswersAreRead() async throws {
        let answers = await Self.exchange([Self.request("/a")]) { server in
            _ = try server.frames()
            try server.send(.headers, flags: Frame.Flag.endHeaders, stream: 1, server.block([":status": "100"]))
            let block = try server.block([":status": "400", "apns-id": "split"])
            var first = ByteBuffer()
            first.writeInteger(UInt8(3))  // pad length
            first.writeBytes([0, 0, 0, 0, 16])  // priority: dependency and weight
            first.writeBytes(block.readableBytesView.prefix(2))
            first.writeBytes([0, 0, 0])
            try server.send(.headers, flags: Frame.Flag.padded | Frame.Flag.priority, stream: 1, first)
            try server.send(.continuation, flags: Frame.Flag.endHeaders, stream: 1, ByteBuffer(bytes: block.readableBytesView.dropFirst(2)))
            var data = ByteBuffer()
            data.writeInteger(UInt8(4))
            data.writeString(#"{"reason":"BadDeviceToken"}"#)
            data.writeBytes([0, 0, 0, 0])
            try server.send(.data, flags: Frame.Flag.padded | Frame.Flag.endStream, stream: 1, data)
        }
        let response = try answers[0].get()
        #expect(response.status == 400 && response.headers.first(name: "apns-id") == "split")
        #expect(String(buffer: response.body) == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func aHeaderBlockPastTheFrameSizeGoesOnInContinuationFrames() async throws {
        let big = String(repeating: "v", count: 20_000)
        var written: [Frame] = []
        var decoded = HPACKHeaders()
        _ = await Self.exchange([Self.request("/big", body: nil, headers: ["x-big": big])]) { server in
            written = try server.frames().filter { $0.streamID == 1 }
            var block = ByteBuffer()
            for frame in written {
                var payload = frame.payload
                block.writeBuffer(&payload)
            }
            decoded = try server.decoder.decodeHeaders(from: &block)
        }
        try #require(written.count == 2)
        #expect(written[0].type == Frame.Kind.headers.rawValue && written[0].flags == Frame.Flag.endStream)
        #expect(written[0].payload.readableBytes == Frame.maxPayloadSize)
        #expect(written[1].type == Frame.Kind.continuation.rawValue && written[1].flags == Frame.Flag.endHeaders)
        #expect(decoded.first(name: "x-big") == big)
    }

    /// A body goes within the stream's window, the rest as the server gives more.
    @Test func aBodyWaitsForItsStreamsWindow() async throws {
        let body = String(repeating: "0123456789", count: 2) + "abcde"
        var pieces: [(size: Int, flags: UInt8)] = []
        var acked = false
        let answers = await Self.exchange([Self.request("/w", body: body)], settings: [(Frame.Setting.initialWindowSize, 10)]) { server in
            var received = ""
            func collect(_ frames: [Frame]) {
                for frame in frames where frame.type == Frame.Kind.data.rawValue {
                    pieces.append((frame.payload.readableBytes, frame.flags))
                    received += String(buffer: frame.payload)
                }
            }
            let first = try server.frames()
            acked = first.contains { $0.type == Frame.Kind.settings.rawValue && $0.flags == Frame.Flag.ack }
            collect(first)
            collect(try server.frames())  // nothing more without window
            try server.send(.windowUpdate, stream: 1, server.words(10))
            collect(try server.frames())
            try server.send(.windowUpdate, stream: 1, server.words(100))
            collect(try server.frames())
            #expect(received == body)
            try server.answer(1)
        }
        #expect(acked)
        #expect(pieces.map(\.size) == [10, 10, 5])
        #expect(pieces.map(\.flags) == [0, 0, Frame.Flag.endStream])
        #expect((try? answers[0].get().status) == 200)
    }

    /// Bodies past the connection's window wait for the server's WINDOW_UPDATE on stream 0, and go
    /// on in the order their streams were opened.
    @Test func bodiesWaitForTheConnectionsWindow() async throws {
        let body = String(repeating: "x", count: 16_000)
        var sent: [UInt32: Int] = [:]
        var order: [UInt32] = []
        let requests = (0..<5).map { Self.request("/c/\($0)", body: body) }
        let answers = await Self.exchange(requests) { server in
            func collect() throws {
                for frame in try server.frames() where frame.type == Frame.Kind.data.rawValue {
                    sent[frame.streamID, default: 0] += frame.payload.readableBytes
                    order.append(frame.streamID)
                }
            }
            try collect()
            // 65,535 bytes: four bodies whole and 1,535 of the fifth.
            #expect(sent == [1: 16_000, 3: 16_000, 5: 16_000, 7: 16_000, 9: 1_535])
            try server.send(.windowUpdate, stream: 0, server.words(10_000))
            try collect()
            #expect(sent[9] == 11_535)
            try server.send(.windowUpdate, stream: 0, server.words(10_000))
            try collect()
            #expect(sent[9] == 16_000)
            for stream in [1, 3, 5, 7, 9] as [UInt32] { try server.answer(stream) }
        }
        #expect(order == [1, 3, 5, 7, 9, 9, 9])
        #expect(answers.allSatisfy { (try? $0.get().status) == 200 })
    }

    /// A larger initial window in the server's SETTINGS lets bodies waiting for their stream's
    /// window go on.
    @Test func aLargerInitialWindowLetsWaitingBodiesGoOn() async throws {
        var sizes: [Int] = []
        _ = await Self.exchange([Self.request("/w", body: String(repeating: "y", count: 300))], settings: [(Frame.Setting.initialWindowSize, 100)]) {
            server in
            sizes += try server.frames().filter { $0.type == Frame.Kind.data.rawValue }.map(\.payload.readableBytes)
            try server.settings([(Frame.Setting.initialWindowSize, 1_000)])
            sizes += try server.frames().filter { $0.type == Frame.Kind.data.rawValue }.map(\.payload.readableBytes)
            try server.answer(1)
        }
        #expect(sizes == [100, 200])
    }

    /// The server's SETTINGS limit on open streams holds requests back below the client's own;
    /// each answer lets the next one go.
    @Test func theServersStreamLimitHoldsRequestsBack() async throws {
        var opened: [[UInt32]] = []
        let requests = (0..<5).map { Self.request("/s/\($0)", body: nil) }
        let answers = await Self.exchange(requests, settings: [(Frame.Setting.maxConcurrentStreams, 2)]) { server in
            opened.append(try server.frames().filter { $0.type == Frame.Kind.headers.rawValue }.map(\.streamID))
            for stream in [1, 3, 5, 7, 9] as [UInt32] {
                try server.send(.headers, flags: Frame.Flag.endHeaders | Frame.Flag.endStream, stream: stream, server.block([":status": "200"]))
                opened.append(try server.frames().filter { $0.type == Frame.Kind.headers.rawValue }.map(\.streamID))
            }
        }
        #expect(opened == [[1, 3], [5], [7], [9], [], []])
        #expect(answers.allSatisfy { (try? $0.get().status) == 200 })
    }

    /// GOAWAY: streams above the last the server took, and requests not yet sent, were never
    /// processed; the streams it took are still answered, and the connection takes no more.
    @Test func goAwayFailsWhatTheServerDidNotTakeAsNotProcessed() async throws {
        var open = true
        let requests = (0..<4).map { Self.request("/g/\($0)", body: nil) }
        let answers = await Self.exchange(requests, maxOpenStreams: 3) { server in
            _ = try server.frames()
            try server.send(.goAway, stream: 0, server.words(1, 0))
            try server.send(.headers, flags: Frame.Flag.endHeaders | Frame.Flag.endStream, stream: 1, server.block([":status": "200"]))
            open = server.shared.withLockedValue { $0.open }
            #expect(try server.frames().filter { $0.type == Frame.Kind.headers.rawValue }.isEmpty)
        }
        #expect(!open)
        #expect((try? answers[0].get().status) == 200)
        #expect(Self.error(answers[1]) == .notProcessed("GOAWAY before this stream"))
        #expect(Self.error(answers[2]) == .notProcessed("GOAWAY before this stream"))
        #expect(Self.error(answers[3]) == .notProcessed("GOAWAY before this request was sent"))
    }

    @Test func resetStreamsAreToldApart() async throws {
        let answers = await Self.exchange([Self.request("/r/0"), Self.request("/r/1")]) { server in
            _ = try server.frames()
            try server.send(.rstStream, stream: 1, server.words(Frame.ErrorCode.refusedStream))
            try server.send(.rstStream, stream: 3, server.words(Frame.ErrorCode.cancel))
        }
        #expect(Self.error(answers[0]) == .notProcessed("stream refused"))
        #expect(Self.error(answers[1]) == .noResponse("stream reset: CANCEL"))
    }

    @Test func aPingIsAnsweredWithItsOwnBytes() async throws {
        var pong: Frame?
        _ = await Self.exchange([Self.request("/p")]) { server in
            _ = try server.frames()
            try server.send(.ping, stream: 0, ByteBuffer(bytes: [1, 2, 3, 4, 5, 6, 7, 8]))
            pong = try server.frames().first { $0.type == Frame.Kind.ping.rawValue }
            try server.answer(1)
        }
        #expect(pong?.flags == Frame.Flag.ack)
        #expect(pong.map { Array($0.payload.readableBytesView) } == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    /// A smaller header table in the server's SETTINGS is announced at the start of the next
    /// header block (RFC 7541 §4.2), as the server must see before the table shrinks.
    @Test func aSmallerHeaderTableIsAnnouncedInTheNextBlock() async throws {
        var first: UInt8?
        _ = await Self.exchange([Self.request("/t")], settings: [(Frame.Setting.headerTableSize, 0)]) { server in
            first = try server.frames().first { $0.type == Frame.Kind.headers.rawValue }?.payload.getInteger(at: 0, as: UInt8.self)
            try server.answer(1)
        }
        #expect(first == 0x20)  // dynamic table size update to 0
    }

    /// A server that breaks the protocol is told why in a GOAWAY and left; its streams fail as
    /// a closed connection's.
    @Test(arguments: ["frame too large", "push promise", "interrupted block", "undecodable block"])
    func aServerThatBreaksTheProtocolIsLeft(fault: String) async throws {
        var goAway: Frame?
        var active = true
        let answers = await Self.exchange([Self.request("/x")]) { server in
            _ = try server.frames()
            switch fault {
            case "frame too large":
                try server.send(.data, stream: 1, ByteBuffer(repeating: 0, count: Frame.maxPayloadSize + 1))
            case "push promise":
                try server.send(.pushPromise, flags: Frame.Flag.endHeaders, stream: 1, server.words(2))
            case "interrupted block":
                try server.send(.headers, stream: 1, server.block([":status": "200"]))
                try server.send(.data, stream: 1, ByteBuffer(string: "{}"))
            default:
                try server.send(.headers, flags: Frame.Flag.endHeaders, stream: 1, ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF]))
            }
            goAway = try server.frames().first { $0.type == Frame.Kind.goAway.rawValue }
            active = server.channel.isActive
        }
        let expected =
            switch fault {
            case "frame too large": Frame.ErrorCode.frameSizeError
            case "undecodable block": Frame.ErrorCode.compressionError
            default: Frame.ErrorCode.protocolError
            }
        #expect(goAway?.payload.getInteger(at: 4, as: UInt32.self) == expected)
        #expect(!active)
        #expect(Self.error(answers[0]) == .notProcessed("the connection closed before a response"))
    }
}

extension HTTP2WireFrame: CustomStringConvertible {
    public var description: String { "frame(type: \(type), flags: \(flags), stream: \(streamID), \(payload.readableBytes) bytes)" }
}
