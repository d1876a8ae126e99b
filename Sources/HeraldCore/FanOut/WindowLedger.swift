import Foundation
import Synchronization

/// Notice windows opened by fan-outs not yet committed, seen by the batches planned meanwhile:
/// the second message of a burst, decided while the first one's batch is still being sent, is
/// held rather than alerting again (as ``UnreadLedger`` does for badges).
public final class WindowLedger: Sendable {
    struct Entry: Hashable {
        var appId: String
        var key: NoticeWindow.Key
    }

    private let opened = Mutex<[Entry: NoticeWindow]>([:])

    public init() {}

    /// Registers a window a batch is about to open, unless a batch planned meanwhile opened one
    /// for the same user and conversation that is still open: then that one (the message is to be
    /// held in it instead).
    func open(_ window: NoticeWindow, at now: Date) -> NoticeWindow? {
        opened.withLock { opened in
            let entry = Entry(appId: window.appId, key: window.key)
            if let existing = opened[entry], existing.isOpen(at: now) { return existing }
            if opened.count > 10_000 { opened = opened.filter { $0.value.isOpen(at: now) } }
            opened[entry] = window
            return nil
        }
    }

    /// Forgets these windows once their commit is over (a later batch reads them from storage; a
    /// batch that failed leaves its windows to close by themselves: a message held in one that
    /// was never stored recreates it, so nothing is lost).
    func remove(_ windows: [NoticeWindow]) {
        guard !windows.isEmpty else { return }
        opened.withLock { opened in
            for window in windows where opened[Entry(appId: window.appId, key: window.key)] == window {
                opened[Entry(appId: window.appId, key: window.key)] = nil
            }
        }
    }

    /// `stored` with the windows of these users opened by batches in flight (a stored window wins).
    func merged(appId: String, uids: [String], into stored: [NoticeWindow.Key: NoticeWindow]) -> [NoticeWindow.Key: NoticeWindow] {
        opened.withLock { opened in
            guard !opened.isEmpty else { return stored }
            let wanted = Set(uids)
            var windows = stored
            for (entry, window) in opened where entry.appId == appId && wanted.contains(entry.key.uid) && windows[entry.key] == nil {
                windows[entry.key] = window
            }
            return windows
        }
    }
}
