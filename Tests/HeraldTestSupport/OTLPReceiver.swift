import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A small OTLP/HTTP receiver (JSON encoding) for tests: collects the spans an exporter posts to
/// `/v1/traces`, flattened with their trace, parent and attributes.
public final class OTLPReceiver: Sendable {
    public struct Span: Sendable {
        public var name: String
        public var traceId: String
        public var spanId: String
        public var parentSpanId: String
        public var attributes: [String: String]
    }

    private let state = SpanStore()
    private let task: Task<Void, any Error>
    public let port: Int

    public var endpoint: String { "http://127.0.0.1:\(port)" }
    public var spans: [Span] { state.all }

    public static func start() async throws -> OTLPReceiver {
        let port = try HeraldProcess.freePort()
        return try await OTLPReceiver(port: port)
    }

    private init(port: Int) async throws {
        self.port = port
        let router = Router()
        let state = self.state
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            state.add(Self.spans(in: Data(body.readableBytesView)))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        task = Task { try await app.runService() }
        // Ready when it answers.
        for _ in 0..<100 {
            if (try? await HTTPTestClient.shared.request(.GET, "http://127.0.0.1:\(port)/")) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    public func shutdown() { task.cancel() }

    /// The spans of an `ExportTraceServiceRequest` in OTLP's JSON encoding.
    static func spans(in data: Data) -> [Span] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var spans: [Span] = []
        for resource in root["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any], let first = value.values.first else { continue }
                        attributes[key] = "\(first)"
                    }
                    spans.append(Span(name: span["name"] as? String ?? "", traceId: span["traceId"] as? String ?? "", spanId: span["spanId"] as? String ?? "",
                                      parentSpanId: span["parentSpanId"] as? String ?? "", attributes: attributes))
                }
            }
        }
        return spans
    }
}

final class SpanStore: Sendable {
    private let spans = NIOLockedValueBox<[OTLPReceiver.Span]>([])
    func add(_ new: [OTLPReceiver.Span]) { spans.withLockedValue { $0 += new } }
    var all: [OTLPReceiver.Span] { spans.withLockedValue { $0 } }
}
