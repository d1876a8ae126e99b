import Foundation
import HeraldCore
import HeraldModels

/// A client for one credential: sends the pushes of its kind, answering in the order given (a
/// push of another kind is refused in its place).
protocol ProviderClient: Sendable {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult]
    func shutdown() async
}

extension ProviderClient {
    /// Sends the pushes `pick` accepts as one batch with `send`; the others fail, each in its place.
    static func sendPicked<Push>(
        _ pushes: [OutgoingPush],
        kind: ProviderKind,
        pick: (OutgoingPush) -> Push?,
        send: ([Push]) async -> [PushResult]
    ) async -> [PushResult] {
        var results = [PushResult](
            repeating: PushResult(outcome: .failed, reason: "a \(kind.rawValue) provider cannot send this push"),
            count: pushes.count
        )
        var indices: [Int] = []
        var picked: [Push] = []
        for (index, push) in pushes.enumerated() {
            guard let push = pick(push) else { continue }
            indices.append(index)
            picked.append(push)
        }
        for (index, result) in zip(indices, await send(picked)) { results[index] = result }
        return results
    }

    /// Sends each push on its own, all at once (for providers whose API takes one push a request).
    static func concurrently<Push: Sendable>(_ pushes: [Push], _ send: @escaping @Sendable (Push) async -> PushResult) async -> [PushResult] {
        await withTaskGroup(of: (Int, PushResult).self) { group in
            for (index, push) in pushes.enumerated() { group.addTask { (index, await send(push)) } }
            var results = [PushResult](repeating: PushResult(outcome: .failed, reason: "not sent"), count: pushes.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }
}

extension APNsClient: ProviderClient {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult] {
        await Self.sendPicked(pushes, kind: .apns, pick: { if case .apns(let push) = $0 { APNsNotification(push) } else { nil } }, send: send)
    }
}

extension FCMClient: ProviderClient {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult] {
        await Self.sendPicked(pushes, kind: .fcm, pick: { if case .fcm(let push) = $0 { push } else { nil } }, send: send)
    }
}

extension HMSClient: ProviderClient {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult] {
        await Self.sendPicked(
            pushes,
            kind: .hms,
            pick: { if case .hms(let push) = $0 { push } else { nil } },
            send: { picked in await Self.concurrently(picked, self.send) }
        )
    }

    func shutdown() async {}
}

extension WebPushClient: ProviderClient {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult] {
        await Self.sendPicked(
            pushes,
            kind: .webpush,
            pick: { if case .webPush(let message) = $0 { message } else { nil } },
            send: { picked in await Self.concurrently(picked, self.send) }
        )
    }
}

extension WebhookClient: ProviderClient {
    func send(_ pushes: [OutgoingPush]) async -> [PushResult] {
        await Self.sendPicked(
            pushes,
            kind: .custom,
            pick: { if case .webhook(let envelope) = $0 { envelope } else { nil } },
            send: { picked in await Self.concurrently(picked, self.send) }
        )
    }
}
