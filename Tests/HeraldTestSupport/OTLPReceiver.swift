import Foundation
import HeraldModels
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
        let root = JSONValue.parsing(data)
        var spans: [Span] = []
        for resource in root["resourceSpans"].array ?? [] {
            for scope in resource["scopeSpans"].array ?? [] {
                for span in scope["spans"].array ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"].array ?? [] {
                        guard let key = attribute["key"].string, let first = attribute["value"].object?.values.first else { continue }
                        attributes[key] = text(of: first)
                    }
                    spans.append(
                        Span(
                            name: span["name"].string ?? "",
                            traceId: span["traceId"].string ?? "",
                            spanId: span["spanId"].string ?? "",
                            parentSpanId: span["parentSpanId"].string ?? "",
                            attributes: attributes
                        )
                    )
                }
            }
        }
        return spans
    }

    /// An attribute's value (OTLP's JSON keys it by its type: `stringValue`, `intValue`…) as text.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "1" : "0"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .null, .array, .object: (try? value.jsonText()) ?? ""
        }
    }
}

final class SpanStore: Sendable {
    private let spans = NIOLockedValueBox<[OTLPReceiver.Span]>([])
    func add(_ new: [OTLPReceiver.Span]) { spans.withLockedValue { $0 += new } }
    var all: [OTLPReceiver.Span] { spans.withLockedValue { $0 } }
}
