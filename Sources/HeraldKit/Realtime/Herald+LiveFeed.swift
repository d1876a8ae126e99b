import Foundation
import HeraldModels

extension Herald {
    /// New feed items and unread counts as they happen, while logged in. The socket opens with
    /// the first subscriber and reconnects with backoff (0.5 s doubling to 30 s, with jitter)
    /// until logout or the session is revoked; the stream then ends.
    public func feedUpdates() -> AsyncStream<FeedUpdate> {
        let (stream, continuation) = AsyncStream<FeedUpdate>.makeStream()
        let id = UUID()
        subscribers.streams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropStream(id) }
        }
        startLiveFeed()
        return stream
    }

    /// CometChat Campaigns' listener registration: `listener` gets every update until removed.
    public func addFeedListener(_ id: String, _ listener: @escaping @Sendable (FeedUpdate) -> Void) {
        subscribers.listeners[id] = listener
        startLiveFeed()
    }

    public func removeFeedListener(_ id: String) {
        subscribers.listeners[id] = nil
        stopLiveFeedIfUnused()
    }

    private func dropStream(_ id: UUID) {
        subscribers.streams[id] = nil
        stopLiveFeedIfUnused()
    }

    private func stopLiveFeedIfUnused() {
        if subscribers.isEmpty {
            liveFeed?.cancel()
            liveFeed = nil
        }
    }

    func startLiveFeed() {
        guard liveFeed == nil, let authToken, !subscribers.isEmpty else { return }
        var components = URLComponents(url: configuration.serverURL.appendingPathComponent("v1/me/ws"), resolvingAgainstBaseURL: false)
        components?.scheme = configuration.serverURL.scheme == "https" ? "wss" : "ws"
        components?.queryItems = [URLQueryItem(name: "authToken", value: authToken)]
        guard let url = components?.url else { return }
        liveFeed = Task { [weak self] in
            var delay = 0.5
            while !Task.isCancelled {
                var revoked = false
                do {
                    for try await text in WebSocketConnection.messages(url: url) {
                        delay = 0.5
                        guard let envelope = try? JSONDecoder().decode(RealtimeEnvelope.self, from: Data(text.utf8)) else { continue }
                        switch envelope {
                        case .feedItem(let feedItem):
                            if let item = try? NotificationFeedItem(json: feedItem.item) { await self?.deliver(.item(item)) }
                        case .unread(let unread):
                            if unread.category == nil { await self?.deliver(.unreadCount(unread.unreadCount)) }
                        case .sessionRevoked:
                            revoked = true
                        default:
                            break
                        }
                    }
                } catch {}
                if revoked || Task.isCancelled { break }
                try? await Task.sleep(for: .milliseconds(Int(delay * 1000 * Double.random(in: 0.8...1.2))))
                delay = min(delay * 2, 30)
            }
            await self?.liveFeedEnded()
        }
    }

    private func deliver(_ update: FeedUpdate) {
        subscribers.deliver(update)
    }

    private func liveFeedEnded() {
        liveFeed = nil
    }

    /// Logout: the socket closes and the streams end.
    func stopLiveFeed() {
        liveFeed?.cancel()
        liveFeed = nil
        subscribers.finish()
    }
}
