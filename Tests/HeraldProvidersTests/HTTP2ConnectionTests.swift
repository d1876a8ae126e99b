import Foundation
import HeraldProviders
import HeraldTestSupport
import NIOCore
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
