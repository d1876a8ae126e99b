import Foundation
import HeraldProviders
import HeraldTestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import Testing

@Suite("HTTP/2 transport")
struct HTTP2ConnectionTests {
    /// Answers with bodies add up to several connection windows: the client must return window to
    /// the server and still complete every stream with its whole body. (Sending the window update
    /// in the middle of a frame once let a stream's close event overtake its last DATA frame.)
    @Test(arguments: [false, true])
    func answersLargerThanTheConnectionWindowAllArrive(lean: Bool) async throws {
        let body = String(repeating: "x", count: 300)
        let server = try await HTTP2TestServer.start(lean: lean) { request in
            StandInResponse(status: 200, json: #"{"path":"\#(request.path)","pad":"\#(body)"}"#)
        }
        let pool = HTTP2ConnectionPool(endpoint: HTTP2Endpoint(url: server.url)!, tls: server.certificate.clientTLS, maxConnections: 1)
        var failures: [String] = []
        for round in 0..<4 {
            let requests = (0..<250).map { HTTP2Request(path: "/r/\(round)/\($0)", body: ByteBuffer(string: "{}")) }
            for (index, answer) in await pool.send(batch: requests).enumerated() {
                switch answer {
                case .success(let response):
                    let text = String(buffer: response.body)
                    if response.status != 200 || !text.contains("\"/r/\(round)/\(index)\"") || !text.hasSuffix("\"}") {
                        failures.append("\(index): \(text.prefix(40))")
                    }
                case .failure(let error):
                    failures.append("\(index): \(error)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failed, e.g. \(failures.prefix(3))")  // 1,000 answers, ~350 KB: five windows
        #expect(pool.connectionsOpened == 1)
        await pool.shutdown()
        await server.shutdown()
    }

    /// A run of requests with bodies is complete at the server in the order it was written, so
    /// that answers come (and streams close) in the order the streams opened. (Flushed once for
    /// the run, swift-nio-http2's handler, which Herald's own framing replaced, sent the DATA
    /// frames in the order of a set of stream ids.)
    @Test(arguments: [false, true])
    func requestsWithBodiesArriveInTheOrderTheyWereSent(lean: Bool) async throws {
        let order = NIOLockedValueBox<[String]>([])
        let server = try await HTTP2TestServer.start(lean: lean) { request in
            order.withLockedValue { $0.append(request.path) }
            return StandInResponse(status: 200, json: "{}")
        }
        let pool = HTTP2ConnectionPool(
            endpoint: HTTP2Endpoint(url: server.url)!,
            tls: server.certificate.clientTLS,
            maxConnections: 1,
            streamsPerConnection: 100
        )
        let paths = (0..<100).map { "/3/device/\($0)" }
        let answers = await pool.send(batch: paths.map { HTTP2Request(path: $0, body: ByteBuffer(string: #"{"aps":{}}"#)) })
        #expect(answers.allSatisfy { (try? $0.get().status) == 200 })
        #expect(order.withLockedValue { $0 } == paths)
        await pool.shutdown()
        await server.shutdown()
    }

    /// Request bodies larger than the server's windows go in pieces within them, as the server
    /// gives window back, and arrive whole: swift-nio-http2's server resets a stream (or drops the
    /// connection) that sends past a window, and none may be sent again here (no retries).
    @Test func bodiesLargerThanTheServersWindowsArriveWhole() async throws {
        let server = try await HTTP2TestServer.start(initialWindowSize: 1_000) { request in
            StandInResponse(
                status: 200,
                json: #"{"path":"\#(request.path)","size":\#(request.body.count),"sum":\#(request.body.reduce(0) { $0 + Int($1) })}"#
            )
        }
        let pool = HTTP2ConnectionPool(endpoint: HTTP2Endpoint(url: server.url)!, tls: server.certificate.clientTLS, maxConnections: 1)
        // The server's window holds once the client has acknowledged its SETTINGS: after an answer.
        #expect((try? await pool.send(batch: [HTTP2Request(path: "/first")])[0].get().status) == 200)
        // 5,000 bytes each: five of a stream's windows; 40 of them, three of the connection's.
        let body = String(repeating: "0123456789", count: 500)
        let sum = body.utf8.reduce(0) { $0 + Int($1) }
        let answers = await pool.send(batch: (0..<40).map { HTTP2Request(path: "/w/\($0)", body: ByteBuffer(string: body)) }, retries: 0)
        let wrong = answers.enumerated().filter { index, answer in
            guard case .success(let response) = answer else { return true }
            return response.status != 200 || String(buffer: response.body) != #"{"path":"/w/\#(index)","size":5000,"sum":\#(sum)}"#
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, e.g. \(wrong.prefix(2))")
        #expect(pool.connectionsOpened == 1)
        await pool.shutdown()
        await server.shutdown()
    }

    /// Once the server's SETTINGS have come, no more streams are open than it allows, though the
    /// pool would open 100: the others wait for answers (swift-nio-http2's server refuses a
    /// stream past its limit, and none may be sent again here).
    @Test func theServersLimitOnOpenStreamsIsKept() async throws {
        let arrivals = NIOLockedValueBox<[ContinuousClock.Instant]>([])
        let server = try await HTTP2TestServer.start(maxConcurrentStreams: 4) { request in
            arrivals.withLockedValue { $0.append(.now) }
            return StandInResponse(status: 200, json: #"{"path":"\#(request.path)"}"#, delay: .milliseconds(200))
        }
        let pool = HTTP2ConnectionPool(endpoint: HTTP2Endpoint(url: server.url)!, tls: server.certificate.clientTLS, maxConnections: 1)
        // The first answer comes after the server's SETTINGS.
        #expect((try? await pool.send(batch: [HTTP2Request(path: "/first")])[0].get().status) == 200)
        arrivals.withLockedValue { $0 = [] }
        let answers = await pool.send(batch: (0..<12).map { HTTP2Request(path: "/s/\($0)", body: ByteBuffer(string: "{}")) }, retries: 0)
        #expect(answers.allSatisfy { (try? $0.get().status) == 200 }, "\(answers.filter { (try? $0.get()) == nil }.prefix(2))")
        let times = arrivals.withLockedValue { $0 }.sorted()
        try #require(times.count == 12)
        // Four at a time, 200 ms apart.
        #expect(times[3] - times[0] < .milliseconds(150))
        #expect(times[4] - times[0] >= .milliseconds(190))
        #expect(times[8] - times[0] >= .milliseconds(380))
        #expect(pool.connectionsOpened == 1)
        await pool.shutdown()
        await server.shutdown()
    }

    /// A batch larger than a connection's stream window goes out as answers come back: the server
    /// never has more than the window open at once, and every request is answered in its place.
    @Test func aConnectionKeepsNoMoreThanItsWindowOfStreamsOpen() async throws {
        let sent = try await Self.send(120, answeredAfter: .milliseconds(300), maxConnections: 1, streamsPerConnection: 50)
        #expect(sent.wrong.isEmpty, "\(sent.wrong.count) wrong, e.g. \(sent.wrong.prefix(2))")
        let times = sent.arrivals
        try #require(times.count == 120)
        // The 51st request can go out only once one of the first 50 is answered, 300 ms after it
        // arrived (written all at once, the 120 would arrive within milliseconds).
        #expect(times[50] - times[0] >= .milliseconds(290))
        #expect(times[100] - times[0] >= .milliseconds(580))
        #expect(sent.connectionsOpened == 1)
    }

    /// A batch larger than a connection's window is spread over connections, a window each: with
    /// connections to spare, all of it is in flight at once.
    @Test func aBatchIsSpreadOverConnectionsAWindowEach() async throws {
        let sent = try await Self.send(200, answeredAfter: .seconds(2), maxConnections: 4, streamsPerConnection: 50)
        #expect(sent.wrong.isEmpty, "\(sent.wrong.count) wrong, e.g. \(sent.wrong.prefix(2))")
        let times = sent.arrivals
        try #require(times.count == 200)
        // On one connection the last 50 would wait for three rounds of answers (6 s).
        #expect(times[199] - times[0] < .milliseconds(1500))
        #expect(sent.connectionsOpened == 4)
        #expect(sent.tlsContextsMade == 1, "the four connections share the pool's TLS context")
    }

    /// While an endpoint refuses connections, each send tries a new one and fails as not
    /// processed; the TLS context (its trust roots loaded) is made once, not for every attempt.
    @Test func anEndpointThatRefusesConnectionsIsRetriedWithOneTLSContext() async throws {
        let pool = HTTP2ConnectionPool(
            endpoint: HTTP2Endpoint(url: "https://127.0.0.1:1")!,
            tls: TLSConfiguration.makeClientConfiguration(),
            maxConnections: 2
        )
        for attempt in 0..<5 {
            let answers = await pool.send(batch: [HTTP2Request(path: "/3/device/\(attempt)")], retries: 0)
            guard case .failure(.notProcessed(let reason)) = answers[0] else {
                Issue.record("expected notProcessed, got \(answers[0])")
                continue
            }
            #expect(reason.contains("cannot connect"))
        }
        #expect(pool.connectionsOpened == 5)
        #expect(pool.tlsContextsMade == 1)
        await pool.shutdown()
    }

    /// What one batch of `count` requests met through a pool, each answered by the server
    /// `delay` after it arrived.
    struct SlowServerSend {
        /// Requests answered with anything but their own 200 (index and answer).
        var wrong: [(offset: Int, element: Result<HTTP2Response, HTTP2TransportError>)]
        /// When each request reached the server, earliest first.
        var arrivals: [ContinuousClock.Instant]
        var connectionsOpened: Int
        var tlsContextsMade: Int
    }

    static func send(_ count: Int, answeredAfter delay: TimeAmount, maxConnections: Int, streamsPerConnection: Int) async throws -> SlowServerSend {
        let arrivals = NIOLockedValueBox<[ContinuousClock.Instant]>([])
        let server = try await HTTP2TestServer.start { request in
            arrivals.withLockedValue { $0.append(.now) }
            return StandInResponse(status: 200, json: #"{"path":"\#(request.path)"}"#, delay: delay)
        }
        let pool = HTTP2ConnectionPool(
            endpoint: HTTP2Endpoint(url: server.url)!,
            tls: server.certificate.clientTLS,
            maxConnections: maxConnections,
            streamsPerConnection: streamsPerConnection
        )
        let answers = await pool.send(batch: (0..<count).map { HTTP2Request(path: "/r/\($0)", body: ByteBuffer(string: "{}")) })
        let wrong = answers.enumerated().filter { index, answer in
            guard case .success(let response) = answer else { return true }
            return response.status != 200 || !String(buffer: response.body).contains("\"/r/\(index)\"")
        }
        let (opened, contexts) = (pool.connectionsOpened, pool.tlsContextsMade)
        await pool.shutdown()
        await server.shutdown()
        return SlowServerSend(wrong: wrong, arrivals: arrivals.withLockedValue { $0 }.sorted(), connectionsOpened: opened, tlsContextsMade: contexts)
    }

    /// A server that picks HTTP/1.1 by ALPN is named as such, not retried as a dropped connection.
    @Test func anHTTP1ServerIsRecognised() async throws {
        let server = try await HTTP2TestServer.start(http1Only: true) { _ in StandInResponse(status: 200) }
        let pool = HTTP2ConnectionPool(endpoint: HTTP2Endpoint(url: server.url)!, tls: server.certificate.clientTLS)
        let answers = await pool.send(batch: [HTTP2Request(path: "/3/device/00")])
        guard case .failure(.notHTTP2(let chosen)) = answers[0] else {
            Issue.record("expected notHTTP2, got \(answers[0])")
            return
        }
        #expect(chosen == "http/1.1")
        await pool.shutdown()
        await server.shutdown()
    }
}
