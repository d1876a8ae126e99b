import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket to `GET /v1/me/ws`, as a stream of text messages. Apple platforms use
/// `URLSessionWebSocketTask`; on Linux, whose Foundation has no WebSocket support without a
/// libcurl built for it, a small RFC 6455 client on POSIX sockets serves `ws://` (tests, tools).
enum WebSocketConnection {
    static func messages(url: URL) -> AsyncThrowingStream<String, any Error> {
        #if canImport(FoundationNetworking)
        return POSIXWebSocket.messages(url: url)
        #else
        return AsyncThrowingStream { continuation in
            let task = URLSession.shared.webSocketTask(with: url)
            let reader = Task {
                do {
                    while !Task.isCancelled {
                        switch try await task.receive() {
                        case .string(let text): continuation.yield(text)
                        case .data(let data): continuation.yield(String(decoding: data, as: UTF8.self))
                        @unknown default: break
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                reader.cancel()
                task.cancel(with: .normalClosure, reason: nil)
            }
            task.resume()
        }
        #endif
    }
}
