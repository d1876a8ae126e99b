import Foundation

/// A stretch of time, per (user, conversation), in which notices wait instead of going out at
/// once, kept in storage so that a crash loses nothing:
/// - `clear`: after a clear was sent, further clears of the conversation wait for the window to
///   close (at most one per `clearCoalesceSeconds`); the last read wins.
/// - `burst`: after an alert, further messages of the conversation are held; when the window
///   closes one summary replaces the first alert ("5 new messages").
/// A window closes (``WindowSweeper``) when its time is up: what waits goes out then and the
/// window opens again; an empty window is removed.
public struct NoticeWindow: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case clear
        case burst
    }

    public struct Key: Sendable, Hashable {
        public var uid: String
        public var conversationId: String
        public var kind: Kind

        public init(uid: String, conversationId: String, kind: Kind) {
            self.uid = uid
            self.conversationId = conversationId
            self.kind = kind
        }
    }

    public var appId: String
    public var key: Key
    public var closesAt: Date
    /// What waits for the close: messages held (burst), or a clear (> 0).
    public var held: Int
    /// Burst: the messages the summary stands for, the first alert's included.
    public var count: Int
    /// The event the push made at the close tells of: the last read (clear), the last message
    /// held (burst).
    public var lastEventId: String?
    /// Burst: the collapse id (message id) of the alert the summary replaces.
    public var collapseId: String?
    /// Clear: the session that read, whose devices are not cleared.
    public var exceptSession: String?

    public init(
        appId: String,
        key: Key,
        closesAt: Date,
        held: Int = 0,
        count: Int = 1,
        lastEventId: String? = nil,
        collapseId: String? = nil,
        exceptSession: String? = nil
    ) {
        self.appId = appId
        self.key = key
        self.closesAt = closesAt
        self.held = held
        self.count = count
        self.lastEventId = lastEventId
        self.collapseId = collapseId
        self.exceptSession = exceptSession
    }

    public func isOpen(at now: Date) -> Bool { closesAt > now }
}

/// What a fan-out step does to a window, in the same commit as its deliveries.
public enum WindowChange: Sendable, Equatable {
    /// Opens the window (or opens it again), nothing held.
    case open(NoticeWindow)
    /// Holds one more notice in the window; recreates it, closing at `closesAt`, if it was
    /// closed and removed meanwhile (nothing held is lost).
    case hold(appId: String, key: NoticeWindow.Key, eventId: String, exceptSession: String?, closesAt: Date)
    /// Removes the window and what it held (a read cancels a burst).
    case remove(appId: String, key: NoticeWindow.Key)
}

/// What becomes of a window closed by the sweeper: opened again until `reopenUntil` with nothing
/// held, or removed (nil).
public struct WindowClose: Sendable, Equatable {
    public var appId: String
    public var key: NoticeWindow.Key
    /// What the sweeper let out: notices held since (a fan-out that held one more meanwhile) stay
    /// held for the next close.
    public var released: Int
    public var reopenUntil: Date?
    /// Burst: the count the reopened window goes on from.
    public var count: Int

    public init(_ window: NoticeWindow, reopenUntil: Date?, count: Int? = nil) {
        self.appId = window.appId
        self.key = window.key
        self.released = window.held
        self.reopenUntil = reopenUntil
        self.count = count ?? window.count
    }
}
