import Foundation
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore

/// A custom-provider webhook receiver (CometChat): records each call and answers 200, or what a
/// test scripts for it.
public final class WebhookStandIn: Sendable {
    public let server: HTTP2TestServer
    private let state: NIOLockedValueBox<(requests: [StandInRequest], answers: [StandInResponse])>

    /// - Parameter slow: answer after 2.5 s (CometChat allows 2), except on `/warm`.
    public init(slow: Bool = false) async throws {
        let state = NIOLockedValueBox<(requests: [StandInRequest], answers: [StandInResponse])>(([], []))
        self.state = state
        self.server = try await HTTP2TestServer.start { request in
            state.withLockedValue { state in
                state.requests.append(request)
                if !state.answers.isEmpty { return state.answers.removeFirst() }
                return StandInResponse(status: 200, json: "{}", delay: slow && request.path != "/warm" ? .milliseconds(2_500) : nil)
            }
        }
    }

    public var url: String { server.url }
    public var requests: [StandInRequest] { state.withLockedValue { $0.requests } }

    /// The next calls get these answers, in order.
    public func script(_ answers: [StandInResponse]) {
        state.withLockedValue { $0.answers += answers }
    }

    /// The envelopes received, parsed.
    public var envelopes: [JSONValue] {
        requests.map { JSONValue.parsing($0.body) }.filter { $0.object != nil }
    }

    public func shutdown() async { await server.shutdown() }
}
